# SPDX-License-Identifier: MIT
# Reference PyTorch implementation of one DPU round (and plain training) for the speed benchmark.
"""One round of Deep Partial Updating (Alg. 1 of the paper) in idiomatic PyTorch.

The same work as the engine's DPU round in bench/bench_speed.cpp:
  1. full step: E epochs of Adam (PyTorch defaults, lr 0.005, StepLR every E/3 epochs x0.1,
     batch 128, reshuffled every epoch, last batch kept), accumulating after every step
     c_local -= g * dw for the weight tensors (dim > 1), where dw = p_after - p_before is the
     step Adam actually took;
  2. c_global = (w_f - w)^2, c = lambda c_global / sum(c_global) + (1 - lambda) c_local / |sum(c_local)|;
  3. exact top-k mask over all weight tensors (k * I ones);
  4. rewind: w + (w_f - w) * m;
  5. sparse fine-tune: E epochs with a fresh Adam and the mask applied to every step,
     validation accuracy before and after every epoch, the best state kept.

Task "train" instead times E epochs of plain training (no contributions, no validation) of the
MLP on Fashion-MNIST or of the VGGNet on random 3x32x32 data, for samples per second.

Prints one JSON object per run on stdout. Run it with Debian's interpreter (/usr/bin/python3,
torch 1.13) and OMP_WAIT_POLICY=passive, like the engine.
"""
import argparse
import gzip
import json
import os
import resource
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


# ---------------------------------------------------------------------------- data

def read_idx(path):
    """An IDX (MNIST-format) file, gzip-compressed, as a numpy array."""
    with gzip.open(path, "rb") as f:
        data = f.read()
    ndim = data[3]
    dims = [int.from_bytes(data[4 + 4 * i:8 + 4 * i], "big") for i in range(ndim)]
    return np.frombuffer(data, dtype=np.uint8, offset=4 + 4 * ndim).reshape(dims)


def load_fashion(folder, train_samples, validation_samples):
    """The first `train_samples` training images and the first `validation_samples` test
    images, normalised with the per-channel mean/std of the whole training split (as the engine)."""
    train_x = torch.from_numpy(read_idx(os.path.join(folder, "train-images-idx3-ubyte.gz")).copy())
    train_y = torch.from_numpy(read_idx(os.path.join(folder, "train-labels-idx1-ubyte.gz")).astype(np.int64))
    test_x = torch.from_numpy(read_idx(os.path.join(folder, "t10k-images-idx3-ubyte.gz")).copy())
    test_y = torch.from_numpy(read_idx(os.path.join(folder, "t10k-labels-idx1-ubyte.gz")).astype(np.int64))
    scaled = train_x.double() / 255.0
    mean, std = scaled.mean().item(), scaled.std(unbiased=False).item()

    def normalise(x):
        return ((x.float() / 255.0 - mean) / std).unsqueeze(1).contiguous()  # [N, 1, 28, 28]

    return (normalise(train_x[:train_samples]), train_y[:train_samples].contiguous(),
            normalise(test_x[:validation_samples]), test_y[:validation_samples].contiguous())


# ---------------------------------------------------------------------------- models

