// SPDX-License-Identifier: MIT
// Plain description of a model input (channels x height x width).
#pragma once

namespace dpu {

struct InputShape {
    int channels = 1;
    int height = 28;
    int width = 28;
    bool operator==(const InputShape& o) const
    {
        return channels == o.channels && height == o.height && width == o.width;
    }
};

} // namespace dpu
