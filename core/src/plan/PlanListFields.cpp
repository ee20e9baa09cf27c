// SPDX-License-Identifier: MIT
// The plan fields that are lists or take more than one shape: image size, normalisation, strategies, seeds.
#include "plan/PlanFieldBuilders.h"
#include "plan/PlanFieldParts.h"
#include <algorithm>
#include <set>

namespace dpu::plan {
namespace {

std::vector<double> numberList(const json& v, const std::string& path)
{
    require(v.is_array(), path, std::string("expected an array of numbers, found ") + v.type_name());
    std::vector<double> out;
    for (size_t i = 0; i < v.size(); ++i) {
        require(v[i].is_number(), path + "[" + std::to_string(i) + "]", "expected a number, found " + v[i].dump());
        out.push_back(v[i].get<double>());
    }
    return out;
}

const char* const kNormaliseChoices = "expected \"train\", \"first_round\", \"none\" or {\"mean\": [...], \"std\": [...]}";

void readNormaliseObject(const json& v, DatasetSpec& d)
{
    const std::string path = "dataset.normalise";
    require(v.is_object(), path, std::string("expected an object, found ") + v.type_name());
    require(v.contains("mean") && v.contains("std"), path, kNormaliseChoices);
    for (auto it = v.begin(); it != v.end(); ++it)
        require(it.key() == "mean" || it.key() == "std", path + "." + it.key(), "unknown key");
    d.normalise = Normalise::Given;
    d.mean = numberList(v.at("mean"), path + ".mean");
    d.std = numberList(v.at("std"), path + ".std");
}

void checkGivenStatistics(const DatasetSpec& d)
{
    require(!d.mean.empty() && d.mean.size() == d.std.size(), "dataset.normalise",
            "expected as many std values as mean values, one per channel (found " + std::to_string(d.mean.size()) +
                " and " + std::to_string(d.std.size()) + ")");
    for (size_t i = 0; i < d.std.size(); ++i)
        require(d.std[i] > 0 && std::isfinite(d.std[i]) && std::isfinite(d.mean[i]),
                "dataset.normalise.std[" + std::to_string(i) + "]", "expected a finite std > 0, found " + showNumber(d.std[i]));
}

} // namespace

FieldBinding imageSizeField()
{
    const std::string path = "dataset.image_size";
    const std::string values = "[height, width] each in 1..4096 (or 0: keep the images' size)";
    FieldBinding b = describedField(path, FieldType::List, {}, values, "none",
                    "images: `[height, width]` (or one number) every image is resized to; none: all must share the "
                    "first image's size");
    b.read = [path](const json& v, Plan& p) {
        DatasetSpec& d = p.dataset;
        if (v.is_number_integer()) {
            d.imageHeight = d.imageWidth = v.get<int>();
            return;
        }
        const auto hw = numberList(v, path);
        require(hw.size() == 2, path, "expected [height, width] or one integer, found " + v.dump());
        d.imageHeight = static_cast<int>(hw[0]);
        d.imageWidth = static_cast<int>(hw[1]);
    };
    b.write = [](const Plan& p, json& parent, const std::string& key) {
        if (p.dataset.imageHeight)
            parent[key] = {p.dataset.imageHeight, p.dataset.imageWidth};
    };
    b.check = [path, values](const Plan& p) {
        const int h = p.dataset.imageHeight, w = p.dataset.imageWidth;
        require(h >= 0 && h <= 4096 && w >= 0 && w <= 4096 && (h == 0) == (w == 0), path,
                "expected " + values + ", found [" + std::to_string(h) + ", " + std::to_string(w) + "]");
    };
    return b;
}

FieldBinding normaliseField()
{
    const std::string path = "dataset.normalise";
    FieldBinding b = describedField(path, FieldType::Choice, {"train", "first_round", "none"}, "or {\"mean\": [...], \"std\": [...]}",
                    "\"train\"",
                    "per-channel normalisation: `train` (statistics of the loaded training split), `first_round` (of "
                    "each seed's first-round samples D1), `none`, or `{\"mean\": [...], \"std\": [...]}`");
    b.read = [path](const json& v, Plan& p) {
        if (!v.is_string()) {
            readNormaliseObject(v, p.dataset);
            return;
        }
        const auto n = enumFromString<Normalise>(v.get<std::string>());
        require(n.has_value(), path, std::string(kNormaliseChoices) + ", found \"" + v.get<std::string>() + "\"");
        p.dataset.normalise = *n;
    };
    b.write = [](const Plan& p, json& parent, const std::string& key) {
        const DatasetSpec& d = p.dataset;
        if (d.normalise == Normalise::Given)
            parent[key] = {{"mean", d.mean}, {"std", d.std}};
        else if (d.normalise != Normalise::Train)
            parent[key] = nameOf(d.normalise);
    };
    b.check = [](const Plan& p) {
        if (p.dataset.normalise == Normalise::Given)
            checkGivenStatistics(p.dataset);
    };
    return b;
}

FieldBinding strategiesField()
{
    const std::vector<std::string> names = strategyNames();
    FieldBinding b = describedField("strategies", FieldType::List, names, "a list of strategy names", json(defaults().strategies).dump(),
                    "any of `fu`, `dpu`, `dpu-noreinit`, `dpu-memory` (DPU with server-side memory, docs/engine.md), "
                    "`gcpu`, `gcpu-reinit`, `lcpu`, `rpu`, `pruning`");
    b.read = [](const json& v, Plan& p) {
        require(v.is_array(), "strategies", std::string("expected an array of names, found ") + v.type_name());
        p.strategies.clear();
        for (size_t i = 0; i < v.size(); ++i) {
            require(v[i].is_string(), "strategies[" + std::to_string(i) + "]", "expected a string");
            p.strategies.push_back(v[i].get<std::string>());
        }
    };
    b.write = [](const Plan& p, json& parent, const std::string& key) { parent[key] = p.strategies; };
    b.chosen = [](const Plan& p) { return p.strategies; };
    b.drop = [](Plan& p, const std::string& name) { p.strategies.erase(std::remove(p.strategies.begin(), p.strategies.end(), name), p.strategies.end()); };
    b.check = [names](const Plan& p) {
        require(!p.strategies.empty(), "strategies", "expected at least one strategy");
        std::set<std::string> seen;
        for (size_t i = 0; i < p.strategies.size(); ++i) {
            const std::string at = "strategies[" + std::to_string(i) + "]";
            require(std::find(names.begin(), names.end(), p.strategies[i]) != names.end(), at,
                    "unknown strategy \"" + p.strategies[i] +
                        "\" (known: fu, dpu, dpu-noreinit, gcpu, gcpu-reinit, lcpu, rpu, pruning)");
            require(seen.insert(p.strategies[i]).second, at, "strategy \"" + p.strategies[i] + "\" listed twice");
        }
    };
    return choiceWhen(std::move(b), "pruning",
                      {[](const Plan& p) { return !deployedFormInfo(p.deployed).keepsItsForm(); },
                       "\"pruning\" ships a model of its own sparsity, not the deployed one", "deployed \"fp32\"",
                       foundDeployed});
}

FieldBinding seedsField()
{
    FieldBinding b = describedField("seeds", FieldType::List, {}, "non-negative integers", json(defaults().seeds).dump(),
                    "one integer or a list: the plan runs once per seed");
    b.read = [](const json& v, Plan& p) {
        if (v.is_number_unsigned() || v.is_number_integer()) {
            require(v.get<int64_t>() >= 0, "seeds", "expected a non-negative integer");
            p.seeds = {v.get<uint64_t>()};
            return;
        }
        require(v.is_array(), "seeds", std::string("expected an integer or an array of integers, found ") + v.type_name());
        p.seeds.clear();
        for (size_t i = 0; i < v.size(); ++i) {
            require(v[i].is_number_integer() && v[i].get<int64_t>() >= 0, "seeds[" + std::to_string(i) + "]",
                    "expected a non-negative integer, found " + v[i].dump());
            p.seeds.push_back(v[i].get<uint64_t>());
        }
    };
    b.write = [](const Plan& p, json& parent, const std::string& key) { parent[key] = p.seeds; };
    b.check = [](const Plan& p) { require(!p.seeds.empty(), "seeds", "expected at least one seed"); };
    return b;
}

} // namespace dpu::plan
