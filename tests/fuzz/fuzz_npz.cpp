// SPDX-License-Identifier: MIT
// libFuzzer target: .npz (ZIP) archives from memory: the central directory, stored and deflated members, their .npy.
#include "data/NpyFormat.h"
#include "data/ZipArchive.h"
#include "dpu/Error.h"
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    try {
        const auto entries = dpu::data::listZip(data, size, "fuzz.npz");
        for (const auto& e : entries) {
            try {
                // A small cap: the fuzzer's inputs are small, a claim of more must fail cleanly.
                const auto member = dpu::data::extractZip(data, size, e, "fuzz.npz", uint64_t{1} << 24);
                if (member.size() != e.size)
                    std::abort();
                (void)dpu::data::parseNpy(member.data(), member.size(), "fuzz.npz:" + e.name);
            } catch (const dpu::Error&) {
            }
        }
    } catch (const dpu::Error&) {
    }
    return 0;
}
