// SPDX-License-Identifier: MIT
// Model zoo: builds networks by name, loads TorchScript files, describes tensors for planning.
#include "dpu/Error.h"
#include "dpu/InternalCheck.h"
#include "dpu/Models.h"
#include "models/MlpNet.h"
#include "models/MobileNetV1.h"
#include "models/Network.h"
#include "models/ResNetCifar.h"
#include "models/ScriptNetwork.h"
#include "models/VggNet.h"

namespace dpu {

namespace {

const std::string kScriptPrefix = "torchscript:";

struct BuiltinModel {
    const char* name;
    const char* description;
};

const BuiltinModel kBuiltins[] = {
    {"mlp", "MLP 2x512FC (paper: MNIST, 2.67 MB)"},
    {"vgg", "VGGNet 2x128C3-MP2-2x256C3-MP2-2x512C3-MP2-2x1024FC, BatchNorm (paper: CIFAR-10, 56.09 MB)"},
    {"resnet20", "ResNet20, CIFAR variant with option-A shortcuts (He et al.)"},
    {"resnet56", "ResNet56, CIFAR variant with option-A shortcuts (paper: CIFAR-100, 3.44 MB)"},
    {"mobilenetv1", "MobileNetV1 with width multiplier (paper: ImageNet 224x224, 16.93 MB)"},
};

bool isScript(const std::string& name)
{
    return name.compare(0, kScriptPrefix.size(), kScriptPrefix) == 0;
}

std::string knownNames()
{
    std::string out;
    for (const auto& m : kBuiltins)
        out += std::string(out.empty() ? "" : ", ") + m.name;
    return out + ", torchscript:PATH";
}

bool isBuiltin(const std::string& name)
{
    for (const auto& m : kBuiltins)
        if (name == m.name)
            return true;
    return false;
}

std::unique_ptr<Network> build(const ModelConfig& config)
{
    if (!isScript(config.name) && !isBuiltin(config.name))
        throw Error("unknown model \"" + config.name + "\", expected one of " + knownNames());
    // The width multiplier is a MobileNet notion; silently ignoring it elsewhere would let a
    // plan claim a model size it does not have.
    if (config.name != "mobilenetv1" && config.widthMultiplier != 1.0)
        throw Error("model " + config.name + ": width multiplier applies only to mobilenetv1, got " +
                    std::to_string(config.widthMultiplier));
    if (isScript(config.name)) {
        const std::string path = config.name.substr(kScriptPrefix.size());
        if (path.empty())
            throw Error("model \"torchscript:\": expected a file path after \"torchscript:\"");
        return std::make_unique<ScriptNetwork>(path);
    }
    if (config.name == "mlp")
        return std::make_unique<MlpNet>(config.input, config.classes);
    if (config.name == "vgg")
        return std::make_unique<VggNet>(config.input, config.classes);
    if (config.name == "resnet20")
        return std::make_unique<ResNetCifar>(20, config.input, config.classes);
    if (config.name == "resnet56")
        return std::make_unique<ResNetCifar>(56, config.input, config.classes);
    if (config.name == "mobilenetv1")
        return std::make_unique<MobileNetV1>(config.input, config.classes, config.widthMultiplier);
    DPU_UNREACHABLE("model " + config.name + ": listed as built-in but not constructed");
}

} // namespace

std::unique_ptr<Network> createNetwork(const ModelConfig& config)
{
    auto network = build(config);
    initialiseNetwork(*network, 0);
    return network;
}

std::vector<std::string> builtinModels()
{
    std::vector<std::string> out;
    for (const auto& m : kBuiltins)
        out.emplace_back(m.name);
    return out;
}

std::string modelDescription(const std::string& name)
{
    if (isScript(name))
        return "TorchScript module from " + name.substr(kScriptPrefix.size());
    for (const auto& m : kBuiltins)
        if (name == m.name)
            return m.description;
    throw Error("unknown model \"" + name + "\", expected one of " + knownNames());
}

std::vector<std::vector<int64_t>> partialShapesOf(const ModelInfo& info)
{
    std::vector<std::vector<int64_t>> shapes;
    for (const TensorInfo& t : info.parameters)
        if (t.partial)
            shapes.push_back(t.shape);
    return shapes;
}

std::vector<int64_t> biasSizesOf(const ModelInfo& info)
{
    std::vector<int64_t> sizes;
    for (const TensorInfo& t : info.parameters)
        if (t.shape.size() == 1 && t.numel > 0)
            sizes.push_back(t.numel);
    return sizes;
}

ModelInfo describeModel(const std::string& name, const InputShape& input, int classes,
                        double widthMultiplier)
{
    ModelConfig config;
    config.name = name;
    config.input = input;
    config.classes = classes;
    config.widthMultiplier = widthMultiplier;
    // No initialisation: only names and shapes are needed (and MobileNet at 224 has 4.2 M).
    auto network = build(config);
    ModelInfo info;
    info.name = name;
    info.input = input;
    info.classes = classes;
    for (const auto& p : network->parameters()) {
        TensorInfo t;
        t.name = p.name;
        t.shape = p.tensor.sizes().vec();
        t.numel = p.tensor.numel();
        t.partial = p.tensor.dim() > 1;
        (t.partial ? info.partialWeights : info.denseWeights) += t.numel;
        info.parameters.push_back(std::move(t));
    }
    // Floating buffers (BatchNorm running statistics) ship with every deployed round;
    // integer counters do not influence inference and are not counted.
    for (const auto& b : network->buffers())
        if (b.tensor.is_floating_point())
            info.denseWeights += b.tensor.numel();
    return info;
}

} // namespace dpu
