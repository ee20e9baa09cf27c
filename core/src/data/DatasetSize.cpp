// SPDX-License-Identifier: MIT
// readDatasetSize and checkSplitFits: sample counts from the kind's reader, and the split rule on them.
#include "dpu/DatasetSize.h"
#include "data/DataReaders.h"
#include "data/Dataset.h"
#include "dpu/Error.h"
#include <string>

namespace dpu {

namespace {

int64_t limited(int64_t count, int64_t limit)
{
    return limit > 0 && limit < count ? limit : count;
}

std::string withThousands(int64_t n)
{
    std::string s = std::to_string(n);
    for (int i = static_cast<int>(s.size()) - 3; i > (n < 0 ? 1 : 0); i -= 3)
        s.insert(static_cast<size_t>(i), ",");
    return s;
}

} // namespace

DatasetSize readDatasetSize(const DatasetSpec& spec)
{
    // The reader of the spec's kind (data/DataReaders.h) counts; the limits apply here.
    DatasetSize size = data::dataReader(spec.kind).size(spec);
    size.train = limited(size.train, spec.trainLimit);
    size.test = limited(size.test, spec.testLimit);
    return size;
}

int64_t trainingSamplesNeeded(const Plan& plan)
{
    const int rounds = plannedRounds(plan);
    return roundSamples(plan.split, rounds);
}

void checkSplitFits(const Plan& plan, const DatasetSize& size)
{
    const SplitSpec& s = plan.split;
    const std::string train = withThousands(size.train);
    if (s.initial > size.train)
        throw PlanError("split.initial", "expected at most " + train + " (the training split), found "
                                             + withThousands(s.initial));
    const int64_t needed = trainingSamplesNeeded(plan);
    if (needed > size.train) {
        const int fit = scheduledRounds(s, size.train);
        throw PlanError("split.rounds", "expected at most " + std::to_string(fit) + " rounds: "
                                            + std::to_string(s.rounds) + " rounds need |D1| + "
                                            + std::to_string(s.rounds - 1) + " × |ΔD| = " + withThousands(needed)
                                            + " training samples, the training split has " + train);
    }
    if (s.validation >= size.test)
        throw PlanError("split.validation", "expected fewer than " + withThousands(size.test)
                                                + " (the test split, so that test samples remain), found "
                                                + withThousands(s.validation));
}

} // namespace dpu
