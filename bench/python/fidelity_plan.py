# SPDX-License-Identifier: MIT
# Plain eager PyTorch doing the fidelity plan's rounds (FU, DPU, GCPU, RPU), the whole-plan comparator of issue 25.
"""The work of bench/fidelity.json's rounds in idiomatic, untuned PyTorch, for timing against the
engine on the same machine (docs/benchmarks.md, sections 5 and 20).

Per seed and strategy, rounds r = 1..R train on the first initial + (r - 1) * per_round training
samples (Fashion-MNIST, normalised as the engine does), with E epochs of Adam per step (lr,
StepLR every E/3 epochs x0.1, batch 128), and a deploy gate on the validation split (the last
`validation` training samples): a candidate deploys only if its validation accuracy is higher.
  * FU:   E epochs from the seeded initial model w0 every round.
  * DPU:  full step from the deployed model (w0 in round 1) accumulating c_local, then
          c = lambda c_global/sum + (1 - lambda) c_local/|sum|, exact top-k, rewind, sparse
          fine-tune of E epochs with validation after every epoch, best state kept.
  * GCPU: as DPU with the global contribution alone (lambda = 1).
  * RPU:  a random mask of k of the weights, the sparse fine-tune alone.
This is the same work per round as the engine (epochs, batches, evaluations, selection); DPU's
re-initialisation rule and other details of the engine's strategies are left out, so the
accuracies are near the engine's, not equal to them. Prints one JSON object per seed and one
summary line: seconds per seed and for the plan.
"""
import argparse
import copy
import json
import os
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dpu_round import Mlp, Timer, accuracy, load_fashion, synchronize, train  # noqa: E402


def masks_by_score(model, start, local, k, lam, random_generator=None):
    """Top-k masks of the weight tensors by DPU's contribution (or random ones for RPU)."""
    partial = [p for p in model.parameters() if p.dim() > 1]
    total = sum(p.numel() for p in partial)
    count = round(k * total)
    with torch.no_grad():
        if random_generator is not None:
            score = torch.rand(total, generator=random_generator).to(partial[0].device)
        else:
            c_global = torch.cat([(p - w).square().flatten() for p, w in zip(partial, start)])
            c_local = torch.cat([c.flatten() for c in local])
            score = lam * c_global / c_global.sum() + (1 - lam) * c_local / c_local.sum().abs()
        flat = torch.zeros(total, dtype=torch.bool, device=score.device)
        flat[torch.topk(score, count, sorted=False).indices] = True
    return [m.view_as(p) for m, p in zip(flat.split([p.numel() for p in partial]), partial)]


def one_round(strategy, w0, deployed, data, args, timer, generator):
    """The candidate of one round of `strategy` (a new model; `w0` and `deployed` unchanged)."""
    x, y, val = data
    if strategy == "fu":
        model = copy.deepcopy(w0)
        train(model, x, y, args.epochs, args, timer, validation=val)
        return model
    model = copy.deepcopy(deployed)
    partial = [p for p in model.parameters() if p.dim() > 1]
    start = [p.detach().clone() for p in partial]
    if strategy == "rpu":
        masks = masks_by_score(model, start, None, args.k, args.lam, generator)
    else:
        local = [torch.zeros_like(p) for p in partial]
        train(model, x, y, args.epochs, args, timer, local=local)
        lam = 1.0 if strategy == "gcpu" else args.lam
        masks = masks_by_score(model, start, local, args.k, lam)
        with torch.no_grad():
            for p, w, m in zip(partial, start, masks):
                p.copy_(torch.where(m, p, w))
    train(model, x, y, args.epochs, args, timer, masks=masks, validation=val)
    return model


def run_seed(seed, args, device, full):
    """Every strategy's rounds for one seed; returns the per-strategy test accuracies and time."""
    train_x, train_y, test_x, test_y = full
    val = (train_x[-args.validation:], train_y[-args.validation:])
    torch.manual_seed(seed)
    w0 = Mlp().to(device)
    generator = torch.Generator().manual_seed(seed)
    timer = Timer(False)
    out = {"seed": seed, "strategies": {}}
    start = time.perf_counter()
    for strategy in args.strategies:
        t0 = time.perf_counter()
        deployed, deployed_val, accuracies = copy.deepcopy(w0), accuracy(w0, *val), []
        for r in range(1, args.rounds + 1):
            n = args.initial + (r - 1) * args.per_round
            candidate = one_round(strategy, w0, deployed, (train_x[:n], train_y[:n], val), args, timer, generator)
            candidate_val = accuracy(candidate, *val)
            if candidate_val > deployed_val:  # the deploy gate
                deployed, deployed_val = candidate, candidate_val
            accuracies.append(accuracy(deployed, test_x, test_y))
        synchronize(device)
        out["strategies"][strategy] = {"seconds": time.perf_counter() - t0,
                                       "mean_test_accuracy": sum(accuracies) / len(accuracies)}
    out["seconds"] = time.perf_counter() - start
    return out


def main():
    parser = argparse.ArgumentParser(description="The fidelity plan's rounds in plain eager PyTorch (timing comparator).")
    parser.add_argument("--data", default="/usr/share/datasets/fashion-mnist")
    parser.add_argument("--device", default="cpu", help="cpu or cuda")
    parser.add_argument("--seeds", default="1,2,3")
    parser.add_argument("--strategies", default="fu,dpu,gcpu,rpu")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--initial", type=int, default=1000)
    parser.add_argument("--per-round", type=int, default=1000)
    parser.add_argument("--validation", type=int, default=3000)
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--lr", type=float, default=0.005)
    parser.add_argument("--k", type=float, default=0.01)
    parser.add_argument("--lam", type=float, default=0.5)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    args.strategies = [s for s in args.strategies.split(",") if s]
    for s in args.strategies:
        if s not in ("fu", "dpu", "gcpu", "rpu"):
            parser.error(f"--strategies: unknown strategy '{s}' (expected fu, dpu, gcpu, rpu)")
    largest = args.initial + (args.rounds - 1) * args.per_round
    if largest + args.validation > 60000:
        parser.error(f"--rounds: {largest} training samples and {args.validation} for validation exceed 60000")
    torch.set_num_threads(args.threads)
    device = torch.device(args.device)
    # The training split minus the validation samples at its end, and the test split.
    train_x, train_y, test_x, test_y = load_fashion(args.data, 60000, 10000)
    full = tuple(t.to(device) for t in (train_x, train_y, test_x, test_y))
    # One short warm-up (CUDA's start, cuBLAS handles) outside the timed plan.
    warm = copy.deepcopy(Mlp().to(device))
    train(warm, full[0][:256], full[1][:256], 1, args, Timer(False))
    synchronize(device)
    start = time.perf_counter()
    seeds = [int(s) for s in args.seeds.split(",") if s]
    for seed in seeds:
        print(json.dumps(run_seed(seed, args, device, full)), flush=True)
    print(json.dumps({"impl": "python", "torch": torch.__version__, "device": str(device), "seeds": seeds,
                      "strategies": args.strategies, "rounds": args.rounds, "epochs": args.epochs,
                      "plan_seconds": time.perf_counter() - start}), flush=True)


if __name__ == "__main__":
    main()
