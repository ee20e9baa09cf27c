// SPDX-License-Identifier: MIT
// LoRa time on air by Semtech's formula (AN1200.13, the SX127x/SX126x datasheets).
#include "dpu/LinkModel.h"
#include <cmath>

namespace dpu {

double loraTimeOnAir(const LoRaModulation& m, int phyPayloadBytes)
{
    const int sf = m.spreadingFactor;
    const int de = m.lowDataRateOptimize ? 1 : 0;
    const int ih = m.explicitHeader ? 0 : 1;
    const int crc = m.payloadCrc ? 1 : 0;
    const double symbol = std::ldexp(1.0, sf) / m.bandwidthHz;
    const int numerator = 8 * phyPayloadBytes - 4 * sf + 28 + 16 * crc - 20 * ih;
    const int denominator = 4 * (sf - 2 * de);
    const int blocks = numerator > 0 ? (numerator + denominator - 1) / denominator : 0;
    const int payloadSymbols = 8 + blocks * (m.codingRate + 4);
    return (m.preambleSymbols + 4.25 + payloadSymbols) * symbol;
}

double loraBitRate(const LoRaModulation& m)
{
    const int bitsPerSymbol = m.spreadingFactor - (m.lowDataRateOptimize ? 2 : 0);
    return bitsPerSymbol * m.bandwidthHz / std::ldexp(1.0, m.spreadingFactor) * 4.0 / (4.0 + m.codingRate);
}

} // namespace dpu
