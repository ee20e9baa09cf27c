#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Tables of bench/bundle/catchup.sh: per coding and strategy, for 1..R missed rounds, the catch-up
# bundle's bytes against the chain of missed bundles and the full model, and the route chosen.
import json
import pathlib
import sys


def main(out):
    rows = []
    for index in sorted(pathlib.Path(out).glob("export-*-*/catchup.json")):
        coding, strategy = index.parent.name[len("export-"):].rsplit("-", 1)
        data = json.loads(index.read_text())
        latest = data["latest_version"]
        for v in sorted(data["versions"], key=lambda v: -v["from_version"]):
            rows.append((coding, strategy, latest - v["from_version"], v))
    order = {c: i for i, c in enumerate(["fp32", "fp16", "q8", "q8c", "q4", "ternary"])}
    rows.sort(key=lambda r: (order.get(r[0], 99), r[1], r[2]))
    print("| coding | strategy | missed | catch-up (kind) | chain (bundles) | catch-up / chain | full model | route |")
    print("|---|---|---|---|---|---|---|---|")
    for coding, strategy, missed, v in rows:
        ratio = v["catchup_bytes"] / v["chain_bytes"]
        kind = v["catchup"]["kind"]
        print(f"| {coding} | {strategy} | {missed} | {v['catchup_bytes']:,} ({kind}) | {v['chain_bytes']:,} ({len(v['chain_rounds'])}) | {ratio:.3f} | {v['full_bytes']:,} | {v['route']} |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: catchup.py OUT")
    main(sys.argv[1])
