#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Writes fuzz_torchscript's findings as fixtures: tiny_mlp.pt with the bytes the fuzzer changed.
#   damaged_crash.pt:  LibTorch 1.13's importer reads out of bounds (SIGSEGV under ASan in
#                      ScriptTypeParser::parseClassConstant; here it may throw instead).
#   damaged_report.pt: the load throws a torch::jit::ErrorReport whose what() throws in turn.
#   damaged_source.pt: building that report's message follows a wild pointer (SIGSEGV under ASan
#                      in torch::jit::Source::findSourceRangeThatGenerated; 2 bytes changed).
#                      Found by fuzz_torchscript_inprocess and reduced by reverting the fuzzer's
#                      changes one group at a time while the crash stayed (14 changes to 2).
#   damaged_pickle.pt: the unpickler follows a wild pointer while reading the debug records for
#                      that lookup (SIGSEGV in torch::jit::unpickle; 3,155 changes reduced to 2
#                      the same way). Both crash a plain torch::jit::load without ASan as well;
#                      ScriptNetwork loads modules without their debug records since.
#   damaged_trace.pt:  loads, but its forward pass fails, and formatting that failure's traceback
#                      read damaged debug records: 3.3 GB allocated, then "Parsing error: marks_ is
#                      empty" (4 bytes changed, from 902 the same way).
#   damaged_version.pt: its version record says 2 (bytes at 22144; its CRC no longer matches,
#                      which LibTorch does not check): files older than version 3 were loaded
#                      as they were, debug records and all; fuzz_torchscript_inprocess got there.
#   damaged_storage.pt: loads, but a parameter's storage has no data (the sizes of its record in
#                      the zip's directory zeroed, 2 bytes): its first forward pass read address
#                      zero before ScriptNetwork checked every tensor's storage.
import pathlib

here = pathlib.Path(__file__).resolve().parent
good = (here / "tiny_mlp.pt").read_bytes()
# (0-based offset, byte) as the fuzzer left them.
crash = [(7209, 0o356), (7210, 0o205), (7211, 0o72), (7212, 0o275),
         (11431, 0o172), (11897, 0o143), (17218, 0o162)]
report = crash + [(18857, 0o224), (19560, 0o141), (19561, 0o164), (19562, 0o145), (19563, 0o156),
                  (19564, 0o72), (19565, 0o72), (19566, 0o163), (19567, 0o165), (19568, 0o142)]
source = [(18828, 0o47), (21395, 0o31)]
pickle = [(13595, 0o320), (14194, 0o13)]
storage = [(22670, 0), (22674, 0)]
trace = [(12358, 0), (13206, 0o55), (13207, 0o320), (13208, 0o126)]
version = [(22144, ord("2"))]
for name, patch in (("damaged_crash.pt", crash), ("damaged_report.pt", report), ("damaged_source.pt", source),
                    ("damaged_pickle.pt", pickle), ("damaged_storage.pt", storage),
                    ("damaged_trace.pt", trace), ("damaged_version.pt", version)):
    data = bytearray(good)
    for offset, value in patch:
        data[offset] = value
    (here / name).write_bytes(bytes(data))
