// SPDX-License-Identifier: MIT
// A run folder read back from disk (plan.json, results.jsonl, run.json, bundles/), and exports that tell runs apart.
#pragma once
#include "dpu/Cost.h"
#include "dpu/Events.h"
#include "dpu/Plan.h"
#include <cstdint>
#include <string>
#include <vector>

namespace dpu {

/// What run.json says about a run: how it ended and where it ran. Older run folders have no
/// run.json; `known` is then false and the other fields stay empty.
struct RunStatus {
    bool known = false;
    std::string state;          ///< "running" (or killed), "finished", "stopped"
    int rounds = 0;             ///< rounds the run scheduled (the data may allow fewer than planned)
    int64_t partialWeights = 0; ///< I of the model
    int64_t denseWeights = 0;
    std::string device;         ///< "cpu", "cuda", ...
    std::string host;           ///< the machine: host name, processor, cores
    std::string started;        ///< ISO 8601 UTC
    std::string ended;          ///< ISO 8601 UTC; empty while running
    /// An INT8 model's biases held as codes (plan int8_biases): of denseWeights, the values priced
    /// as codes, and their scales (one a tensor); 0 for every other run and for older run.json.
    int64_t codedDenseWeights = 0;
    int64_t codedDenseScales = 0;
};

/// A run as its folder holds it.
struct RunFolder {
    std::string dir;                  ///< the folder, as given
    Plan plan;
    std::vector<RoundRecord> records; ///< in the order the run produced them
    RunStatus status;
    bool hasBundles = false;          ///< dir/bundles exists (Export Update Bundles needs it)

    /// Every (seed, strategy) of the plan has all its rounds: run.json says "finished", or,
    /// without run.json, every seed and strategy reached the same last round as the plan's.
    bool complete() const;
    /// The folder's last path component (what lists and exports call the run).
    std::string label() const;
};

/// Whether `dir` holds plan.json and results.jsonl.
bool isRunFolder(const std::string& dir);

/// The run folders `dir` names: itself when it is one, else the run folders directly inside it
/// (a k sweep's parent) or, for a sweep folder (docs/sweep-format.md), inside its cells/ (the
/// cells that have run), sorted by name. Throws Error naming `dir` when there are none.
std::vector<std::string> findRunFolders(const std::string& dir);

/// Reads a run folder. Throws Error naming the file: a missing folder, plan.json or
/// results.jsonl, an invalid plan (with the field), a corrupt results.jsonl line (with its
/// number) or a corrupt run.json.
RunFolder loadRunFolder(const std::string& dir);

/// What the run in `dir` is, in a line for lists that offer runs by folder (Recent Runs): its
/// strategies, k (or its byte budget), the value coding, the deployed form when not fp32, the
/// rounds, when it started and, unless it finished, its state: "dpu, fu · k=0.01 · q4 · 10 rounds
/// · 2026-12-04 21:16". Reads plan.json and run.json only. Throws Error naming the file.
std::string describeRunFolder(const std::string& dir);

/// Reads dir/results.jsonl alone (same errors as loadRunFolder).
std::vector<RoundRecord> loadRunRecords(const std::string& dir);

/// Serialises what run.json holds (the runner writes it beside results.jsonl).
std::string runStatusToJson(const RunStatus& status);

/// The model's cost model as the run's records price it, from run.json's counts: I, the dense
/// values and, for an INT8 model's biases as codes, those codes and their scales. The deployed
/// form's value bits and scales are the caller's (estimateRound() and recommend() set them).
CostModel runCostModel(const RunFolder& run);
/// Parses run.json text; throws Error prefixed with `source` on malformed input.
RunStatus runStatusFromJson(const std::string& text, const std::string& source = "run.json");
/// Host name, processor model and core count of this machine, for run.json and reports.
std::string describeThisMachine();
/// The current UTC time as ISO 8601 (2026-11-23T05:30:00Z).
std::string isoTimeNow();

/// Records of several runs, each named so exports can tell them apart.
struct LabelledRun {
    std::string run;      ///< the run's folder name or id
    std::string planName;
    double k = 0;
    std::vector<RoundRecord> records;
    std::string coding = "fp32"; ///< the plan's bundle.values: runs of one k differ by it
};

/// results.csv's columns preceded by run, plan, k and coding, one row per record of every run.
std::string labelledRunsToCsv(const std::vector<LabelledRun>& runs);
/// A JSON array of results.jsonl's objects, each with "run", "plan", "k" and "coding" added.
std::string labelledRunsToJson(const std::vector<LabelledRun>& runs);

} // namespace dpu
