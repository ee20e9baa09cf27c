#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Generates modules that hold tensors outside their tensor attributes, whole and damaged:
#   tensor_holders.pt:   a scripted classifier that adds to its logits tensors kept in a list,
#                        a tuple, a dictionary and an object of a scripted class (all 1-D: 10);
#   tensor_constant.pt:  a traced classifier whose code holds a captured tensor constant
#                        (constants.pkl);
#   damaged_shared.pt:   tensor_holders.pt with one byte of its data.pkl changed, found by
#                        fuzz_torchscript_inprocess: fc.weight (7,840 floats) names the record of
#                        pair[1] (data/3, 40 bytes). LibTorch sizes a storage by the pickle's
#                        count, so it loads, and a forward pass reads 31 KB past the record (SIGSEGV
#                        in OpenBLAS under ASan once that memory is unmapped).
#   damaged_shared_class.pt: the same with "__torch__/" for "__torch__." in one class name,
#                        which LibTorch still loads (the fuzzer's input had both changes).
#   damaged_list.pt, damaged_tuple.pt, damaged_dict.pt, damaged_object.pt, damaged_constant.pt:
#                        one of those tensors with the sizes of its record zeroed in the zip's
#                        central directory. Each loads, the tensor has no data, and a forward
#                        pass reads address zero (SIGSEGV with python3-torch 1.13, measured)
#                        unless ScriptNetwork checks tensors inside containers and code as well.
#
# Run with Debian's interpreter (python3-torch 1.13, the same release as libtorch-dev):
#   /usr/bin/python3 tests/data/torchscript/make_tensor_holders.py
import pathlib
import struct
from typing import Dict, List, Tuple

import torch
import torch.nn as nn

here = pathlib.Path(__file__).resolve().parent


@torch.jit.script
class Shift:
    def __init__(self, t: torch.Tensor) -> None:
        self.t = t


class Holder(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(28 * 28, 10)
        self.offsets: List[torch.Tensor] = [torch.full((10,), 0.25), torch.full((10,), -0.5)]
        self.pair: Tuple[torch.Tensor, torch.Tensor] = (torch.full((10,), 1.0), torch.full((10,), 2.0))
        self.table: Dict[str, torch.Tensor] = {"a": torch.full((10,), 4.0)}
        self.shift = Shift(torch.full((10,), 8.0))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.fc(x.flatten(1))
        for t in self.offsets:
            y = y + t
        return y + self.pair[0] * self.pair[1] + self.table["a"] + self.shift.t  # bias + 13.75


SCALE = torch.full((10,), 0.5)


class ConstantHolder(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(28 * 28, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc(x.flatten(1)) * SCALE  # tracing captures SCALE as a constant


def without_data(data: bytes, record: str) -> bytes:
    """Zeroes the compressed and uncompressed sizes of RECORD's central-directory entry."""
    out = bytearray(data)
    at = 0
    while True:
        at = out.find(b"PK\x01\x02", at)
        if at < 0:
            raise SystemExit(f"no central-directory entry {record}")
        name_length = struct.unpack_from("<H", out, at + 28)[0]
        if out[at + 46:at + 46 + name_length] == record.encode():
            struct.pack_into("<II", out, at + 20, 0, 0)
            return bytes(out)
        at += 4


def has_no_data(tensor: torch.Tensor) -> bool:
    try:
        tensor.storage().data_ptr()
        return False
    except NotImplementedError:  # python3-torch refuses storages without data
        return True


def main() -> None:
    torch.manual_seed(0)
    torch.jit.script(Holder()).save(str(here / "tensor_holders.pt"))
    torch.jit.trace(ConstantHolder(), torch.zeros(2, 1, 28, 28)).save(str(here / "tensor_constant.pt"))
    # The records are numbered in the pickle's order: the attributes as declared, fc last.
    damaged = (("damaged_list.pt", "tensor_holders/data/0", lambda m: m.offsets[0]),
               ("damaged_tuple.pt", "tensor_holders/data/3", lambda m: m.pair[1]),
               ("damaged_dict.pt", "tensor_holders/data/4", lambda m: m.table["a"]),
               ("damaged_object.pt", "tensor_holders/data/5", lambda m: m.shift.t),
               ("damaged_constant.pt", "tensor_constant/constants/0", None))
    holders = (here / "tensor_holders.pt").read_bytes()
    weight = b"weightq&h\x05((h\x06h\x07X\x01\x00\x00\x006"  # fc.weight's storage: key "6"
    at = holders.index(weight) + len(weight) - 1
    (here / "damaged_shared.pt").write_bytes(holders[:at] + b"3" + holders[at + 1:])
    print(f"wrote {here / 'damaged_shared.pt'}: fc.weight names data/3")
    # The same with a second changed byte, as the fuzzer had it too: LibTorch still loads a class
    # named "__torch__/torch.nn.modules.linear.Linear", which the check has to read as a class.
    shared = (here / "damaged_shared.pt").read_bytes()
    slash = shared.index(b"c__torch__.torch.nn.modules.linear\nLinear") + len(b"c__torch__")
    (here / "damaged_shared_class.pt").write_bytes(shared[:slash] + b"/" + shared[slash + 1:])
    print(f"wrote {here / 'damaged_shared_class.pt'}: and a class name with a slash")
    for name, record, tensor in damaged:
        whole = here / (record.split("/")[0] + ".pt")
        (here / name).write_bytes(without_data(whole.read_bytes(), record))
        if tensor is not None and not has_no_data(tensor(torch.jit.load(str(here / name)))):
            raise SystemExit(f"{name}: {record} is not the tensor meant")
        print(f"wrote {here / name}: {record} without data")


if __name__ == "__main__":
    main()
