// SPDX-License-Identifier: MIT
// Availability traces: a CSV of device,round, or FedScale's client availability trace as JSON.
#include "dpu/Fleet.h"
#include "link/Text.h"
#include <nlohmann/json.hpp>
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <unordered_map>
#include <unordered_set>

namespace dpu {
namespace {

std::string trim(const std::string& s)
{
    const auto b = s.find_first_not_of(" \t\r");
    if (b == std::string::npos)
        return {};
    return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

/// A value found in a file as a message shows it: cut after 60 characters, so that a line of a
/// megabyte does not become a message of a megabyte.
std::string shown(const std::string& s)
{
    return s.size() <= 60 ? s : s.substr(0, 60) + "...";
}

bool parseRound(const std::string& text, int& out)
{
    if (text.empty() || text.size() > 9 || !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return false;
    out = std::stoi(text);
    return out >= 1;
}

std::string tooManyDevices(const char* what)
{
    return std::string("names more than ") + std::to_string(kMaxTraceDevices) + " " + what
           + ", the most a fleet has (kMaxFleetDevices): the rest could never be read";
}

/// What a path that is not a regular file is, in words.
std::string kindOf(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a folder";
    if (S_ISFIFO(mode))
        return "a FIFO (named pipe)";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    return "a special file";
}

/// A trace is a regular file of at most kMaxTraceFileBytes: a FIFO or a device could block the
/// reader or never end (/dev/zero), a folder is no trace.
void requireTraceFile(const std::string& path, const struct stat& st)
{
    if (!S_ISREG(st.st_mode))
        throw LinkError(path, "is " + kindOf(st.st_mode) + ", not a regular file: a trace must be a file (CSV or FedScale JSON)");
    if (st.st_size > kMaxTraceFileBytes)
        throw LinkError(path, "the trace has " + std::to_string(static_cast<int64_t>(st.st_size)) + " bytes, over the limit of "
                                  + std::to_string(kMaxTraceFileBytes) + " (256 MiB)");
}

/// The file's bytes, after requireTraceFile() on the path and again on what was opened.
std::string readTraceFile(const std::string& path)
{
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        throw LinkError(path, std::string("cannot read the trace: ") + std::strerror(errno));
    requireTraceFile(path, st); // before open(): opening a FIFO for reading waits for a writer
    // O_NONBLOCK: should a FIFO take the file's place between stat() and open(), open() returns
    // at once instead of waiting; it changes nothing for a regular file.
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        throw LinkError(path, std::string("cannot read the trace: ") + std::strerror(errno));
    struct Closer {
        int fd;
        ~Closer() { ::close(fd); }
    } closer{fd};
    if (::fstat(fd, &st) != 0)
        throw LinkError(path, std::string("cannot read the trace: ") + std::strerror(errno));
    requireTraceFile(path, st);
    std::string text;
    text.reserve(static_cast<size_t>(st.st_size));
    char buffer[65536];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            throw LinkError(path, std::string("cannot read the trace: ") + std::strerror(errno));
        if (n == 0)
            return text;
        if (static_cast<int64_t>(text.size()) + n > kMaxTraceFileBytes) // it grew while being read
            throw LinkError(path, "the trace grew over the limit of " + std::to_string(kMaxTraceFileBytes) + " bytes (256 MiB) while being read");
        text.append(buffer, static_cast<size_t>(n));
    }
}

} // namespace

/// FedScale's JSON read event by event (nlohmann's SAX interface) straight into the trace: no
/// document tree, whose values cost 16 bytes and more each where the file spends 2 on "0,", and
/// the parser's position for the line of a syntax error or of a number beyond a double's range
/// (which nlohmann reports without a position otherwise).
class AvailabilityTrace::FedScaleReader {
public:
    using json = nlohmann::json;
    FedScaleReader(AvailabilityTrace& trace, const std::string& text, const std::string& source)
        : trace_(trace), text_(text), source_(source) {}

    bool null() { return scalar("null", false, 0); }
    bool boolean(bool b) { return scalar(b ? "true" : "false", false, 0); }
    bool number_integer(json::number_integer_t v) { return scalar(std::to_string(v), true, static_cast<double>(v)); }
    bool number_unsigned(json::number_unsigned_t v) { return scalar(std::to_string(v), true, static_cast<double>(v)); }
    bool number_float(json::number_float_t v, const json::string_t& text) { return scalar(text, true, v); }
    bool string(json::string_t& s) { return scalar("\"" + shown(s) + "\"", false, 0); }
    bool binary(json::binary_t&) { return scalar("binary data", false, 0); }
    bool start_object(std::size_t) { return open("an object"); }
    bool start_array(std::size_t) { return open("a list"); }
    bool end_object() { return close(); }
    bool end_array() { return close(); }
    bool key(json::string_t& k);
    bool parse_error(std::size_t position, const std::string& token, const json::exception& e);
    /// After the parse: a trace names at least one client.
    void finish() const;

private:
    enum class Field { None, Active, Inactive, Finish, Skip };
    bool scalar(const std::string& text, bool isNumber, double value);
    bool open(const char* what);
    bool close();
    void beginClient();
    void endClient();
    [[noreturn]] void failClient(const std::string& message) const;
    const char* fieldName() const { return field_ == Field::Active ? "active" : field_ == Field::Inactive ? "inactive" : "finish_time"; }

