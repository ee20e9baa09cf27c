// SPDX-License-Identifier: MIT
// Loads and runs a TorchScript module; LibTorch errors become dpu::Error naming the file.
#include "models/ScriptNetwork.h"
#include "models/ScriptTensors.h"
#include "dpu/Error.h"
#include <caffe2/serialize/inline_container.h>
#include <caffe2/serialize/versions.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cerrno>
#include <csignal>
#include <filesystem>
#include <map>
#include <optional>
#include <sstream>
#include <utility>
#include <vector>

namespace dpu {

namespace {

constexpr const char* kNoReason = "LibTorch gave no reason: the file is damaged or not a TorchScript module";

bool endsWith(const std::string& s, const std::string& tail)
{
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

/// First non-empty line of a LibTorch message, with the place a compile error names: the rest is
/// an excerpt of the code or a C++ backtrace, which help nobody at a form field.
/// Never call it on a torch::jit::ErrorReport in this process: its what() builds the message
/// from the module's debug records, and on a damaged module that throws out of a noexcept
/// function, which ends the process (fuzz_torchscript's second finding, damaged_report.pt).
std::string reasonOf(const std::exception& e)
{
    const std::string text = e.what();
    const auto start = text.find_first_not_of("\n \t");
    if (start == std::string::npos)
        return kNoReason;
    const auto end = text.find('\n', start);
    std::string line = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    // A compile error's line ends "here:" (or ":") and an excerpt of the code follows, opening
    // with where it is: say where instead of pointing at lines that are not shown.
    if (end == std::string::npos || line.empty() || line.back() != ':')
        return line;
    const auto from = text.find_first_not_of("\n \t", end);
    const std::string opening = "File \"";
    if (from == std::string::npos || text.compare(from, opening.size(), opening) != 0)
        return line;
    const auto fileEnd = text.find("\", line ", from + opening.size());
    const auto lineEnd = text.find('\n', from);
    if (fileEnd == std::string::npos || (lineEnd != std::string::npos && fileEnd > lineEnd))
        return line;
    const std::string file = text.substr(from + opening.size(), fileEnd - from - opening.size());
    const std::string number = text.substr(fileEnd + 8, lineEnd == std::string::npos ? std::string::npos : lineEnd - fileEnd - 8);
    if (number.empty() || number.size() > 9 || number.find_first_not_of("0123456789") != std::string::npos)
        return line;
    line.resize(line.size() - (endsWith(line, " here:") ? 6 : 1));
    return line + " in " + file + ", line " + number;
}

/// The reason of an error from forward(): the interpreter's own errors open with a fixed line and
/// a traceback of the module's code, and end with the error itself.
std::string forwardReasonOf(const std::exception& e)
{
    const std::string text = e.what();
    if (text.rfind("The following operation failed in the TorchScript interpreter", 0) != 0)
        return reasonOf(e);
    const auto end = text.find_last_not_of("\n \t");
    const auto start = text.rfind('\n', end);
    return text.substr(start == std::string::npos ? 0 : start + 1, end - (start == std::string::npos ? 0 : start + 1) + 1);
}

/// Loads the module without its debug records (code/*.debug_pkl: which Python line each line of
/// its code came from). LibTorch reads them lazily, also when an error in forward() formats its
/// traceback, and damaged ones crash it there as during the load (damaged_source.pt,
/// damaged_pickle.pt; fuzz_torchscript_inprocess found the same in forward passes, which the
/// child does not run). Without them a traceback still shows the module's own code. The whole
/// archive is read before the copy is written (a writer left unfinished by an exception would
/// throw from its destructor). Files older than the oldest format LibTorch writes are refused: the
/// copy would raise their version and lose the upgraders their operators need, and loading them
/// as they are would read their debug records (fuzz_torchscript_inprocess damaged a version
/// record to reach that path, damaged_version.pt).
torch::jit::Module loadWithoutDebugRecords(const std::string& path)
{
    caffe2::serialize::PyTorchStreamReader reader(path);
    if (reader.version() < caffe2::serialize::kMinProducedFileFormatVersion)
        throw std::runtime_error("its format version " + std::to_string(reader.version()) + " is older than " +
                                 std::to_string(caffe2::serialize::kMinProducedFileFormatVersion) +
                                 ", which this LibTorch cannot load safely: save it again with torch.jit.save");
    std::vector<std::pair<std::string, std::tuple<at::DataPtr, size_t>>> records;
    for (const std::string& name : reader.getAllRecords())
        if (!endsWith(name, ".debug_pkl") && name != "version" && name != ".data/version") // the writer adds the version
            records.emplace_back(name, reader.getRecord(name));
    // Before LibTorch builds a tensor larger than its record (see recordProblem).
    std::map<std::string, ArchiveRecord> byName;
    for (const auto& [name, record] : records)
        byName[name] = {std::get<0>(record).get(), std::get<1>(record)};
    if (const std::string problem = recordProblem(byName, reader.version()); !problem.empty())
        throw std::runtime_error(problem);
    std::string archive;
    {
        caffe2::serialize::PyTorchStreamWriter writer([&archive](const void* data, size_t size) {
            archive.append(static_cast<const char*>(data), size);
            return size;
        });
        writer.setMinVersion(reader.version());
        for (const auto& [name, record] : records)
            writer.writeRecord(name, std::get<0>(record).get(), std::get<1>(record));
        writer.writeEndOfFile();
    }
    records.clear();
    std::istringstream in(std::move(archive));
    // Load on the CPU whatever device the module was saved from; the runner moves it.
    return torch::jit::load(in, torch::kCPU);
}

/// LibTorch 1.13 ends the process on some damaged files instead of throwing: its importer
/// reads out of bounds (SIGSEGV, damaged_crash.pt) or its error report throws from what()
/// (std::terminate, damaged_report.pt); both found by fuzz_torchscript. A damaged file must not
/// take the window or a run with it, so it is first loaded in a forked child, which also builds
/// the error message there. Returns why the child refused the file; nullopt when it loaded it or
/// could not tell (fork or pipe failed, or the child hung on a lock another thread held at the
/// fork): the caller then loads it in this process as before.
///
/// Only the fuzz build fuzz_torchscript_inprocess defines DPU_FUZZ_UNGUARDED_LOAD and so loads
/// without the child: under ASan the fork costs ten times the load, and libFuzzer's -fork mode
/// isolates that build instead; bench/fuzz.sh replays each input that ended one of its workers
/// through the guarded build, which must refuse it by name.
#ifndef DPU_FUZZ_UNGUARDED_LOAD
std::optional<std::string> refusedInChild(const std::string& path)
{
    int fds[2];
    if (pipe(fds) != 0)
        return std::nullopt;
    const pid_t child = fork();
    if (child < 0) {
        close(fds[0]);
        close(fds[1]);
        return std::nullopt;
    }
    if (child == 0) {
        close(fds[0]);
        // Die by the signal itself, even under a sanitizer's handler, so that the parent sees it.
        for (const int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT})
            std::signal(sig, SIG_DFL);
        // GNU OpenMP is not fork-safe: a parallel region in the child of a process that used its
        // threads waits for them forever (measured). One thread never opens one.
        at::set_num_threads(1);
        std::string reason;
        try {
            // what the parent then does, crashes and all: the check compiles code the load left
            damagedTensorOf(loadWithoutDebugRecords(path));
            _exit(0);
        } catch (const std::exception& e) {
            reason = reasonOf(e); // may end the child: the parent reports the signal
        } catch (...) {
            reason = kNoReason;
        }
        reason = reason.substr(0, 2000); // one write, under the pipe's buffer
        const ssize_t written = write(fds[1], reason.data(), reason.size());
        _exit(written >= 0 ? 1 : 2);
    }
    close(fds[1]);
    // The child's end closes when it ends, whichever way: wait for that (or its reason) rather
    // than polling its state, which added up to a poll interval to every check.
    pollfd ended{fds[0], POLLIN, 0};
    int ready = 0;
    do
        ready = poll(&ended, 1, 60 * 1000); // loading takes milliseconds
    while (ready < 0 && errno == EINTR);
    std::string reason;
    if (ready > 0) {
        char buf[2048];
        ssize_t n = 0;
        while ((n = read(fds[0], buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
            if (n > 0)
                reason.append(buf, static_cast<size_t>(n));
    } else {
        kill(child, SIGKILL);
    }
    int status = 0;
    pid_t got = 0;
    do
        got = waitpid(child, &status, 0);
    while (got < 0 && errno == EINTR);
    std::optional<std::string> refused;
    if (ready <= 0 || got != child) {
        // hung or lost: nullopt, the caller loads it here
    } else if (WIFSIGNALED(status)) {
        refused = "LibTorch crashed reading it (signal " + std::to_string(WTERMSIG(status)) +
                     "): the file is damaged or not a TorchScript module";
    } else if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
        // 1: LibTorch refused it and the reason came through the pipe; any other status: the
        // loader ended the child some other way (a sanitizer's or an allocator's limit): refused
        // too, rather than trying the same in this process.
        if (reason.empty())
            reason = WEXITSTATUS(status) == 1 ? std::string(kNoReason)
                                                  : "LibTorch ended reading it (exit status " +
                                                        std::to_string(WEXITSTATUS(status)) +
                                                        "): the file is damaged or not a TorchScript module";
        refused = reason;
    }
    close(fds[0]);
    return refused;
}
#endif

} // namespace

ScriptNetwork::ScriptNetwork(const std::string& path) : path_(path)
{
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        throw Error("TorchScript file " + path + ": no such file");
#ifndef DPU_FUZZ_UNGUARDED_LOAD // see refusedInChild
    if (const auto refused = refusedInChild(path))
        throw Error("TorchScript file " + path + ": cannot load: " + *refused);
#endif
    std::string damaged;
    try {
        module_ = loadWithoutDebugRecords(path); // as the child did
        // One that loads may still hold a tensor without data.
        damaged = damagedTensorOf(module_);
    } catch (const torch::jit::ErrorReport&) {
        throw Error("TorchScript file " + path + ": cannot load: its code does not compile in this LibTorch");
    } catch (const std::exception& e) {
        throw Error("TorchScript file " + path + ": cannot load: " + reasonOf(e));
    } catch (...) {
        throw Error("TorchScript file " + path + ": cannot load: " + kNoReason);
    }
    if (!damaged.empty())
        throw Error("TorchScript file " + path + ": cannot load: " + damaged);
    bool floating = false;
    for (const auto& p : module_.named_parameters(/*recurse=*/true))
        floating = floating || p.value.is_floating_point();
    if (!floating)
        throw Error("TorchScript file " + path + ": has no floating-point parameters to train");
}

torch::Tensor ScriptNetwork::forward(const torch::Tensor& images)
{
    c10::IValue out;
    try {
        out = module_.forward({images});
    } catch (const torch::jit::ErrorReport&) { // see reasonOf
        throw Error("TorchScript file " + path_ + ": forward failed: its code does not compile in this LibTorch");
    } catch (const std::exception& e) {
        throw Error("TorchScript file " + path_ + ": forward failed: " + forwardReasonOf(e));
    } catch (...) {
        throw Error("TorchScript file " + path_ + ": forward failed: " + kNoReason);
    }
    // Accept a (logits, ...) tuple as some exported classifiers return auxiliary outputs.
    if (out.isTuple() && !out.toTupleRef().elements().empty())
        out = out.toTupleRef().elements()[0];
    if (!out.isTensor())
        throw Error("TorchScript file " + path_ + ": forward must return a tensor of logits, got " +
                    out.tagKind());
    return out.toTensor();
}

void ScriptNetwork::setTraining(bool training)
{
    module_.train(training);
}

std::vector<NamedTensor> ScriptNetwork::parameters()
{
    std::vector<NamedTensor> out;
    for (const auto& p : module_.named_parameters(/*recurse=*/true))
        out.push_back({p.name, p.value});
    return out;
}

std::vector<NamedTensor> ScriptNetwork::buffers()
{
    std::vector<NamedTensor> out;
    for (const auto& b : module_.named_buffers(/*recurse=*/true))
        out.push_back({b.name, b.value});
    return out;
}

void ScriptNetwork::to(const torch::Device& device)
{
    module_.to(device);
}

} // namespace dpu
