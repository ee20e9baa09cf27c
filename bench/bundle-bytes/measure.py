#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Where a run's bundle bytes go, per round: applies each seed's chain of bundles with dpu-apply
(so that a delta's tensor names come from its base file) and parses `dpu-cli bundle inspect
--bytes`. One JSON line per bundle on stdout: run, seed, strategy, round, total bytes, envelope,
tensor table, section H, and per role (weights, 1-D tensors (biases), scales) its bytes and
position, value, header, table and padding bits.

  python3 bench/bundle-bytes/measure.py [--cli build/app/cli/dpu-cli] [--apply build/app/apply/dpu-apply] \
      NAME=RUN_DIR ... > records.jsonl
"""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROLE = re.compile(r"^  (weights|scales|1-D tensors \(biases\)|partial tensors|always-shipped tensors) (\d+) B \([^)]*\): "
                  r"positions (\d+), values (\d+), headers (\d+), tables (\d+), padding (\d+)(?:, cq stream (\d+) \(positions and levels\))?, (\d+) changed$")
PART = re.compile(r"^  (envelope|tensor table|section H) (\d+) B")
TOTAL = re.compile(r"^where the bytes go \((\d+) bytes\):$")


def parse(text):
    out = {"roles": {}}
    for line in text.splitlines():
        if m := TOTAL.match(line):
            out["bytes"] = int(m.group(1))
        elif m := PART.match(line):
            out[m.group(1).replace(" ", "_")] = int(m.group(2))
        elif m := ROLE.match(line):
            name = "biases" if m.group(1).startswith("1-D") else m.group(1)
            out["roles"][name] = {"bytes": int(m.group(2)), "position_bits": int(m.group(3)),
                                  "value_bits": int(m.group(4)), "header_bits": int(m.group(5)),
                                  "table_bits": int(m.group(6)), "padding_bits": int(m.group(7)),
                                  "cq_bits": int(m.group(8) or 0), "changed": int(m.group(9))}
    if "bytes" not in out:
        sys.exit("measure.py: no byte summary in dpu-cli's output:\n" + text)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cli", default="build/app/cli/dpu-cli")
    ap.add_argument("--apply", default="build/app/apply/dpu-apply")
    ap.add_argument("runs", nargs="+", help="NAME=RUN_DIR")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp()
    try:
        for spec in a.runs:
            name, _, run = spec.partition("=")
            for chain in sorted(glob.glob(os.path.join(run, "bundles", "seed-*", "*"))):
                seed = int(os.path.basename(os.path.dirname(chain))[5:])
                device, base = os.path.join(tmp, "device.safetensors"), os.path.join(tmp, "base.safetensors")
                if os.path.exists(device):
                    os.remove(device)
                for bundle in sorted(glob.glob(os.path.join(chain, "round-*.dpub"))):
                    has_base = os.path.exists(device)
                    if has_base:
                        shutil.copyfile(device, base)
                    cmd = [a.cli, "bundle", "inspect", bundle, "--bytes"] + (["--base", base] if has_base else [])
                    row = parse(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
                    subprocess.run([a.apply, bundle, device], check=True, capture_output=True)
                    rnd = int(re.search(r"round-(\d+)", bundle).group(1))
                    print(json.dumps({"run": name, "seed": seed, "strategy": os.path.basename(chain), "round": rnd, **row},
                                     sort_keys=True))
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
