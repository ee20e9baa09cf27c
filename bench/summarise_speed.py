# SPDX-License-Identifier: MIT
# Summarises bench/run_speed.sh's runs.jsonl: medians, engine/Python ratios, DPU/FU ratio, profiles.
"""Reads the JSON lines that bench_speed and python/dpu_round.py print and prints markdown.

All ratios compare figures of the same benchmark run (alternating processes on the same
machine), so machine speed and background load cancel out as far as possible.
Only the Python standard library is used.
"""
import argparse
import json
import statistics
import sys
from collections import defaultdict


def median(values):
    return statistics.median(values) if values else float("nan")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", help="runs.jsonl written by bench/run_speed.sh")
    args = parser.parse_args()

    rounds = defaultdict(list)      # impl -> [seconds]
    round_cpu = defaultdict(list)   # impl -> [process CPU seconds]
    round_phases = defaultdict(lambda: defaultdict(list))
    train = defaultdict(list)       # (model, impl) -> [samples/s]
    ratio, profiles, info = None, {}, {}
    with open(args.runs, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            try:
                r = json.loads(line)
            except json.JSONDecodeError:
                sys.exit(f"{args.runs}: not a JSON line: {line[:80]}")
            info.setdefault(r["impl"], r)
            if r["task"] == "dpu-round" and "profile" in r or r["task"] == "profile":
                profiles[r["impl"]] = r
            elif r["task"] == "dpu-round":
                rounds[r["impl"]].append(r["seconds"])
                if "cpu_seconds" in r:
                    round_cpu[r["impl"]].append(r["cpu_seconds"])
                for name, s in r.get("phases", {}).items():
                    round_phases[r["impl"]][name].append(s)
            elif r["task"] == "train":
                train[(r["model"], r["impl"])].append(r["samples_per_second"])
            elif r["task"] == "ratio":
                ratio = r

    e, p = info.get("engine", {}), info.get("python", {})
    print(f"Threads: engine {e.get('threads')}, Python {p.get('threads')}; OMP_WAIT_POLICY: "
          f"engine '{e.get('omp_wait_policy')}', Python '{p.get('omp_wait_policy')}'; "
          f"torch {e.get('torch')} / {p.get('torch')}.\n")

    if rounds:
        eng, py = median(rounds["engine"]), median(rounds["python"])
        n = max(len(rounds["engine"]), len(rounds["python"]))
        print(f"One DPU round (MLP, Fashion-MNIST, E = {e.get('epochs')} epochs per step), median of {n} "
              "alternating runs each:\n")
        ceng, cpy = median(round_cpu["engine"]), median(round_cpu["python"])
        print("| Implementation | Wall time (s), median | Runs (s) | Speed-up (wall) | CPU time (s), median "
              "| Speed-up (CPU time) |")
        print("|---|---|---|---|---|---|")
        print(f"| Engine (C++) | {eng:.2f} | {', '.join(f'{s:.2f}' for s in rounds['engine'])} | {py / eng:.2f}x "
              f"| {ceng:.2f} | {cpy / ceng:.2f}x |")
        print(f"| Python PyTorch | {py:.2f} | {', '.join(f'{s:.2f}' for s in rounds['python'])} | 1.00x "
              f"| {cpy:.2f} | 1.00x |")
        print()
        print("Where the time goes (medians, s):\n")
        print("| Part of the round | Engine | Python | Engine / Python |")
        print("|---|---|---|---|")
        full = {i: median(round_phases[i]["full step"]) for i in ("engine", "python")}
        rest = {i: median([t - f for t, f in zip(rounds[i], round_phases[i]["full step"])]) for i in ("engine", "python")}
        print(f"| Full step with c_local ({e.get('epochs')} epochs) | {full['engine']:.2f} | {full['python']:.2f} "
              f"| {full['engine'] / full['python']:.2f} |")
        print(f"| Selection + sparse fine-tune with validation | {rest['engine']:.2f} | {rest['python']:.2f} "
              f"| {rest['engine'] / rest['python']:.2f} |")
        print()

    if train:
        print("Training throughput (plain training, no validation), median samples per second:\n")
        print("| Model | Engine (samples/s) | Python (samples/s) | Engine / Python |")
        print("|---|---|---|---|")
        for model in ("mlp", "vgg"):
            eng, py = median(train[(model, "engine")]), median(train[(model, "python")])
            print(f"| {model.upper()} | {eng:.0f} | {py:.0f} | {eng / py:.2f}x |")
        print()

    if ratio:
        m = ratio["median"]
        print(f"DPU round over FU round (engine, same data and epochs, median of {ratio['reps']} alternating "
              "repetitions in one process):\n")
        print("| Figure | Value |")
        print("|---|---|")
        print(f"| FU round (s) | {m['fu_round_s']:.2f} |")
        print(f"| DPU round (s) | {m['dpu_round_s']:.2f} |")
        print(f"| DPU / FU | {ratio['dpu_over_fu']:.3f} (target <= 2.1) |")
        opt = ratio["optimizer_step_ms"]
        print(f"| MaskedOptimizer step, ms: plain / with c_local / masked / generic path with c_local | "
              f"{opt['plain']:.2f} / {opt['with c_local']:.2f} / {opt['masked']:.2f} / "
              f"{opt['generic path with c_local']:.2f} |")
        print(f"| c_local accumulation per round ({ratio['full_step_optimizer_steps']} steps) (s) | "
              f"{ratio['c_local_seconds_per_round']:.3f} |")
        print(f"| Contributions + top-k + rewind (s) | {m['selection_s']:.3f} |")
        print(f"| Bookkeeping share of the DPU round | {100 * ratio['bookkeeping_share_of_dpu_round']:.1f} % "
              "(target < 5 %) |")
        print()

    if profiles:
        names = []
        for r in profiles.values():
            for name in list(r.get("phases", {})) + list(r.get("profile", {})):
                if name not in names:
                    names.append(name)
        impls = [i for i in ("engine", "python") if i in profiles]
        print("Per-phase profile of one DPU round (instrumented loops; clock reads add a little):\n")
        print("| Phase | " + " | ".join(f"{i} (s)" for i in impls) + " | engine / python |")
        print("|---|" + "---|" * len(impls) + "---|")
        for name in names:
            vals = [profiles[i].get("phases", {}).get(name, profiles[i].get("profile", {}).get(name)) for i in impls]
            cells = [f"{v:.3f}" if v is not None else "-" for v in vals]
            rel = f"{vals[0] / vals[1]:.2f}" if len(vals) == 2 and None not in vals and vals[1] > 0 else "-"
            print(f"| {name} | " + " | ".join(cells) + f" | {rel} |")
        totals = [profiles[i]["seconds"] for i in impls]
        rel = f"{totals[0] / totals[1]:.2f}" if len(totals) == 2 else "-"
        print("| **round total** | " + " | ".join(f"{t:.3f}" for t in totals) + f" | {rel} |")


if __name__ == "__main__":
    main()
