// SPDX-License-Identifier: MIT
// followSlurmSweep against a fake queue and a sweep folder whose cells change between looks: what the observer is told, and the stop through the token.
#include "FakeSlurm.h"
#include "TestSupport.h"
#include "dpu/Error.h"
#include "dpu/RunControl.h"
#include "dpu/SlurmFollow.h"
#include "dpu/SlurmSweep.h"
#include "dpu/Sweep.h"
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <chrono>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

using dpu::CellState;
using dpu::test::SlurmSweepFixture;

const char kSweep[] = R"({"base": {"name": "f", "split": {"rounds": 2}}, "axes": {"k": [0.01, 0.02, 0.03, 0.04]}})";

void markFinished(const std::string& sweepDir, const std::string& id)
{
    std::ofstream(dpu::sweepCellDir(sweepDir, id) + "/run.json", std::ios::binary)
        << R"({"state": "finished", "rounds": 1, "partial_weights": 1, "dense_weights": 1})";
}

/// Records what the follow tells it; `onLook` (when set) changes the world after look n (1, 2, ...).
struct Recorder : dpu::SlurmFollowObserver {
    std::vector<std::pair<std::string, CellState>> ended;
    std::vector<bool> endedLive;
    std::vector<std::string> errors;
    int looks = 0;
    std::function<void(int)> onLook;
    void queueUnreadable(const std::string& error) override { errors.push_back(error); }
    void cellEnded(const dpu::SweepCell& cell, const dpu::SlurmCellStatus& status) override
    {
        ended.emplace_back(cell.id, status.state);
        endedLive.push_back(status.live);
    }
    void statusRead(const dpu::SlurmSweepStatus&) override
    {
        ++looks;
        if (onLook)
            onLook(looks);
    }
};

std::string squeueLines(const std::vector<std::string>& lines)
{
    std::string out;
    for (const std::string& l : lines)
        out += l + "\n";
    return out;
}

} // namespace

class TestSlurmFollow : public QObject {
    Q_OBJECT
private Q_SLOTS:
    /// Four cells: one done before the follow (never reported), then one finishes, one fails,
    /// squeue fails twice with one message (told once, the follow goes on), and the last one's
    /// task is stopped (pending, resumable); the follow ends when nothing is live.
    void reportsEachCellThatLeavesTheQueue()
    {
        SlurmSweepFixture f(kSweep, "/bin/true", "7");
        QVERIFY(f.valid());
        const dpu::Sweep& s = f.sweep;
        const std::string dir = f.options.outDir;
        dpu::submitSlurmSweep(s, f.options, f.slurm);
        const int asked = f.slurm.count("squeue"); // what the submission asked, if anything
        const std::string c0 = s.cells[0].id, c1 = s.cells[1].id, c2 = s.cells[2].id, c3 = s.cells[3].id;
        markFinished(dir, c3); // done before we look: not something that "ended" while we followed
        dpu::writeCellStarted(dir, c0);
        f.slurm.reply("squeue", {0, squeueLines({"7_0|RUNNING", "7_1|PENDING", "7_2|PENDING"}), ""});
        Recorder r;
        r.onLook = [&](int look) {
            if (look == 1) { // c0 finishes, c1 starts
                markFinished(dir, c0);
                dpu::writeCellExit(dir, c0, 0);
                dpu::writeCellStarted(dir, c1);
                f.slurm.reply("squeue", {0, squeueLines({"7_1|RUNNING", "7_2|PENDING"}), ""});
            } else if (look == 2) { // c1 fails, c2 starts
                dpu::writeCellExit(dir, c1, 3);
                dpu::writeCellStarted(dir, c2);
                f.slurm.reply("squeue", {0, squeueLines({"7_2|RUNNING"}), ""});
            } else if (look == 3) { // the controller does not answer (twice)
                f.slurm.reply("squeue", {1, "", "slurm_load_jobs error: Socket timed out on send/recv operation\n"});
            } else if (look == 5) { // c2's task was stopped (scancel): it left the queue, resumable
                dpu::writeCellExit(dir, c2, dpu::kCellStoppedExit);
                f.slurm.reply("squeue", {0, "", ""});
            }
        };
        dpu::RunControl control;
        const dpu::SlurmFollowSummary sum = dpu::followSlurmSweep(s, {dir, 0.2}, f.slurm, r, control);
        QVERIFY(!sum.stopped);
        QCOMPARE(r.looks, 6);
        QCOMPARE(f.slurm.count("squeue") - asked, 6); // one question per look
        const std::vector<std::pair<std::string, CellState>> expected{
            {c0, CellState::Done}, {c1, CellState::Failed}, {c2, CellState::Pending}};
        QCOMPARE(r.ended, expected);
        QCOMPARE(r.endedLive, (std::vector<bool>{false, false, false}));
        QCOMPARE(r.errors, std::vector<std::string>{"squeue: slurm_load_jobs error: Socket timed out on send/recv operation"});
        QVERIFY(sum.status.queueRead);
        QCOMPARE(sum.status.cells.size(), size_t(4));
        QCOMPARE(sum.status.cells[0].state, CellState::Done);
        QCOMPARE(sum.status.cells[1].state, CellState::Failed);
        QCOMPARE(sum.status.cells[2].state, CellState::Pending);
        QCOMPARE(sum.status.cells[3].state, CellState::Done);
    }

