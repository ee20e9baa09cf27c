# SPDX-License-Identifier: MIT
# Realistic old/new device files for the bundle benchmark: DPU rounds of the paper's MLP on Fashion-MNIST.
"""Writes round-<RR>-old.safetensors / round-<RR>-new.safetensors pairs like a DPU run produces.

Random synthetic changes flatter nobody in the right way: in a real round the changed weights are
the top-k by contribution (large, correlated steps), the rest is bit-identical to the previous
deployment and every bias changes. So this trains the paper's MLP (784-512-512-10) briefly on
Fashion-MNIST (the initial deployment), then runs DPU rounds exactly as bench/python/dpu_round.py
(Alg. 1: full step, contributions, exact top-k over the weight tensors, rewind, masked fine-tune)
on a growing training set, and writes each round's previous and new deployed state.

Run with Debian's interpreter and OMP_WAIT_POLICY=passive (about a minute on 2 cores):
  OMP_WAIT_POLICY=passive /usr/bin/python3 bench/bundle/make_rounds.py --out /tmp/bundle-rounds
"""
import argparse
import json
import os
import struct
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import dpu_round as ref  # noqa: E402  (the reference DPU round)


def write_safetensors(path, model, version):
    """The device file layout of SafetensorsFile::write (compact JSON, space padding to 8)."""
    tensors = [(name, t.detach().contiguous().float()) for name, t in model.state_dict().items()]
    header = {"__metadata__": {"dpu.compat": "bench", "dpu.model": "mlp",
                               "dpu.update_version": str(version), "format": "pt"}}
    offset = 0
    for name, t in tensors:
        end = offset + 4 * t.numel()
        header[name] = {"dtype": "F32", "shape": list(t.shape), "data_offsets": [offset, end]}
        offset = end
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * ((-(8 + len(text))) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for _, t in tensors:
            f.write(t.numpy().astype("<f4").tobytes())


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True)
    p.add_argument("--data", default="/usr/share/datasets/fashion-mnist")
    p.add_argument("--rounds", type=int, default=4)
    p.add_argument("--k", type=float, default=0.01)
    p.add_argument("--lam", type=float, default=0.5)
    p.add_argument("--epochs", type=int, default=2, help="E per step (the paper uses more; 2 keeps it quick)")
    p.add_argument("--initial-samples", type=int, default=4000)
    p.add_argument("--samples-per-round", type=int, default=2000)
    p.add_argument("--validation", type=int, default=2000)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    torch.set_num_threads(2)
    torch.manual_seed(a.seed)
    os.makedirs(a.out, exist_ok=True)
    total = a.initial_samples + a.rounds * a.samples_per_round
    train_x, train_y, val_x, val_y = ref.load_fashion(a.data, total, a.validation)
    args = argparse.Namespace(lr=0.005, batch=128, k=a.k, lam=a.lam, epochs=a.epochs)
    timer = ref.Timer(False)
    model = ref.Mlp()
    ref.train(model, train_x[:a.initial_samples], train_y[:a.initial_samples], a.epochs, args, timer)
    write_safetensors(os.path.join(a.out, "initial.safetensors"), model, 1)
    summary = []
    for r in range(1, a.rounds + 1):
        n = a.initial_samples + r * a.samples_per_round
        old = os.path.join(a.out, "round-%02d-old.safetensors" % r)
        write_safetensors(old, model, r)
        _, _, best, (_, masks, count) = ref.dpu_round(model, (train_x[:n], train_y[:n], val_x, val_y), args, timer)
        write_safetensors(os.path.join(a.out, "round-%02d-new.safetensors" % r), model, r + 1)
        summary.append({"round": r, "samples": n, "changed": count, "val_accuracy": best})
        print(json.dumps(summary[-1]), flush=True)
    with open(os.path.join(a.out, "rounds.json"), "w") as f:
        json.dump({"k": a.k, "epochs": a.epochs, "rounds": summary}, f, indent=1)


if __name__ == "__main__":
    main()
