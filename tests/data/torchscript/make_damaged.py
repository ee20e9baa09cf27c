#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Writes damaged_crash.pt: tiny_mlp.pt with the 7 bytes fuzz_torchscript changed (its first finding)
# so that LibTorch 1.13's TorchScript importer crashes (SIGSEGV in ScriptTypeParser::parseClassConstant).
import pathlib

here = pathlib.Path(__file__).resolve().parent
data = bytearray((here / "tiny_mlp.pt").read_bytes())
# (0-based offset, byte) as the fuzzer left them: a swapped pair in two places and three bytes changed
# inside the module's code/ section.
for offset, value in [(7209, 0o356), (7210, 0o205), (7211, 0o72), (7212, 0o275),
                      (11431, 0o172), (11897, 0o143), (17218, 0o162)]:
    data[offset] = value
(here / "damaged_crash.pt").write_bytes(bytes(data))
