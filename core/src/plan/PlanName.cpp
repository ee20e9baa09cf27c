// SPDX-License-Identifier: MIT
// automaticPlanName: the name a plan gets from its fields ("fashion-mlp-k0.01"), shared by the window's form and sweep cells.
#include "dpu/Plan.h"
#include "dpu/PlanEnums.h"
#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>

namespace dpu {
namespace {

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

/// The shortest text that reads back as `v` ("0.01", "0.001763"), as Qt prints a double.
std::string shortest(double v)
{
    char buf[32];
    const auto end = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general).ptr;
    return std::string(buf, end);
}

/// What the data is called: a Fashion-MNIST/KMNIST/MNIST folder by its family, own data by its
/// file or folder (it says more than the kind: "bigimg", not "images"), CIFAR by its kind.
std::string dataWord(const DatasetSpec& d)
{
    namespace fs = std::filesystem;
    const fs::path path = fs::path(d.path).lexically_normal();
    std::string last = path.filename().string();
    if (last.empty() || last == ".")
        last = path.parent_path().filename().string(); // "folder/" normalises to "folder/"
    if (d.kind == DataKind::Idx) {
        const std::string folder = lower(last);
        if (folder.find("fashion") != std::string::npos)
            return "fashion";
        if (folder.find("kmnist") != std::string::npos)
            return "kmnist";
        if (folder.find("mnist") != std::string::npos)
            return "mnist";
        return folder.empty() ? "idx" : folder;
    }
    if (d.kind == DataKind::Cifar10 || d.kind == DataKind::Cifar100)
        return nameOf(d.kind);
    std::error_code ec;
    const std::string base = fs::is_regular_file(path, ec) ? path.stem().string() : last;
    return base.empty() ? nameOf(d.kind) : base;
}

} // namespace

std::string automaticPlanName(const Plan& plan)
{
    std::string model = plan.model;
    if (model.rfind("torchscript:", 0) == 0)
        model = std::filesystem::path(model.substr(12)).stem().string();
    const std::string head = dataWord(plan.dataset) + "-" + model + "-";
    // Under a byte budget k is not used: the name says the budget, not a k the run ignores.
    if (plan.budget.bytesPerRound > 0)
        return head + std::to_string(plan.budget.bytesPerRound) + "B";
    if (plan.budget.bytesTotal > 0)
        return head + std::to_string(plan.budget.bytesTotal) + "B-total";
    return head + "k" + shortest(plan.k);
}

} // namespace dpu
