// SPDX-License-Identifier: MIT
// dpu-cli's numbers, in-process: every numeric option of every command, walked from the one table, refuses NaN, infinities and out-of-range values by name; the issues' cases by their messages.
#include "ArgList.h"
#include "CliCommands.h"
#include "CommandNumbers.h"
#include "NumberOption.h"
#include "dpu/Error.h"
#include <QtTest/QtTest>
#include <charconv>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using dpu::cli::CommandNumbers;
using dpu::cli::NumberKind;
using dpu::cli::NumberOption;

/// How one in-process call of a command ended.
struct Outcome {
    enum Kind { Returned, Usage, Internal, Other } kind = Returned;
    std::string message;
};

/// `words` (command, subcommand, ...) then `more`, as `dpu-cli WORDS... MORE...` would run them.
Outcome call(const std::vector<std::string>& words, const std::vector<std::string>& more = {})
{
    std::vector<std::string> args(words.begin() + 1, words.end());
    args.insert(args.end(), more.begin(), more.end());
    try {
        dpu::cli::dispatchCommand(words.front(), args);
        return {};
    } catch (const dpu::cli::UsageError& e) {
        return {Outcome::Usage, e.what()};
    } catch (const std::logic_error& e) { // ArgList's InternalError (a number read without a description), or any defect
        return {Outcome::Internal, e.what()};
    } catch (const std::exception& e) {
        return {Outcome::Other, e.what()};
    }
}

std::string text(double v)
{
    char buf[64];
    const auto end = std::to_chars(buf, buf + sizeof buf, v).ptr; // the same in every locale
    return std::string(buf, end);
}

std::string joined(const std::vector<std::string>& words)
{
    std::string out;
    for (const std::string& w : words)
        out += (out.empty() ? "" : " ") + w;
    return out;
}

/// The test's own reading of a description (not the library's): whether `v` is to be accepted.
bool accepted(const NumberOption& o, double v)
{
    if (!std::isfinite(v) || (o.kind == NumberKind::Integer && v != std::floor(v)))
        return false;
    if (v == 0 && !o.zeroMeans.empty())
        return true;
    return (o.lowOpen ? v > o.low : v >= o.low) && (o.highOpen ? v < o.high : v <= o.high);
}

/// The values every option is tried with: the issue's, one past the range, and for a whole-number
/// option one that is not whole (inside the range otherwise).
std::vector<std::pair<std::string, double>> valuesFor(const NumberOption& o)
{
    std::vector<std::pair<std::string, double>> values{{"nan", NAN}, {"inf", INFINITY}, {"-inf", -INFINITY},
                                                       {"1e308", 1e308}, {"-1", -1}, {"0", 0}};
    const double past = o.high + std::max(1.0, std::abs(o.high));
    values.push_back({text(past), past});
    if (o.kind == NumberKind::Integer)
        values.push_back({text(o.low + 0.5), o.low + 0.5});
    return values;
}

/// What is wrong with `got` for `option` = `value` (empty: nothing).
std::string judge(const NumberOption& o, const std::string& value, bool shouldAccept, const Outcome& got)
{
    if (got.kind == Outcome::Internal || (got.kind == Outcome::Other && !shouldAccept))
        return "ended with an error that is no usage error: " + got.message;
    const bool namesOption = got.kind == Outcome::Usage && got.message.rfind(o.name + ":", 0) == 0;
    if (shouldAccept)
        return namesOption ? "refused a value in range: " + got.message : std::string();
    if (got.kind != Outcome::Usage)
        return "accepted it";
    if (!namesOption || got.message.find(dpu::cli::rangeText(o)) == std::string::npos
        || got.message.find("found '" + value + "'") == std::string::npos)
        return "refused without naming the option, its range (" + dpu::cli::rangeText(o) + ") and the value: " + got.message;
    return {};
}

/// Expects `words` to be refused with exactly `message`.
void expectRefusal(const std::vector<std::string>& words, const std::string& message)
{
    const Outcome got = call(words);
    QVERIFY2(got.kind == Outcome::Usage && got.message == message,
             qPrintable(QString::fromStdString(joined(words) + ":\n  got      " + got.message + "\n  expected " + message)));
}

/// Expects `words` to be refused by a usage error that starts with `start`.
void expectRefusalStarting(const std::vector<std::string>& words, const std::string& start)
{
    const Outcome got = call(words);
    QVERIFY2(got.kind == Outcome::Usage && got.message.rfind(start, 0) == 0,
             qPrintable(QString::fromStdString(joined(words) + ": " + got.message)));
}

} // namespace

