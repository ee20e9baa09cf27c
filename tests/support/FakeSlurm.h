// SPDX-License-Identifier: MIT
// Slurm without Slurm for the sweep tests: a SlurmCommands that records every call and answers canned replies, and a sweep-folder fixture around it.
#pragma once
#include "dpu/SlurmSweep.h"
#include "dpu/Sweep.h"
#include <QTemporaryDir>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace dpu::test {

/// Stands in for Slurm: records every command, answers from canned replies keyed by argv[0]
/// (none: exit 0, no output). Thread-safe through reply()/calls()/count()/last(), so a window's
/// worker thread may use it while the test sets the next answer.
class FakeSlurm : public dpu::SlurmCommands {
public:
    dpu::SlurmCommandResult run(const std::vector<std::string>& argv) override
    {
        std::lock_guard<std::mutex> lock(mutex_);
        calls_.push_back(argv);
        const auto it = replies_.find(argv[0]);
        return it == replies_.end() ? dpu::SlurmCommandResult{} : it->second;
    }
    /// What `program` answers from now on.
    void reply(const std::string& program, dpu::SlurmCommandResult result)
    {
        std::lock_guard<std::mutex> lock(mutex_);
        replies_[program] = std::move(result);
    }
    std::vector<std::vector<std::string>> calls() const
    {
        std::lock_guard<std::mutex> lock(mutex_);
        return calls_;
    }
    int count(const std::string& program) const
    {
        std::lock_guard<std::mutex> lock(mutex_);
        int n = 0;
        for (const auto& c : calls_)
            n += c[0] == program;
        return n;
    }
    /// The latest call of `program` (empty when none).
    std::vector<std::string> last(const std::string& program) const
    {
        std::lock_guard<std::mutex> lock(mutex_);
        for (auto it = calls_.rbegin(); it != calls_.rend(); ++it)
            if ((*it)[0] == program)
                return *it;
        return {};
    }

private:
    mutable std::mutex mutex_;
    std::vector<std::vector<std::string>> calls_;
    std::map<std::string, dpu::SlurmCommandResult> replies_;
};

/// What every Slurm-backend test starts from: a temporary folder, the sweep, options pointing at
/// DIR/out and `program`, and a FakeSlurm whose sbatch accepts with job `jobId`.
struct SlurmSweepFixture {
    QTemporaryDir tmp;
    dpu::Sweep sweep;
    dpu::SlurmSweepOptions options;
    FakeSlurm slurm;

    SlurmSweepFixture(const std::string& sweepJson, const std::string& program, const std::string& jobId = "42")
        : sweep(dpu::parseSweep(sweepJson, "s.json"))
    {
        options.outDir = tmp.filePath(QStringLiteral("out")).toStdString();
        options.program = program;
        options.settings = sweep.slurm;
        slurm.reply("sbatch", {0, jobId + "\n", ""});
    }
    bool valid() const { return tmp.isValid(); }
};

} // namespace dpu::test
