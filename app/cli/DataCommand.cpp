// SPDX-License-Identifier: MIT
// dpu-cli data: what a dataset folder or file holds, as the plan form shows it (dpu::probeDataset).
#include "ArgList.h"
#include "CliCommands.h"
#include "dpu/DataProbe.h"
#include "dpu/Error.h"
#include <nlohmann/json.hpp>
#include <algorithm>
#include <cstdio>

namespace dpu::cli {
namespace {

std::string shapeText(const InputShape& s)
{
    return std::to_string(s.channels) + "x" + std::to_string(s.height) + "x" + std::to_string(s.width);
}

nlohmann::ordered_json probeToJson(const DataProbe& d)
{
    nlohmann::ordered_json classes = nlohmann::ordered_json::array();
    for (const ClassInfo& c : d.perClass)
        classes.push_back({{"name", c.name}, {"train", c.train}, {"test", c.test}});
    return {{"kind", nameOf(d.kind)},
            {"name", d.name},
            {"train", d.train},
            {"test", d.test},
            {"test_held_out", d.heldOut},
            {"shape", {d.shape.channels, d.shape.height, d.shape.width}},
            {"layout", d.layout},
            {"dtype", d.dtype},
            {"classes", d.classes},
            {"per_class", classes}};
}

void printProbe(const DataProbe& d)
{
    std::printf("kind     %s\n", nameOf(d.kind).c_str());
    std::printf("name     %s\n", d.name.c_str());
    std::printf("samples  %lld train, %lld test%s\n", static_cast<long long>(d.train), static_cast<long long>(d.test),
                d.heldOut ? " (a seeded hold-out of the training data: there is no test split)" : "");
    std::printf("shape    %s (%s, %s)\n", shapeText(d.shape).c_str(), d.layout.c_str(), d.dtype.c_str());
    std::printf("classes  %d\n", d.classes);
    size_t width = 5;
    for (const ClassInfo& c : d.perClass)
        width = std::max(width, c.name.size());
    std::printf("\n%-*s %10s %10s\n", static_cast<int>(width), "class", "train", "test");
    for (const ClassInfo& c : d.perClass)
        std::printf("%-*s %10lld %10lld\n", static_cast<int>(width), c.name.c_str(), static_cast<long long>(c.train),
                    static_cast<long long>(c.test));
}

} // namespace

int dataCommand(const std::vector<std::string>& argv)
{
    ArgList args(argv);
    const bool json = args.flag("--json");
    DatasetSpec spec;
    const std::string kind = args.value("--kind");
    spec.x = args.value("--x");
    spec.y = args.value("--y");
    spec.xTest = args.value("--x-test");
    spec.yTest = args.value("--y-test");
    const auto pos = args.positional();
    if (pos.size() != 1)
        throw UsageError("data needs one dataset folder or file");
    spec.path = pos[0];
    // Detected as the application detects it; errors name the path or file (exit 1 in main).
    if (kind.empty()) {
        spec.kind = detectDatasetKind(spec.path);
    } else {
        const auto given = enumFromString<DataKind>(kind);
        if (!given)
            throw PlanError("dataset.kind", "expected " + quotedChoices(enumStrings<DataKind>()) + ", found \"" + kind + "\"");
        spec.kind = *given;
    }
    const DataProbe probe = probeDataset(spec);
    if (json)
        std::printf("%s\n", probeToJson(probe).dump(2).c_str());
    else
        printProbe(probe);
    return 0;
}

} // namespace dpu::cli
