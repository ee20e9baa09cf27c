// SPDX-License-Identifier: MIT
// --input CxHxW read within its bounds, and the built-in models refused before building when that input would make them too large.
#include "InputShapeOption.h"
#include "CliCommands.h"
#include "NumberOption.h"
#include <cstdio>
#include <optional>
#include <sstream>
#include <vector>

namespace dpu::cli {
namespace {

// One dimension, read by the command line's one number reader.
const NumberOption kDimension{"--input", NumberKind::Integer, 1, static_cast<double>(kMaxInputValues), false, false,
                              "a dimension", ""};

std::string shapeRefusal(const std::string& text)
{
    return "--input: expected CxHxW such as 1x28x28, whole numbers from 1 up with at most " + std::to_string(kMaxInputValues)
           + " values in all (C x H x W), found '" + text + "'";
}

} // namespace

InputShape parseInputShape(const std::string& text)
{
    std::vector<int64_t> dims;
    std::istringstream in(text);
    std::string part;
    while (std::getline(in, part, 'x')) {
        const std::optional<double> d = readNumber(kDimension, part);
        if (!d)
            throw UsageError(shapeRefusal(text));
        dims.push_back(static_cast<int64_t>(*d));
    }
    // Each factor is at most 2^24, so the products below stay far inside int64.
    if (dims.size() != 3 || text.back() == 'x' || dims[0] * dims[1] > kMaxInputValues || dims[0] * dims[1] * dims[2] > kMaxInputValues)
        throw UsageError(shapeRefusal(text));
    return {static_cast<int>(dims[0]), static_cast<int>(dims[1]), static_cast<int>(dims[2])};
}

int64_t inputGrownWeights(const std::string& model, const InputShape& shape)
{
    const int64_t c = shape.channels, h = shape.height, w = shape.width;
    if (model == "mlp")
        return c * h * w * 512; // fc1: C*H*W -> 512
    if (model == "vgg")
        return 512 * (h / 8) * (w / 8) * 1024; // classifier.0: 512*floor(H/8)*floor(W/8) -> 1024
    return 0;
}

void refuseModelTooLarge(const std::string& model, const InputShape& shape)
{
    const int64_t weights = inputGrownWeights(model, shape);
    if (weights <= kMaxBuiltWeights)
        return;
    char text[256];
    std::snprintf(text, sizeof text,
                  "--input: %s on %dx%dx%d would have a layer of %lld weights (%.3g GB in FP32), more than the %lld "
                  "weights dpu-cli builds a model with; give a smaller input",
                  model.c_str(), shape.channels, shape.height, shape.width, static_cast<long long>(weights),
                  4.0 * static_cast<double>(weights) / 1e9, static_cast<long long>(kMaxBuiltWeights));
    throw UsageError(text);
}

} // namespace dpu::cli
