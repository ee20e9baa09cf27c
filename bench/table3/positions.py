#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Positions of a sparse model's partial update, Rice-coded over all weights (today's bundles) and over the nonzeros only.
"""Usage: positions.py BEFORE.safetensors AFTER.safetensors

BEFORE is the device file the update starts from (a sparse model), AFTER the one it leads to
(dpu-apply's result). Per partial tensor, the changed positions are coded as the bundle writer
does (gaps between changed positions, Rice code with the best parameter: a gap g costs
(g >> r) + 1 + r bits), once counting the gaps over all weights and once over the nonzeros of
BEFORE only (what a device that knows its pattern could decode). Prints bytes per tensor.
"""
import bisect
import json
import struct
import sys
from array import array


def tensors(path):
    with open(path, "rb") as f:
        data = f.read()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + n])
    out = {}
    for name, t in header.items():
        if name == "__metadata__":
            continue
        b, e = t["data_offsets"]
        values = array("f")
        values.frombytes(data[8 + n + b:8 + n + e])  # little-endian float32, as this machine
        out[name] = (t["shape"], values)
    return out


def rice_bits(positions):
    """Best Rice code of the gaps between sorted positions (the first from -1)."""
    gaps = [p - q - 1 for p, q in zip(positions, [-1] + positions[:-1])]
    return min(sum((g >> r) + 1 + r for g in gaps) for r in range(0, 24))


def main(before_path, after_path):
    before, after = tensors(before_path), tensors(after_path)
    total_all = total_nz = 0
    print("| tensor | changed | positions over all weights (bytes) | over the nonzeros (bytes) |")
    print("|---|---:|---:|---:|")
    for name, (shape, b) in before.items():
        if len(shape) < 2:
            continue
        a = after[name][1]
        changed = [i for i in range(len(b)) if a[i] != b[i]]
        nonzero = [i for i in range(len(b)) if b[i] != 0]
        # A change's position among the nonzeros: its rank in the nonzero list.
        ranks = [bisect.bisect_left(nonzero, i) for i in changed]
        assert all(nonzero[r] == i for r, i in zip(ranks, changed)), "a zero changed"
        over_all, over_nz = rice_bits(changed) / 8, rice_bits(ranks) / 8
        total_all += over_all
        total_nz += over_nz
        print(f"| {name} | {len(changed):,} | {over_all:,.0f} | {over_nz:,.0f} |")
    print(f"| all | | {total_all:,.0f} | {total_nz:,.0f} ({100 * (1 - total_nz / total_all):.0f} % less) |")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
