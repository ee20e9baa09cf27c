# SPDX-License-Identifier: MIT
# Optimistic lower bounds on the size of any bundle for the rounds bench/bundle/compare.sh measured.
"""Usage: python3 bench/bundle/floor.py OUT [--centroids N] [--json FILE]   (OUT as given to compare.sh)

For every old/new device file pair under OUT/pairs/*/ this estimates how few bytes *any* coder
could spend on the round, to tell apart what a better coder could still win from what the data
itself costs. Every estimate is deliberately optimistic (a floor, not a coder):

- empirical entropies with no model cost (over a few thousand samples they are biased *low*);
- positions: the cheapest of several context models, each as an ideal two-part code (the
  per-context counts are paid with log2(n + 1) bits each, the positions at the empirical
  entropy): one density per tensor (the format's model), per row, per column, and per decile of
  |old value| within the tensor (does the old model say where the change will be?);
- fp32 values: sign + exponent conditional on the old value's sign + exponent, the top 7 mantissa
  bits conditional on whether the exponent stayed and on the old top 3 bits, the other 16 mantissa
  bits at their empirical entropy (they come out at about 8 bits per byte: noise);
- q8 values: 256 centroids per tensor by k-means (as the format; --centroids N for fewer), indices at the smaller of their
  entropy and their entropy conditional on the old value's sign, 8 bits per centroid for the
  table; the always-shipped tensors (biases, BatchNorm) either exact (the fp32 floor per value,
  as the format ships them) or quantised the same way;
- envelope: 96 bytes (the two SHA-256 the issue requires, sizes, version, kind).
The result is compared with the smallest of xdelta3 / bsdiff / zstd for the same round.
"""
import glob
import json
import math
import os
import struct
import sys

import numpy as np

ENVELOPE_FLOOR = 96
CENTROIDS = 256


