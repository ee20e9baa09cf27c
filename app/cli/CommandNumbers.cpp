// SPDX-License-Identifier: MIT
// CommandNumbers: each numeric option of each dpu-cli command, its kind and range, chosen from what the engine can do.
#include "CommandNumbers.h"
#include "dpu/InternalCheck.h"

namespace dpu::cli {
namespace {

NumberOption whole(const char* name, double low, double high, const char* what, const char* zeroMeans = "")
{
    return {name, NumberKind::Integer, low, high, false, false, what, zeroMeans};
}

/// A real number; `ends` as in mathematics: "[]", "(]", "[)" or "()".
NumberOption real(const char* name, const char* ends, double low, double high, const char* what)
{
    return {name, NumberKind::Real, low, high, ends[0] == '(', ends[1] == ')', what, ""};
}

std::vector<NumberOption> operator+(std::vector<NumberOption> a, const std::vector<NumberOption>& b)
{
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

// Budgets in bytes: 1 TB per round is beyond any deployed model and well inside double's exact integers.
const NumberOption kBudget = real("--budget", "[]", 0, 1e12, "a number of bytes");
const NumberOption kClasses = whole("--classes", 1, 100000, "a number of classes");
const NumberOption kRunSeed = whole("--seed", 0, kMaxWholeOption, "a run seed");
const NumberOption kTarget = real("--target", "()", 0, 1, "a completion probability");

/// budget's and fleet's link model (dpu/LinkModel.h): LoRa's SF7..SF12 (0: the preset's or the
/// mix's), a duty cycle as validateLink() takes it, a frame loss below 1 (at 1 nothing arrives).
std::vector<NumberOption> linkOptions()
{
    return {whole("--sf", 7, 12, "a spreading factor", "the link's own"),
            real("--duty-cycle", "(]", 0, 1, "a share of time"),
            real("--loss", "[)", 0, 1, "a frame loss probability"),
            real("--loss-spread", "[)", 0, 1, "a spread of frame loss"),
            whole("--ping-periodicity", 0, 7, "a Class B ping periodicity")};
}

/// The device processor (dpu/DeviceCpu.h): 1 kHz .. 10 GHz, and currents and voltages of real parts
/// with room to spare; an apply's time and energy stay printable numbers.
std::vector<NumberOption> cpuOptions()
{
    return {real("--clock-mhz", "[]", 0.001, 10000, "a clock in MHz"),
            real("--cpi", "(]", 0, 100, "cycles per instruction"),
            real("--run-ma", "[]", 0, 10000, "a current in mA"),
            real("--volts", "(]", 0, 100, "a supply in volts")};
}

/// The fleet's targets (fleet.targets.*), as the plan field table bounds them.
std::vector<NumberOption> targetOptions()
{
    return {real("--fresh-share", "(]", 0, 1, "a share of the fleet"),
            real("--fresh-days", "(]", 0, 3650, "a number of days"),
            real("--accuracy-gap", "[]", 0, 100, "a number of accuracy points"),
            real("--battery-per-year", "(]", 0, 1000, "a share of a battery"),
            real("--airtime-per-day", "(]", 0, 86400, "a number of seconds per day")};
}

/// dpu-cli fleet's options (also report --fleet's), within the simulation's own limits (core's
/// dpu/Fleet.h: devices, drain rounds, staleness, repairs, round period, sample bytes): it follows
/// every device through every round, so 10^8 devices took 41 s and 4.4 GiB and every drain
/// round adds to its records.
std::vector<NumberOption> fleetOptions()
{
    return std::vector<NumberOption>{
               whole("--devices", 1, 1000000, "a number of devices"),
               real("--availability", "[]", 0, 1, "a trace file or a probability a device is on"),
               whole("--max-staleness", 1, 10000, "a number of versions", "never the full model"),
               whole("--repairs", 0, 100, "a number of repair sessions"),
               kTarget,
               real("--period", "[]", 1, 3.6e9, "a number of seconds between rounds"),
               whole("--drain", 0, 1000, "a number of rounds"),
               whole("--fleet-seed", 0, kMaxWholeOption, "a seed"),
               whole("--sample-bytes", 0, 1e9, "a number of bytes per sample"),
               kRunSeed}
           + linkOptions() + cpuOptions() + targetOptions();
}

/// fleet plan's (also report --fleet-plan's): fleet's, and the round periods to search (a list, each item read as one).
std::vector<NumberOption> fleetPlanOptions()
{
    return fleetOptions() + std::vector<NumberOption>{real("--periods", "[]", 1 / 3600.0, 1e6, "hours between rounds")};
}

/// budget's: positive budgets (0 bytes fit nothing), a window up to about three years, energy up
/// to 1 MJ (a AA cell holds about 10 kJ), devices the link model's round takes analytically.
std::vector<NumberOption> budgetOptions()
{
    return std::vector<NumberOption>{
               real("--bytes-per-round", "(]", 0, 1e12, "a number of bytes per round"),
               real("--bytes-total", "(]", 0, 1e15, "a number of bytes per run"),
               real("--window", "(]", 0, 1e8, "a number of seconds"),
               real("--energy", "(]", 0, 1e6, "a number of joules"),
               whole("--devices", 1, 100000000, "a number of devices"),
               kTarget}
           + linkOptions();
}

/// sweep run on Slurm: the command line's sbatch settings (0: the sweep file's) and the poll period.
std::vector<NumberOption> slurmOptions()
{
    return {real("--poll", "[]", 0.2, 3600, "a number of seconds"),
            whole("--cpus-per-task", 1, 1024, "a number of CPUs", "the sweep file's"),
            whole("--gpus-per-task", 1, 64, "a number of GPUs", "the sweep file's"),
            whole("--throttle", 1, 100000, "a number of tasks at once", "the sweep file's"),
            whole("--max-array", 1, 1000000, "a number of tasks per job array")};
}

std::vector<CommandNumbers> buildTable()
{
    const NumberOption version = whole("--from", 0, kMaxWholeOption, "an update version");
    NumberOption to = version, catchUp = version;
    to.name = "--to";
    catchUp.name = "--catchup";
    catchUp.what = "'all' or update versions";
    return {
        {{"models"}, {kClasses}},
        {{"cost"}, {real("--k", "(]", 0, 1, "an updating ratio"), kClasses, kBudget, real("--sparsity", "()", 0, 1, "a share of zeros")}},
        {{"bundle", "export"}, {kRunSeed, catchUp}},
        {{"bundle", "catchup"}, {kRunSeed, version, to}},
        {{"budget"}, budgetOptions()},
        {{"frontier"}, {kBudget}},
#ifdef DPU_CLI_HAS_REPORT
        {{"report"}, {kBudget}},
        {{"report", "--fleet"}, fleetOptions()},
        {{"report", "--fleet-plan"}, fleetPlanOptions()},
#endif
        {{"sweep", "run"}, {whole("--jobs", 1, 256, "a number of cells at once")}},
        {{"sweep", "run", "--backend", "slurm"}, slurmOptions()},
        {{"sweep", "cancel"}, {real("--wait", "[]", 0, 86400, "a number of seconds")}},
        {{"fleet"}, fleetOptions()},
        {{"fleet", "plan"}, fleetPlanOptions()},
    };
}

bool sameOption(const NumberOption& a, const NumberOption& b)
{
    return a.kind == b.kind && a.low == b.low && a.high == b.high && a.lowOpen == b.lowOpen && a.highOpen == b.highOpen
           && a.what == b.what && a.zeroMeans == b.zeroMeans;
}

} // namespace

const std::vector<CommandNumbers>& commandNumbers()
{
    static const std::vector<CommandNumbers> table = buildTable();
    return table;
}

std::vector<NumberOption> numberOptionsOf(const std::string& command)
{
    std::vector<NumberOption> out;
    for (const CommandNumbers& entry : commandNumbers()) {
        std::string words;
        for (const std::string& w : entry.words)
            words += (words.empty() ? "" : " ") + w;
        if (words.compare(0, command.size(), command) != 0 || (words.size() > command.size() && words[command.size()] != ' '))
            continue;
        for (const NumberOption& o : entry.options) {
            bool known = false;
            for (const NumberOption& seen : out)
                if (seen.name == o.name) {
                    DPU_INTERNAL_CHECK(sameOption(seen, o), "dpu-cli " + command + " describes " + o.name + " twice, differently");
                    known = true;
                }
            if (!known)
                out.push_back(o);
        }
    }
    return out;
}

} // namespace dpu::cli
