#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Two codings an INT8 run's delta rounds could take, estimated from its device files (the chain
of bundles applied with dpu-apply), against what the bundles spend (measure.py's records):

1. positions coded against the previous round's change set: the order-0 entropy of each partial
   tensor's change flags given whether the element changed in the round before (a two-context
   model, its cost not counted: a lower bound), beside the flags' entropy without the context;
2. biases as int8 codes, quantised as the form quantises a weight row, two ways: "kept", the scale
   max|b| / 127 of the first deployed biases kept (as DPU keeps the weights' scales), codes clamped
   to +-127; "rescaled", the scale of each round's own biases (4 more bytes a tensor, and every
   code re-coded). Each: the changed codes' Rice-coded positions and Huffman-coded differences
   (order-0 entropy plus a 128-byte table, or raw bytes when smaller, and the 10-byte header per
   tensor), and the largest quantisation error beside the biases' mean magnitude.

  python3 bench/bundle-bytes/history.py [--apply build/app/apply/dpu-apply] RUN_DIR
"""
import argparse
import array
import glob
import json
import math
import os
import shutil
import struct
import subprocess
import tempfile
from collections import Counter


def read_safetensors(path):
    data = open(path, "rb").read()
    n = struct.unpack("<Q", data[:8])[0]
    header = json.loads(data[8:8 + n])
    out = {}
    for name, t in header.items():
        if name == "__metadata__":
            continue
        a, b = t["data_offsets"]
        raw = data[8 + n + a:8 + n + b]
        if t["dtype"] == "I8":
            out[name] = ("I8", t["shape"], struct.unpack(f"<{len(raw)}b", raw))
        else:
            v = array.array("f")
            v.frombytes(raw)
            out[name] = ("F32", t["shape"], v.tolist())
    return out


def h(p):
    return 0.0 if p <= 0 or p >= 1 else -(p * math.log2(p) + (1 - p) * math.log2(1 - p))


def entropy_bits(counter):
    n = sum(counter.values())
    return -sum(c * math.log2(c / n) for c in counter.values() if c) if n else 0.0


def rice_bits(positions, numel):
    """The writer's Golomb-Rice gap code with its best parameter (section 4 of bundle-format.md)."""
    gaps, prev = [], -1
    for p in positions:
        gaps.append(p - prev - 1)
        prev = p
    return min(sum((g >> k) + 1 + k for g in gaps) for k in range(32)) if gaps else 0


def chain_files(run, tmp, apply):
    """Per seed, the device file after every round (dpu-apply over the chain)."""
    for chain in sorted(c for c in glob.glob(os.path.join(run, "bundles", "seed-*", "*")) if os.path.isdir(c)):
        device = os.path.join(tmp, "device.safetensors")
        if os.path.exists(device):
            os.remove(device)
        files = []
        for bundle in sorted(glob.glob(os.path.join(chain, "round-*.dpub"))):
            subprocess.run([apply, bundle, device], check=True, capture_output=True)
            files.append(read_safetensors(device))
        yield os.path.basename(os.path.dirname(chain)), files


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--apply", default="build/app/apply/dpu-apply")
    ap.add_argument("run")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp()
    try:
        for seed, files in chain_files(a.run, tmp, a.apply):
            weights = [n for n, t in files[0].items() if t[0] == "I8"]
            biases = [n for n, t in files[0].items() if len(t[1]) == 1 and not n.endswith(".scale")]
            scale = {n: max(abs(x) for x in files[0][n][2]) / 127 or 1.0 for n in biases}
            prev_changed = None
            for r in range(1, len(files)):
                row = {"seed": seed, "round": r + 1}
                changed = {n: {i for i, (x, y) in enumerate(zip(files[r - 1][n][2], files[r][n][2])) if x != y}
                           for n in weights}
                rice = plain = ctx = 0.0
                hits = count = 0
                for n in weights:
                    numel, c = len(files[r][n][2]), changed[n]
                    rice += rice_bits(sorted(c), numel)
                    plain += numel * h(len(c) / numel)
                    count += len(c)
                    if prev_changed is not None:
                        p = prev_changed[n]
                        hit = len(c & p)
                        hits += hit
                        ctx += len(p) * h(hit / len(p) if p else 0) + (numel - len(p)) * h((len(c) - hit) / (numel - len(p)))
                row.update({"changed": count, "rice_position_bytes": rice / 8, "flag_entropy_bytes": plain / 8})
                if prev_changed is not None:
                    row.update({"changed_last_round_too": hits, "context_entropy_bytes": ctx / 8})
                prev_changed = changed
                for way in ("kept", "rescaled"):
                    bits, errs, spread, nchanged = 0.0, [], [], 0
                    for n in biases:
                        s_old = scale[n] if way == "kept" or r == 1 else max(abs(x) for x in files[r - 1][n][2]) / 127 or 1.0
                        s_new = scale[n] if way == "kept" else max(abs(x) for x in files[r][n][2]) / 127 or 1.0
                        old = [max(-127, min(127, round(x / s_old))) for x in files[r - 1][n][2]]
                        new = [max(-127, min(127, round(x / s_new))) for x in files[r][n][2]]
                        diffs = Counter((y - x) % 256 for x, y in zip(old, new) if x != y)
                        pos = [i for i, (x, y) in enumerate(zip(old, new)) if x != y]
                        nchanged += len(pos)
                        bits += 80 + rice_bits(pos, len(old)) + min(entropy_bits(diffs) + 1024, 8 * len(pos))
                        bits += 32 if way == "rescaled" else 0
                        errs += [abs(x - s_new * q) for x, q in zip(files[r][n][2], new)]
                        spread += [abs(x) for x in files[r][n][2]]
                    row.update({f"int8_bias_{way}_bytes": bits / 8, f"int8_bias_{way}_changed": nchanged,
                                f"int8_bias_{way}_max_error": max(errs)})
                row["bias_mean_abs"] = sum(spread) / len(spread)
                print(json.dumps(row, sort_keys=True))
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