    AvailabilityTrace& trace_;
    const std::string& text_;
    const std::string& source_;
    int depth_ = 0;     ///< containers open: 1 the trace, 2 a client, 3 a client's list
    int skipFrom_ = -1; ///< the depth at which a field the trace does not use began (-1: none)
    Field field_ = Field::None;
    std::string client_;
    std::unordered_set<std::string> seen_;
    std::vector<double> active_, inactive_;
    double finish_ = NAN;
    bool hasActive_ = false, hasInactive_ = false;
};

void AvailabilityTrace::FedScaleReader::failClient(const std::string& message) const
{
    throw LinkError(source_ + ": client '" + shown(client_) + "'", message);
}

bool AvailabilityTrace::FedScaleReader::key(json::string_t& k)
{
    if (skipFrom_ >= 0)
        return true;
    if (depth_ == 1) {
        client_ = std::move(k);
        return true;
    }
    field_ = k == "active" ? Field::Active : k == "inactive" ? Field::Inactive : k == "finish_time" ? Field::Finish : Field::Skip;
    if ((field_ == Field::Active && hasActive_) || (field_ == Field::Inactive && hasInactive_)
        || (field_ == Field::Finish && !std::isnan(finish_)))
        failClient(std::string("'") + fieldName() + "' appears twice");
    return true;
}

bool AvailabilityTrace::FedScaleReader::scalar(const std::string& text, bool isNumber, double value)
{
    if (skipFrom_ >= 0)
        return true;
    if (depth_ == 0)
        throw LinkError(source_, "expected an object of clients, each {\"active\": [...], \"inactive\": [...], \"finish_time\": ...}, found " + shown(text));
    if (depth_ == 1)
        failClient("expected an object {\"active\": [...], \"inactive\": [...], \"finish_time\": ...}, found " + shown(text));
    if (depth_ == 3) {
        if (!isNumber || !std::isfinite(value))
            failClient(std::string("'") + fieldName() + "' holds " + shown(text) + ", not a number of seconds");
        (field_ == Field::Active ? active_ : inactive_).push_back(value);
        return true;
    }
    if (field_ == Field::Finish) {
        if (!isNumber || !std::isfinite(value) || !(value > 0))
            failClient("expected 'finish_time', the trace's period in seconds (above 0), found " + shown(text));
        finish_ = value;
    } else if (field_ != Field::Skip) {
        failClient(std::string("expected a list '") + fieldName() + "' of times in seconds, found " + shown(text));
    }
    field_ = Field::None;
    return true;
}

bool AvailabilityTrace::FedScaleReader::open(const char* what)
{
    if (skipFrom_ < 0) {
        const bool list = std::strcmp(what, "a list") == 0;
        if (depth_ == 0 && list)
            throw LinkError(source_, "expected an object of clients, each {\"active\": [...], \"inactive\": [...], \"finish_time\": ...}, found a list");
        if (depth_ == 1 && list)
            failClient("expected an object {\"active\": [...], \"inactive\": [...], \"finish_time\": ...}, found a list");
        if (depth_ == 1)
            beginClient();
        if (depth_ == 2 && field_ == Field::Skip)
            skipFrom_ = depth_; // a field the trace does not use ("model", "duration"): skipped whole
        else if (depth_ == 2 && (!list || field_ == Field::Finish))
            failClient(std::string("'") + fieldName() + "' holds " + what + ", expected "
                       + (field_ == Field::Finish ? "a number of seconds" : "a list of times in seconds"));
        else if (depth_ == 2)
            (field_ == Field::Active ? hasActive_ : hasInactive_) = true;
        if (depth_ == 3)
            failClient(std::string("'") + fieldName() + "' holds " + what + ", not a number of seconds");
    }
    ++depth_;
    return true;
}

bool AvailabilityTrace::FedScaleReader::close()
{
    --depth_;
    if (skipFrom_ >= 0) {
        if (depth_ == skipFrom_) {
            skipFrom_ = -1;
            field_ = Field::None;
        }
        return true;
    }
    if (depth_ == 1)
        endClient();
    field_ = Field::None;
    return true;
}

void AvailabilityTrace::FedScaleReader::beginClient()
{
    if (trace_.ids_.size() >= kMaxTraceDevices)
        throw LinkError(source_, tooManyDevices("clients"));
    if (!seen_.insert(client_).second)
        failClient("appears twice");
    active_.clear();
    inactive_.clear();
    hasActive_ = hasInactive_ = false;
    finish_ = NAN;
}

void AvailabilityTrace::FedScaleReader::endClient()
{
    if (!hasActive_ || !hasInactive_)
        failClient(std::string("expected a list '") + (hasActive_ ? "inactive" : "active") + "' of times in seconds");
    if (active_.size() != inactive_.size())
        failClient("'active' has " + std::to_string(active_.size()) + " times, 'inactive' " + std::to_string(inactive_.size())
                   + ": expected one inactive time per active one");
    if (std::isnan(finish_))
        failClient("expected 'finish_time', the trace's period in seconds (above 0)");
    for (size_t i = 0; i < active_.size(); ++i)
        if (inactive_[i] < active_[i])
            failClient("interval " + std::to_string(i) + " ends (" + link::number(inactive_[i]) + " s) before it starts ("
                       + link::number(active_[i]) + " s)");
    trace_.ids_.push_back(client_);
    active_.shrink_to_fit();
    inactive_.shrink_to_fit();
    trace_.active_.push_back(std::move(active_));
    trace_.inactive_.push_back(std::move(inactive_));
    trace_.finish_.push_back(finish_);
}

bool AvailabilityTrace::FedScaleReader::parse_error(std::size_t position, const std::string& token, const json::exception& e)
{
    const auto upTo = std::min<size_t>(position > 0 ? position - 1 : 0, text_.size());
    const auto line = 1 + std::count(text_.begin(), text_.begin() + static_cast<std::ptrdiff_t>(upTo), '\n');
    const std::string at = source_ + ":" + std::to_string(line);
    if (e.id == 406) // nlohmann's "number overflow": the number is beyond a double's range
        throw LinkError(at, "the number " + shown(token) + " is out of range (a time in seconds must fit a double, up to about 1.8e308)");
    std::string what = e.what();
    if (!what.empty() && what[0] == '[') // drop nlohmann's "[json.exception.parse_error.101] " tag
        what = what.substr(std::min(what.size(), what.find("] ") + 2));
    throw LinkError(at, "not a FedScale trace (JSON): " + what);
}

void AvailabilityTrace::FedScaleReader::finish() const
{
    if (trace_.ids_.empty())
        throw LinkError(source_, "expected an object of clients, each {\"active\": [...], \"inactive\": [...], \"finish_time\": ...}");
}

bool AvailabilityTrace::available(size_t device, int round, double seconds) const
{
    if (!timed_)
        return std::binary_search(rounds_[device].begin(), rounds_[device].end(), round);
    const double t = std::fmod(std::max(0.0, seconds), finish_[device]);
    const std::vector<double>& from = active_[device];
    const std::vector<double>& to = inactive_[device];
    for (size_t i = 0; i < from.size(); ++i)
        if (from[i] <= t && t <= to[i])
            return true;
    return false;
}

AvailabilityTrace AvailabilityTrace::parseCsv(const std::string& text, const std::string& source)
{
    AvailabilityTrace trace;
    std::unordered_map<std::string, size_t> index;
    int lineNumber = 0;
    bool first = true;
    // Line by line over the text itself, trimmed by position: a stream over it, or a copy of
    // each line, would copy a line of up to 256 MiB once more.
    for (size_t at = 0; at < text.size();) {
        const size_t end = std::min(text.find('\n', at), text.size());
        size_t b = at, e = end;
        at = end + 1;
        ++lineNumber;
        while (b < e && (text[b] == ' ' || text[b] == '\t' || text[b] == '\r'))
            ++b;
        while (e > b && (text[e - 1] == ' ' || text[e - 1] == '\t' || text[e - 1] == '\r'))
            --e;
        if (b == e || text[b] == '#')
            continue;
        const size_t comma = text.find(',', b);
        const auto found = [&] { return "found '" + shown(text.substr(b, std::min<size_t>(e - b, 61))) + "'"; };
        if (comma >= e)
            throw LinkError(source + ":" + std::to_string(lineNumber), "expected 'device,round' with a round of 1 or more, " + found());
        const std::string device = trim(text.substr(b, comma - b));
        const std::string roundText = trim(text.substr(comma + 1, std::min<size_t>(e - comma - 1, 16)));
        const bool header = first && link::lower(device) == "device" && link::lower(roundText) == "round";
        first = false;
        if (header)
            continue;
        int round = 0;
        if (device.empty() || e - comma - 1 > 16 || !parseRound(roundText, round))
            throw LinkError(source + ":" + std::to_string(lineNumber), "expected 'device,round' with a round of 1 or more, " + found());
        auto [it, added] = index.emplace(device, trace.ids_.size());
        if (added) {
            if (trace.ids_.size() >= kMaxTraceDevices)
                throw LinkError(source + ":" + std::to_string(lineNumber), tooManyDevices("devices"));
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
        rounds.shrink_to_fit();
    }
    return trace;
}

AvailabilityTrace AvailabilityTrace::parseFedScale(const std::string& text, const std::string& source)
{
    AvailabilityTrace trace;
    trace.timed_ = true;
    FedScaleReader reader(trace, text, source);
    nlohmann::json::sax_parse(text, &reader); // throws LinkError; strict: nothing may follow the object
    reader.finish();
    return trace;
}

AvailabilityTrace AvailabilityTrace::read(const std::string& path)
{
    const std::string s = readTraceFile(path);
    const auto first = s.find_first_not_of(" \t\r\n");
    return first != std::string::npos && s[first] == '{' ? parseFedScale(s, path) : parseCsv(s, path);
}

} // namespace dpu
