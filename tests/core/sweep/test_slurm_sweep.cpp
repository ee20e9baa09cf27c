// SPDX-License-Identifier: MIT
// The Slurm backend without Slurm: the array script, squeue/sacct parsing, cell states, submit/resubmit/cancel through a fake, the array task, and the cancel request.
#include "FakeSlurm.h"
#include "TestSupport.h"
#include "dpu/Error.h"
#include "dpu/LocalSweep.h"
#include "dpu/RunControl.h"
#include "dpu/SlurmSweep.h"
#include "dpu/Sweep.h"
#include "dpu/SweepControl.h"
#include "dpu/SweepStatus.h"
#include <QDir>
#include <QFile>
#include <QFileDevice>
#include <QProcess>
#include <QTemporaryDir>
#include <chrono>
#include <fstream>
#include <thread>

namespace {

using dpu::CellState;

const char kSweep[] = R"({"base": {"name": "s", "split": {"rounds": 2}},
    "axes": {"k": [0.01, 0.02], "bundle.values": ["fp32", "q8"]},
    "slurm": {"partition": "gpu", "time": "01:30:00", "cpus_per_task": 4, "gpus_per_task": 1, "throttle": 2}})";

void writeFile(const std::string& path, const std::string& text)
{
    std::ofstream(path, std::ios::binary) << text;
}

std::string readAll(const std::string& path)
{
    QFile f(QString::fromStdString(path));
    return f.open(QIODevice::ReadOnly) ? f.readAll().toStdString() : std::string();
}

bool contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

void makeExecutable(const std::string& path, const std::string& text)
{
    writeFile(path, text);
    QFile::setPermissions(QString::fromStdString(path), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
}

void markFinished(const std::string& sweepDir, const std::string& id)
{
    writeFile(dpu::sweepCellDir(sweepDir, id) + "/run.json",
              R"({"state": "finished", "rounds": 1, "partial_weights": 1, "dense_weights": 1})");
}

using dpu::test::FakeSlurm;
using dpu::test::SlurmSweepFixture;

// A cell runner that records its threads and, on SIGTERM, stops as dpu-cli run does (exit 130);
// a SIGTERM before the trap is set kills it (143), which the backends count as stopped too.
const char kSlowRunner[] = R"(#!/bin/sh
trap 'exit 130' TERM
echo "$OMP_NUM_THREADS" > "$4/threads"
i=0
while [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done
echo '{"state": "finished", "rounds": 1, "partial_weights": 1, "dense_weights": 1}' > "$4/run.json"
)";

} // namespace

