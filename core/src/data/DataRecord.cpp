// SPDX-License-Identifier: MIT
// data.json of a run folder: the data as loaded and the preprocessing applied, normalisation statistics included.
#include "data/Dataset.h"
#include <nlohmann/json.hpp>

namespace dpu {

std::string dataRecordJson(const Plan& plan, const LoadedData& data, const std::vector<data::ChannelStats>& seedStats)
{
    using json = nlohmann::json;
    const DatasetSpec& d = plan.dataset;
    json j;
    j["description"] = data.description;
    j["kind"] = d.kind;
    j["path"] = d.path;
    j["train"] = data.train.size();
    j["test"] = data.test.size();
    j["shape"] = {data.shape.channels, data.shape.height, data.shape.width};
    j["classes"] = data.classes;
    j["normalise"] = nameOf(d.normalise);
    if (d.normalise == Normalise::FirstRound) {
        j["normalisation"] = json::array();
        for (size_t i = 0; i < seedStats.size() && i < plan.seeds.size(); ++i)
            j["normalisation"].push_back({{"seed", plan.seeds[i]}, {"mean", seedStats[i].mean}, {"std", seedStats[i].std}});
    } else {
        j["normalisation"] = {{"mean", data.normalisation.mean}, {"std", data.normalisation.std}};
    }
    j["augment"] = {{"crop_padding", d.augment.cropPadding}, {"flip", d.augment.flip}};
    return j.dump(2) + "\n";
}

} // namespace dpu
