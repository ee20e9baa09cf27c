// SPDX-License-Identifier: MIT
// The run book alone, without widgets: live, opened and sweep runs; removal; what each subscriber is told.
#include "RunFixtures.h"
#include "dpu/Sweep.h"
#include "models/RunBook.h"
#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest/QtTest>

using dpu::ui::BookRun;
using dpu::ui::RunBook;

namespace {

dpu::RoundRecord record(const char* strategy, int round, double accuracy)
{
    return dpu::test::roundRecord(strategy, 1, round, accuracy, 100, 80);
}

// Every signal of the book, in the order it came, as "signal id" lines.
struct Subscriber {
    QStringList told;
    explicit Subscriber(RunBook& book)
    {
        QObject::connect(&book, &RunBook::runAdded, [this](int id) { told << QStringLiteral("added %1").arg(id); });
        QObject::connect(&book, &RunBook::runStarted, [this](int id) { told << QStringLiteral("started %1").arg(id); });
        QObject::connect(&book, &RunBook::recordAdded, [this](int id, const dpu::RoundRecord& r) {
            told << QStringLiteral("record %1 %2 %3").arg(id).arg(QString::fromStdString(r.strategy)).arg(r.round);
        });
        QObject::connect(&book, &RunBook::epochAdded, [this](int id, const dpu::EpochEvent&) { told << QStringLiteral("epoch %1").arg(id); });
        QObject::connect(&book, &RunBook::runEnded, [this](int id) { told << QStringLiteral("ended %1").arg(id); });
        QObject::connect(&book, &RunBook::runRemoved, [this](int id) { told << QStringLiteral("removed %1").arg(id); });
        QObject::connect(&book, &RunBook::cleared, [this] { told << QStringLiteral("cleared"); });
        QObject::connect(&book, &RunBook::namesChanged, [this] { told << QStringLiteral("names"); });
    }
    QStringList take() { return std::exchange(told, {}); }
};

} // namespace

class TestRunBook : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;

    QString writeRun(const QString& name, double k, const std::string& state = "finished")
    {
        const QString dir = tmp_.filePath(name);
        dpu::Plan plan = dpu::test::sweepPlan(k, 2);
        plan.name = name.toStdString();
        const std::vector<dpu::RoundRecord> records{record("dpu", 1, 0.7), record("fu", 1, 0.8),
                                                    record("dpu", 2, 0.75), record("fu", 2, 0.85)};
        dpu::test::writeRunFolder(dir.toStdString(), plan, state == "finished" ? records
                                                                                : std::vector<dpu::RoundRecord>(records.begin(), records.begin() + 2),
                                  state);
        return dir;
    }

