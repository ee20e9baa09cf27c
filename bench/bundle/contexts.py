# SPDX-License-Identifier: MIT
# Ideal code lengths of position context models on real masks: what chose cq's position contexts.
"""Usage: python3 bench/bundle/contexts.py OUT   (OUT as given to bench/bundle/codings.sh)

For every pair OUT/pairs/*/{old,new}.safetensors, the changed flags of every partial tensor (rows =
first dimension) are priced under several context sets as adaptive Krichevsky-Trofimov codes (the
estimator of docs/bundle-format.md 3.1 without count halving: the sum over contexts of
-log2 KT(n0, n1), model learning included). Printed as bytes over all pairs and as a fraction of
the per-tensor entropy H(k_t) n_t (what Golomb-Rice approaches).
"""
import glob
import json
import math
import os
import struct
import sys

import numpy as np


def read(path):
    blob = open(path, "rb").read()
    (n,) = struct.unpack_from("<Q", blob, 0)
    out = {}
    for name, t in json.loads(blob[8:8 + n]).items():
        if name != "__metadata__":
            a, b = t["data_offsets"]
            out[name] = np.frombuffer(blob, "<f4", (b - a) // 4, 8 + n + a).reshape(t["shape"])
    return out


LGAMMA = np.vectorize(math.lgamma)


def kt_bits(flags, ctx):
    ctx = np.unique(ctx.ravel(), return_inverse=True)[1]
    n1 = np.bincount(ctx, weights=flags.ravel())
    n = np.bincount(ctx).astype(float)
    n0 = n - n1
    lp = LGAMMA(n0 + .5) + LGAMMA(n1 + .5) - 2 * math.lgamma(.5) - LGAMMA(n + 1)
    return float(-lp.sum() / math.log(2))


def bucket(x):  # bit length capped at 7, as dpu_cq_bucket
    b = np.zeros_like(x)
    nz = x > 0
    b[nz] = np.minimum(np.floor(np.log2(x[nz])).astype(np.int64) + 1, 7)
    return b


def main():
    tot = {}
    for d in sorted(glob.glob(os.path.join(sys.argv[1], "pairs", "*"))):
        old, new = read(os.path.join(d, "old.safetensors")), read(os.path.join(d, "new.safetensors"))
        for name, o in old.items():
            if o.ndim < 2:
                continue
            m = (o.view(np.uint32) != new[name].view(np.uint32)).reshape(o.shape[0], -1).astype(np.int64)
            k = m.mean()
            h = 0.0 if k in (0, 1) else -(k * math.log2(k) + (1 - k) * math.log2(1 - k)) * m.size
            left = np.zeros_like(m)
            left[:, 1:] = m[:, :-1]
            above = np.zeros_like(m)
            above[1:] = m[:-1]
            col = bucket(np.cumsum(m, axis=0) - m)
            row = bucket(np.cumsum(m, axis=1) - m)
            ex = np.clip(((o.reshape(m.shape).view(np.uint32) >> 23) & 0xff).astype(np.int64) - 118, 0, 7)
            sets = {
                "per-tensor entropy (Golomb-Rice's bound)": None,
                "left neighbour": left,
                "column count": col,
                "column + row counts": col * 8 + row,
                "column + row + left (cq)": (col * 8 + row) * 2 + left,
                "cq + neighbour above": ((col * 8 + row) * 2 + left) * 2 + above,
                "cq + old value's exponent": ((col * 8 + row) * 2 + left) * 8 + ex,
            }
            for label, c in sets.items():
                tot[label] = tot.get(label, 0.0) + (h if c is None else kt_bits(m, c)) / 8
    base = tot["per-tensor entropy (Golomb-Rice's bound)"]
    print("| context set | bytes | / per-tensor entropy |\n|---|---|---|")
    for label, v in tot.items():
        print("| %s | %.0f | %.3f |" % (label, v, v / base))


if __name__ == "__main__":
    main()
