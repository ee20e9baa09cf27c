# SPDX-License-Identifier: MIT
# Tables of bench/bundle/codings.sh: bytes and error of every value coding against today's q8.
"""Usage: python3 bench/bundle/codings.py OUT   (OUT as given to codings.sh)

Per delta round: every coding's bundle bytes and ratio to the q8 bundle of the same round; for q8
and q8c the split into positions, values (ideal bits of the arithmetic coder for cq, Golomb-Rice
and Huffman bits for q8) and the rest (always-shipped tensors, code tables, headers, envelope);
the RMS error over the changed weights of the partial tensors (the measure of "q8-equivalent")
and over every changed value (biases included).
"""
import glob
import json
import os
import sys

CODINGS = ("fp32", "fp16", "q8", "q8c", "q8c-dense", "q4", "ternary")


def main():
    out = sys.argv[1]
    rows = []
    for p in sorted(glob.glob(os.path.join(out, "pairs", "*", "bench.json"))):
        rows.append((os.path.basename(os.path.dirname(p)), json.load(open(p))["bundles"]))
    if not rows:
        sys.exit("no results under " + out)
    print("### Bytes per delta round (ratio to the round's q8 bundle)\n")
    head = "| round | " + " | ".join(CODINGS) + " |"
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    tot = {c: 0 for c in CODINGS}
    for label, b in rows:
        q8 = b["q8"]["bytes"]
        cells = []
        for c in CODINGS:
            tot[c] += b[c]["bytes"]
            cells.append("{:,} ({:.3f})".format(b[c]["bytes"], b[c]["bytes"] / q8))
        print("| " + label + " | " + " | ".join(cells) + " |")
    print("| **total** | " + " | ".join("**{:,} ({:.3f})**".format(tot[c], tot[c] / tot["q8"]) for c in CODINGS) + " |")

    print("\n### Where the bytes go, q8 against q8c (bytes; positions and values as coded bits / 8)\n")
    print("| round | q8 positions | q8c positions | ratio | q8 values + tables | q8c values + header | ratio "
          "| rest (biases, envelope) q8 / q8c | q8c / q8 |")
    print("|---|---|---|---|---|---|---|---|---|")
    sums = [0] * 6
    for label, b in rows:
        q, c = b["q8"], b["q8c"]
        qp, cp = q["position_bits"] / 8, c["position_bits"] / 8
        qv, cv = q["sparse"] - qp, c["sparse"] - cp
        qr, cr = q["bytes"] - q["sparse"], c["bytes"] - c["sparse"]
        for i, v in enumerate((qp, cp, qv, cv, qr, cr)):
            sums[i] += v
        print("| %s | %.0f | %.0f | %.3f | %.0f | %.0f | %.3f | %.0f / %.0f | %.3f |"
              % (label, qp, cp, cp / qp, qv, cv, cv / qv, qr, cr, c["bytes"] / q["bytes"]))
    qp, cp, qv, cv, qr, cr = sums
    print("| **total** | %.0f | %.0f | %.3f | %.0f | %.0f | %.3f | %.0f / %.0f | %.3f |"
          % (qp, cp, cp / qp, qv, cv, cv / qv, qr, cr, tot["q8c"] / tot["q8"]))

    print("\n### RMS error over the changed weights (partial tensors; in brackets: every changed value)\n")
    head = "| round | " + " | ".join(c for c in CODINGS if c != "fp32") + " | q8c <= q8 |"
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    for label, b in rows:
        cells = ["%.3g (%.3g)" % (b[c]["rms_changed_weights"], b[c]["rms_changed_all"]) for c in CODINGS if c != "fp32"]
        ok = b["q8c"]["rms_changed_weights"] <= b["q8"]["rms_changed_weights"]
        print("| " + label + " | " + " | ".join(cells) + " | " + ("yes" if ok else "**no**") + " |")


if __name__ == "__main__":
    main()
