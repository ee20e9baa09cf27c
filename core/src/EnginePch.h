// SPDX-License-Identifier: MIT
// Precompiled header of the engine: the heavy LibTorch and standard headers.
#pragma once
#include <torch/torch.h>
#include <torch/script.h>
#include <nlohmann/json.hpp>
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>
