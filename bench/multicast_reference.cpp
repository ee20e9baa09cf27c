// SPDX-License-Identifier: MIT
// The frame-level multicast reference on its own: one FUOTA session (or one per SF) to a FUOTASim-mix fleet, repeated over seeds; prints energy per device, time to 50/90 % and the decoded share.
//
// Usage: multicast_reference [--devices 200] [--bytes 10000] [--duty-cycle 0.01] [--loss 0.1] [--spread 0]
//                            [--class c|b] [--ping-periodicity 0..7] [--per-sf] [--stay] [--decoding n3|gf2]
//                            [--redundancy 0.3 | --frames M7,M8,M9,M10,M11,M12] [--reps 50]
#include "multicast/ReferenceRuns.h"
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>

namespace {

[[noreturn]] void usage(const char* why)
{
    std::fprintf(stderr, "multicast_reference: %s\n(see the usage at the top of bench/multicast_reference.cpp)\n", why);
    std::exit(2);
}

std::vector<int> framesList(const std::string& text)
{
    std::vector<int> frames;
    std::stringstream in(text);
    for (std::string item; std::getline(in, item, ',');)
        frames.push_back(std::atoi(item.c_str()));
    if (frames.size() != 6)
        usage("--frames takes six counts, SF7 .. SF12");
    return frames;
}

void print(const char* name, const mcref::Summary& s, double scale, const char* unit)
{
    std::printf("%-18s %12.4f +- %.4f %s (%d of the repetitions)\n", name, s.mean * scale, s.error * scale, unit, s.count);
}

} // namespace

int main(int argc, char** argv)
{
    mcref::Scenario s;
    int devices = 200, reps = 50;
    double redundancy = 0.3;
    std::vector<int> frames;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const auto value = [&] { return i + 1 < argc ? std::string(argv[++i]) : (usage(("no value after " + a).c_str()), std::string()); };
        if (a == "--devices") devices = std::atoi(value().c_str());
        else if (a == "--bytes") s.bytes = std::atoll(value().c_str());
        else if (a == "--duty-cycle") s.dutyCycle = std::atof(value().c_str());
        else if (a == "--loss") s.loss = std::atof(value().c_str());
        else if (a == "--spread") s.lossSpread = std::atof(value().c_str());
        else if (a == "--class") s.deviceClass = value() == "b" ? mcref::DeviceClass::B : mcref::DeviceClass::C;
        else if (a == "--ping-periodicity") s.pingPeriodicity = std::atoi(value().c_str());
        else if (a == "--per-sf") s.sessionPerSf = true;
        else if (a == "--stay") s.leaveWhenDecoded = false;
        else if (a == "--decoding") s.decoding = value() == "gf2" ? mcref::Decoding::Gf2 : mcref::Decoding::DataPlus3;
        else if (a == "--redundancy") redundancy = std::atof(value().c_str());
        else if (a == "--frames") frames = framesList(value());
        else if (a == "--reps") reps = std::atoi(value().c_str());
        else usage(("unknown option " + a).c_str());
    }
    if (frames.empty())
        for (int sf = 7; sf <= 12; ++sf) {
            const int data = mcref::eu868Payload(sf) - 3;
            const auto n = static_cast<int>((s.bytes + data - 1) / data);
            frames.push_back(n + static_cast<int>(std::ceil(n * redundancy)));
        }
    s.groups = mcref::fuotaSimGroups(devices, frames);
    const mcref::Repeated r = mcref::repeat(s, reps);
    print("energy/device", r.energyPerDevice, 1, "J");
    print("time to 50 %", r.timeTo50, 1 / 60.0, "min");
    print("time to 90 %", r.timeTo90, 1 / 60.0, "min");
    print("decoded share", r.decodedShare, 100, "%");
    print("last frame end", r.lastFrameEnd, 1 / 60.0, "min");
    return 0;
}
