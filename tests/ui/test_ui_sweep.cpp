// SPDX-License-Identifier: MIT
// Sweeps in the window: a tiny local k sweep sent from the budget planner (live states, results as cells finish), cancel, reopen, and the Slurm path through a fake Slurm.
#include "CliProcess.h"
#include "FakeSlurm.h"
#include "HangWatch.h"
#include "MainWindow.h"
#include "UiTestSupport.h"
#include "dpu/SweepStatus.h"
#include "models/RoundsTableModel.h"
#include "models/SweepModel.h"
#include "panels/BudgetPanel.h"
#include "panels/ResultsPanel.h"
#include "panels/SweepPanel.h"
#include "panels/SweepTargetBox.h"
#include "workers/EngineMetatypes.h"
#include "workers/RunQueue.h"
#include "workers/SweepController.h"
#include <QDir>
#include <QFile>
#include <QPushButton>
#include <QSettings>
#include <QTabWidget>
#include <QtTest/QtTest>
#include <algorithm>
#include <map>
#include <memory>
#include <set>

using dpu::ui::MainWindow;
using dpu::ui::SweepController;
using dpu::ui::SweepTarget;

namespace {
constexpr int kSweepTimeoutMs = 120000; // cells are processes on a shared two-core machine
// Under the test's CTest TIMEOUT (300 s): a hang is reported with its step and stacks, not killed silently.
constexpr double kWatchSeconds = 270;

/// Every state each cell was seen in, over the reads of the sweep folder.
struct StateLog {
    std::map<std::string, std::set<dpu::CellView>> seen;
    void add(const dpu::SweepFolderStatus& status)
    {
        for (const auto& c : status.cells)
            seen[c.id].insert(c.view);
    }
    bool anySeen(dpu::CellView view) const
    {
        for (const auto& [id, views] : seen)
            if (views.count(view))
                return true;
        return false;
    }
};

/// Waits until the controller's shown status satisfies `done` (reads arrive as statusChanged).
template <typename Pred>
bool waitForStatus(SweepController* c, Pred done, int timeoutMs)
{
    QElapsedTimer t;
    t.start();
    while (!done(c->status())) {
        if (t.elapsed() > timeoutMs)
            return false;
        QTest::qWait(100);
    }
    return true;
}


/// The states ('R', 'S', 'T' for stopped, ...) of this process's children: the sweep's cells.
std::vector<char> childStates()
{
    std::vector<char> out;
    const QString self = QString::number(QCoreApplication::applicationPid());
    for (const QString& pid : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        QFile f(QStringLiteral("/proc/%1/stat").arg(pid));
        if (!f.open(QIODevice::ReadOnly))
            continue;
        // "pid (comm) state ppid ...": comm may hold spaces, so read after its last ')'.
        const QByteArray stat = f.readAll();
        const QList<QByteArray> rest = stat.mid(stat.lastIndexOf(')') + 2).split(' ');
        if (rest.size() > 1 && rest[1] == self.toLatin1() && !rest[0].isEmpty())
            out.push_back(rest[0][0]);
    }
    return out;
}

/// No cell makes progress: every child stopped (none when the pause fell between two cells:
/// a paused sweep starts no new one).
bool allStopped()
{
    const std::vector<char> s = childStates();
    return std::all_of(s.begin(), s.end(), [](char c) { return c == 'T'; });
}

bool noneStopped()
{
    const std::vector<char> s = childStates();
    return std::none_of(s.begin(), s.end(), [](char c) { return c == 'T'; });
}
} // namespace

class TestUiSweep : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;
    QString dataset_;
    QString finishedSweep_; // the local sweep of the first test, reopened later
    std::unique_ptr<dpu::test::HangWatch> watch_;

    void step(const char* what) { watch_->step(what); }

    void prepare(MainWindow& w)
    {
        w.setAskBeforeClosingRun(false);
        w.runQueue()->setOutputRoot(tmp_.filePath(QStringLiteral("runs")));
        w.sweepController()->setProgram(dpu::test::cliExe());
        w.sweepController()->setRefreshInterval(300);
        w.resize(1280, 860);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
    }

    SweepTarget localTarget(int jobs) const
    {
        SweepTarget t;
        t.where = SweepTarget::Where::Local;
        t.jobs = jobs;
        t.folder = tmp_.filePath(QStringLiteral("sweeps"));
        return t;
    }

