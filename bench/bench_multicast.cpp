// SPDX-License-Identifier: MIT
// Issue 41 item 5: the product's multicast (fleet simulation and linkRound) against the frame-level reference in the flagship scenario; prints the Markdown table of docs/benchmarks.md, section 23.
//
// Usage: bench_multicast [--reps 40] [--bytes 10000] [--spread 0.05]
#include "multicast/Flagship.h"
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using namespace mcref::flagship;

std::string name(const Case& c)
{
    std::string n = c.dutyCycle > 0.05 ? "10 %" : "1 %";
    n += c.deviceClass == dpu::LoRaDeviceClass::C ? ", Class C" : ", Class B p=" + std::to_string(c.pingPeriodicity);
    n += c.perSf ? ", per SF" : ", at SF12";
    if (c.spread > 0)
        n += ", loss +- " + std::to_string(static_cast<int>(c.spread * 100 + 0.5)) + " %";
    return n;
}

std::string ratio(double a, double b)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.3f", a / b);
    return std::isnan(a) || std::isnan(b) ? "-" : text;
}

/// Minutes, with the repetitions that reached the share where some did not.
std::string minutes(const mcref::Summary& s, int reps)
{
    char text[48];
    if (s.count < reps)
        std::snprintf(text, sizeof text, "%.1f (in %d of %d)", s.mean / 60, s.count, reps);
    else
        std::snprintf(text, sizeof text, "%.1f", s.mean / 60);
    return s.count == 0 ? "never" : text;
}

void row(const Case& c, int64_t bytes, int reps)
{
    const mcref::Repeated p = product(c, bytes, reps);
    const mcref::Repeated r = mcref::repeat(referenceFor(c, bytes, mcref::Decoding::DataPlus3), reps);
    const mcref::Repeated g = mcref::repeat(referenceFor(c, bytes, mcref::Decoding::Gf2), reps);
    const double analytic = analyticEnergy(c, bytes);
    std::printf("| %s | %.2f | %.2f (%.2f) | **%s** | %s | %s | %s | **%s** | %s / %s | %s / %s | %.1f / %.1f / %.1f %% |\n",
                name(c).c_str(), p.energyPerDevice.mean, r.energyPerDevice.mean, r.energyPerDevice.error,
                ratio(p.energyPerDevice.mean, r.energyPerDevice.mean).c_str(), ratio(analytic, r.energyPerDevice.mean).c_str(),
                minutes(p.timeTo90, reps).c_str(), minutes(r.timeTo90, reps).c_str(), ratio(p.timeTo90.mean, r.timeTo90.mean).c_str(),
                ratio(p.energyPerDevice.mean, g.energyPerDevice.mean).c_str(), ratio(p.timeTo90.mean, g.timeTo90.mean).c_str(),
                ratio(p.timeTo50.mean, r.timeTo50.mean).c_str(), ratio(p.timeTo50.mean, g.timeTo50.mean).c_str(),
                100 * p.decodedShare.mean, 100 * r.decodedShare.mean, 100 * g.decodedShare.mean);
    std::fflush(stdout);
}

} // namespace

int main(int argc, char** argv)
{
    int reps = 40;
    int64_t bytes = 10000;
    double spread = 0.05;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i];
        if (a == "--reps") reps = std::atoi(argv[i + 1]);
        else if (a == "--bytes") bytes = std::atoll(argv[i + 1]);
        else if (a == "--spread") spread = std::atof(argv[i + 1]);
    }
    std::printf("%d devices (FUOTASim's mix), EU868, %lld B, %.0f %% frame loss, no repair session; means over %d seeds "
                "(the reference's standard error of the energy in brackets)\n\n",
                kDevices, static_cast<long long>(bytes), kLoss * 100, reps);
    std::printf("| case | product J/device | reference J/device (s.e.) | product / reference | linkRound / reference | product t90 (min) "
                "| reference t90 (min) | product / reference | vs GF(2) decoding: J, t90 | t50 ratio: n+3, GF(2) | decoded: product / n+3 / GF(2) |\n");
    std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    std::vector<Case> cases;
    for (double duty : {0.1, 0.01})
        for (bool perSf : {false, true}) {
            cases.push_back(Case{duty, dpu::LoRaDeviceClass::C, 0, perSf, 0});
            for (int p : {0, 4, 7})
                cases.push_back(Case{duty, dpu::LoRaDeviceClass::B, p, perSf, 0});
        }
    for (double duty : {0.1, 0.01}) {
        cases.push_back(Case{duty, dpu::LoRaDeviceClass::C, 0, false, spread});
        cases.push_back(Case{duty, dpu::LoRaDeviceClass::B, 0, false, spread});
    }
    for (const Case& c : cases)
        row(c, bytes, reps);
    return 0;
}