private Q_SLOTS:
    void liveRunFromQueueToEnd()
    {
        RunBook book;
        Subscriber sub(book);
        book.addQueued(1, dpu::test::sweepPlan(0.05));
        QCOMPARE(sub.take(), QStringList{"added 1"});
        const BookRun* run = book.find(1);
        QVERIFY(run);
        QVERIFY(run->live);
        QCOMPARE(run->state, BookRun::State::Queued);
        QCOMPARE(book.distinction(1), QString()); // alone: the strategy names its series
        QCOMPARE(book.seriesKey(1, "dpu", 1, true), QStringLiteral("dpu"));
        book.markStarted(1);
        book.addEpoch(1, dpu::EpochEvent{});
        book.addRecord(1, record("dpu", 1, 0.7));
        book.markEnded(1, tmp_.filePath("live-run"), BookRun::State::Finished);
        QCOMPARE(sub.take(), (QStringList{"started 1", "epoch 1", "record 1 dpu 1", "ended 1"}));
        QVERIFY(book.find(1)->finished());
        QCOMPARE(book.find(1)->records.size(), size_t(1));
        QCOMPARE(book.find(1)->epochs.size(), size_t(1));
        QCOMPARE(book.folders(), QStringList{QDir(tmp_.path()).absoluteFilePath("live-run")});
        // Exports name a finished queued run by its folder, as it will be when opened again.
        QCOMPARE(book.labelledRuns().at(0).run, std::string("live-run"));
        // Events of runs the book does not hold change nothing and tell nobody.
        book.addRecord(7, record("dpu", 1, 0.7));
        book.markEnded(7, {}, BookRun::State::Failed);
        QVERIFY(sub.take().isEmpty());
    }

    void secondRunRenamesTheFirst()
    {
        RunBook book;
        Subscriber sub(book);
        book.addQueued(1, dpu::test::sweepPlan(0.05));
        sub.take();
        book.addQueued(2, dpu::test::sweepPlan(0.1));
        // The first run's series gain their k: views that drew "dpu" are told to redraw.
        QCOMPARE(sub.take(), (QStringList{"added 2", "names"}));
        QCOMPARE(book.seriesKey(1, "dpu", 1, true), QStringLiteral("dpu · k=0.05"));
        QCOMPARE(book.seriesKey(2, "fu", 1, true), QStringLiteral("fu · k=0.1"));
        // The same plan again: told apart by the queue's number.
        book.addQueued(3, dpu::test::sweepPlan(0.1));
        QCOMPARE(sub.take(), (QStringList{"added 3", "names"}));
        QCOMPARE(book.distinction(2), QStringLiteral("k=0.1 · run 2"));
        QCOMPARE(book.distinction(3), QStringLiteral("k=0.1 · run 3"));
        book.remove(3);
        QCOMPARE(sub.take(), (QStringList{"removed 3", "names"}));
        QCOMPARE(book.distinction(2), QStringLiteral("k=0.1"));
        // Several seeds: the seed joins the name where asked (epochs), not for the band.
        dpu::Plan seeds = dpu::test::sweepPlan(0.2);
        seeds.seeds = {1, 2};
        book.addQueued(4, seeds);
        QCOMPARE(book.seriesKey(4, "dpu", 2, true), QStringLiteral("dpu s2 · k=0.2 · seeds=[1,2]"));
        QCOMPARE(book.seriesKey(4, "dpu", 2, false), QStringLiteral("dpu · k=0.2 · seeds=[1,2]"));
    }

    void finishedRunFromDisk()
    {
        RunBook book;
        Subscriber sub(book);
        const QString done = writeRun("finished-run", 0.05);
        const QString stopped = writeRun("stopped-run", 0.1, "stopped");
        QString error;
        const int a = book.openFolder(done, &error);
        QVERIFY2(a < 0, qPrintable(error)); // opened runs get ids of their own, below the queue's
        const int b = book.openFolder(stopped, &error);
        QVERIFY(b < 0 && b != a);
        QCOMPARE(sub.take(), (QStringList{QStringLiteral("added %1").arg(a), QStringLiteral("added %1").arg(b), "names"}));
        QCOMPARE(book.find(a)->label, QStringLiteral("finished-run"));
        QCOMPARE(book.find(a)->records.size(), size_t(4));
        QVERIFY(book.find(a)->finished());
        QCOMPARE(book.find(b)->state, BookRun::State::Stopped);
        QVERIFY(!book.find(a)->live);
        QCOMPARE(book.plannedRounds(), 2);
        // Opened again: the same run, nothing new on screen.
        QCOMPARE(book.openFolder(done), a);
        QVERIFY(sub.take().isEmpty());
        QCOMPARE(book.runs().size(), 2);
        // Closed and opened again, it keeps its id (the frontier counts it once).
        book.remove(a);
        QCOMPARE(book.openFolder(done), a);
        // A folder that is not a run: no id, the file named.
        QCOMPARE(book.openFolder(tmp_.filePath("missing"), &error), 0);
        QVERIFY2(error.contains(QStringLiteral("missing")), qPrintable(error));
        // The report's runs carry each folder's run.json state.
        const std::vector<dpu::RunFolder> report = book.reportRuns();
        QCOMPARE(report.size(), size_t(2));
        QCOMPARE(report[0].status.state, std::string("stopped"));
        QCOMPARE(report[1].status.state, std::string("finished"));
        sub.take();
        book.clear();
        QCOMPARE(sub.take(), QStringList{"cleared"});
        QVERIFY(book.isEmpty());
        QCOMPARE(book.plannedRounds(), 0);
        book.clear(); // nothing to clear: nobody told
        QVERIFY(sub.take().isEmpty());
    }

    void sweepCellsAreNamedByTheirAxes()
    {
        // A sweep folder: sweep.json and cells/ID; a cell opens under the sweep's name and axes.
        const QString sweepDir = tmp_.filePath("my-sweep");
        QVERIFY(QDir().mkpath(sweepDir));
        const dpu::Sweep sweep = dpu::parseSweep(
            R"({"base": {"name": "cells"}, "axes": {"k": [0.01, 0.1], "bundle.values": ["fp32", "q4"]}})", "test sweep");
        QFile f(sweepDir + "/sweep.json");
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(sweep.toJson()));
        f.close();
        const dpu::SweepCell& cell = sweep.cells.at(1); // k 0.01, q4
        const QString cellDir = QString::fromStdString(dpu::sweepCellDir(sweepDir.toStdString(), cell.id));
        dpu::test::writeRunFolder(cellDir.toStdString(), cell.plan, {record("dpu", 1, 0.7)});
        RunBook book;
        QString error;
        const int id = book.openFolder(cellDir, &error);
        QVERIFY2(id != 0, qPrintable(error));
        QCOMPARE(book.find(id)->label, QStringLiteral("my-sweep k=0.01 bundle.values=q4"));
    }

    /// A sweep of listed cells (the fleet planner's cells to run): a cell is named by its own entry.
    void listedCellsAreNamedByTheirEntries()
    {
        const QString sweepDir = tmp_.filePath("listed");
        QVERIFY(QDir().mkpath(sweepDir));
        const dpu::Sweep sweep = dpu::parseSweep(
            R"({"base": {"name": "cells", "k": 0.02}, "cells": [{"k": 0.01}, {"bundle.values": "q4", "k": 0.005}]})", "listed");
        QFile f(sweepDir + "/sweep.json");
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(sweep.toJson()));
        f.close();
        RunBook book;
        QStringList labels;
        for (const dpu::SweepCell& cell : sweep.cells) {
            const QString cellDir = QString::fromStdString(dpu::sweepCellDir(sweepDir.toStdString(), cell.id));
            dpu::test::writeRunFolder(cellDir.toStdString(), cell.plan, {record("dpu", 1, 0.7)});
            QString error;
            const int id = book.openFolder(cellDir, &error);
            QVERIFY2(id != 0, qPrintable(error));
            labels << book.find(id)->label;
        }
        QCOMPARE(labels, (QStringList{"listed k=0.01", "listed bundle.values=q4 k=0.005"}));
    }
};

QTEST_GUILESS_MAIN(TestRunBook)
#include "test_ui_run_book.moc"