class TestCliNumbers : public QObject {
    Q_OBJECT
private Q_SLOTS:
    /// The walk: each option of each command of the table, with each value, in-process.
    void everyNumericOptionRefusesWhatIsOutOfRange()
    {
        std::vector<std::string> failures;
        int calls = 0;
        for (const CommandNumbers& command : dpu::cli::commandNumbers())
            for (const NumberOption& o : command.options)
                for (const auto& [value, v] : valuesFor(o)) {
                    const Outcome got = call(command.words, {o.name, value});
                    ++calls;
                    const std::string wrong = judge(o, value, accepted(o, v), got);
                    if (!wrong.empty())
                        failures.push_back("dpu-cli " + joined(command.words) + " " + o.name + " " + value + ": " + wrong);
                }
        std::string all;
        for (const std::string& f : failures)
            all += f + "\n";
        QVERIFY2(failures.empty(), qPrintable(QString::fromStdString(all)));
        QVERIFY2(calls > 300, qPrintable(QString::number(calls))); // the table is not empty
    }

    /// Each entry of the table is a command, and no command describes one name twice.
    void theTableDescribesCommands()
    {
        for (const CommandNumbers& command : dpu::cli::commandNumbers()) {
            QVERIFY2(dpu::cli::isCommand(command.words.front()), command.words.front().c_str());
            QVERIFY(!command.options.empty());
            const std::vector<NumberOption> options = dpu::cli::numberOptionsOf(joined(command.words));
            for (size_t i = 0; i < options.size(); ++i) {
                QVERIFY2(options[i].low < options[i].high, options[i].name.c_str());
                for (size_t j = i + 1; j < options.size(); ++j)
                    QVERIFY2(options[i].name != options[j].name, options[i].name.c_str());
            }
        }
        QVERIFY_THROWS_EXCEPTION(dpu::cli::UsageError, dpu::cli::dispatchCommand("frobnicate", {}));
    }

    /// Every command and subcommand, called bare, reads its numbers only through the table: a
    /// number read that the table lacks is an internal error, whichever test meets it.
    void everyCommandReadsOnlyDescribedNumbers()
    {
        const std::vector<std::vector<std::string>> commands{
            {"run"}, {"models"}, {"cost"}, {"plan"}, {"bundle", "inspect"}, {"bundle", "verify"}, {"bundle", "export"},
            {"bundle", "catchup"}, {"bundle", "keygen"}, {"budget"}, {"frontier"}, {"report"}, {"report", "--fleet"}, {"report", "--fleet-plan"},
            {"sweep", "run"}, {"sweep", "run", "--backend", "slurm"}, {"sweep", "status"}, {"sweep", "cancel"},
            {"sweep", "merge"}, {"sweep", "task"}, {"fleet"}, {"fleet", "plan"}, {"data"}};
        for (const auto& words : commands) {
            const Outcome got = call(words);
            QVERIFY2(got.kind != Outcome::Internal, qPrintable(QString::fromStdString(joined(words) + ": " + got.message)));
        }
    }

    void argListRefusesAnUndescribedNumber()
    {
        dpu::cli::ArgList none({"--frobs", "3"});
        QVERIFY_THROWS_EXCEPTION(dpu::InternalError, none.real("--frobs"));
        QVERIFY_THROWS_EXCEPTION(dpu::InternalError, none.integer("--frobs"));
        dpu::cli::ArgList cost({"--k", "0.5"}, dpu::cli::numberOptionsOf("cost"));
        QVERIFY_THROWS_EXCEPTION(dpu::InternalError, cost.integer("--k")); // a real option read as whole
        QCOMPARE(cost.real("--k", 0.01), 0.5);
        QCOMPARE(cost.real("--k", 0.01), 0.01); // taken once
    }

    void numbersAreReadStrictly()
    {
        const NumberOption classes = dpu::cli::numberOptionsOf("cost")[1];
        QVERIFY(classes.name == "--classes");
        QCOMPARE(dpu::cli::parseNumber(classes, "+12"), 12.0);
        QCOMPARE(dpu::cli::parseNumber(classes, "1e3"), 1000.0);
        for (const char* bad : {"", " 12", "12 ", "0x10", "1e", "12abc", "2.5", "1e400", "-1e400", "100001", "nan", "++1"})
            QVERIFY_THROWS_EXCEPTION(dpu::cli::UsageError, dpu::cli::parseNumber(classes, bad));
    }

