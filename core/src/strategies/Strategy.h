// SPDX-License-Identifier: MIT
// The interface every updating strategy implements: one round from a start state to a candidate.
#pragma once
#include "data/Dataset.h"
#include "dpu/Plan.h"
#include "models/Network.h"
#include "train/TrainContext.h"
#include "train/Weights.h"
#include <memory>
#include <string>

namespace dpu {

struct RoundInput {
    Network& network;
    const TensorDataset& train;      ///< D^r
    const TensorDataset& validation;
    const Weights& start;            ///< deployed weights, or the seeded random model (re-initialisation)
    const TrainSpec& spec;
    double k;
    uint64_t unitSeed;               ///< derives sample orders and random masks of this unit
    const TrainContext& ctx;
    /// The server's own fully trained model from the previous round (keepsServerModel()
    /// strategies); null: none yet, or a re-initialisation dropped it.
    const Weights* server = nullptr;
};

struct RoundOutput {
    Weights weights;         ///< the candidate state (on the network's device)
    MaskSet masks;           ///< per parameter: partial weights that may differ from the base; empty: all
    bool zeroBase = false;   ///< Pruning: weights outside the mask are zero, not the start's
    double valAccuracy = 0;
    Weights server;          ///< keepsServerModel(): the server's model after this round's full step
};

class Strategy {
public:
    virtual ~Strategy() = default;
    virtual std::string name() const = 0;
    /// Starts from the seeded random model whenever the re-initialisation rule fires.
    virtual bool followsReinitRule() const { return false; }
    /// Starts from the seeded random model every round (FU, Pruning).
    virtual bool startsFromRandom() const { return false; }
    /// Ships every weight (FU); otherwise the cost is that of a k-sparse update.
    virtual bool shipsFullModel() const { return false; }
    /// Keeps the server's fully trained model across rounds (error feedback): the runner hands
    /// it back as RoundInput::server and stores RoundOutput::server, deployed or not.
    virtual bool keepsServerModel() const { return false; }
    /// Trains one round. Throws Cancelled when the context asks to stop.
    virtual RoundOutput runRound(const RoundInput& in) = 0;
};

/// Creates a strategy by its plan name (see strategyNames()). Throws PlanError if unknown.
std::unique_ptr<Strategy> createStrategy(const std::string& name, const Plan& plan);

} // namespace dpu
