// SPDX-License-Identifier: MIT
// Availability traces: a CSV of device,round, or FedScale's client availability trace as JSON.
#include "dpu/Fleet.h"
#include "fleet/Text.h"
#include <nlohmann/json.hpp>
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <unordered_map>

namespace dpu {
namespace {

std::string trim(const std::string& s)
{
    const auto b = s.find_first_not_of(" \t\r");
    if (b == std::string::npos)
        return {};
    return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

bool parseRound(const std::string& text, int& out)
{
    if (text.empty() || text.size() > 9 || !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return false;
    out = std::stoi(text);
    return out >= 1;
}

} // namespace

bool AvailabilityTrace::available(size_t device, int round, double seconds) const
{
    if (!timed_)
        return std::binary_search(rounds_[device].begin(), rounds_[device].end(), round);
    const double t = std::fmod(std::max(0.0, seconds), finish_[device]);
    return std::any_of(intervals_[device].begin(), intervals_[device].end(),
                       [&](const Interval& i) { return i.from <= t && t <= i.to; });
}

AvailabilityTrace AvailabilityTrace::parseCsv(const std::string& text, const std::string& source)
{
    AvailabilityTrace trace;
    std::unordered_map<std::string, size_t> index;
    std::istringstream in(text);
    std::string line;
    int lineNumber = 0;
    bool first = true;
    while (std::getline(in, line)) {
        ++lineNumber;
        const std::string t = trim(line);
        if (t.empty() || t[0] == '#')
            continue;
        const auto comma = t.find(',');
        const std::string device = comma == std::string::npos ? t : trim(t.substr(0, comma));
        const std::string roundText = comma == std::string::npos ? std::string() : trim(t.substr(comma + 1));
        const bool header = first && fleet::lower(device) == "device" && fleet::lower(roundText) == "round";
        first = false;
        if (header)
            continue;
        int round = 0;
        if (comma == std::string::npos || device.empty() || !parseRound(roundText, round))
            throw LinkError(source + ":" + std::to_string(lineNumber),
                            "expected 'device,round' with a round of 1 or more, found '" + t + "'");
        auto [it, added] = index.emplace(device, trace.ids_.size());
        if (added) {
            trace.ids_.push_back(device);
            trace.rounds_.emplace_back();
        }
        trace.rounds_[it->second].push_back(round);
    }
    if (trace.ids_.empty())
        throw LinkError(source, "no 'device,round' lines");
    for (auto& rounds : trace.rounds_) {
        std::sort(rounds.begin(), rounds.end());
        rounds.erase(std::unique(rounds.begin(), rounds.end()), rounds.end());
    }
    return trace;
}

AvailabilityTrace AvailabilityTrace::parseFedScale(const std::string& text, const std::string& source)
{
    nlohmann::ordered_json doc;
    try {
        doc = nlohmann::ordered_json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        const auto upTo = std::min<size_t>(e.byte > 0 ? e.byte - 1 : 0, text.size());
        const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(upTo), '\n');
        throw LinkError(source + ":" + std::to_string(line), std::string("not a FedScale trace (JSON): ") + e.what());
    }
    if (!doc.is_object() || doc.empty())
        throw LinkError(source, "expected an object of clients, each {\"active\": [...], \"inactive\": [...], \"finish_time\": ...}");
    AvailabilityTrace trace;
    trace.timed_ = true;
    for (const auto& item : doc.items()) {
        // Named, not a structured binding: a lambda may not capture one before C++20 (clang refuses).
        const std::string& id = item.key();
        const auto& client = item.value();
        const std::string where = source + ": client '" + id + "'";
        const auto numbers = [&](const char* key) {
            const auto it = client.is_object() ? client.find(key) : client.end();
            if (it == client.end() || !it->is_array())
                throw LinkError(where, std::string("expected a list '") + key + "' of times in seconds");
            std::vector<double> out;
            for (const auto& v : *it) {
                if (!v.is_number() || !std::isfinite(v.get<double>()))
                    throw LinkError(where, std::string("'") + key + "' holds " + v.dump() + ", not a number of seconds");
                out.push_back(v.get<double>());
            }
            return out;
        };
        const std::vector<double> active = numbers("active");
        const std::vector<double> inactive = numbers("inactive");
        if (active.size() != inactive.size())
            throw LinkError(where, "'active' has " + std::to_string(active.size()) + " times, 'inactive' "
                                       + std::to_string(inactive.size()) + ": expected one inactive time per active one");
        const auto finish = client.find("finish_time");
        if (finish == client.end() || !finish->is_number() || !(finish->get<double>() > 0))
            throw LinkError(where, "expected 'finish_time', the trace's period in seconds (above 0)");
        std::vector<Interval> intervals;
        for (size_t i = 0; i < active.size(); ++i) {
            if (inactive[i] < active[i])
                throw LinkError(where, "interval " + std::to_string(i) + " ends (" + std::to_string(inactive[i])
                                           + " s) before it starts (" + std::to_string(active[i]) + " s)");
            intervals.push_back({active[i], inactive[i]});
        }
        trace.ids_.push_back(id);
        trace.intervals_.push_back(std::move(intervals));
        trace.finish_.push_back(finish->get<double>());
    }
    return trace;
}

AvailabilityTrace AvailabilityTrace::read(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw LinkError(path, std::string("cannot read the trace: ") + std::strerror(errno));
    std::ostringstream text;
    text << in.rdbuf();
    const std::string s = text.str();
    const auto first = s.find_first_not_of(" \t\r\n");
    return first != std::string::npos && s[first] == '{' ? parseFedScale(s, path) : parseCsv(s, path);
}

} // namespace dpu
