// SPDX-License-Identifier: MIT
// Checkpoint files: per-strategy tensors named by unit, committed by an atomic state.json.
#include "experiment/Checkpoint.h"
#include "util/JsonErrorText.h"
#include "dpu/Error.h"
#include "dpu/Plan.h"
#include "dpu/Runner.h"
#include "util/AtomicFile.h"
#include <nlohmann/json.hpp>
#include <algorithm>
#include <filesystem>

namespace dpu {
namespace fs = std::filesystem;

void saveCheckpoint(const std::string& outDir, const CheckpointData& data)
{
    const fs::path dir = fs::path(outDir) / "checkpoint";
    fs::create_directories(dir);
    nlohmann::json states = nlohmann::json::array();
    std::set<std::string> keep{"state.json"};
    for (size_t i = 0; i < data.states.size(); ++i) {
        const StrategyState& s = data.states[i];
        const std::string file = "s" + std::to_string(i) + "-u" + std::to_string(data.completed) + ".pt";
        std::vector<torch::Tensor> tensors;
        for (const auto& t : s.deployed.params)
            tensors.push_back(t.to(torch::kCPU));
        for (const auto& t : s.deployed.buffers)
            tensors.push_back(t.to(torch::kCPU));
        for (const auto& t : s.server.params) // then the server's model, if the strategy keeps one
            tensors.push_back(t.to(torch::kCPU));
        for (const auto& t : s.server.buffers)
            tensors.push_back(t.to(torch::kCPU));
        std::vector<size_t> scaled; // last: an INT8 model's scales, with the parameters they belong to
        for (size_t p = 0; p < s.deployed.scales.size(); ++p)
            if (s.deployed.scales[p].defined()) {
                scaled.push_back(p);
                tensors.push_back(s.deployed.scales[p].to(torch::kCPU));
            }
        const std::string tmp = (dir / (file + ".tmp")).string();
        try {
            torch::save(tensors, tmp);
        } catch (const c10::Error& e) {
            throw Error(tmp + ": cannot write checkpoint tensors (" + e.what_without_backtrace() + ")");
        }
        commitFile(tmp, (dir / file).string());
        keep.insert(file);
        states.push_back({{"file", file}, {"params", s.deployed.params.size()},
                          {"buffers", s.deployed.buffers.size()}, {"server_params", s.server.params.size()},
                          {"deployed_val", s.deployedVal}, {"deployed_test", s.deployedTest},
                          {"last_reinit_samples", s.lastReinitSamples}, {"cumulative_bits", s.cumulativeBits},
                          {"device_version", s.deviceVersion}, {"cumulative_bundle_bytes", s.cumulativeBundleBytes}});
        if (!scaled.empty())
            states.back()["scale_params"] = scaled;
    }
    nlohmann::json records = nlohmann::json::array();
    for (const auto& r : data.records)
        records.push_back(nlohmann::json::parse(recordToJson(r)));
    nlohmann::json j{{"format", 2}, {"plan", data.planJson}, {"completed", data.completed},
                     {"records", records}, {"states", states}};
    writeFileAtomic((dir / "state.json").string(), j.dump());
    for (const auto& entry : fs::directory_iterator(dir))
        if (!keep.count(entry.path().filename().string()))
            fs::remove(entry.path());
}

std::optional<CheckpointData> loadCheckpoint(const std::string& outDir)
{
    const fs::path dir = fs::path(outDir) / "checkpoint";
    const fs::path statePath = dir / "state.json";
    if (!fs::exists(statePath))
        return std::nullopt;
    CheckpointData data;
    try {
        const auto j = nlohmann::json::parse(readWholeFile(statePath.string()));
        if (j.at("format").get<int>() != 2)
            throw Error(statePath.string() + ": unsupported checkpoint format " + j.at("format").dump());
        data.planJson = j.at("plan").get<std::string>();
        data.completed = j.at("completed").get<int64_t>();
        for (const auto& r : j.at("records"))
            data.records.push_back(recordFromJson(r.dump()));
        for (const auto& s : j.at("states")) {
            StrategyState st;
            std::vector<torch::Tensor> tensors;
            const std::string file = (dir / s.at("file").get<std::string>()).string();
            try {
                torch::load(tensors, file);
            } catch (const c10::Error& e) {
                throw Error(file + ": cannot read checkpoint tensors (" + e.what_without_backtrace() + ")");
            }
            // deployed params, deployed buffers, then (optionally) the server's params and buffers;
            // checkpoints without "buffers" hold only the deployed model.
            const auto nParams = s.at("params").get<size_t>();
            const auto nBuffers = s.contains("buffers") ? s.at("buffers").get<size_t>()
                                                        : tensors.size() - std::min(nParams, tensors.size());
            const auto nServer = s.value("server_params", size_t(0));
            if (nParams + nBuffers > tensors.size() || (nServer > 0 && nParams + nBuffers + nServer > tensors.size()))
                throw Error(file + ": expected at least " + std::to_string(nParams + nBuffers + nServer)
                            + " tensors, found " + std::to_string(tensors.size()));
            // An INT8 model's scales come last, one per listed parameter.
            const auto scaled = s.value("scale_params", std::vector<size_t>{});
            if (scaled.size() > tensors.size() - (nParams + nBuffers + nServer))
                throw Error(file + ": expected " + std::to_string(scaled.size()) + " scale tensors after the models");
            if (!scaled.empty()) {
                st.deployed.scales.resize(nParams);
                for (size_t q = 0; q < scaled.size(); ++q) {
                    if (scaled[q] >= nParams)
                        throw Error(file + ": a scale tensor belongs to parameter " + std::to_string(scaled[q])
                                    + ", expected one below " + std::to_string(nParams));
                    st.deployed.scales[scaled[q]] = tensors[tensors.size() - scaled.size() + q];
                }
                tensors.resize(tensors.size() - scaled.size());
            }
            const auto at = [&](size_t i) { return tensors.begin() + static_cast<std::ptrdiff_t>(i); };
            st.deployed.params.assign(at(0), at(nParams));
            st.deployed.buffers.assign(at(nParams), at(nParams + nBuffers));
            if (nServer > 0) {
                st.server.params.assign(at(nParams + nBuffers), at(nParams + nBuffers + nServer));
                st.server.buffers.assign(at(nParams + nBuffers + nServer), tensors.end());
            }
            st.deployedVal = s.at("deployed_val").get<double>();
            st.deployedTest = s.at("deployed_test").get<double>();
            st.lastReinitSamples = s.at("last_reinit_samples").get<int64_t>();
            st.cumulativeBits = s.at("cumulative_bits").get<double>();
            st.deviceVersion = s.at("device_version").get<uint64_t>();
            st.cumulativeBundleBytes = s.at("cumulative_bundle_bytes").get<int64_t>();
            data.states.push_back(std::move(st));
        }
    } catch (const nlohmann::json::exception& e) {
        throw Error(statePath.string() + ": corrupt checkpoint (" + util::jsonErrorText(e.what()) + ")");
    }
    return data;
}

bool startedWith(const CheckpointData& checkpoint, const std::string& planJson)
{
    if (checkpoint.planJson == planJson)
        return true;
    try {
        Plan saved = parsePlan(checkpoint.planJson, "checkpoint");
        const Plan now = parsePlan(planJson, "plan");
        saved.name = now.name;
        return planToJson(saved) == planToJson(now);
    } catch (const Error&) {
        return false; // a checkpoint's plan this version cannot read is not this plan
    }
}

} // namespace dpu
