// SPDX-License-Identifier: MIT
// Round records as results.jsonl lines and results.csv rows.
#include "dpu/Error.h"
#include "util/JsonErrorText.h"
#include "dpu/RecordFiles.h"
#include <nlohmann/json.hpp>
#include <iomanip>
#include <sstream>

namespace dpu {

const char* phaseName(Phase phase)
{
    return phase == Phase::Full ? "full" : "finetune";
}

std::string recordToJson(const RoundRecord& r)
{
    nlohmann::json layers = nlohmann::json::array();
    for (const auto& l : r.layers)
        layers.push_back({{"name", l.name}, {"total", l.total}, {"updated", l.updated}});
    nlohmann::json j{{"strategy", r.strategy}, {"seed", r.seed}, {"round", r.round}, {"samples", r.samples},
                     {"reinitialised", r.reinitialised}, {"deployed", r.deployed},
                     {"val_accuracy", r.valAccuracy}, {"test_accuracy", r.testAccuracy},
                     {"candidate_val_accuracy", r.candidateValAccuracy},
                     {"candidate_test_accuracy", r.candidateTestAccuracy},
                     {"round_k", r.k}, {"budget_bytes", r.budgetBytes},
                     {"updated_weights", r.updatedWeights}, {"layers", layers},
                     {"analytic_bits", r.analyticBits}, {"cumulative_bits", r.cumulativeBits},
                     {"cumulative_ratio", r.cumulativeRatio}, {"bundle_bytes", r.bundleBytes},
                     {"cumulative_bundle_bytes", r.cumulativeBundleBytes}, {"bundle_kind", r.bundleKind},
                     {"device_version", r.deviceVersion}, {"device_sha256", r.deviceSha256},
                     {"seconds", r.seconds}};
    return j.dump();
}

RoundRecord recordFromJson(const std::string& line)
{
    try {
        const auto j = nlohmann::json::parse(line);
        RoundRecord r;
        r.strategy = j.at("strategy").get<std::string>();
        r.seed = j.at("seed").get<uint64_t>();
        r.round = j.at("round").get<int>();
        r.samples = j.at("samples").get<int64_t>();
        r.reinitialised = j.at("reinitialised").get<bool>();
        r.deployed = j.at("deployed").get<bool>();
        r.valAccuracy = j.at("val_accuracy").get<double>();
        r.testAccuracy = j.at("test_accuracy").get<double>();
        r.candidateValAccuracy = j.at("candidate_val_accuracy").get<double>();
        r.candidateTestAccuracy = j.at("candidate_test_accuracy").get<double>();
        // Absent in records written before byte budgets existed.
        r.k = j.value("round_k", 0.0);
        r.budgetBytes = j.value("budget_bytes", int64_t{0});
        r.updatedWeights = j.at("updated_weights").get<int64_t>();
        for (const auto& l : j.at("layers"))
            r.layers.push_back({l.at("name").get<std::string>(), l.at("total").get<int64_t>(), l.at("updated").get<int64_t>()});
        r.analyticBits = j.at("analytic_bits").get<double>();
        r.cumulativeBits = j.at("cumulative_bits").get<double>();
        r.cumulativeRatio = j.at("cumulative_ratio").get<double>();
        r.bundleBytes = j.at("bundle_bytes").get<int64_t>();
        r.cumulativeBundleBytes = j.at("cumulative_bundle_bytes").get<int64_t>();
        r.bundleKind = j.at("bundle_kind").get<std::string>();
        r.deviceVersion = j.at("device_version").get<uint64_t>();
        r.deviceSha256 = j.at("device_sha256").get<std::string>();
        r.seconds = j.at("seconds").get<double>();
        return r;
    } catch (const nlohmann::json::exception& e) {
        throw Error(std::string("malformed result record: ") + util::jsonErrorText(e.what()));
    }
}

std::string recordsToCsv(const std::vector<RoundRecord>& records)
{
    std::ostringstream s;
    s << "strategy,seed,round,samples,reinitialised,deployed,val_accuracy,test_accuracy,"
         "candidate_val_accuracy,candidate_test_accuracy,round_k,budget_bytes,updated_weights,analytic_bits,cumulative_bits,"
         "cumulative_ratio,bundle_bytes,cumulative_bundle_bytes,bundle_kind,device_version,device_sha256,seconds\n";
    s << std::setprecision(10);
    for (const auto& r : records)
        s << r.strategy << ',' << r.seed << ',' << r.round << ',' << r.samples << ',' << (r.reinitialised ? 1 : 0)
          << ',' << (r.deployed ? 1 : 0) << ',' << r.valAccuracy << ',' << r.testAccuracy << ','
          << r.candidateValAccuracy << ',' << r.candidateTestAccuracy << ',' << r.k << ',' << r.budgetBytes << ','
          << r.updatedWeights << ','
          << r.analyticBits << ',' << r.cumulativeBits << ',' << r.cumulativeRatio << ',' << r.bundleBytes << ','
          << r.cumulativeBundleBytes << ',' << r.bundleKind << ',' << r.deviceVersion << ',' << r.deviceSha256 << ','
          << r.seconds << '\n';
    return s.str();
}

} // namespace dpu