class TestSlurmSweep : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void systemCommandsCaptureBothStreams()
    {
        // The real runner (posix_spawnp, as the sweep's cells start): the program is looked up on
        // PATH, both streams come back whole, its exit code too, and a missing one is named.
        const auto commands = dpu::systemSlurmCommands();
        const std::string many(200000, 'x'); // over a pipe's buffer on both streams at once
        const auto r = commands->run(
            {"sh", "-c", "head -c 200000 /dev/zero | tr '\\0' x; head -c 200000 /dev/zero | tr '\\0' x >&2; echo; exit 3"});
        QCOMPARE(r.code, 3);
        QCOMPARE(r.out, many + "\n");
        QCOMPARE(r.err, many);
        const auto missing = commands->run({"dpu-no-such-slurm-tool", "--version"});
        QCOMPARE(missing.code, 127);
        QVERIFY2(contains(missing.err, "cannot run dpu-no-such-slurm-tool: ") && contains(missing.err, "on PATH"),
                 missing.err.c_str());
        QVERIFY(missing.out.empty());
    }

    void sweepFileSlurmSettings()
    {
        const dpu::Sweep s = dpu::parseSweep(kSweep, "s.json");
        QCOMPARE(s.slurm.partition, std::string("gpu"));
        QCOMPARE(s.slurm.time, std::string("01:30:00"));
        QCOMPARE(s.slurm.cpusPerTask, 4);
        QCOMPARE(s.slurm.gpusPerTask, 1);
        QCOMPARE(s.slurm.throttle, 2);
        // The settings survive the folder's copy and do not touch the cells' plans or ids.
        const dpu::Sweep again = dpu::parseSweep(s.toJson(), "copy");
        QCOMPARE(again.slurm.partition, s.slurm.partition);
        QCOMPARE(again.slurm.throttle, 2);
        const dpu::Sweep plain = dpu::parseSweep(R"({"base": {"name": "s", "split": {"rounds": 2}},
            "axes": {"k": [0.01, 0.02], "bundle.values": ["fp32", "q8"]}})", "p.json");
        QCOMPARE(plain.cells[3].id, s.cells[3].id);
        for (const char* bad : {R"("slurm": {"cpus_per_task": -1})", R"("slurm": {"nodes": 2})",
                                R"("slurm": {"partition": "a b"})", R"("slurm": [])"}) {
            const std::string text = std::string(R"({"base": {}, "axes": {"k": [0.01]}, )") + bad + "}";
            try {
                dpu::parseSweep(text, "bad.json");
                QFAIL(bad);
            } catch (const dpu::Error& e) {
                QVERIFY2(contains(e.what(), "bad.json: slurm"), e.what());
            }
        }
    }

    void arrayScriptRunsOneCellPerTask()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const std::string dir = tmp.path().toStdString() + "/my sweep", program = tmp.path().toStdString() + "/fake cli";
        dpu::SweepSlurmSettings st;
        st.partition = "gpu";
        st.time = "10";
        st.mem = "4G";
        st.cpusPerTask = 3;
        st.gpusPerTask = 1;
        st.throttle = 2;
        const std::vector<std::string> cells{"aaaaaaaaaaaa", "bbbbbbbbbbbb", "cccccccccccc"};
        const std::string script = dpu::slurmArrayScript(dir, program, cells, st, "dpu-x");
        for (const char* line : {"#SBATCH --array=0-2%2\n", "#SBATCH --cpus-per-task=3\n", "#SBATCH --gres=gpu:1\n",
                                 "#SBATCH --partition=gpu\n", "#SBATCH --time=10\n", "#SBATCH --mem=4G\n",
                                 "#SBATCH --requeue\n", "#SBATCH --job-name=dpu-x\n", "#SBATCH --ntasks=1\n"})
            QVERIFY2(contains(script, line), line);
        QVERIFY(contains(script, "#SBATCH --output=" + dir + "/slurm/logs/%A_%a.out\n"));
        // Without settings: one CPU, no GPU line, no throttle.
        const std::string plain = dpu::slurmArrayScript(dir, program, cells, {}, "dpu-x");
        QVERIFY(contains(plain, "#SBATCH --array=0-2\n") && contains(plain, "--cpus-per-task=1\n"));
        QVERIFY(!contains(plain, "--gres") && !contains(plain, "--partition") && !contains(plain, "--time"));

        // Run as an array task would: task 1 runs `PROGRAM sweep task DIR bbbbbbbbbbbb`.
        makeExecutable(program, "#!/bin/sh\nprintf '%s\\n' \"$@\" > \"$(dirname \"$0\")/args\"\n");
        writeFile(tmp.path().toStdString() + "/job.sh", script);
        QProcess bash;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("SLURM_ARRAY_TASK_ID", "1");
        bash.setProcessEnvironment(env);
        bash.start("bash", {tmp.filePath("job.sh")});
        QVERIFY(bash.waitForFinished(10000));
        QCOMPARE(bash.exitCode(), 0);
        QCOMPARE(readAll(tmp.path().toStdString() + "/args"), "sweep\ntask\n" + dir + "\nbbbbbbbbbbbb\n");
    }

    void parsesSqueueAndSacct()
    {
        const auto q = dpu::parseSlurmTaskStates("12_0|RUNNING\n12_[3-5%2]|PENDING\n 12_1 | COMPLETING \n"
                                                 "13|RUNNING\n\n14_[1,4]|PENDING\ngarbage\n15_[x-2]|PENDING\n");
        QCOMPARE(q.at("12_0"), std::string("RUNNING"));
        QCOMPARE(q.at("12_1"), std::string("COMPLETING"));
        QCOMPARE(q.at("12_3"), std::string("PENDING"));
        QCOMPARE(q.at("12_5"), std::string("PENDING"));
        QCOMPARE(q.at("14_1"), std::string("PENDING"));
        QCOMPARE(q.at("14_4"), std::string("PENDING"));
        QVERIFY(!q.count("14_2") && !q.count("13") && !q.count("12_2"));
        QCOMPARE(q.size(), size_t(7));
        const auto a = dpu::parseSlurmTaskStates("20_0|COMPLETED\n20_0.batch|COMPLETED\n20_1|CANCELLED by 0\n"
                                                 "20_2|TIMEOUT\n20_3|FAILED\n");
        QCOMPARE(a.at("20_1"), std::string("CANCELLED"));
        QCOMPARE(a.at("20_2"), std::string("TIMEOUT"));
        QCOMPARE(a.size(), size_t(4));
    }

    void cellStateCombinesFilesAndQueue()
    {
        using dpu::slurmCellState;
        QCOMPARE(slurmCellState(CellState::Done, "RUNNING", true), CellState::Done);
        QCOMPARE(slurmCellState(CellState::Failed, "PENDING", true), CellState::Pending); // resubmitted
        QCOMPARE(slurmCellState(CellState::Failed, "REQUEUED", true), CellState::Pending);
        QCOMPARE(slurmCellState(CellState::Pending, "RUNNING", true), CellState::Running);
        QCOMPARE(slurmCellState(CellState::Running, "", true), CellState::Failed);   // died without an exit record
        QCOMPARE(slurmCellState(CellState::Running, "", false), CellState::Running); // a local sweep's cell
        QCOMPARE(slurmCellState(CellState::Running, "CANCELLED", true), CellState::Pending);
        QCOMPARE(slurmCellState(CellState::Pending, "TIMEOUT", true), CellState::Failed);
        QCOMPARE(slurmCellState(CellState::Pending, "", true), CellState::Pending); // stopped (exit 130)
        QCOMPARE(slurmCellState(CellState::Failed, "", true), CellState::Failed);
        QVERIFY(dpu::slurmStateIsLive("PENDING") && dpu::slurmStateIsLive("COMPLETING"));
        QVERIFY(!dpu::slurmStateIsLive("COMPLETED") && !dpu::slurmStateIsLive("CANCELLED") && !dpu::slurmStateIsLive(""));
    }

    void submitsOnlyUnfinishedCellsAndCancels()
    {
        SlurmSweepFixture f(kSweep, "/shared/bin/dpu-cli", "42;cluster");
        QVERIFY(f.valid());
        const dpu::Sweep& s = f.sweep;
        const dpu::SlurmSweepOptions& options = f.options;
        FakeSlurm& slurm = f.slurm;
        QTemporaryDir& tmp = f.tmp;
        const dpu::SlurmSubmitSummary first = dpu::submitSlurmSweep(s, options, slurm);
        QCOMPARE(first.submitted, size_t(4));
        QCOMPARE(first.jobIds, std::vector<std::string>{"42"});
        QCOMPARE(slurm.count("squeue"), 0); // nothing recorded yet: no need to ask
        QCOMPARE(slurm.last("sbatch").size(), size_t(3));
        QCOMPARE(slurm.last("sbatch")[1], std::string("--parsable"));
        const std::string script = readAll(slurm.last("sbatch")[2]);
        QVERIFY(contains(script, "--array=0-3%2") && contains(script, "--gres=gpu:1"));
        QVERIFY(contains(script, s.cells[0].id + " " + s.cells[1].id));
        const auto record = dpu::readSweepBackend(options.outDir);
        QVERIFY(record && record->backend == dpu::SweepBackend::Slurm);
        QCOMPARE(record->submissions.size(), size_t(1));
        QCOMPARE(record->submissions[0].jobId, std::string("42"));
        QCOMPARE(record->submissions[0].cells.size(), size_t(4));
        QCOMPARE(record->submissions[0].cells[2], s.cells[2].id);
        QVERIFY(QFile::exists(tmp.filePath("out/cells/" + QString::fromStdString(s.cells[3].id) + "/plan.json")));

        // Cell 0 runs, 1 waits, 2 finished, 3 was cancelled (its task stopped with 130).
        markFinished(options.outDir, s.cells[2].id);
        dpu::writeCellExit(options.outDir, s.cells[3].id, dpu::kCellStoppedExit);
        dpu::writeCellStarted(options.outDir, s.cells[0].id);
        slurm.reply("squeue", {0, "42_0|RUNNING\n42_[1%2]|PENDING\n", ""});
        slurm.reply("sacct", {1, "", "Slurm accounting storage is disabled\n"});
        const dpu::SlurmSweepStatus st = dpu::slurmSweepStatus(s, options.outDir, slurm);
        QVERIFY(st.queueRead);
        QCOMPARE(st.cells[0].state, CellState::Running);
        QCOMPARE(st.cells[0].task, std::string("42_0"));
        QCOMPARE(st.cells[1].state, CellState::Pending);
        QVERIFY(st.cells[1].live);
        QCOMPARE(st.cells[2].state, CellState::Done);
        QCOMPARE(st.cells[3].state, CellState::Pending);
        QVERIFY(!st.cells[3].live);
        QCOMPARE(slurm.last("squeue").back(), std::string("--jobs=42"));
        QCOMPARE(slurm.count("sacct"), 1); // cell 3 is not in the queue: asked the history

        // A re-run submits only cell 3, as task 0 of a new array.
        slurm.reply("sbatch", {0, "43\n", ""});
        const dpu::SlurmSubmitSummary second = dpu::submitSlurmSweep(s, options, slurm);
        QCOMPARE(second.done, size_t(1));
        QCOMPARE(second.live, size_t(2));
        QCOMPARE(second.submitted, size_t(1));
        QVERIFY(contains(readAll(slurm.last("sbatch")[2]), "--array=0-0%2"));
        QCOMPARE(dpu::readSweepBackend(options.outDir)->submissions.back().cells,
                 std::vector<std::string>{s.cells[3].id});
        slurm.reply("squeue", {0, "42_0|RUNNING\n42_1|PENDING\n43_0|PENDING\n", ""});
        const dpu::SlurmSweepStatus after = dpu::slurmSweepStatus(s, options.outDir, slurm);
        QCOMPARE(after.cells[3].task, std::string("43_0"));
        QCOMPARE(slurm.last("squeue").back(), std::string("--jobs=42,43"));

        // Cancel: both jobs have live tasks.
        dpu::cancelSlurmSweep(s, options.outDir, slurm);
        QCOMPARE(slurm.last("scancel"), (std::vector<std::string>{"scancel", "42", "43"}));

        // Everything gone from the queue, accounting on: sacct's words decide.
        slurm.reply("squeue", {1, "", "slurm_load_jobs error: Invalid job id specified\n"});
        slurm.reply("sacct", {0, "42_0|TIMEOUT\n42_1|CANCELLED by 0\n43_0|COMPLETED\n", ""});
        const dpu::SlurmSweepStatus gone = dpu::slurmSweepStatus(s, options.outDir, slurm);
        QVERIFY(gone.queueRead);
        QCOMPARE(gone.cells[0].state, CellState::Failed);
        QCOMPARE(gone.cells[1].state, CellState::Pending);
        const int scancels = slurm.count("scancel");
        QVERIFY(dpu::cancelSlurmSweep(s, options.outDir, slurm).empty());
        QCOMPARE(slurm.count("scancel"), scancels); // nothing live: no scancel

        // The controller unreachable: no submission that could run a cell twice.
        slurm.reply("squeue", {1, "", "slurm_load_jobs error: Unable to contact slurm controller\n"});
        const dpu::SlurmSweepStatus blind = dpu::slurmSweepStatus(s, options.outDir, slurm);
        QVERIFY(!blind.queueRead);
        QVERIFY(contains(blind.queueError, "Unable to contact"));
        QVERIFY_THROWS_EXCEPTION(dpu::Error, dpu::submitSlurmSweep(s, options, slurm));
    }

    /// What `sweep status` and the window read of a folder: states with "cancelled" for a cell a
    /// stop ended, Slurm's tasks, the counts; and the cancel both use.
    void folderStatusForViewersAndCancel()
    {
        SlurmSweepFixture f(kSweep, "/shared/bin/dpu-cli");
        QVERIFY(f.valid());
        const std::string& dir = f.options.outDir;
        const auto& cells = f.sweep.cells;
        dpu::submitSlurmSweep(f.sweep, f.options, f.slurm);
        markFinished(dir, cells[0].id);
        dpu::writeCellExit(dir, cells[1].id, dpu::kCellStoppedExit);
        dpu::writeCellStarted(dir, cells[2].id);
        f.slurm.reply("squeue", {0, "42_2|RUNNING\n42_3|PENDING\n", ""});
        const dpu::SweepFolderStatus st = dpu::readSweepFolderStatus(dir, &f.slurm);
        QVERIFY(st.backend == dpu::SweepBackend::Slurm);
        QVERIFY(st.active && st.queueRead);
        QCOMPARE(st.cells.size(), size_t(4));
        QCOMPARE(st.cells[0].view, dpu::CellView::Done);
        QCOMPARE(st.cells[1].view, dpu::CellView::Cancelled);
        QCOMPARE(st.cells[1].state, CellState::Pending); // what `sweep run` acts on: resume it
        QCOMPARE(st.cells[2].view, dpu::CellView::Running);
        QCOMPARE(st.cells[3].view, dpu::CellView::Pending);
        QCOMPARE(st.cells[2].slurmTask, std::string("42_2"));
        QCOMPARE(st.cells[2].slurmState, std::string("RUNNING"));
        QCOMPARE(st.cells[0].axes, std::string("k = 0.01, bundle.values = \"fp32\""));
        QCOMPARE(st.cells[3].runDir, dpu::sweepCellDir(dir, cells[3].id));
        QCOMPARE(st.summary(), std::string("4 cells: 1 done, 1 running, 1 pending, 0 failed, 1 cancelled"));
        // Without Slurm's tools: the files alone, and it says so.
        const dpu::SweepFolderStatus blind = dpu::readSweepFolderStatus(dir, nullptr);
        QVERIFY(!blind.queueRead);
        QCOMPARE(blind.cells[2].view, dpu::CellView::Running);
        QVERIFY_THROWS_EXCEPTION(dpu::Error, dpu::cancelSweepFolder(dir, nullptr));
        QVERIFY(contains(dpu::cancelSweepFolder(dir, &f.slurm), "42"));
        QCOMPARE(f.slurm.last("scancel"), (std::vector<std::string>{"scancel", "42"}));
        // A folder never run has no backend: nothing to cancel; no sweep.json: an error naming it.
        QVERIFY(dpu::cancelSweepFolder(f.tmp.filePath("nothing").toStdString(), &f.slurm).empty());
        try {
            dpu::readSweepFolderStatus(f.tmp.filePath("nothing").toStdString(), nullptr);
            QFAIL("no error");
        } catch (const dpu::Error& e) {
            QVERIFY2(contains(e.what(), "sweep.json"), e.what());
        }
    }

    void sbatchRefusalIsReported()
    {
        SlurmSweepFixture f(kSweep, "/bin/dpu-cli");
        QVERIFY(f.valid());
        const dpu::Sweep& s = f.sweep;
        const dpu::SlurmSweepOptions& options = f.options;
        FakeSlurm& slurm = f.slurm;
        slurm.reply("sbatch", {1, "", "sbatch: error: invalid partition specified: gpu\n"});
        try {
            dpu::submitSlurmSweep(s, options, slurm);
            QFAIL("no error");
        } catch (const dpu::Error& e) {
            QVERIFY2(contains(e.what(), "invalid partition specified: gpu") && contains(e.what(), "submit-1.sbatch"), e.what());
        }
        QVERIFY(!dpu::readSweepBackend(options.outDir)); // no job recorded
    }

    void moreCellsThanAnArrayTakesGoOutAsSeveralArrays()
    {
        SlurmSweepFixture f(kSweep, "/bin/dpu-cli", "50");
        QVERIFY(f.valid());
        const dpu::Sweep& s = f.sweep;
        dpu::SlurmSweepOptions& options = f.options;
        options.settings = {};
        options.maxArrayTasks = 3;
        FakeSlurm& slurm = f.slurm;
        const dpu::SlurmSubmitSummary sub = dpu::submitSlurmSweep(s, options, slurm);
        QCOMPARE(sub.submitted, size_t(4));
        QCOMPARE(sub.jobIds.size(), size_t(2));
        QCOMPARE(slurm.count("sbatch"), 2);
        QVERIFY(contains(readAll(options.outDir + "/slurm/submit-1.sbatch"), "--array=0-2\n"));
        QVERIFY(contains(readAll(options.outDir + "/slurm/submit-2.sbatch"), "--array=0-0\n"));
        const auto record = dpu::readSweepBackend(options.outDir);
        QCOMPARE(record->submissions.size(), size_t(2));
        QCOMPARE(record->submissions[1].cells, std::vector<std::string>{s.cells[3].id});
    }

    void arrayTaskRecordsStartAndExitAndPassesTheStopOn()
    {
        SlurmSweepFixture f(kSweep, "", "7");
        QVERIFY(f.valid());
        const std::string runner = f.tmp.path().toStdString() + "/runner.sh";
        makeExecutable(runner, kSlowRunner);
        const dpu::Sweep& s = f.sweep;
        dpu::SlurmSweepOptions& options = f.options;
        options.program = runner;
        FakeSlurm& slurm = f.slurm;
        dpu::submitSlurmSweep(s, options, slurm);
        const std::string id = s.cells[1].id, cellDir = dpu::sweepCellDir(options.outDir, id);
        dpu::RunControl control; // what the task's SIGTERM handler cancels: here, after about a second
        std::thread stopper([&control] {
            std::this_thread::sleep_for(std::chrono::seconds(1));
            control.requestCancel();
        });
        const int code = dpu::runSweepCellTask(options.outDir, id, runner, 3, control);
        stopper.join();
        QCOMPARE(code, dpu::kCellStoppedExit);
        QCOMPARE(readAll(cellDir + "/threads"), std::string("3\n"));
        QVERIFY(QFile::exists(QString::fromStdString(cellDir + "/started.json")));
        QCOMPARE(dpu::sweepCellState(options.outDir, id), CellState::Pending); // stopped: resumable
        // A done cell's task does nothing.
        markFinished(options.outDir, id);
        const dpu::RunControl none;
        QCOMPARE(dpu::runSweepCellTask(options.outDir, id, "/nonexistent", 1, none), 0);
        QVERIFY_THROWS_EXCEPTION(dpu::Error, dpu::runSweepCellTask(options.outDir, "nosuchcell00", runner, 1, none));
    }

    void cancelRequestStopsALocalSweep()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const std::string runner = tmp.path().toStdString() + "/runner.sh";
        makeExecutable(runner, kSlowRunner);
        const dpu::Sweep s = dpu::parseSweep(R"({"base": {}, "axes": {"k": [0.01, 0.02, 0.03]}})", "s.json");
        dpu::LocalSweepOptions options;
        options.outDir = tmp.filePath("out").toStdString();
        options.program = runner;
        options.jobs = 2;
        // What `sweep cancel` does from another process, done here once the first cell started.
        struct Canceller : dpu::LocalSweepObserver {
            std::string dir;
            int started = 0;
            void cellStarted(const dpu::SweepCell&) override
            {
                if (++started == 1) {
                    const auto r = dpu::readSweepBackend(dir);
                    QVERIFY(r && r->backend == dpu::SweepBackend::Local && r->pid > 0 && dpu::processAlive(r->pid));
                    dpu::requestSweepCancel(dir);
                }
            }
        } observer;
        observer.dir = options.outDir;
        QVERIFY(QDir().mkpath(tmp.filePath("out")));
        dpu::requestSweepCancel(options.outDir); // left by an earlier sweep: not for this one
        const dpu::LocalSweepSummary summary = dpu::runLocalSweep(s, options, observer);
        QVERIFY(summary.stopped);
        QCOMPARE(summary.failed, size_t(0));
        QVERIFY(observer.started <= 2); // no new cell after the request
        for (const dpu::SweepCell& c : s.cells)
            QCOMPARE(dpu::sweepCellState(options.outDir, c.id), CellState::Pending);
        QVERIFY(!dpu::sweepCancelRequested(options.outDir)); // the request is spent
        QCOMPARE(dpu::readSweepBackend(options.outDir)->pid, 0L); // nothing running any more
    }

    /// The cancel request of another process is read into the sweep's one token: the caller's
    /// RunControl says cancelled afterwards, as after Ctrl-C or the window's Stop.
    void cancelRequestIsReadIntoTheToken()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const std::string runner = tmp.path().toStdString() + "/runner.sh";
        makeExecutable(runner, kSlowRunner);
        const dpu::Sweep s = dpu::parseSweep(R"({"base": {}, "axes": {"k": [0.01, 0.02]}})", "s.json");
        dpu::RunControl control;
        dpu::LocalSweepOptions options;
        options.outDir = tmp.filePath("out").toStdString();
        options.program = runner;
        options.control = &control;
        struct Requester : dpu::LocalSweepObserver {
            std::string dir;
            const dpu::RunControl* control = nullptr;
            bool cancelledBeforeRequest = true;
            void cellStarted(const dpu::SweepCell&) override
            {
                cancelledBeforeRequest = control->cancelRequested();
                dpu::requestSweepCancel(dir); // what `sweep cancel` writes from another shell
            }
        } observer;
        observer.dir = options.outDir;
        observer.control = &control;
        const dpu::LocalSweepSummary summary = dpu::runLocalSweep(s, options, observer);
        QVERIFY(!observer.cancelledBeforeRequest);
        QVERIFY(summary.stopped);
        QVERIFY(control.cancelRequested());
        QVERIFY(!dpu::sweepCancelRequested(options.outDir)); // the file is spent; the token keeps the stop
    }

    /// The backend is a SweepBackend past backend.json (issue 43): each one is written by its
    /// name and read back as the same value with what only it records; a name the file edge does
    /// not know is refused there, naming the file and the word found.
    void backendRoundTripsThroughItsFile()
    {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const std::string dir = tmp.path().toStdString();
        QCOMPARE(dpu::enumStrings<dpu::SweepBackend>(), (std::vector<std::string>{"local", "slurm"}));
        for (const dpu::SweepBackend backend : {dpu::SweepBackend::Local, dpu::SweepBackend::Slurm}) {
            dpu::SweepBackendRecord record;
            record.backend = backend;
            record.host = "node7";
            record.pid = 4242;
            record.started = "2024-05-01T10:00:00Z";
            record.submissions.push_back({"123", {"c1", "c2"}, "slurm/array-1.sh", "2024-05-01T10:00:01Z"});
            dpu::writeSweepBackend(dir, record);
            const std::string text = readAll(dir + "/backend.json");
            QVERIFY2(contains(text, "\"backend\": \"" + dpu::nameOf(backend) + "\""), text.c_str());
            const std::optional<dpu::SweepBackendRecord> back = dpu::readSweepBackend(dir);
            QVERIFY(back.has_value());
            QVERIFY(back->backend == backend);
            QCOMPARE(back->host, record.host);
            // A local record keeps its process, a Slurm one its submissions: each writes only its own.
            QCOMPARE(back->pid, backend == dpu::SweepBackend::Local ? 4242L : 0L);
            QCOMPARE(back->submissions.size(), size_t(backend == dpu::SweepBackend::Slurm ? 1 : 0));
        }
        writeFile(dir + "/backend.json", R"({"backend": "Slurm", "started": ""})");
        DPU_EXPECT_THROW_MESSAGE(dpu::Error, dpu::readSweepBackend(dir), "backend.json",
                                 "backend: expected local or slurm, found 'Slurm'");
    }
};

QTEST_GUILESS_MAIN(TestSlurmSweep)
#include "test_slurm_sweep.moc"
