# SPDX-License-Identifier: MIT
# Tables of bench/bundle/compare.sh results: bundles against diff tools, the analytic figure and the entropy bound.
"""Usage: python3 bench/bundle/summarise.py OUT   (OUT as given to compare.sh)

Ratios are against the smallest comparator of the same round (xdelta3 -9, bsdiff, zstd -19
--patch-from), totals against the sum of those per-round minima. Re-initialisation rounds ship a
seed instead of the model, which no diff tool can, so they are reported apart from delta rounds.
"""
import glob
import json
import math
import os
import sys

TOOLS = ("xdelta3", "bsdiff", "zstd")
CODINGS = ("fp32", "fp16", "q8")


def h(k):
    return 0.0 if k <= 0 or k >= 1 else -(k * math.log2(k) + (1 - k) * math.log2(1 - k))


def analyse(r):
    b = r["bench"]
    partial = [t for t in b["tensors"] if t["partial"]]
    dense = sum(t["numel"] for t in b["tensors"] if not t["partial"])
    n = sum(t["numel"] for t in partial)
    changed = sum(t["changed"] for t in partial)
    k = changed / n if n else 0.0
    r["k"] = k
    r["best_tool"] = min(r["tools"][t] for t in TOOLS)
    # The paper's communication cost (DESIGN.md): 32 bits per changed value, H(k) per weight for
    # the positions, 32 bits per always-shipped value.
    r["analytic"] = (32 * round(k * n) + h(k) * n + 32 * dense) / 8
    r["pos_bound"] = h(k) * n / 8                                       # one global k
    r["pos_bound_t"] = sum(h(t["changed"] / t["numel"]) * t["numel"] for t in partial) / 8
    r["pos_bytes"] = b["bundles"]["fp32"]["position_bits"] / 8
    return r


def main():
    out = sys.argv[1]
    rs = [analyse(json.load(open(p))) for p in sorted(glob.glob(os.path.join(out, "pairs", "*", "result.json")))]
    if not rs:
        sys.exit("no results under " + out)
    real = any("real_bundle_bytes" in r for r in rs)
    print("### Per round (bytes; ratio = bundle / smallest comparator of the round)\n")
    head = "| round | kind | k | " + " | ".join(CODINGS) + (" | run's bundle" if real else "") + \
           " | xdelta3 -9 | bsdiff | zstd -19 | fp32 ratio | fp16 ratio | q8 ratio |"
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    for r in rs:
        b = r["bench"]["bundles"]
        cells = [r["label"], r["kind"], "%.4f" % r["k"]] + ["{:,}".format(b[c]["bytes"]) for c in CODINGS]
        if real:
            cells.append("{:,}".format(r.get("real_bundle_bytes", 0)))
        cells += ["{:,}".format(r["tools"][t]) for t in TOOLS]
        cells += ["%.3f" % (b[c]["bytes"] / r["best_tool"]) for c in CODINGS]
        print("| " + " | ".join(cells) + " |")

    print("\n### Totals\n")
    print("| rounds | n | fp32 / best | fp16 / best | q8 / best | fp32 / xdelta3 | fp32 / bsdiff | fp32 / zstd |"
          + (" run's bundle / best |" if real else ""))
    print("|---|---|---|---|---|---|---|---|" + ("---|" if real else ""))
    groups = [("delta", [r for r in rs if r["kind"] == "delta"]),
              ("reinit+delta", [r for r in rs if r["kind"] == "reinit"]),
              ("all", rs)]
    for name, g in groups:
        if not g:
            continue
        best = sum(r["best_tool"] for r in g)
        tot = {c: sum(r["bench"]["bundles"][c]["bytes"] for r in g) for c in CODINGS}
        tools = {t: sum(r["tools"][t] for r in g) for t in TOOLS}
        row = [name, str(len(g))] + ["%.3f" % (tot[c] / best) for c in CODINGS] + \
              ["%.3f" % (tot["fp32"] / tools[t]) for t in TOOLS]
        if real:
            row.append("%.3f" % (sum(r.get("real_bundle_bytes", 0) for r in g) / best))
        print("| " + " | ".join(row) + " |")

    print("\n### Against the analytic figure and the entropy bound (fp32)\n")
    print("| round | fp32 bytes | analytic | fp32 / analytic | position bytes | H(k)·I/8 | per-tensor bound "
          "| positions / bound | q8 / fp32 | fp16 / fp32 | q8 rel. error |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rs:
        b = r["bench"]["bundles"]
        print("| %s | %s | %s | %.3f | %s | %s | %s | %.3f | %.3f | %.3f | %.4f |" % (
            r["label"], "{:,}".format(b["fp32"]["bytes"]), "{:,.0f}".format(r["analytic"]),
            b["fp32"]["bytes"] / r["analytic"], "{:,.0f}".format(r["pos_bytes"]), "{:,.0f}".format(r["pos_bound"]),
            "{:,.0f}".format(r["pos_bound_t"]), r["pos_bytes"] / r["pos_bound_t"] if r["pos_bound_t"] else 0,
            b["q8"]["bytes"] / b["fp32"]["bytes"], b["fp16"]["bytes"] / b["fp32"]["bytes"], b["q8"]["rel_error"]))
    print("\nrel. error: RMS of (decoded - new) over RMS of (new - old), all tensors.")


if __name__ == "__main__":
    main()
