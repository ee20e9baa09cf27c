// SPDX-License-Identifier: MIT
// Benchmark: refusing damaged TorchScript modules, with LibTorch's error backtraces and without.
//
// Usage: bench_script_errors [--module PATH] [--reps R]
// Damages the module (default tests/data/torchscript/tiny_mlp.pt) the way test_torchscript does
// (40 truncations, one byte changed every 211 bytes), then loads every damaged copy through
// ScriptNetwork (the product's path: the check process, then the load) R times with LibTorch's
// default backtrace fetcher and R times with dpu::omitLibTorchBacktraces()'s, alternating, and
// prints one JSON object: milliseconds per file (medians over the repetitions) and their ratio.
#include "dpu/Error.h"
#include "dpu/Process.h"
#include "models/ScriptNetwork.h"
#include <c10/util/Backtrace.h>
#include <c10/util/Logging.h>
#include <nlohmann/json.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <unistd.h> // getpid: GCC 13's standard library no longer pulls it in by the way
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

std::vector<char> readAll(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw std::runtime_error("bench_script_errors: cannot read " + path);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeAll(const std::string& path, const std::vector<char>& bytes)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out)
        throw std::runtime_error("bench_script_errors: cannot write " + path);
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

/// Loads every file once; returns milliseconds per file and counts the refusals.
double loadAll(const std::vector<std::string>& files, int& refused)
{
    refused = 0;
    const auto start = Clock::now();
    for (const auto& f : files) {
        try {
            dpu::ScriptNetwork net(f);
        } catch (const dpu::Error&) {
            ++refused;
        }
    }
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count() / double(files.size());
}

} // namespace

int main(int argc, char** argv)
{
    dpu::ensurePassiveOpenMP(argc, argv);
    std::string module = "tests/data/torchscript/tiny_mlp.pt";
    int reps = 5;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i];
        if (a == "--module")
            module = argv[i + 1];
        else if (a == "--reps")
            reps = std::max(1, std::atoi(argv[i + 1]));
    }
    try {
        const std::vector<char> good = readAll(module);
        const auto dir = std::filesystem::temp_directory_path() / ("bench-script-errors-" + std::to_string(getpid()));
        std::filesystem::create_directories(dir);
        std::vector<std::string> files;
        auto add = [&](const std::vector<char>& bytes) {
            files.push_back((dir / (std::to_string(files.size()) + ".pt")).string());
            writeAll(files.back(), bytes);
        };
        for (size_t cut = 0; cut < good.size(); cut += good.size() / 40)
            add(std::vector<char>(good.begin(), good.begin() + std::ptrdiff_t(cut)));
        for (size_t at = 7; at < good.size(); at += 211) {
            std::vector<char> bad = good;
            bad[at] = char(bad[at] ^ 0x5A);
            add(bad);
        }
        std::vector<double> with, without;
        int refusedWith = 0, refusedWithout = 0;
        for (int r = 0; r < reps; ++r) {
            c10::SetStackTraceFetcher([] { return c10::get_backtrace(/*frames_to_skip=*/1); }); // LibTorch's default
            with.push_back(loadAll(files, refusedWith));
            dpu::omitLibTorchBacktraces();
            without.push_back(loadAll(files, refusedWithout));
        }
        std::filesystem::remove_all(dir);
        const nlohmann::json out = {{"module", module},
                                    {"files", files.size()},
                                    {"refused", refusedWithout},
                                    {"reps", reps},
                                    {"ms_per_file_with_backtraces", median(with)},
                                    {"ms_per_file_without", median(without)},
                                    {"ratio_with_to_without", median(with) / median(without)}};
        if (refusedWith != refusedWithout)
            throw std::runtime_error("bench_script_errors: the two settings refused different files");
        std::cout << out.dump(2) << "\n";
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
    return 0;
}