private Q_SLOTS:
    void initTestCase()
    {
        watch_ = std::make_unique<dpu::test::HangWatch>(kWatchSeconds);
        QVERIFY(dpu::uitest::prepareUiTest(tmp_));
        dataset_ = dpu::uitest::datasetFolder(tmp_.path());
    }

    /// The budget planner's button with "This computer": two cells run as dpu-cli processes,
    /// their states go pending/running -> done in the Sweeps tab, and each finished cell's
    /// rounds reach the table and the frontier.
    void localSweepFromTheBudgetPlannerReachesDone()
    {
        MainWindow w;
        prepare(w);
        dpu::uitest::fillPlanForm(w, dataset_, 300, 300, 2, 1, {"fu"});
        dpu::ui::BudgetPanel* budget = w.resultsPanel()->budgetPanel();
        budget->setSweepRatios(QStringLiteral("0.01, 0.05"));
        budget->sweepTarget()->setTarget(localTarget(2));
        auto* button = budget->findChild<QPushButton*>(QStringLiteral("budgetSweep"));
        QVERIFY(button && button->isEnabled());
        QVERIFY(button->toolTip().contains(QStringLiteral("Sweeps tab")));
        StateLog log;
        connect(w.sweepController(), &SweepController::statusChanged, &w, [&](const dpu::SweepFolderStatus& s) { log.add(s); });
        QSignalSpy ended(w.sweepController(), &SweepController::sweepEnded);
        QSignalSpy cellsDone(w.sweepController(), &SweepController::cellDone);
        QSignalSpy failures(w.sweepController(), &SweepController::failed);
        button->click();
        QVERIFY(!w.runQueue()->isBusy()); // not the window's queue
        QVERIFY(w.sweepController()->runsHere());
        QCOMPARE(w.resultsPanel()->tabs()->currentWidget(), static_cast<QWidget*>(w.sweepPanel()));
        step("local sweep: waiting for its end");
        QVERIFY(ended.wait(kSweepTimeoutMs));
        step("local sweep: checking the states");
        QVERIFY2(failures.isEmpty(), failures.isEmpty() ? "" : qPrintable(failures[0][0].toString()));
        QVERIFY(!w.sweepController()->runsHere());

        const dpu::SweepFolderStatus& st = w.sweepController()->status();
        QCOMPARE(st.cells.size(), size_t(2));
        QCOMPARE(st.count(dpu::CellView::Done), size_t(2));
        QVERIFY(st.backend == dpu::SweepBackend::Local);
        QVERIFY(!st.active);
        QVERIFY(log.anySeen(dpu::CellView::Running)); // seen live, not only at the end
        QCOMPARE(log.seen.size(), size_t(2));
        dpu::ui::SweepModel* model = w.sweepPanel()->model();
        QCOMPARE(model->rowCount(), 2);
        QCOMPARE(model->stateText(0), QStringLiteral("done"));
        QCOMPARE(model->stateText(1), QStringLiteral("done"));
        QVERIFY2(w.sweepPanel()->summaryText().contains(QStringLiteral("2 done")), qPrintable(w.sweepPanel()->summaryText()));
        QVERIFY(!w.sweepPanel()->cancelButton()->isEnabled());

        // Each finished cell opened as a run: 2 cells x 2 rounds x FU in the table, both folders on screen.
        QCOMPARE(cellsDone.size(), 2);
        QCOMPARE(w.resultsPanel()->roundsModel()->rowCount(), 4);
        QStringList cellDirs;
        for (const auto& c : st.cells)
            cellDirs << QDir(QString::fromStdString(c.runDir)).absolutePath();
        for (const QString& d : w.openRunFolders())
            QVERIFY2(cellDirs.contains(d), qPrintable(d));
        QCOMPARE(w.openRunFolders().size(), 2);
        QCOMPARE(dpu::readSweepFolderStatus(st.dir, nullptr).summary(), st.summary()); // what `sweep status` reads
        finishedSweep_ = QString::fromStdString(st.dir);
        w.close(); // saves the settings: the sweep is reopened on the next start
        step("local sweep: closing the window");
    }

    /// Cancel in the Sweeps tab stops a running local sweep: no cell runs any more, the stopped
    /// ones show as cancelled and the finished ones stay done.
    void cancelFromTheWindow()
    {
        MainWindow w;
        prepare(w);
        dpu::uitest::fillPlanForm(w, dataset_, 300, 300, 8, 1, {"fu"});
        QSignalSpy ended(w.sweepController(), &SweepController::sweepEnded);
        QString error;
        QVERIFY2(w.sendKSweep({0.01, 0.02, 0.05}, localTarget(1), &error), qPrintable(error));
        step("cancel: waiting for a running cell");
        QVERIFY(waitForStatus(w.sweepController(), [](const dpu::SweepFolderStatus& s) { return s.count(dpu::CellView::Running) > 0; },
                              kSweepTimeoutMs));
        // Pause stops the running cell where it is (SIGSTOP); resume lets it go on; a cancel
        // while paused still ends the sweep.
        QPushButton* pause = w.sweepPanel()->pauseButton();
        QTRY_VERIFY_WITH_TIMEOUT(pause->isEnabled(), 5000);
        QSignalSpy paused(w.sweepController(), &SweepController::pausedChanged);
        step("cancel: first pause");
        pause->click();
        QVERIFY(paused.wait(10000));
        QCOMPARE(paused.last().at(0).toBool(), true);
        QVERIFY(w.sweepController()->paused());
        QTRY_VERIFY_WITH_TIMEOUT(allStopped(), 10000);
        QVERIFY(ended.isEmpty());
        qInfo("cells stopped by the pause: %zu", childStates().size());
        QCOMPARE(pause->text(), QStringLiteral("Continue sweep"));
        // The stopped cells read "paused", not "running".
        QStringList states;
        for (int row = 0; row < w.sweepPanel()->model()->rowCount(); ++row)
            states << w.sweepPanel()->model()->stateText(row);
        QVERIFY2(states.contains(QStringLiteral("paused")) && !states.contains(QStringLiteral("running")), qPrintable(states.join(',')));
        // ... and so does the summary ("1 running" beside a paused cell), and only one way to go
        // on is offered: Continue, not Resume beside it.
        QTRY_VERIFY_WITH_TIMEOUT(w.sweepPanel()->summaryText().contains(QStringLiteral("sweep paused")), 5000);
        QVERIFY2(!w.sweepPanel()->summaryText().contains(QStringLiteral(" running")), qPrintable(w.sweepPanel()->summaryText()));
        QVERIFY(w.sweepPanel()->resumeButton()->isHidden() && !pause->isHidden());
        step("cancel: continue");
        pause->click();
        QVERIFY(paused.wait(10000));
        QCOMPARE(paused.last().at(0).toBool(), false);
        QTRY_VERIFY_WITH_TIMEOUT(noneStopped(), 10000);
        step("cancel: second pause");
        pause->click();
        QVERIFY(paused.wait(10000));
        QTRY_VERIFY_WITH_TIMEOUT(allStopped(), 10000);
        QVERIFY(w.sweepPanel()->cancelButton()->isEnabled());
        step("cancel: cancel while paused, waiting for the end");
        w.sweepPanel()->cancelButton()->click();
        QVERIFY(ended.wait(kSweepTimeoutMs));
        QVERIFY(!w.sweepController()->paused());
        QVERIFY(!pause->isEnabled());
        const dpu::SweepFolderStatus& st = w.sweepController()->status();
        QCOMPARE(st.count(dpu::CellView::Running), size_t(0));
        QVERIFY2(st.count(dpu::CellView::Cancelled) >= 1, st.summary().c_str());
        QVERIFY2(st.count(dpu::CellView::Done) < 3, st.summary().c_str());
        QCOMPARE(st.count(dpu::CellView::Failed), size_t(0));
        QVERIFY(!st.active);
        QVERIFY(!w.sweepPanel()->cancelButton()->isEnabled());
        // Resume sweep runs the cells left, here, to the end; the done ones are kept.
        QPushButton* resume = w.sweepPanel()->resumeButton();
        QVERIFY(resume->isEnabled() && !resume->isHidden() && pause->isHidden());
        step("cancel: resumed, waiting for the end");
        resume->click();
        QVERIFY(ended.wait(kSweepTimeoutMs));
        QCOMPARE(w.sweepController()->status().count(dpu::CellView::Done), size_t(3));
        QVERIFY(!resume->isEnabled());
        step("cancel: closing the window");
    }

    /// A new window restores the sweep of the first test (settings), and File > Open Sweep on a
    /// finished folder shows its states and opens its cells as runs.
    void reopenAFinishedSweep()
    {
        step("reopen");
        QVERIFY(!finishedSweep_.isEmpty());
        {
            QSettings().setValue(QStringLiteral("sweeps/open"), finishedSweep_); // as the first test's close left it
            MainWindow w;
            prepare(w);
            QCOMPARE(w.sweepController()->dir(), finishedSweep_);
            QVERIFY(waitForStatus(w.sweepController(), [](const dpu::SweepFolderStatus& s) { return s.count(dpu::CellView::Done) == 2; },
                                  20000));
        }
        QSettings().remove(QStringLiteral("sweeps/open"));
        QSettings().remove(QStringLiteral("runs/open"));
        MainWindow w;
        prepare(w);
        QVERIFY(w.sweepController()->dir().isEmpty());
        QString error;
        QVERIFY(!w.openSweep(tmp_.filePath(QStringLiteral("runs")), &error));
        QVERIFY2(error.contains(QStringLiteral("sweep.json")), qPrintable(error));
        // A run already on screen (a cell of the cancelled sweep) stays there: the sweep's cells join it.
        QString other;
        for (const QFileInfo& sweep : QDir(tmp_.filePath(QStringLiteral("sweeps"))).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot))
            if (sweep.absoluteFilePath() != QDir(finishedSweep_).absolutePath())
                for (const QFileInfo& cell : QDir(sweep.absoluteFilePath() + QStringLiteral("/cells")).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot))
                    if (other.isEmpty() && QFile::exists(cell.absoluteFilePath() + QStringLiteral("/results.jsonl")))
                        other = cell.absoluteFilePath();
        QVERIFY2(!other.isEmpty(), "no finished cell of the cancelled sweep to keep on screen");
        QCOMPARE(w.openRuns({other}), 1);
        const int otherRows = w.resultsPanel()->roundsModel()->rowCount();
        QVERIFY(otherRows > 0);
        QVERIFY2(w.openSweep(finishedSweep_, &error), qPrintable(error));
        QVERIFY(waitForStatus(w.sweepController(), [](const dpu::SweepFolderStatus& s) { return s.count(dpu::CellView::Done) == 2; },
                              20000));
        QTRY_COMPARE_WITH_TIMEOUT(w.resultsPanel()->roundsModel()->rowCount(), otherRows + 4, 10000);
        QCOMPARE(w.openRunFolders().size(), 3);
        QVERIFY(w.openRunFolders().contains(QDir(other).absolutePath()));
        QCOMPARE(w.sweepPanel()->model()->stateText(0), QStringLiteral("done"));
    }

    /// "Slurm cluster": the settings become the array script's #SBATCH lines, the states follow
    /// squeue, and Cancel scancels the job (a fake Slurm: the real one is test_cli_sweep_slurm's).
    void slurmSweepThroughAFakeSlurm()
    {
        step("fake Slurm");
        auto slurm = std::make_shared<dpu::test::FakeSlurm>();
        slurm->reply("sbatch", {0, "42\n", ""});
        slurm->reply("squeue", {0, "42_0|RUNNING\n42_1|PENDING\n", ""});
        MainWindow w;
        prepare(w);
        w.sweepController()->setSlurmCommands(slurm);
        dpu::uitest::fillPlanForm(w, dataset_, 300, 300, 2, 1, {"fu"});
        dpu::ui::BudgetPanel* budget = w.resultsPanel()->budgetPanel();
        budget->setSweepRatios(QStringLiteral("0.01 0.05"));
        SweepTarget t;
        t.where = SweepTarget::Where::Slurm;
        t.folder = tmp_.filePath(QStringLiteral("shared"));
        t.slurm.partition = "debug";
        t.slurm.time = "00:30:00";
        t.slurm.cpusPerTask = 2;
        t.slurm.gpusPerTask = 1;
        t.slurm.mem = "2G";
        t.slurm.throttle = 1;
        budget->sweepTarget()->setTarget(t);
        // Remembered: a restart finds the same settings.
        {
            QSettings s;
            budget->saveSettings(s);
        }
        dpu::ui::SweepTargetBox again;
        again.restoreSettings(QSettings());
        QCOMPARE(again.target().slurm.partition, std::string("debug"));
        QCOMPARE(again.target().slurm.throttle, 1);
        QCOMPARE(static_cast<int>(again.target().where), static_cast<int>(SweepTarget::Where::Slurm));

        w.sweepAction()->trigger();
        QVERIFY(waitForStatus(w.sweepController(), [](const dpu::SweepFolderStatus& s) { return s.count(dpu::CellView::Running) == 1; },
                              20000));
        const std::vector<std::string> sbatch = slurm->last("sbatch");
        QCOMPARE(sbatch.size(), size_t(3));
        const QByteArray script = [&] {
            QFile f(QString::fromStdString(sbatch[2]));
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        }();
        for (const char* line : {"--partition=debug", "--time=00:30:00", "--cpus-per-task=2", "--gres=gpu:1", "--mem=2G",
                                 "--array=0-1%1"})
            QVERIFY2(script.contains(line), line);
        QVERIFY2(script.contains(QFile::encodeName(dpu::test::cliExe())), script.constData());
        const dpu::SweepFolderStatus st = w.sweepController()->status();
        QVERIFY(st.backend == dpu::SweepBackend::Slurm);
        QVERIFY(st.active);
        QCOMPARE(st.cells[0].slurmTask, std::string("42_0"));
        QCOMPARE(st.cells[1].view, dpu::CellView::Pending);
        QVERIFY(w.sweepPanel()->model()->data(w.sweepPanel()->model()->index(0, dpu::ui::SweepModel::SlurmTask))
                    .toString().contains(QStringLiteral("RUNNING")));

        QSignalSpy ended(w.sweepController(), &SweepController::sweepEnded);
        QTRY_VERIFY_WITH_TIMEOUT(w.sweepPanel()->cancelButton()->isEnabled(), 5000);
        w.sweepPanel()->cancelButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(slurm->count("scancel"), 1, 10000);
        QCOMPARE(slurm->last("scancel"), (std::vector<std::string>{"scancel", "42"}));
        // Slurm has let go of both tasks: the sweep has ended, both cells cancelled.
        slurm->reply("squeue", {0, "", ""});
        slurm->reply("sacct", {0, "42_0|CANCELLED by 0\n42_1|CANCELLED by 0\n", ""});
        QVERIFY(ended.wait(20000));
        QCOMPARE(w.sweepController()->status().count(dpu::CellView::Cancelled), size_t(2));
    }

    void cleanupTestCase() { watch_.reset(); }
};

QTEST_MAIN(TestUiSweep)
#include "test_ui_sweep.moc"
