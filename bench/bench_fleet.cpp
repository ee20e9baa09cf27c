// SPDX-License-Identifier: MIT
// Issue 23, benchmarks 2 and 3: LoRa time on air against Semtech's formula, the FUOTA delivery times recomputed,
// and the fleet simulation's speed (10,000 devices x 100 rounds). Prints Markdown tables (docs/benchmarks.md, section 14).
//
// Usage: bench_fleet [--devices N] [--rounds R] [--reps K]
#include "dpu/Fleet.h"
#include "dpu/LinkModel.h"
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

namespace {

volatile uint64_t sink = 0;

/// AN1200.13 as printed (floating point, ceil, max), independent of the product's integer form.
double semtech(int sf, double bw, int pl, bool crc)
{
    const int de = std::pow(2.0, sf) / bw >= 0.016 ? 1 : 0;
    const double tsym = std::pow(2.0, sf) / bw;
    const double n = 8 + std::max(std::ceil((8.0 * pl - 4.0 * sf + 28 + 16 * crc) / (4.0 * (sf - 2 * de))) * 5, 0.0);
    return (8 + 4.25 + n) * tsym;
}

void timeOnAirTable()
{
    std::printf("### Time on air (ms): the product against Semtech's formula, EU868 125 kHz, CR 4/5, 8 preamble symbols\n\n");
    std::printf("| SF | PHY payload (B) | downlink (no CRC) | formula | uplink (CRC) | formula | largest difference |\n");
    std::printf("|---|---:|---:|---:|---:|---:|---:|\n");
    double worst = 0;
    for (int sf = 7; sf <= 12; ++sf) {
        const dpu::Link down = dpu::lorawanEu868(sf);
        const dpu::Link up = dpu::lorawanEu868Uplink(sf);
        std::vector<int> payloads{13, 24, 64, 128};
        if (std::find(payloads.begin(), payloads.end(), down.maxPayloadBytes + 13) == payloads.end())
            payloads.push_back(down.maxPayloadBytes + 13);
        for (int pl : payloads) {
            const double d = dpu::loraTimeOnAir(down.modulation, pl), fd = semtech(sf, 125e3, pl, false);
            const double u = dpu::loraTimeOnAir(up.modulation, pl), fu = semtech(sf, 125e3, pl, true);
            const double diff = std::max(std::fabs(d - fd), std::fabs(u - fu));
            worst = std::max(worst, diff);
            std::printf("| SF%d | %d%s | %.3f | %.3f | %.3f | %.3f | %.1e |\n", sf, pl, pl == down.maxPayloadBytes + 13 ? " (max)" : "",
                        d * 1e3, fd * 1e3, u * 1e3, fu * 1e3, diff * 1e3);
        }
    }
    std::printf("\nLargest difference over the table: %.1e ms.\n\n", worst * 1e3);
}

void fuotaTable()
{
    std::printf("### FUOTA delivery times recomputed: one multicast, max-size fragments, 10 %% sub-band\n\n");
    std::printf("fleet-facts figures: 10 KB with 10 %% redundancy SF12 110 min, SF10 27, SF9 11.5, SF8 5.6, SF7 3.2; "
                "100 KB 18.2 h .. 32 min. \"Product, 99 %%\": the redundancy linkRound() picks for 99 %% completion per "
                "device at 10 %% frame loss instead of a flat 10 %%.\n\n");
    std::printf("| SF | fragment (B) | frame airtime (ms) | 10 KB: fragments | +10 %% frames | wall (min) | product, 99 %% at 10 %% loss: frames | wall (min) | 100 KB: +10 %% frames | wall (min) | product, 99 %%: wall (min) |\n");
    std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (int sf = 12; sf >= 7; --sf) {
        dpu::Link link = dpu::lorawanEu868(sf, 0.1);
        const double frame = dpu::frameAirtime(link, link.maxPayloadBytes);
        const auto flat = [&](int64_t bytes) { return static_cast<int64_t>(std::ceil(dpu::fragmentsFor(link, bytes) * 1.1)); };
        dpu::Link lossy = link;
        lossy.frameLoss = 0.1;
        const dpu::LinkRound r10 = dpu::linkRound(lossy, 10240, 1);
        const dpu::LinkRound r100 = dpu::linkRound(lossy, 102400, 1);
        std::printf("| SF%d | %d | %.1f | %lld | %lld | %.1f | %lld | %.1f | %lld | %.1f | %.1f |\n", sf, dpu::fragmentDataBytes(link),
                    frame * 1e3, static_cast<long long>(dpu::fragmentsFor(link, 10240)), static_cast<long long>(flat(10240)),
                    flat(10240) * frame / 0.1 / 60, static_cast<long long>(r10.frames), r10.wallTime / 60,
                    static_cast<long long>(flat(102400)), flat(102400) * frame / 0.1 / 60, r100.wallTime / 60);
    }
    std::printf("\n");
}

dpu::FleetStrategy syntheticStrategy(int rounds)
{
    dpu::FleetStrategy s;
    s.name = "dpu";
    s.fullModelBytes = 2700000; // the MLP's full model (fp32)
    for (int r = 1; r <= rounds; ++r)
        s.versions.push_back({r, 0.70 + 0.002 * r, r == 1 ? 0 : 10240});
    return s;
}

void speed(int devices, int rounds, int reps)
{
    dpu::Link link = dpu::lorawanEu868(7, 0.01);
    link.frameLoss = 0.1;
    struct Variant {
        const char* name;
        dpu::CatchUpDelivery catchUp;
        bool perSf;
    };
    const Variant variants[] = {
        {"multicast, catch-up multicast per version", dpu::CatchUpDelivery::MulticastPerVersion, false},
        {"multicast per SF, catch-up multicast per version", dpu::CatchUpDelivery::MulticastPerVersion, true},
        {"multicast, catch-up unicast", dpu::CatchUpDelivery::Unicast, false},
    };
    std::printf("### Simulator speed: %d devices x %d rounds, one core\n\n", devices, rounds);
    std::printf("LoRaWAN EU868, FUOTASim's SF mix, 1 %% duty cycle, 10 %% frame loss, 80 %% availability, maximum staleness 10, "
                "1 repair session, versions of 10 KB every round; %d repetitions each. \"Per-frame draws alone\": the CPU "
                "time of only drawing each frame's fate for every listening device (one counter-based draw and a compare, "
                "as FUOTASim decides each frame), for the same number of frame receptions, in the same process: what the "
                "simulation's binomial tables save, not a whole simulation.\n\n", reps);
    std::printf("| policy | median wall (s) | min wall (s) | median CPU (s) | device-rounds per CPU s | frame receptions | per-frame draws alone (CPU s) |\n");
    std::printf("|---|---:|---:|---:|---:|---:|---:|\n");
    const dpu::FleetStrategy strategy = syntheticStrategy(rounds + 1);
    for (const Variant& v : variants) {
        dpu::FleetConfig config;
        dpu::FleetGroup g;
        g.devices = devices;
        g.link = link;
        g.sfMix = dpu::fuotaSimSpreadingFactorMix();
        g.availability = 0.8;
        config.groups.push_back(g);
        config.policy.catchUp = v.catchUp;
        config.policy.multicastPerSpreadingFactor = v.perSf;
        config.policy.maxStaleness = 10;
        config.seed = 1;
        std::vector<double> times, cpu;
        int64_t receptions = 0;
        for (int rep = 0; rep < reps; ++rep) {
            const auto t0 = std::chrono::steady_clock::now();
            const std::clock_t c0 = std::clock();
            const dpu::FleetResult r = dpu::simulateFleet(config, strategy);
            cpu.push_back(static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC);
            times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
            receptions = 0;
            for (const dpu::FleetRound& round : r.rounds)
                receptions += round.receptions;
        }
        std::sort(times.begin(), times.end());
        std::sort(cpu.begin(), cpu.end());
        // The comparator: one draw per frame and device.
        const std::clock_t c0 = std::clock();
        uint64_t state = 1, received = 0;
        for (int64_t i = 0; i < receptions; ++i) {
            state += 0x9E3779B97F4A7C15ULL;
            uint64_t z = state;
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
            received += ((z ^ (z >> 31)) >> 11) * 0x1.0p-53 >= 0.1;
        }
        const double naive = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
        sink = received; // keeps the loop
        const double medianCpu = cpu[cpu.size() / 2];
        std::printf("| %s | %.3f | %.3f | %.3f | %.2e | %.3e | %.3f |\n", v.name, times[times.size() / 2], times.front(), medianCpu,
                    static_cast<double>(devices) * rounds / medianCpu, static_cast<double>(receptions), naive);
    }
    std::printf("\n");
}

} // namespace

int main(int argc, char** argv)
{
    int devices = 10000, rounds = 100, reps = 5;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--devices"))
            devices = std::atoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--rounds"))
            rounds = std::atoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--reps"))
            reps = std::atoi(argv[i + 1]);
    }
    timeOnAirTable();
    fuotaTable();
    speed(devices, rounds, std::max(1, reps));
    return 0;
}
