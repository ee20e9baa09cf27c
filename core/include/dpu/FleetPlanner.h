// SPDX-License-Identifier: MIT
// The fleet planner (docs/fleet.md "Planning for the fleet"): which strategy and deployment settings keep a fleet current within its targets.
#pragma once
#include "dpu/Deployment.h"
#include "dpu/Fleet.h"
#include "dpu/RunControl.h"
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace dpu {

/// How a round's delta reaches the devices, as the planner varies it.
enum class FleetDelivery { MulticastAtSlowest, MulticastPerSf, Unicast };

/// "one multicast at the slowest SF", "one multicast per SF", "unicast". Throws nothing.
std::string fleetDeliveryText(FleetDelivery delivery);

/// One strategy the planner may choose: a finished run's deployed versions (fleetStrategiesOf()),
/// or a cell nobody ran whose bytes the calibrated cost model estimates (estimated).
struct FleetPlanStrategy {
    FleetStrategy strategy;    ///< versions with their rounds, accuracies and bundle bytes
    std::string run;           ///< the run it comes from (its folder's name)
    std::string runName;       ///< that run for people (runDisplayName: a sweep's cell by its keys); empty: `run`
    /// The run as people read it: runName, else the folder's name.
    const std::string& shownRun() const { return runName.empty() ? run : runName; }
    std::string strategyName;  ///< "dpu"
    std::string coding;        ///< the run's bundle.values: "q4"
    double k = 0;              ///< the run's k
    /// No run measured it: its bytes come from the calibrated cost model (dpu/RoundEstimate.h)
    /// and its accuracies are assumed. Never recommended; a plan names it as a cell to run.
    bool estimated = false;
    std::string estimateNote; ///< estimated: what was assumed
    /// estimated: the plan keys of the run's plan to change for the cell, as (path, JSON text):
    /// ("k", "0.005"), ("bundle.values", "\"ternary\"").
    std::vector<std::pair<std::string, std::string>> cellKeys;
};

/// What the planner may vary of the deployment; an empty list keeps the deployment's own value.
struct FleetPlanSpace {
    std::vector<double> roundPeriodHours;
    std::vector<FleetDelivery> deliveries;
    std::vector<double> dutyCycles; ///< a link's sub-bands (EU868: 0.001, 0.01, 0.1)
    std::vector<CatchUpDelivery> catchUps;
    std::vector<CatchUpOrder> orders;
    std::vector<int> maxStaleness;
    std::vector<int> repairSessions;
};

/// The space planFleet() searches unless told otherwise: the deployment's own round period and
/// 24, 48, 72 and 168 h; one multicast at the slowest SF, one per SF (with an SF mix) and
/// unicast (multicast only on a link capable of it); EU868: its own sub-band and the 1 % and
/// 10 % ones; catch-ups by unicast and by multicast per version, each order; its own staleness
/// cap; 0, 1 and 2 repair sessions and its own. Throws LinkError as linkOf().
FleetPlanSpace defaultFleetPlanSpace(const Deployment& deployment);

/// What planFleet() plans over.
struct FleetPlanInput {
    std::vector<FleetPlanStrategy> strategies;
    Deployment deployment; ///< the base configuration and its targets (deployment.targets)
    FleetPlanSpace space;  ///< defaultFleetPlanSpace(deployment), or the caller's
    int lastRound = 0;     ///< the runs' last round (FleetRunInput)
    int64_t newSamplesPerRound = 0;
    /// Simulate every candidate (the exhaustive grid the pruning is measured against:
    /// bench/fleet-plan); false, the default, prunes what cannot win.
    bool exhaustive = false;
};

/// The settings one candidate varies, as a plan's deployment holds them.
struct FleetPlanSetting {
    double roundPeriodHours = 24;
    FleetDelivery delivery = FleetDelivery::MulticastAtSlowest;
    std::optional<double> dutyCycle; ///< unset: the link preset's
    CatchUpDelivery catchUp = CatchUpDelivery::Unicast;
    CatchUpOrder order = CatchUpOrder::MostStaleFirst;
    int maxStaleness = 0;
    int repairSessions = 1;
};

/// A target a candidate misses, and by how much.
struct FleetTargetMiss {
    std::string target;   ///< its plan key: "fleet.targets.fresh_share"
    double asked = 0;     ///< the target
    double achieved = 0;  ///< the candidate's figure, in the target's unit
    double shortfall = 0; ///< relative to the target: |achieved - asked| / asked, > 0
    std::string words;    ///< "71 % of the fleet fresh, 19 points short of the 90 % asked"
};

/// One simulated candidate: a strategy on one setting of the deployment.
struct FleetPlanCandidate {
    size_t strategy = 0;        ///< index into FleetPlanInput::strategies
    std::string label;          ///< the strategy's: "q4/dpu (q4, k 0.01)"; "(estimated)" when so
    bool estimated = false;
    FleetPlanSetting setting;
    Deployment deployment;      ///< the input's with the setting applied: what "use it" writes
    double fleetAccuracy = 0;   ///< mean over the run's rounds of the fleet's accuracy (fraction)
    double serverAccuracy = 0;  ///< the same of the server's
    double batteryPerYear = 0;  ///< share of a battery a year (fleetMetrics())
    double energyPerYear = 0;   ///< J per device a year
    /// The lowest share of the fleet fresh at a run's round's end (the targets' measure, or
    /// within kDefaultFreshDays without a freshness target).
    double freshShare = 0;
    /// Days within which the freshness target's share (90 % without one) of the fleet always is:
    /// the most any round's end needed.
    double freshDays = 0;
    /// Seconds from a release until 90 % of the fleet run it or a later one, mean over the
    /// update releases; NaN when one of them never got there.
    double timeTo90Seconds = 0;
    double airtimePerDaySeconds = 0; ///< per gateway, over the run's rounds
    std::vector<FleetTargetMiss> misses; ///< the targets it misses (none: it meets them all)
    double shortfall = 0;       ///< the misses' relative shortfalls, summed
    bool meetsTargets() const { return misses.empty(); }
};

/// Freshness measured without a freshness target: within a week of the server.
constexpr double kDefaultFreshDays = 7;

/// A cell nobody ran that would do better than every run: the estimated candidate and its keys.
struct FleetPlanCell {
    size_t candidate = 0; ///< index into FleetPlan::candidates
    std::string run;      ///< the run whose plan to change
    std::vector<std::pair<std::string, std::string>> keys; ///< (plan path, JSON text)
    std::string why;      ///< in words, marked as estimated
    std::string runName;  ///< that run for people (FleetPlanStrategy::runName); empty: `run`
    /// The run as people read it: runName, else the folder's name.
    const std::string& shownRun() const { return runName.empty() ? run : runName; }
};

/// What the planner found.
struct FleetPlan {
    std::vector<FleetPlanCandidate> candidates; ///< every simulated one, in search order
    /// The Pareto set over fleet accuracy (higher), battery per year (lower) and freshness
    /// (higher share) among the measured candidates: indices, fleet accuracy descending.
    std::vector<size_t> pareto;
    std::optional<size_t> recommended; ///< the best measured candidate that meets every target
    std::optional<size_t> nearest;     ///< none does: the one nearest to meeting them
    std::string binding;               ///< none does: the plan key of the target that binds
    std::string why;                   ///< the recommendation (or the nearest) in words
    std::vector<std::string> moves;    ///< none does: what would move the binding target
    std::vector<FleetPlanCell> cellsToRun; ///< estimated cells better than any run, best first
    size_t space = 0;      ///< candidates in the space (strategies x settings)
    size_t simulated = 0;  ///< simulated (== candidates.size())
    size_t pruned = 0;     ///< skipped without simulating (the notes say why)
    std::vector<std::string> pruning; ///< what was pruned and why, in words
    double seconds = 0;    ///< wall time of the search
    bool cancelled = false; ///< stopped through RunControl: candidates holds what was simulated
};

/// What planFleet() reports, on the caller's thread. Observers only observe: the search stops
/// through its RunControl.
class FleetPlanObserver {
public:
    virtual ~FleetPlanObserver() = default;
    /// Before the first simulation: the candidates in the space and how many will be simulated.
    virtual void planStarted(size_t /*space*/, size_t /*toSimulate*/) {}
    /// After each simulated candidate: `done` of `toSimulate`.
    virtual void candidateDone(size_t /*done*/, size_t /*toSimulate*/, const FleetPlanCandidate& /*candidate*/) {}
};

/// Simulates every strategy of `input` on every setting of its space (simulateFleet(), figures
/// by fleetMetrics()), skipping what cannot win: strategies another measured one dominates
/// (released in the same rounds, no version more accurate, no bundle smaller) and round
/// periods longer than the freshness target's days where the availability cannot hold its
/// share. Keeps the Pareto set, recommends the most accurate measured candidate that meets every
/// target (ties: less battery, fresher, less airtime, search order) and says why; when none
/// does, names the nearest (least summed relative shortfall), the target that binds, by how
/// much, and what would move it; names estimated cells that would beat every run. Deterministic
/// (seconds apart). `observer` may be null; `control` is read between candidates: cancel ends the
/// search with what it has (FleetPlan::cancelled), pause waits. Throws LinkError naming the
/// field for a space or deployment the simulation refuses, and for no strategy.
FleetPlan planFleet(const FleetPlanInput& input, FleetPlanObserver* observer, RunControl& control);

/// A candidate's setting in words: "a round every 72 h, one multicast per SF, the 10 % sub-band,
/// catch-ups by multicast per version (most stale first), 1 repair session". Throws nothing.
std::string fleetSettingText(const FleetPlanSetting& setting);

} // namespace dpu