def read_safetensors(path):
    with open(path, "rb") as f:
        blob = f.read()
    (n,) = struct.unpack_from("<Q", blob, 0)
    header = json.loads(blob[8:8 + n])
    base = 8 + n
    out = {}
    for name, t in header.items():
        if name == "__metadata__":
            continue
        if t["dtype"] != "F32":
            raise SystemExit(f"{path}: tensor {name}: dtype {t['dtype']}, expected F32")
        a, b = t["data_offsets"]
        out[name] = np.frombuffer(blob, dtype="<f4", count=(b - a) // 4, offset=base + a).reshape(t["shape"])
    return out


def entropy_counts(counts):
    counts = np.asarray(counts, dtype=np.float64)
    counts = counts[counts > 0]
    if counts.size == 0:
        return 0.0
    p = counts / counts.sum()
    return float(-(counts * np.log2(p)).sum())       # total bits


def entropy_symbols(sym):
    if sym.size == 0:
        return 0.0
    _, c = np.unique(sym, return_counts=True)
    return entropy_counts(c)


def cond_entropy(sym, ctx):
    """Total bits of sym coded with one empirical distribution per context value."""
    if sym.size == 0:
        return 0.0
    joint = ctx.astype(np.int64) * (int(sym.max()) + 1) + sym.astype(np.int64)
    return entropy_symbols(joint) - entropy_symbols(ctx)


def binary_bits(changed, total):
    if total == 0 or changed in (0, total):
        return 0.0
    k = changed / total
    return total * -(k * math.log2(k) + (1 - k) * math.log2(1 - k))


def grouped_position_bits(mask, groups):
    """Two-part code: each group's count (log2(n_g + 1) bits) then its positions at H(k_g)."""
    bits = 0.0
    ids, inv = np.unique(groups, return_inverse=True)
    n = np.bincount(inv)
    c = np.bincount(inv, weights=mask.astype(np.float64))
    for ng, cg in zip(n, c):
        bits += math.log2(ng + 1) + binary_bits(int(cg), int(ng))
    return bits


def position_floor(old, mask):
    flat = mask.reshape(-1)
    models = {"tensor": math.log2(flat.size + 1) + binary_bits(int(flat.sum()), flat.size)}
    if mask.ndim >= 2:
        rows = np.repeat(np.arange(mask.shape[0]), flat.size // mask.shape[0])
        models["row"] = grouped_position_bits(flat, rows)
        cols = np.tile(np.arange(int(np.prod(mask.shape[1:]))), mask.shape[0])
        models["column"] = grouped_position_bits(flat, cols)
    mag = np.abs(old.reshape(-1))
    deciles = np.searchsorted(np.quantile(mag, np.linspace(0.1, 0.9, 9)), mag)
    models["old |w| decile"] = grouped_position_bits(flat, deciles) + 9 * 32   # the 9 cut points
    best = min(models, key=models.get)
    return models[best], best


def float_fields(v):
    u = v.astype("<f4").view("<u4").astype(np.int64)
    return u >> 23, (u >> 16) & 0x7F, (u >> 8) & 0xFF, u & 0xFF   # sign+exponent, m_hi, m_mid, m_lo


def fp32_value_floor(old, new):
    se_n, hi_n, mid_n, lo_n = float_fields(new)
    se_o, hi_o, _, _ = float_fields(old)
    same = (se_n == se_o).astype(np.int64)
    bits = cond_entropy(se_n, se_o)
    bits += cond_entropy(hi_n, same * 8 + same * (hi_o >> 4))
    bits += entropy_symbols(mid_n) + entropy_symbols(lo_n)
    return bits


def kmeans_1d(x, k=256, iters=25):
    k = min(k, np.unique(x).size)
    c = np.quantile(x, (np.arange(k) + 0.5) / k)
    for _ in range(iters):
        c = np.unique(c)
        edges = (c[1:] + c[:-1]) / 2
        idx = np.searchsorted(edges, x)
        s = np.bincount(idx, weights=x, minlength=c.size)
        n = np.bincount(idx, minlength=c.size)
        c = np.where(n > 0, s / np.maximum(n, 1), c)
    c = np.unique(c)
    return np.searchsorted((c[1:] + c[:-1]) / 2, x), c.size


def q8_value_floor(old, new):
    idx, ncent = kmeans_1d(new.astype(np.float64), CENTROIDS)
    marginal = entropy_symbols(idx)
    conditional = cond_entropy(idx, (old < 0).astype(np.int64))
    return min(marginal, conditional) + 8 * ncent


def analyse(d):
    result = json.load(open(os.path.join(d, "result.json")))
    old_t = read_safetensors(os.path.join(d, "old.safetensors"))
    new_t = read_safetensors(os.path.join(d, "new.safetensors"))
    f = {"label": result["label"], "kind": result["kind"], "best_tool": min(result["tools"].values()),
         "positions": 0.0, "fp32_values": 0.0, "q8_values": 0.0, "dense_exact": 0.0, "dense_q8": 0.0,
         "changed": 0, "models": {}}
    for name, old in old_t.items():
        new = new_t[name]
        o, n = old.reshape(-1), new.reshape(-1)
        mask = o.view("<u4") != n.view("<u4")
        if not mask.any():
            continue
        partial = old.ndim >= 2
        if partial:
            bits, model = position_floor(old, mask.reshape(old.shape))
            f["positions"] += bits
            f["models"][name] = model
            f["fp32_values"] += fp32_value_floor(o[mask], n[mask])
            f["q8_values"] += q8_value_floor(o[mask], n[mask])
            f["changed"] += int(mask.sum())
        else:
            # Always-shipped tensors: every value is sent, so no positions; exact or quantised.
            f["dense_exact"] += fp32_value_floor(o, n)
            f["dense_q8"] += q8_value_floor(o, n)
    for key in ("positions", "fp32_values", "q8_values", "dense_exact", "dense_q8"):
        f[key] /= 8
    f["fp32_floor"] = f["positions"] + f["fp32_values"] + f["dense_exact"] + ENVELOPE_FLOOR
    f["q8_floor"] = f["positions"] + f["q8_values"] + f["dense_exact"] + ENVELOPE_FLOOR
    f["q8_floor_lossy_dense"] = f["positions"] + f["q8_values"] + f["dense_q8"] + ENVELOPE_FLOOR
    b = result["bench"]["bundles"]
    f["fp32_bytes"], f["q8_bytes"] = b["fp32"]["bytes"], b["q8"]["bytes"]
    return f


def main():
    global CENTROIDS
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    if "--centroids" in sys.argv:
        CENTROIDS = int(sys.argv[sys.argv.index("--centroids") + 1])
    dirs = sorted(os.path.dirname(p) for p in glob.glob(os.path.join(sys.argv[1], "pairs", "*", "result.json")))
    if not dirs:
        sys.exit("no results under " + sys.argv[1] + "/pairs")
    rows = [analyse(d) for d in dirs]
    print("| round | kind | changed | best tool | positions floor | fp32 values floor | dense exact |"
          " fp32 floor / best | fp32 bundle / best | q8 floor / best | q8 floor, lossy dense / best |"
          " q8 bundle / best |")
    print("|" + "---|" * 12)
    for r in rows:
        t = r["best_tool"]
        print(f"| {r['label']} | {r['kind']} | {r['changed']:,} | {t:,} | {r['positions']:,.0f} |"
              f" {r['fp32_values']:,.0f} | {r['dense_exact']:,.0f} | {r['fp32_floor'] / t:.3f} |"
              f" {r['fp32_bytes'] / t:.3f} | {r['q8_floor'] / t:.3f} | {r['q8_floor_lossy_dense'] / t:.3f} |"
              f" {r['q8_bytes'] / t:.3f} |")
    for kind in sorted({r["kind"] for r in rows}) + ["all"]:
        sel = [r for r in rows if kind in ("all", r["kind"])]
        best = sum(r["best_tool"] for r in sel)
        print(f"\n{kind} ({len(sel)} rounds): fp32 floor {sum(r['fp32_floor'] for r in sel) / best:.3f}x"
              f" (bundles {sum(r['fp32_bytes'] for r in sel) / best:.3f}x, target 0.7x);"
              f" q8 floor {sum(r['q8_floor'] for r in sel) / best:.3f}x, with quantised dense tensors"
              f" {sum(r['q8_floor_lossy_dense'] for r in sel) / best:.3f}x"
              f" (bundles {sum(r['q8_bytes'] for r in sel) / best:.3f}x, target 0.35x);"
              f" fp32 mantissa+sign+exponent {8 * sum(r['fp32_values'] for r in sel) / sum(r['changed'] for r in sel):.1f}"
              f" bits per changed value, positions {8 * sum(r['positions'] for r in sel) / sum(r['changed'] for r in sel):.2f}"
              f" bits per change")
    models = {}
    for r in rows:
        for m in r["models"].values():
            models[m] = models.get(m, 0) + 1
    print("\ncheapest position model per tensor:", ", ".join(f"{m} {n}" for m, n in sorted(models.items())))
    if "--json" in sys.argv:
        json.dump(rows, open(sys.argv[sys.argv.index("--json") + 1], "w"), indent=1)


if __name__ == "__main__":
    main()
