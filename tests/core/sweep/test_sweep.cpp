// SPDX-License-Identifier: MIT
// Sweep files: expansion order, content-derived ids, errors that name the file and axis, the folder's states and merge.
#include "TestSupport.h"
#include "dpu/Error.h"
#include "dpu/LocalSweep.h"
#include "dpu/RunControl.h"
#include "dpu/Sweep.h"
#include "dpu/SweepControl.h"
#include "dpu/SweepStatus.h"
#include <QDir>
#include <QFileDevice>
#include <QFile>
#include <QTemporaryDir>
#include <nlohmann/json.hpp>
#include <atomic>
#include <chrono>
#include <fstream>
#include <set>
#include <thread>

namespace {

const char kSweep[] = R"({"base": {"name": "s", "split": {"rounds": 2}, "strategies": ["dpu"]},
    "axes": {"k": [0.005, 0.01], "bundle.values": ["fp32", "q8"], "seeds": [[1], [2], [3]]}})";

void writeFile(const QString& path, const std::string& text)
{
    std::ofstream(path.toStdString(), std::ios::binary) << text;
}

std::string readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll().toStdString() : std::string();
}
std::string readAll(const std::string& path)
{
    return readAll(QString::fromStdString(path));
}

// The message of the Error that parseSweep throws on `text` (empty when it throws none).
std::string errorOf(const std::string& text)
{
    try {
        dpu::parseSweep(text, "my-sweep.json");
    } catch (const dpu::Error& e) {
        return e.what();
    }
    return {};
}

// Stands in for dpu-cli in the local backend's tests: records its arguments and OMP_NUM_THREADS,
// fails the cell of k = 0.02, finishes the others.
const char kFakeRunner[] = R"(#!/bin/sh
dir="$4"
echo "$OMP_NUM_THREADS" > "$dir/threads"
echo "$@" > "$dir/args"
if grep -q '"k": 0.02,' "$2"; then exit 3; fi
echo '{"state": "finished", "rounds": 1, "partial_weights": 1, "dense_weights": 1}' > "$dir/run.json"
)";

struct CountingObserver : dpu::LocalSweepObserver {
    int started = 0, ended = 0, threads = 0;
    std::vector<dpu::CellState> states;
    void sweepStarted(size_t, size_t, int, int threadsPerCell, int) override { threads = threadsPerCell; }
    void cellStarted(const dpu::SweepCell&) override { ++started; }
    void cellEnded(const dpu::SweepCell&, dpu::CellState state, int, double) override
    {
        ++ended;
        states.push_back(state);
    }
};

/// Waits on another thread until `held` turns true, then for `seconds`, then does `then`: a
/// button pressed while a sweep is paused.
template <class Then>
std::thread afterPause(const std::atomic<bool>& held, double seconds, Then then)
{
    return std::thread([&held, seconds, then] {
        while (!held.load())
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
        then();
    });
}

} // namespace

