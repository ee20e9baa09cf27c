// SPDX-License-Identifier: MIT
// The paper's VGGNet (Courbariaux et al. / Rastegari et al. variant used for CIFAR-10).
#include "models/VggNet.h"
#include "dpu/Error.h"

namespace dpu {

namespace {
constexpr int64_t kStageChannels[] = {128, 256, 512};
constexpr int64_t kVggHidden = 1024;
} // namespace

VggNet::VggNet(const InputShape& input, int classes) : ModuleNetwork("vgg", input, classes)
{
    if (input.height < 8 || input.width < 8)
        throw Error("vgg: needs images of at least 8x8 pixels (three 2x2 max-pools), got " +
                    std::to_string(input.height) + "x" + std::to_string(input.width));
    // Flat Sequentials give the short, stable names "features.0.weight", "classifier.6.bias".
    torch::nn::Sequential features;
    int64_t in = input.channels;
    for (int64_t out : kStageChannels) {
        for (int rep = 0; rep < 2; ++rep) {
            // No conv bias: the BatchNorm after it has its own shift.
            features->push_back(torch::nn::Conv2d(
                torch::nn::Conv2dOptions(in, out, 3).padding(1).bias(false)));
            features->push_back(torch::nn::BatchNorm2d(out));
            features->push_back(torch::nn::ReLU());
            in = out;
        }
        features->push_back(torch::nn::MaxPool2d(2));
    }
    const int64_t flat = in * (input.height / 8) * (input.width / 8);
    torch::nn::Sequential classifier;
    classifier->push_back(torch::nn::Linear(torch::nn::LinearOptions(flat, kVggHidden).bias(false)));
    classifier->push_back(torch::nn::BatchNorm1d(kVggHidden));
    classifier->push_back(torch::nn::ReLU());
    classifier->push_back(torch::nn::Linear(torch::nn::LinearOptions(kVggHidden, kVggHidden).bias(false)));
    classifier->push_back(torch::nn::BatchNorm1d(kVggHidden));
    classifier->push_back(torch::nn::ReLU());
    // The paper's "10SVM" head: a plain linear layer with bias, trained with cross-entropy.
    classifier->push_back(torch::nn::Linear(kVggHidden, classes));
    features_ = root().register_module("features", features);
    classifier_ = root().register_module("classifier", classifier);
}

torch::Tensor VggNet::forwardImpl(const torch::Tensor& images)
{
    return classifier_->forward(features_->forward(images).flatten(1));
}

} // namespace dpu