class Mlp(nn.Module):
    """The paper's MLP: 784-512-512-10 with ReLU."""

    def __init__(self, features=784, hidden=512, classes=10):
        super().__init__()
        self.fc1 = nn.Linear(features, hidden)
        self.fc2 = nn.Linear(hidden, hidden)
        self.fc3 = nn.Linear(hidden, classes)

    def forward(self, x):
        x = x.flatten(1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


def vgg(channels=3, side=32, classes=10):
    """The paper's VGGNet: 2x128C3-MP2-2x256C3-MP2-2x512C3-MP2-2x1024FC-10 with BatchNorm."""
    layers, cin = [], channels
    for cout in (128, 256, 512):
        for _ in range(2):
            layers += [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU()]
            cin = cout
        layers.append(nn.MaxPool2d(2))
    flat = cin * (side // 8) * (side // 8)
    layers += [nn.Flatten(),
               nn.Linear(flat, 1024, bias=False), nn.BatchNorm1d(1024), nn.ReLU(),
               nn.Linear(1024, 1024, bias=False), nn.BatchNorm1d(1024), nn.ReLU(),
               nn.Linear(1024, classes)]
    return nn.Sequential(*layers)


# ---------------------------------------------------------------------------- training

def synchronize(device):
    """Waits for the GPU's queued work, so that a time read after it includes that work."""
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def cpu_seconds():
    """User + system CPU seconds of the whole process so far (all threads)."""
    u = resource.getrusage(resource.RUSAGE_SELF)
    return u.ru_utime + u.ru_stime


class Timer:
    """Optional per-phase wall-clock accounting (adds a few clock reads per batch)."""

    def __init__(self, enabled):
        self.enabled = enabled
        self.totals = {}
        self.last = time.perf_counter()

    def lap(self, name):
        if self.enabled:
            now = time.perf_counter()
            self.totals[name] = self.totals.get(name, 0.0) + (now - self.last)
            self.last = now

    def reset(self):
        self.last = time.perf_counter()


@torch.no_grad()
def accuracy(model, x, y, batch=1000):
    model.eval()
    correct = 0
    for start in range(0, len(y), batch):
        correct += (model(x[start:start + batch]).argmax(1) == y[start:start + batch]).sum().item()
    model.train()
    return correct / len(y)


def train(model, x, y, epochs, args, timer, local=None, masks=None, validation=None):
    """E epochs of Adam with StepLR. `local`: c_local accumulators of the weight tensors;
    `masks`: bool masks of the weight tensors (sparse fine-tune); `validation`: (x, y) to select
    the best epoch (the start state included). Returns the best validation accuracy or None."""
    partial = [p for p in model.parameters() if p.dim() > 1]
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=max(1, epochs // 3), gamma=0.1)
    float_masks = [m.float() for m in masks] if masks is not None else None
    best_acc, best_state = None, None
    if validation is not None:
        timer.reset()
        best_acc = accuracy(model, *validation)
        best_state = {k: v.clone() for k, v in model.state_dict().items()}
        timer.lap("evaluation")
    n = len(y)
    model.train()
    for _ in range(epochs):
        timer.reset()
        order = torch.randperm(n, device=x.device)
        loss_sum, batches = 0.0, 0
        for start in range(0, n, args.batch):
            idx = order[start:start + args.batch]
            xb, yb = x[idx], y[idx]
            timer.lap("data indexing")
            optimizer.zero_grad(set_to_none=True)
            loss = F.cross_entropy(model(xb), yb)
            timer.lap("forward")
            loss.backward()
            timer.lap("backward")
            if float_masks is not None:
                # Adam's state starts at zero in the fine-tune, so a zero gradient keeps m = v = 0
                # and the step exactly 0: masked weights stay bit-identical (checked in main()).
                for p, m in zip(partial, float_masks):
                    p.grad.mul_(m)
            if local is not None:
                before = [p.detach().clone() for p in partial]
            optimizer.step()
            timer.lap("optimizer step")
            if local is not None:
                with torch.no_grad():
                    for p, b, c in zip(partial, before, local):
                        c.addcmul_(p.grad, b.sub_(p))  # c -= g * (p_after - p_before)
                timer.lap("c_local")
            loss_sum += loss.item()
            batches += 1
            timer.lap("forward")  # loss.item(): part of the forward bookkeeping
        scheduler.step()
        if validation is not None:
            acc = accuracy(model, *validation)
            if acc > best_acc:
                best_acc = acc
                best_state = {k: v.clone() for k, v in model.state_dict().items()}
            timer.lap("evaluation")
    if best_state is not None:
        model.load_state_dict(best_state)
    return best_acc


def dpu_round(model, data, args, timer):
    train_x, train_y, val_x, val_y = data
    partial = [p for p in model.parameters() if p.dim() > 1]
    start = [p.detach().clone() for p in partial]
    phases = {}

    t0 = time.perf_counter()
    local = [torch.zeros_like(p) for p in partial]
    train(model, train_x, train_y, args.epochs, args, timer, local=local)
    t1 = time.perf_counter()
    phases["full step"] = t1 - t0

    with torch.no_grad():
        c_global = torch.cat([(p - w).square().flatten() for p, w in zip(partial, start)])
        c_local = torch.cat([c.flatten() for c in local])
        score = args.lam * c_global / c_global.sum() + (1 - args.lam) * c_local / c_local.sum().abs()
        count = round(args.k * score.numel())
        flat = torch.zeros(score.numel(), dtype=torch.bool, device=score.device)
        flat[torch.topk(score, count, sorted=False).indices] = True
        masks = [m.view_as(p) for m, p in zip(flat.split([p.numel() for p in partial]), partial)]
        for p, w, m in zip(partial, start, masks):
            p.copy_(torch.where(m, p, w))
    t2 = time.perf_counter()
    phases["contributions, top-k, rewind"] = t2 - t1

    best = train(model, train_x, train_y, args.epochs, args, timer, masks=masks, validation=(val_x, val_y))
    synchronize(train_x.device)
    t3 = time.perf_counter()
    phases["sparse fine-tune"] = t3 - t2
    return t3 - t0, phases, best, (start, masks, count)


def main():
    parser = argparse.ArgumentParser(description="Reference PyTorch DPU round / training speed.")
    parser.add_argument("--task", choices=["dpu-round", "train"], default="dpu-round")
    parser.add_argument("--model", choices=["mlp", "vgg"], default="mlp", help="task train only")
    parser.add_argument("--data", default="/usr/share/datasets/fashion-mnist")
    parser.add_argument("--samples", type=int, default=5000, help="training samples (D)")
    parser.add_argument("--validation", type=int, default=3000)
    parser.add_argument("--epochs", type=int, default=5, help="E, per step")
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--lr", type=float, default=0.005)
    parser.add_argument("--k", type=float, default=0.01)
    parser.add_argument("--lam", type=float, default=0.5, help="lambda: weight of the global contribution")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true", help="per-phase times (forward, backward, ...)")
    parser.add_argument("--device", default="cpu",
                        help="cpu or cuda: the model, the data and the masks on that device (eager mode, untuned)")
    args = parser.parse_args()
    device = torch.device(args.device)

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    timer = Timer(args.profile)
    result = {"impl": "python", "torch": torch.__version__, "device": str(device), "threads": torch.get_num_threads(),
              "omp_wait_policy": os.environ.get("OMP_WAIT_POLICY", ""), "task": args.task,
              "epochs": args.epochs}

    if args.task == "train":
        if args.model == "mlp":
            x, y, _, _ = load_fashion(args.data, args.samples, 1)
            model = Mlp()
        else:
            x = torch.randn(args.samples, 3, 32, 32)
            y = torch.randint(0, 10, (args.samples,))
            model = vgg()
        x, y, model = x.to(device), y.to(device), model.to(device)
        c0, t0 = cpu_seconds(), time.perf_counter()
        train(model, x, y, args.epochs, args, timer)
        synchronize(device)
        seconds = time.perf_counter() - t0
        result.update(model=args.model, samples=len(y), seconds=seconds, cpu_seconds=cpu_seconds() - c0,
                      samples_per_second=len(y) * args.epochs / seconds)
    else:
        data = tuple(t.to(device) for t in load_fashion(args.data, args.samples, args.validation))
        model = Mlp().to(device)
        c0 = cpu_seconds()
        seconds, phases, best, (start, masks, count) = dpu_round(model, data, args, timer)
        cpu = cpu_seconds() - c0
        partial = [p for p in model.parameters() if p.dim() > 1]
        unchanged = all(bool(torch.equal(torch.where(m, w, p.detach()), w))
                        for p, w, m in zip(partial, start, masks))
        result.update(model="mlp", samples=len(data[1]), seconds=seconds, cpu_seconds=cpu, phases=phases,
                      best_val_accuracy=best, updated_weights=count, masked_weights_unchanged=unchanged)
    if args.profile:
        result["profile"] = timer.totals
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
