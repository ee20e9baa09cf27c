// SPDX-License-Identifier: MIT
// modelFitProblem (dpu/DataProbe.h): one forward pass of a model on samples of a shape, kept beside the models (data/ must not include models/).
#include "dpu/DataProbe.h"
#include "models/Network.h"
#include <exception>
#include <string>

namespace dpu {

std::string modelFitProblem(const std::string& model, const InputShape& shape, int classes, double widthMultiplier)
{
    try {
        torch::NoGradGuard noGrad;
        auto network = createNetwork({model, shape, classes, widthMultiplier});
        network->setTraining(false);
        const auto out = network->forward(torch::zeros({2, shape.channels, shape.height, shape.width}));
        if (out.dim() != 2 || out.size(0) != 2 || out.size(1) != classes) {
            std::string got;
            for (int64_t d : out.sizes())
                got += (got.empty() ? "" : ", ") + std::to_string(d);
            return model + ": its output has shape [" + got + "] for 2 samples, expected [2, " + std::to_string(classes) + "] (" +
                   std::to_string(classes) + " classes)";
        }
        return {};
    } catch (const std::exception& e) {
        std::string what = e.what();
        // LibTorch's messages carry a C++ backtrace after the first line: the first line says it.
        if (const auto nl = what.find('\n'); nl != std::string::npos)
            what = what.substr(0, nl);
        return model + " does not fit samples of " + std::to_string(shape.channels) + "x" + std::to_string(shape.height) + "x" +
               std::to_string(shape.width) + ": " + what;
    }
}

} // namespace dpu
