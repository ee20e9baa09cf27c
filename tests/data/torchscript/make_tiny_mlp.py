#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Generates tiny_mlp.pt: a small conv + BatchNorm + linear TorchScript classifier for 1x28x28, 10 classes.
#
# Run with Debian's interpreter (python3-torch 1.13, the same release as libtorch-dev):
#   /usr/bin/python3 tests/data/torchscript/make_tiny_mlp.py
# The weights do not matter (DPU Planner re-initialises every model with its own seeded
# initialiser); the layer names do: conv.weight/bias (dim > 1 weight: uniform bias),
# bn.weight/bias (1-D weight: constants 1 and 0), fc1/fc2 (linear weights and biases).
import os

import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyNet(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3, stride=2, padding=1)  # 28x28 -> 14x14
        self.bn = nn.BatchNorm2d(4)
        self.fc1 = nn.Linear(4 * 4 * 4, 32)  # after 4x4 adaptive average pooling
        self.fc2 = nn.Linear(32, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = F.relu(self.bn(self.conv(x)))
        x = F.adaptive_avg_pool2d(x, 4).flatten(1)
        return self.fc2(F.relu(self.fc1(x)))


def main() -> None:
    torch.manual_seed(0)
    module = torch.jit.script(TinyNet())
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tiny_mlp.pt")
    module.save(out)
    params = sum(p.numel() for p in module.parameters())
    print(f"wrote {out}: {params} parameters, {os.path.getsize(out)} bytes")


if __name__ == "__main__":
    main()