    /// The cases of issues 45 and 46, by their messages.
    void theIssuesCasesAreRefusedByName()
    {
        expectRefusal({"cost", "--classes", "1e12"}, "--classes: expected a number of classes from 1 to 100000, found '1e12'");
        expectRefusal({"cost", "--budget", "nan"}, "--budget: expected a number of bytes from 0 to 1e+12, found 'nan'");
        expectRefusal({"cost", "--budget", "1e308"}, "--budget: expected a number of bytes from 0 to 1e+12, found '1e308'");
        expectRefusal({"cost", "--model", "vgg", "--input", "3x100000x100000"},
                      "--input: expected CxHxW such as 1x28x28, whole numbers from 1 up with at most 16777216 values in "
                      "all (C x H x W), found '3x100000x100000'");
        for (const char* shape : {"3x28", "3x28x28x", "0x28x28", "3x2.5x28", "3xnanx28", "1x16777217x1", "4096x4096x2"})
            expectRefusalStarting({"cost", "--input", shape}, "--input: expected CxHxW");
        // Within the input's bound, but VGG's first classifier layer would hold 137 GB: refused before building.
        expectRefusalStarting({"cost", "--model", "vgg", "--input", "3x2048x2048"},
                              "--input: vgg on 3x2048x2048 would have a layer of 34359738368 weights (137 GB in FP32)");
        expectRefusal({"budget", "RUN", "--link", "lorawan-eu868", "--window", "nan"},
                      "--window: expected a number of seconds in (0, 1e+08], found 'nan'");
        expectRefusalStarting({"budget", "RUN", "--bytes-per-round", "nan"}, "--bytes-per-round: expected");
        expectRefusal({"budget", "RUN", "--link", "lorawan-eu868", "--window", "3600", "--sf", "1e308"},
                      "--sf: expected a spreading factor from 7 to 12, or 0 (the link's own), found '1e308'");
        expectRefusal({"fleet", "RUN", "--max-staleness", "1e18"},
                      "--max-staleness: expected a number of versions from 1 to 10000, or 0 (never the full model), found '1e18'");
        expectRefusal({"fleet", "RUN", "--cpu", "cortex-m4", "--clock-mhz", "1e-300", "--run-ma", "1"},
                      "--clock-mhz: expected a clock in MHz from 0.001 to 10000, found '1e-300'");
        expectRefusal({"fleet", "RUN", "--devices", "1e8"}, "--devices: expected a number of devices from 1 to 1000000, found '1e8'");
        expectRefusal({"fleet", "RUN", "--drain", "1e9"}, "--drain: expected a number of rounds from 0 to 1000, found '1e9'");
        // A value given is never "not given".
        for (const char* option : {"--devices", "--loss", "--duty-cycle", "--period", "--seed", "--availability"})
            expectRefusalStarting({"fleet", "RUN", option, "nan"}, std::string(option) + ": expected");
        expectRefusalStarting({"bundle", "export", "RUN", "--out", "DIR", "--catchup", "0,nan"}, "--catchup: expected");
        expectRefusalStarting({"sweep", "run", "S.json", "--out", "DIR", "--backend", "slurm", "--max-array", "0"}, "--max-array: expected");
    }

    /// Values in range still work, written as users write them.
    void valuesInRangeStillWork()
    {
        for (const std::vector<std::string>& words : std::vector<std::vector<std::string>>{
                 {"cost", "--classes", "1e2", "--k", "+0.5", "--budget", "0"}, {"cost", "--model", "resnet20", "--input", "3x64x64"}}) {
            const Outcome got = call(words);
            QVERIFY2(got.kind == Outcome::Returned, qPrintable(QString::fromStdString(joined(words) + ": " + got.message)));
        }
        // The options are fine: what is missing is the run folder.
        const Outcome fleet = call({"fleet", "--devices", "1000000", "--drain", "1000", "--sf", "0", "--availability", "1"});
        QVERIFY2(fleet.kind == Outcome::Usage && fleet.message.rfind("fleet needs at least one run folder", 0) == 0, fleet.message.c_str());
    }
};

QTEST_GUILESS_MAIN(TestCliNumbers)
#include "test_cli_numbers.moc"