class TestSweep : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void expandsTheCartesianProductInFileOrder()
    {
        const dpu::Sweep s = dpu::parseSweep(kSweep, "my-sweep.json");
        QCOMPARE(s.axes.size(), size_t(3));
        QCOMPARE(s.axes[0].key, std::string("k"));
        QCOMPARE(s.axes[1].key, std::string("bundle.values"));
        QCOMPARE(s.cells.size(), size_t(2 * 2 * 3));
        // The last axis varies fastest.
        QCOMPARE(s.cells[0].plan.k, 0.005);
        QCOMPARE(dpu::nameOf(s.cells[0].plan.bundle.values), std::string("fp32"));
        QCOMPARE(s.cells[0].plan.seeds, (std::vector<uint64_t>{1}));
        QCOMPARE(s.cells[1].plan.seeds, (std::vector<uint64_t>{2}));
        QCOMPARE(dpu::nameOf(s.cells[3].plan.bundle.values), std::string("q8"));
        QCOMPARE(s.cells[6].plan.k, 0.01);
        QCOMPARE(s.cells[11].plan.k, 0.01);
        QCOMPARE(dpu::nameOf(s.cells[11].plan.bundle.values), std::string("q8"));
        QCOMPARE(s.cells[11].plan.seeds, (std::vector<uint64_t>{3}));
        // The base's other fields reach every cell; keys it leaves out keep the plan defaults.
        for (const dpu::SweepCell& c : s.cells) {
            QCOMPARE(c.plan.split.rounds, 2);
            QCOMPARE(c.plan.strategies, (std::vector<std::string>{"dpu"}));
            QCOMPARE(c.plan.train.epochs, dpu::defaultPlan().train.epochs);
        }
        QCOMPARE(s.cells[3].axisValues[1], (std::pair<std::string, std::string>{"bundle.values", "\"q8\""}));
        QCOMPARE(s.cells[4].axisValues[2], (std::pair<std::string, std::string>{"seeds", "[2]"}));
    }

    /// Without --jobs: one cell at a time on the CPU, one per core (at most the cells) on a GPU,
    /// "auto" following whether a GPU is there.
    void defaultJobsFollowWhereTheCellsTrain()
    {
        dpu::Sweep s = dpu::parseSweep(kSweep, "my-sweep.json"); // 12 cells, device "auto"
        QCOMPARE(dpu::defaultLocalSweepJobs(s, 16, false), 1);
        QCOMPARE(dpu::defaultLocalSweepJobs(s, 16, true), 12);
        QCOMPARE(dpu::defaultLocalSweepJobs(s, 8, true), 8);
        QCOMPARE(dpu::defaultLocalSweepJobs(s, 0, true), 1);
        for (dpu::SweepCell& c : s.cells)
            c.plan.device = dpu::ComputeDevice::Cpu;
        QCOMPARE(dpu::defaultLocalSweepJobs(s, 16, true), 1);
        s.cells[5].plan.device = dpu::ComputeDevice::Cuda; // one cell on the GPU is enough
        QCOMPARE(dpu::defaultLocalSweepJobs(s, 16, false), 12);
    }

    void idsAreDerivedFromTheCellPlan()
    {
        const dpu::Sweep s = dpu::parseSweep(kSweep, "my-sweep.json");
        std::set<std::string> ids;
        for (const dpu::SweepCell& c : s.cells) {
            QCOMPARE(c.id.size(), size_t(12));
            QCOMPARE(c.id, dpu::sweepCellId(c.plan));
            ids.insert(c.id);
        }
        QCOMPARE(ids.size(), s.cells.size());
        // The same plan reached another way (fewer axes, the value in the base) has the same id.
        const dpu::Sweep other = dpu::parseSweep(
            R"({"base": {"name": "s", "split": {"rounds": 2}, "strategies": ["dpu"], "k": 0.01, "seeds": [2]},
                "axes": {"bundle.values": ["q8", "fp16"]}})", "other.json");
        QCOMPARE(other.cells[0].id, s.cells[6 + 3 + 1].id); // k = 0.01, q8, seeds [2]
        // A changed plan changes the id.
        dpu::Plan p = s.cells[0].plan;
        p.train.epochs += 1;
        QVERIFY(dpu::sweepCellId(p) != s.cells[0].id);
        // The saved form reads back to the same cells.
        const dpu::Sweep again = dpu::parseSweep(s.toJson(), "again.json");
        QCOMPARE(again.cells.size(), s.cells.size());
        for (size_t i = 0; i < s.cells.size(); ++i)
            QCOMPARE(again.cells[i].id, s.cells[i].id);
    }

    /// A base named by its fields ("fashion-mlp-k0.01") names each cell by its own k or budget
    /// (a k = 0.003 cell was "fashion-mlp-k0.01" in its plan, the charts and the CSV); a chosen
    /// name stays; the ids are those of the cells as the axes make them.
    void cellsOfAnAutomaticNameFollowTheirFields()
    {
        const dpu::Sweep s = dpu::parseSweep(
            R"({"base": {"name": "fashion-mlp-k0.01", "split": {"rounds": 2}, "k": 0.01},
                "axes": {"k": [0.003, 0.01], "budget.bytes_per_round": [0, 10416]}})", "auto.json");
        QCOMPARE(s.cells.size(), size_t(4));
        QCOMPARE(s.cells[0].plan.name, std::string("fashion-mlp-k0.003"));
        QCOMPARE(s.cells[1].plan.name, std::string("fashion-mlp-10416B")); // a budget: no k in the name
        QCOMPARE(s.cells[2].plan.name, std::string("fashion-mlp-k0.01"));
        for (const dpu::SweepCell& c : s.cells) {
            dpu::Plan asGiven = c.plan;
            asGiven.name = "fashion-mlp-k0.01";
            QCOMPARE(c.id, dpu::sweepCellId(asGiven));
        }
        const dpu::Sweep chosen = dpu::parseSweep(
            R"({"base": {"name": "field-trial", "split": {"rounds": 2}}, "axes": {"k": [0.003, 0.01]}})", "chosen.json");
        for (const dpu::SweepCell& c : chosen.cells)
            QCOMPARE(c.plan.name, std::string("field-trial"));
        // The form's rule is core's: the default plan is named by it.
        QCOMPARE(dpu::automaticPlanName(dpu::defaultPlan()), dpu::defaultPlan().name);
    }

    void baseMayBeAFileBesideTheSweep()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QDir().mkpath(dir.filePath("plans"));
        writeFile(dir.filePath("plans/base.json"), R"({"name": "from-file", "split": {"rounds": 3}})");
        writeFile(dir.filePath("sweep.json"), R"({"base": "plans/base.json", "axes": {"train.lr": [0.001, 0.002]}})");
        const dpu::Sweep s = dpu::loadSweepFile(dir.filePath("sweep.json").toStdString());
        QCOMPARE(s.cells.size(), size_t(2));
        QCOMPARE(s.cells[1].plan.name, std::string("from-file"));
        QCOMPARE(s.cells[1].plan.split.rounds, 3);
        QCOMPARE(s.cells[1].plan.train.lr, 0.002);
        // toJson inlines the base, so a sweep folder's copy stands alone.
        QVERIFY(s.toJson().find("from-file") != std::string::npos);
        QVERIFY(s.toJson().find("plans/base.json") == std::string::npos);
        writeFile(dir.filePath("missing.json"), R"({"base": "nope.json", "axes": {"k": [0.1]}})");
        QVERIFY_THROWS_EXCEPTION(dpu::Error, dpu::loadSweepFile(dir.filePath("missing.json").toStdString()));
    }

    void errorsNameTheFileAndAxis_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QStringList>("words");
        const auto row = [](const char* name, const char* text, QStringList words) {
            QTest::newRow(name) << QString(text) << words;
        };
        row("not json", "{", {"my-sweep.json", "not valid JSON"});
        row("not object", "[1]", {"my-sweep.json", "expected an object"});
        row("unknown top key", R"({"base": {}, "axes": {"k": [0.1]}, "axis": 1})", {"my-sweep.json", "unknown key 'axis'"});
        row("no base", R"({"axes": {"k": [0.1]}})", {"my-sweep.json", "base", "missing"});
        row("bad base type", R"({"base": 3, "axes": {"k": [0.1]}})", {"base", "found number"});
        row("bad base plan", R"({"base": {"k": "x"}, "axes": {"seeds": [[1]]}})", {"base", "k", "expected a number"});
        row("no axes", R"({"base": {}})", {"axes", "found nothing"});
        row("empty axes", R"({"base": {}, "axes": {}})", {"axes", "at least one"});
        row("empty axis", R"({"base": {}, "axes": {"k": []}})", {"axes.k", "an empty list"});
        row("axis not list", R"({"base": {}, "axes": {"k": 0.1}})", {"axes.k", "found number"});
        row("unknown key", R"({"base": {}, "axes": {"kk": [0.1]}})", {"my-sweep.json", "kk = 0.1", "not a valid plan", "kk"});
        row("unknown nested key", R"({"base": {}, "axes": {"train.lrr": [0.1]}})", {"train.lrr = 0.1", "train.lrr"});
        row("bad value", R"({"base": {}, "axes": {"k": [0.1, 2]}})", {"my-sweep.json", "k = 2", "not a valid plan", "k:"});
        row("wrong type", R"({"base": {}, "axes": {"bundle.values": ["q8", 8]}})", {"bundle.values = 8", "expected a string"});
        row("through a number", R"({"base": {"k": 0.1}, "axes": {"k.x": [1]}})", {"axes.k.x", "'k'", "not an object"});
        row("repeated value", R"({"base": {}, "axes": {"k": [0.1, 0.1]}})", {"axes.k", "0.1", "twice"});
        row("same plan", R"({"base": {}, "axes": {"split": [{"rounds": 2}, {"rounds": 2, "initial": 1000}]}})",
            {"my-sweep.json", "the cells", "same plan"});
        row("cells alike", R"({"base": {}, "axes": {"train.lr": [0.01, 0.010]}})", {"axes.train.lr", "twice"});
    }
    void errorsNameTheFileAndAxis()
    {
        QFETCH(QString, text);
        QFETCH(QStringList, words);
        const std::string message = errorOf(text.toStdString());
        QVERIFY2(!message.empty(), "no error");
        for (const QString& w : words)
            QVERIFY2(message.find(w.toStdString()) != std::string::npos, (w.toStdString() + " not in: " + message).c_str());
    }

    void folderStatesAndMerge()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string root = dir.path().toStdString();
        const dpu::Sweep s = dpu::parseSweep(R"({"base": {}, "axes": {"k": [0.01, 0.02], "lambda": [0.5]}})", "s.json");
        writeFile(dir.filePath("sweep.json"), s.toJson());
        const std::string a = s.cells[0].id, b = s.cells[1].id;
        QCOMPARE(dpu::sweepCellDir(root, a), root + "/cells/" + a);
        QDir().mkpath(QString::fromStdString(dpu::sweepCellDir(root, a)));
        QDir().mkpath(QString::fromStdString(dpu::sweepCellDir(root, b)));
        QCOMPARE(dpu::sweepCellState(root, a), dpu::CellState::Pending);
        dpu::writeCellStarted(root, a);
        QCOMPARE(dpu::sweepCellState(root, a), dpu::CellState::Running);
        dpu::writeCellExit(root, a, 1);
        QCOMPARE(dpu::sweepCellState(root, a), dpu::CellState::Failed);
        dpu::writeCellExit(root, a, dpu::kCellStoppedExit); // stopped on request: to be resumed
        QCOMPARE(dpu::sweepCellState(root, a), dpu::CellState::Pending);
        dpu::writeCellStarted(root, a); // a retry forgets the failure
        QCOMPARE(dpu::sweepCellState(root, a), dpu::CellState::Running);
        writeFile(QString::fromStdString(dpu::sweepCellDir(root, a) + "/run.json"),
                  R"({"state": "finished", "rounds": 2, "partial_weights": 1, "dense_weights": 1})");
        QCOMPARE(dpu::sweepCellState(root, a), dpu::CellState::Done);
        QCOMPARE(std::string(dpu::cellStateName(dpu::CellState::Done)), std::string("done"));

        writeFile(QString::fromStdString(dpu::sweepCellDir(root, a) + "/results.jsonl"),
                  "{\"round\": 1, \"strategy\": \"dpu\"}\n{\"round\": 2, \"strategy\": \"dpu\"}\n");
        std::vector<std::string> missing;
        QCOMPARE(dpu::mergeSweepResults(root, &missing), size_t(2));
        QCOMPARE(missing, std::vector<std::string>{b});
        std::ifstream merged(root + "/results.jsonl");
        std::string line;
        int n = 0;
        while (std::getline(merged, line)) {
            const auto j = nlohmann::json::parse(line);
            QCOMPARE(j.at("cell").get<std::string>(), a);
            QCOMPARE(j.at("axes").at("k").get<double>(), 0.01);
            QCOMPARE(j.at("axes").at("lambda").get<double>(), 0.5);
            QCOMPARE(j.at("round").get<int>(), ++n);
        }
        QCOMPARE(n, 2);
        writeFile(QString::fromStdString(dpu::sweepCellDir(root, b) + "/results.jsonl"), "{\"round\": 1}\nnot json\n");
        try {
            dpu::mergeSweepResults(root);
            QFAIL("a corrupt results.jsonl was merged");
        } catch (const dpu::Error& e) {
            QVERIFY(std::string(e.what()).find(b + "/results.jsonl: line 2") != std::string::npos);
        }
    }

    void localBackendRunsUnfinishedCells()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        writeFile(dir.filePath("runner.sh"), kFakeRunner);
        QFile::setPermissions(dir.filePath("runner.sh"), QFileDevice::ReadOwner | QFileDevice::ExeOwner);
        const dpu::Sweep s = dpu::parseSweep(R"({"base": {}, "axes": {"k": [0.01, 0.02, 0.03]}})", "s.json");
        dpu::LocalSweepOptions options;
        options.outDir = dir.filePath("out").toStdString();
        options.jobs = 2;
        options.cores = 4;
        options.program = dir.filePath("runner.sh").toStdString();
        CountingObserver first;
        const dpu::LocalSweepSummary a = dpu::runLocalSweep(s, options, first);
        QCOMPARE(a.cells, size_t(3));
        QCOMPARE(a.skipped, size_t(0));
        QCOMPARE(a.ran, size_t(3));
        QCOMPARE(a.failed, size_t(1));
        QVERIFY(!a.stopped);
        QCOMPARE(first.started, 3);
        QCOMPARE(first.ended, 3);
        QCOMPARE(first.threads, 2); // 4 cores, 2 jobs
        const std::string cell0 = dpu::sweepCellDir(options.outDir, s.cells[0].id);
        QCOMPARE(readAll(cell0 + "/threads"), std::string("2\n"));
        QCOMPARE(readAll(cell0 + "/args"), "run " + cell0 + "/plan.json --out " + cell0 + " --resume --quiet\n");
        QCOMPARE(dpu::sweepCellState(options.outDir, s.cells[0].id), dpu::CellState::Done);
        QCOMPARE(dpu::sweepCellState(options.outDir, s.cells[1].id), dpu::CellState::Failed);
        QCOMPARE(dpu::sweepCellState(options.outDir, s.cells[2].id), dpu::CellState::Done);
        QVERIFY(QFile::exists(dir.filePath("out/sweep.json")));
        QCOMPARE(dpu::loadSweepFile(options.outDir + "/sweep.json").cells[1].id, s.cells[1].id);

        // Again: only the failed cell runs.
        CountingObserver second;
        const dpu::LocalSweepSummary b = dpu::runLocalSweep(s, options, second);
        QCOMPARE(b.skipped, size_t(2));
        QCOMPARE(b.ran, size_t(1));
        QCOMPARE(second.states, std::vector<dpu::CellState>{dpu::CellState::Failed});

        // A stop before anything started starts nothing.
        options.outDir = dir.filePath("stopped").toStdString();
        CountingObserver stopping;
        dpu::RunControl stopped;
        stopped.requestCancel();
        options.control = &stopped;
        const dpu::LocalSweepSummary c = dpu::runLocalSweep(s, options, stopping);
        QVERIFY(c.stopped);
        QCOMPARE(c.ran, size_t(0));
        QCOMPARE(stopping.started, 0);
        QCOMPARE(dpu::sweepCellState(options.outDir, s.cells[0].id), dpu::CellState::Pending);

        options.jobs = 0;
        QVERIFY_THROWS_EXCEPTION(dpu::Error, dpu::runLocalSweep(s, options, stopping));
    }

    /// A cell program that cannot start stops the sweep with an error naming it, and its cell
    /// reads failed (exit 127), not running; the cells after it stay pending.
    void aProgramThatCannotStartFailsItsCell()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const dpu::Sweep s = dpu::parseSweep(R"({"base": {}, "axes": {"k": [0.01, 0.02]}})", "s.json");
        dpu::LocalSweepOptions options;
        options.outDir = dir.filePath("out").toStdString();
        options.program = dir.filePath("no such cli").toStdString();
        CountingObserver observer;
        QString error;
        try {
            dpu::runLocalSweep(s, options, observer);
        } catch (const dpu::Error& e) {
            error = QString::fromUtf8(e.what());
        }
        QVERIFY2(error.contains(QStringLiteral("no such cli")) && error.contains(QStringLiteral("No such file")), qPrintable(error));
        QCOMPARE(dpu::sweepCellState(options.outDir, s.cells[0].id), dpu::CellState::Failed);
        QCOMPARE(dpu::sweepCellState(options.outDir, s.cells[1].id), dpu::CellState::Pending);
    }

    void runControlPausesAndCancelsALocalSweep()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        // A cell of about 0.3 s: while paused (SIGSTOP) it cannot end, and no other starts.
        writeFile(dir.filePath("quick.sh"), "#!/bin/sh\nsleep 0.3\n"
                                            "echo '{\"state\": \"finished\", \"rounds\": 1, \"partial_weights\": 1, "
                                            "\"dense_weights\": 1}' > \"$4/run.json\"\n");
        QFile::setPermissions(dir.filePath("quick.sh"), QFileDevice::ReadOwner | QFileDevice::ExeOwner);
        const dpu::Sweep s = dpu::parseSweep(R"({"base": {}, "axes": {"k": [0.01, 0.02, 0.03]}})", "s.json");
        dpu::RunControl control;
        dpu::LocalSweepOptions options;
        options.outDir = dir.filePath("out").toStdString();
        options.program = dir.filePath("quick.sh").toStdString();
        options.control = &control;
        struct Pausing : CountingObserver {
            dpu::RunControl* control = nullptr;
            int startedWhilePaused = -1, endedWhilePaused = -1;
            std::atomic<bool> held{false};
            std::vector<bool> pauses;
            void cellStarted(const dpu::SweepCell& c) override
            {
                CountingObserver::cellStarted(c);
                if (started == 1)
                    control->setPaused(true);
            }
            void sweepPaused(bool paused) override
            {
                pauses.push_back(paused);
                if (!paused) { // what happened while paused, told as the cells go on
                    startedWhilePaused = started;
                    endedWhilePaused = ended;
                }
                held.store(paused);
            }
        } observer;
        observer.control = &control;
        // 2 s paused: a running cell would have ended.
        std::thread resumer = afterPause(observer.held, 2.0, [&control] { control.setPaused(false); });
        const dpu::LocalSweepSummary a = dpu::runLocalSweep(s, options, observer);
        resumer.join();
        QCOMPARE(observer.startedWhilePaused, 1);
        QCOMPARE(observer.endedWhilePaused, 0);
        QCOMPARE(observer.pauses, (std::vector<bool>{true, false}));
        QCOMPARE(a.ran, size_t(3));
        QCOMPARE(a.failed, size_t(0));
        for (const dpu::SweepCell& c : s.cells)
            QCOMPARE(dpu::sweepCellState(options.outDir, c.id), dpu::CellState::Done);

        // Cancel through the token, while paused: the suspended cell is woken to stop, and stays resumable.
        options.outDir = dir.filePath("cancelled").toStdString();
        struct Cancelling : CountingObserver {
            dpu::RunControl* control = nullptr;
            std::atomic<bool> held{false};
            void cellStarted(const dpu::SweepCell& c) override
            {
                CountingObserver::cellStarted(c);
                control->setPaused(true);
            }
            void sweepPaused(bool paused) override { held.store(held.load() || paused); }
        } cancelling;
        control.reset();
        cancelling.control = &control;
        std::thread canceller = afterPause(cancelling.held, 0.5, [&control] { control.requestCancel(); });
        const dpu::LocalSweepSummary b = dpu::runLocalSweep(s, options, cancelling);
        canceller.join();
        QVERIFY(b.stopped);
        QCOMPARE(cancelling.started, 1);
        QCOMPARE(b.failed, size_t(0));
        QCOMPARE(dpu::sweepCellState(options.outDir, s.cells[0].id), dpu::CellState::Pending);
        // What `sweep status` and the Sweeps tab show: the stopped cell and the two never started
        // are cancelled, and all three stay pending for a resume, which forgets the stop.
        const dpu::SweepFolderStatus st = dpu::readSweepFolderStatus(options.outDir, nullptr);
        QVERIFY(!st.active);
        QCOMPARE(st.cells.size(), size_t(3));
        for (const dpu::SweepCellStatus& c : st.cells) {
            QCOMPARE(c.state, dpu::CellState::Pending);
            QCOMPARE(c.view, dpu::CellView::Cancelled);
        }
        QCOMPARE(st.summary(), std::string("3 cells: 0 done, 0 running, 0 pending, 0 failed, 3 cancelled"));
        QVERIFY(dpu::readSweepBackend(options.outDir)->stopped);
        control.reset();
        CountingObserver resumed;
        const dpu::LocalSweepSummary c = dpu::runLocalSweep(s, options, resumed);
        QVERIFY(!c.stopped);
        QVERIFY(!dpu::readSweepBackend(options.outDir)->stopped);
        QCOMPARE(dpu::readSweepFolderStatus(options.outDir, nullptr).count(dpu::CellView::Done), size_t(3));
    }
};

QTEST_GUILESS_MAIN(TestSweep)
#include "test_sweep.moc"
