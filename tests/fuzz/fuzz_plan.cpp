// SPDX-License-Identifier: MIT
// libFuzzer target: plan JSON through the parser and validator; a plan that parses prints back to
// JSON that parses to the same plan.
#include "dpu/Error.h"
#include "dpu/Plan.h"
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    dpu::Plan plan;
    try {
        plan = dpu::parsePlan(text, "fuzz.json");
        dpu::validatePlan(plan);
    } catch (const dpu::Error&) {
        return 0; // a named error is the right answer to bad input
    }
    const std::string once = dpu::planToJson(plan);
    const std::string twice = dpu::planToJson(dpu::parsePlan(once, "round-trip"));
    if (once != twice)
        std::abort(); // the printed plan must read back unchanged
    return 0;
}
