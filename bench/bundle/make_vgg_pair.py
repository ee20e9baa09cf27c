# SPDX-License-Identifier: MIT
# A VGGNet-sized (14 M weights) old/new device file pair for the device-speed benchmark of dpu-apply.
"""Writes OUT/vgg-old.safetensors and OUT/vgg-new.safetensors: the paper's VGGNet freshly
initialised, and the same with a fraction k of its weights (uniformly placed) replaced by values
unrelated to the old ones, as in a DPU round, and every BatchNorm parameter and buffer changed.
Training a VGGNet is not needed to time the decoder: its work per byte depends on the counts.

  OMP_WAIT_POLICY=passive /usr/bin/python3 bench/bundle/make_vgg_pair.py --out /tmp/vgg --k 0.01
"""
import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dpu_round as ref  # noqa: E402
from make_rounds import write_safetensors  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True)
    p.add_argument("--k", type=float, default=0.01)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    torch.manual_seed(a.seed)
    os.makedirs(a.out, exist_ok=True)
    model = ref.vgg()
    # num_batches_tracked (int64) is no part of a device file
    for m in model.modules():
        if isinstance(m, torch.nn.modules.batchnorm._BatchNorm):
            m.num_batches_tracked = None
    write_safetensors(os.path.join(a.out, "vgg-old.safetensors"), model, 1)
    with torch.no_grad():
        for t in model.state_dict().values():
            if t.dim() > 1:
                mask = torch.rand(t.shape) < a.k
                t[mask] = torch.randn(int(mask.sum())) * t.std()
            else:
                t.add_(torch.randn(t.shape) * 0.01)
    write_safetensors(os.path.join(a.out, "vgg-new.safetensors"), model, 2)
    print(sum(t.numel() for t in model.state_dict().values() if t.dim() > 1), "partial weights")


if __name__ == "__main__":
    main()
