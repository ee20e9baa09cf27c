// SPDX-License-Identifier: MIT
// UpdateBytes: a unit's first deployed round is its initial deployment, every later deployed round an update round.
#include "dpu/UpdateBytes.h"
#include <algorithm>

namespace dpu {

double roundBytes(const RoundRecord& r)
{
    if (!r.deployed)
        return 0;
    return r.bundleBytes <= 0 ? r.analyticBits / 8.0 : static_cast<double>(r.bundleBytes);
}

void UpdateBytes::addUnit(const std::vector<const RoundRecord*>& records)
{
    std::vector<const RoundRecord*> byRound = records;
    std::stable_sort(byRound.begin(), byRound.end(), [](const RoundRecord* a, const RoundRecord* b) { return a->round < b->round; });
    ++units_;
    bool installed = false;
    for (const RoundRecord* r : byRound) {
        if (!r->deployed)
            continue;
        const double bytes = roundBytes(*r);
        analytic_ = analytic_ || r->bundleBytes <= 0;
        if (!installed) {
            installed = true;
            ++deployedUnits_;
            initialBytes_ += bytes;
            continue;
        }
        ++updateRounds_;
        updateBytes_ += bytes;
        maxUpdate_ = std::max(maxUpdate_, bytes);
    }
}

} // namespace dpu
