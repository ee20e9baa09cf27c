// SPDX-License-Identifier: MIT
// Learning-rate schedules per epoch.
#include "train/Schedule.h"
#include <algorithm>
#include <cmath>

namespace dpu {

double learningRate(const TrainSpec& spec, int epoch)
{
    const ScheduleSpec& s = spec.schedule;
    if (s.kind == ScheduleKind::Step) {
        const int step = s.stepEpochs > 0 ? s.stepEpochs : std::max(1, spec.epochs / 3);
        return spec.lr * std::pow(s.gamma, epoch / step);
    }
    if (s.kind == ScheduleKind::Cosine) {
        const double pi = 3.14159265358979323846;
        return spec.lr * 0.5 * (1.0 + std::cos(pi * epoch / std::max(1, spec.epochs)));
    }
    return spec.lr;
}

TrainSpec shortenedSpec(const TrainSpec& spec, int epochs)
{
    if (epochs <= 0 || epochs >= spec.epochs)
        return spec;
    TrainSpec s = spec;
    s.epochs = epochs;
    if (s.schedule.stepEpochs > 0) {
        const double scaled = static_cast<double>(spec.schedule.stepEpochs) * epochs / spec.epochs;
        s.schedule.stepEpochs = std::max(1, static_cast<int>(std::lround(scaled)));
    }
    return s;
}

} // namespace dpu
