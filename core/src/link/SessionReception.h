// SPDX-License-Identifier: MIT
// What a device gets out of an erasure-coded session: when it decodes (and leaves), what it heard, what it spent; per device loss, drawn or expected.
#pragma once
#include "dpu/LinkModel.h"
#include "link/Binomial.h"
#include <functional>
#include <map>
#include <tuple>
#include <vector>

namespace dpu::link {

/// The losses a link's devices have: frameLoss for all, or frameLoss +- frameLossSpread as
/// kLossClasses evenly spaced classes (the midpoints of equal shares of the spread), each as
/// likely. Tables per class keep the simulation's draws exact and portable.
constexpr int kLossClasses = 32;
std::vector<double> deviceLosses(const Link& link);

/// The loss class (index into deviceLosses()) of fleet device `device`: fixed for the device
/// over rounds (its place in the field), spread evenly over any run of devices (a Weyl sequence
/// from the seed, in integers), so that every SF group of a mix gets its share of each class.
int lossClassOf(uint64_t seed, int device, int classes);

/// One device's part of a session (or a repair).
struct Reception {
    int64_t missing = 0; ///< fragments it still lacks; 0: decoded
    double seconds = 0;  ///< from the session's start until it decoded (or the session's end)
    double frames = 0;   ///< frames it listened to
    double joules = 0;   ///< radio energy (listeningEnergy()), without the fixed session energy
};

/// Expectation over a link's devices of one round's sessions (linkRound()).
struct ExpectedReception {
    double completion = 0; ///< share of the devices that decode every part
    double seconds = 0;    ///< seconds a device listens
    double joules = 0;     ///< its radio energy, without the fixed session energy
};

/// The expectation for `parts` (linkRound()'s sessions) over deviceLosses(): each device decodes
/// at the frame that brings it data + decodeOverheadFragments fragments (negative binomial) and,
/// with leaveWhenDecoded, listens until then; one that does not decode listens to the end.
ExpectedReception expectedReception(const Link& link, const std::vector<LinkSessionPart>& parts);

/// The draws of the fleet simulation on one link: per loss class, the tables of the frames a
/// device needs and receives, built once.
class SessionReception {
public:
    explicit SessionReception(const Link& link);
    int lossClasses() const { return static_cast<int>(losses_.size()); }
    /// A device of `lossClass` in a round's sessions `parts`, one uniform draw per session from `draw`.
    Reception session(const std::vector<LinkSessionPart>& parts, int lossClass, const std::function<double()>& draw);
    /// A repair session of `frames` frames to a device still missing `missing` fragments.
    Reception repair(int64_t frames, int64_t missing, int lossClass, double u);
    /// Failed transmissions before `fragments` frames arrive (a retransmitting link).
    int64_t retransmissions(int64_t fragments, int lossClass, double u);

private:
    /// One session of `frames` frames for a device needing `need` of them, from one uniform draw
    /// (one per device and session, as the simulation's other draws): by inverse transform on
    /// the frames received, a draw in the binomial's tail below `need` gives the fragments it
    /// still misses; the rest of the draw, rescaled, picks the frame it decodes with.
    Reception part(int64_t frames, int64_t need, int lossClass, double u);
    const Distribution& table(bool needed, int64_t n, int lossClass);

    Link link_;
    std::vector<double> losses_;
    std::map<std::tuple<bool, int64_t, int>, Distribution> tables_;
};

} // namespace dpu::link