    /// The token stops the follow: cancelled by the observer after the third look it ends there;
    /// cancelled from another thread during a long wait it ends within a few tenths of a second.
    /// The cells stay in Slurm (nothing is cancelled there) and nothing is reported as ended.
    void theTokenStopsFollowing()
    {
        SlurmSweepFixture f(kSweep, "/bin/true", "9");
        QVERIFY(f.valid());
        dpu::submitSlurmSweep(f.sweep, f.options, f.slurm);
        f.slurm.reply("squeue", {0, squeueLines({"9_0|RUNNING", "9_1|RUNNING", "9_2|PENDING", "9_3|PENDING"}), ""});
        dpu::RunControl control;
        Recorder r;
        r.onLook = [&control](int look) {
            if (look == 3)
                control.requestCancel();
        };
        const dpu::SlurmFollowSummary a = dpu::followSlurmSweep(f.sweep, {f.options.outDir, 0.2}, f.slurm, r, control);
        QVERIFY(a.stopped);
        QCOMPARE(r.looks, 3);
        QVERIFY(r.ended.empty());
        QCOMPARE(f.slurm.count("scancel"), 0);
        QCOMPARE(a.status.cells[0].state, CellState::Running);

        control.reset();
        Recorder waiting;
        std::thread stopper([&control] {
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
            control.requestCancel(); // what the command line's SIGINT handler does
        });
        QElapsedTimer clock;
        clock.start();
        const dpu::SlurmFollowSummary b = dpu::followSlurmSweep(f.sweep, {f.options.outDir, 60}, f.slurm, waiting, control);
        stopper.join();
        QVERIFY(b.stopped);
        QCOMPARE(waiting.looks, 1);
        QVERIFY2(clock.elapsed() < 5000, "a stop during the wait does not wait for the next look");
    }

    /// A poll interval that is not positive is refused before the queue is asked.
    void refusesABadPollInterval()
    {
        SlurmSweepFixture f(kSweep, "/bin/true");
        QVERIFY(f.valid());
        dpu::RunControl control;
        Recorder r;
        DPU_EXPECT_THROW_MESSAGE(dpu::Error, dpu::followSlurmSweep(f.sweep, {f.options.outDir, 0}, f.slurm, r, control),
                                 "poll seconds");
        QCOMPARE(f.slurm.count("squeue"), 0);
        QCOMPARE(r.looks, 0);
    }
};

QTEST_GUILESS_MAIN(TestSlurmFollow)
#include "test_slurm_follow.moc"
