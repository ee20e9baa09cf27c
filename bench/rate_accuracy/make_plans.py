#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the rate-accuracy sweep's plans: one per (family, k) on a base plan, and one FU reference.

Usage: make_plans.py BASE_PLAN.json FAMILIES.txt OUT_DIR --ks 0.0025 0.005 ... [--set key=value ...]

--set overrides a key of the base plan by its JSON path (split.rounds=2, train.epochs=1,
dataset.train_limit=2000); values are JSON (strings may be bare). Prints the plan files written.
Only the standard library is needed.
"""
import argparse
import hashlib
import json
import os
import sys


def set_path(plan, path, value):
    node = plan
    keys = path.split(".")
    for key in keys[:-1]:
        node = node.setdefault(key, {})
    node[keys[-1]] = value


def merge(plan, extra):
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(plan.get(key), dict):
            merge(plan[key], value)
        else:
            plan[key] = value


def parse_families(path):
    families = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            parts = line.split(None, 2)
            if len(parts) < 2:
                sys.exit(f"{path}:{number}: expected 'strategy values [JSON]', found '{line}'")
            extra = {}
            if len(parts) == 3:
                try:
                    extra = json.loads(parts[2])
                except json.JSONDecodeError as e:
                    sys.exit(f"{path}:{number}: the plan keys are not JSON: {e}")
                if not isinstance(extra, dict):
                    sys.exit(f"{path}:{number}: expected a JSON object of plan keys, found {parts[2]}")
            families.append((parts[0], parts[1], extra))
    return families


def family_name(strategy, values, extra):
    name = f"{strategy}-{values}"
    if extra:  # a short, stable tag of the extra keys
        name += "-x" + hashlib.sha1(json.dumps(extra, sort_keys=True).encode()).hexdigest()[:6]
    return name


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("base")
    ap.add_argument("families")
    ap.add_argument("out")
    ap.add_argument("--ks", nargs="+", type=float, required=True)
    ap.add_argument("--set", nargs="*", default=[], metavar="KEY=VALUE")
    a = ap.parse_args()
    with open(a.base, encoding="utf-8") as f:
        base = json.load(f)
    for item in a.set:
        if "=" not in item:
            sys.exit(f"--set: expected KEY=VALUE, found '{item}'")
        key, text = item.split("=", 1)
        try:
            value = json.loads(text)
        except json.JSONDecodeError:
            value = text
        set_path(base, key, value)
    os.makedirs(a.out, exist_ok=True)
    plans = []
    # FU (exact) once: it ignores k, and every family's difference is to it. It keeps the base
    # plan's k, so sweeps of the same folder with other ks find the same FU run.
    plans.append(("fu-fp32", "fu", "fp32", {}, base.get("k", a.ks[0])))
    for strategy, values, extra in parse_families(a.families):
        for k in a.ks:
            plans.append((f"{family_name(strategy, values, extra)}-k{k:g}", strategy, values, extra, k))
    for name, strategy, values, extra, k in plans:
        plan = json.loads(json.dumps(base))
        plan["name"] = name
        plan["strategies"] = [strategy]
        plan["k"] = k
        plan.setdefault("bundle", {})["values"] = values
        plan["bundle"]["write"] = False  # sizes are measured either way; the sweep keeps no files
        merge(plan, extra)
        path = os.path.join(a.out, name + ".json")
        tmp = path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(plan, f, indent=2)
            f.write("\n")
        os.replace(tmp, path)
        print(path)


if __name__ == "__main__":
    main()
