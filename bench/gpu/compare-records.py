# SPDX-License-Identifier: MIT
# Compares two results.jsonl files record by record, times left out: are two runs identical?
import json
import sys


def load(path):
    records = []
    for line in open(path):
        r = json.loads(line)
        for key in ("seconds", "timestamp"):
            r.pop(key, None)
        records.append(r)
    return records


a, b = load(sys.argv[1]), load(sys.argv[2])
n = min(len(a), len(b))
same = sum(1 for x, y in zip(a[:n], b[:n]) if x == y)
print(f"determinism: {same} of {n} common records identical (times left out)")
for x, y in zip(a[:n], b[:n]):
    if x != y:
        print("first difference:", {k: (x[k], y.get(k)) for k in x if x[k] != y.get(k)})
        break
sys.exit(0 if same == n and n > 0 else 1)
