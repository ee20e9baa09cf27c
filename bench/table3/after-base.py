#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Multi-round records of a kept deployed form (sparse, INT8): DPU against FU over rounds 2-10, after the shared base of round 1.
"""Usage: after-base.py RESULTS.jsonl... (records of FU and DPU, several seeds). Prints per file: DPU minus FU
(mean test accuracy over rounds 2 and later, per seed, then mean +- sample std), the last round, DPU's bundle
bytes over FU's in those rounds, and the codes or weights a deployed DPU round changes."""
import json
import statistics as st
import sys
def load(path):
    recs=[json.loads(l) for l in open(path)]
    return recs
def summ(recs,label):
    by={}
    for r in recs: by.setdefault((r['strategy'],r['seed']),[]).append(r)
    d=[];last=[];ratio=[];upd=[]
    for seed in sorted({r['seed'] for r in recs}):
        fu=sorted(by[('fu',seed)],key=lambda r:r['round']); dp=sorted(by[('dpu',seed)],key=lambda r:r['round'])
        f=[r['test_accuracy'] for r in fu if r['round']>=2]; g=[r['test_accuracy'] for r in dp if r['round']>=2]
        d.append(100*(st.mean(g)-st.mean(f))); last.append(100*(g[-1]-f[-1]))
        fb=sum(r['bundle_bytes'] for r in fu if r['round']>=2); db=sum(r['bundle_bytes'] for r in dp if r['round']>=2)
        ratio.append(db/fb)
        upd.append(st.mean([r['updated_weights'] for r in dp if r['round']>=2 and r['deployed']]))
    f=lambda x: f"{st.mean(x):+.2f} ± {st.stdev(x):.2f}" if len(x)>1 else f"{x[0]:+.2f}"
    print(f"{label}: rounds 2-10 Δ {f(d)}  last {f(last)}  bytes/FU {st.mean(ratio):.4f}  per-seed {[round(x,2) for x in d]}  changed codes/deployed round {st.mean(upd):.0f}")
for p in sys.argv[1:]:
    summ(load(p),p)
