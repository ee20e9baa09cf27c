// SPDX-License-Identifier: MIT
// Sweeps of listed cells: order, ids, the keys as axes, refusals that name the entry, the round trip, a local run.
#include "dpu/Error.h"
#include "dpu/LocalSweep.h"
#include "dpu/Sweep.h"
#include "dpu/SweepStatus.h"
#include <QFile>
#include <QFileDevice>
#include <QTemporaryDir>
#include <QTest>
#include <nlohmann/json.hpp>
#include <filesystem>
#include <fstream>
#include <set>

namespace {

const char kListed[] = R"({"base": {"name": "s", "split": {"rounds": 2}, "strategies": ["dpu"], "k": 0.01},
    "cells": [{"k": 0.005}, {"k": 0.0025, "bundle.values": "ternary"}, {"bundle.values": "q8", "train.lr": 0.002}]})";

using KeyValues = std::vector<std::pair<std::string, std::string>>;

void writeFile(const QString& path, const std::string& text)
{
    std::ofstream(path.toStdString(), std::ios::binary) << text;
}

std::string errorOf(const std::string& text)
{
    try {
        dpu::parseSweep(text, "my-sweep.json");
    } catch (const dpu::Error& e) {
        return e.what();
    }
    return {};
}

// Stands in for dpu-cli in the local backend: records the plan it was given and finishes the cell.
const char kFakeRunner[] = R"(#!/bin/sh
dir="$4"
cp "$2" "$dir/given.json"
echo '{"state": "finished", "rounds": 1, "partial_weights": 1, "dense_weights": 1}' > "$dir/run.json"
)";

} // namespace

class TestSweepCells : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void cellsAreTheListedEntriesInOrder()
    {
        const dpu::Sweep s = dpu::parseSweep(kListed, "my-sweep.json");
        QVERIFY(s.listed);
        QCOMPARE(s.cells.size(), size_t(3));
        QCOMPARE(s.cells[0].plan.k, 0.005);
        QCOMPARE(dpu::nameOf(s.cells[0].plan.bundle.values), std::string("fp32")); // the base's
        QCOMPARE(s.cells[1].plan.k, 0.0025);
        QCOMPARE(dpu::nameOf(s.cells[1].plan.bundle.values), std::string("ternary"));
        QCOMPARE(s.cells[2].plan.k, 0.01); // not listed: the base's
        QCOMPARE(s.cells[2].plan.train.lr, 0.002);
        for (const dpu::SweepCell& c : s.cells) {
            QCOMPARE(c.plan.split.rounds, 2);
            QCOMPARE(c.plan.strategies, (std::vector<std::string>{"dpu"}));
        }
        // Each cell is named by its own entry, in the entry's order.
        QCOMPARE(s.cells[0].axisValues, (KeyValues{{"k", "0.005"}}));
        QCOMPARE(s.cells[1].axisValues, (KeyValues{{"k", "0.0025"}, {"bundle.values", "\"ternary\""}}));
        QCOMPARE(s.cells[2].axisValues, (KeyValues{{"bundle.values", "\"q8\""}, {"train.lr", "0.002"}}));
        QCOMPARE(dpu::sweepAxesLabel(s.cells[1]), std::string("k = 0.0025, bundle.values = \"ternary\""));
        // The axes are the keys the cells set, with the values they give them.
        QCOMPARE(s.axes.size(), size_t(3));
        QCOMPARE(s.axes[0].key, std::string("k"));
        QCOMPARE(s.axes[0].values, (std::vector<std::string>{"0.005", "0.0025"}));
        QCOMPARE(s.axes[1].key, std::string("bundle.values"));
        QCOMPARE(s.axes[1].values, (std::vector<std::string>{"\"ternary\"", "\"q8\""}));
        QCOMPARE(s.axes[2].key, std::string("train.lr"));
    }

    /// A listed cell has the id of the same plan reached through axes; the saved form reads back
    /// to the same cells, still listed.
    void idsAreThePlansAndSurviveTheRoundTrip()
    {
        const dpu::Sweep s = dpu::parseSweep(kListed, "my-sweep.json");
        std::set<std::string> ids;
        for (const dpu::SweepCell& c : s.cells) {
            QCOMPARE(c.id, dpu::sweepCellId(c.plan));
            ids.insert(c.id);
        }
        QCOMPARE(ids.size(), size_t(3));
        const dpu::Sweep axes = dpu::parseSweep(
            R"({"base": {"name": "s", "split": {"rounds": 2}, "strategies": ["dpu"], "k": 0.01},
                "axes": {"k": [0.0025], "bundle.values": ["ternary"]}})", "axes.json");
        QCOMPARE(axes.cells[0].id, s.cells[1].id);
        QCOMPARE(dpu::parseSweep(kListed, "again.json").cells[2].id, s.cells[2].id);

        const std::string saved = s.toJson();
        QVERIFY(nlohmann::json::parse(saved).contains("cells"));
        QVERIFY(!nlohmann::json::parse(saved).contains("axes"));
        const dpu::Sweep again = dpu::parseSweep(saved, "again.json");
        QVERIFY(again.listed);
        QCOMPARE(again.cells.size(), s.cells.size());
        for (size_t i = 0; i < s.cells.size(); ++i) {
            QCOMPARE(again.cells[i].id, s.cells[i].id);
            QCOMPARE(again.cells[i].axisValues, s.cells[i].axisValues);
        }
        // An axes sweep still writes axes.
        QVERIFY(!nlohmann::json::parse(axes.toJson()).contains("cells"));
    }

    /// A base named by its fields names each listed cell by its own; an entry that sets a name keeps it.
    void anAutomaticNameFollowsTheCell()
    {
        const dpu::Sweep s = dpu::parseSweep(
            R"({"base": {"name": "fashion-mlp-k0.01", "k": 0.01},
                "cells": [{"k": 0.003}, {"k": 0.002, "name": "trial"}]})", "auto.json");
        QCOMPARE(s.cells[0].plan.name, std::string("fashion-mlp-k0.003"));
        QCOMPARE(s.cells[1].plan.name, std::string("trial"));
    }

    /// A cell's run is named for people by its sweep folder and its own keys (runDisplayName),
    /// with a trailing slash too; a folder outside a sweep, or a cell its sweep file no longer
    /// lists or reads, by its folder's name.
    void aCellIsNamedByItsKeys()
    {
        QTemporaryDir tmp;
        const std::string sweepDir = tmp.filePath("k-sweep").toStdString();
        const dpu::Sweep sweep = dpu::parseSweep(kListed, "listed");
        std::filesystem::create_directories(sweepDir);
        writeFile(QString::fromStdString(sweepDir + "/sweep.json"), sweep.toJson());
        const std::string cell = dpu::sweepCellDir(sweepDir, sweep.cells.at(1).id);
        std::filesystem::create_directories(cell);
        QCOMPARE(dpu::runDisplayName(cell), std::string("k-sweep k=0.0025 bundle.values=ternary"));
        QCOMPARE(dpu::runDisplayName(cell + "/"), std::string("k-sweep k=0.0025 bundle.values=ternary"));
        const std::string stranger = dpu::sweepCellDir(sweepDir, "0123456789ab");
        QCOMPARE(dpu::runDisplayName(stranger), std::string("0123456789ab"));
        QCOMPARE(dpu::runDisplayName(tmp.filePath("plain-run").toStdString()), std::string("plain-run"));
        writeFile(QString::fromStdString(sweepDir + "/sweep.json"), "{broken");
        QCOMPARE(dpu::runDisplayName(cell), sweep.cells.at(1).id);
    }

    void refusalsNameTheFileAndEntry_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QStringList>("words");
        const auto row = [](const char* name, const char* text, QStringList words) {
            QTest::newRow(name) << QString(text) << words;
        };
        row("both", R"({"base": {}, "axes": {"k": [0.1]}, "cells": [{"k": 0.2}]})", {"my-sweep.json", "both", "exactly one"});
        row("neither", R"({"base": {}})", {"my-sweep.json", "axes", "cells", "found nothing"});
        row("empty list", R"({"base": {}, "cells": []})", {"my-sweep.json", "cells", "an empty list"});
        row("not a list", R"({"base": {}, "cells": {"k": 0.1}})", {"my-sweep.json", "cells", "found object"});
        row("entry not object", R"({"base": {}, "cells": [{"k": 0.1}, 0.2]})", {"my-sweep.json", "cells[1]", "found number"});
        row("empty entry", R"({"base": {}, "cells": [{"k": 0.1}, {}]})", {"my-sweep.json", "cells[1]", "an empty object"});
        row("bad value", R"({"base": {}, "cells": [{"k": 0.1}, {"lambda": 0.2, "k": 2}]})",
            {"my-sweep.json", "cells[1]", "lambda = 0.2, k = 2", "not a valid plan", "k:"});
        row("unknown key", R"({"base": {}, "cells": [{"kk": 0.1}]})", {"cells[0]", "kk = 0.1", "not a valid plan"});
        row("through a number", R"({"base": {"k": 0.1}, "cells": [{"k.x": 1}]})", {"cells[0].k.x", "'k'", "not an object"});
        row("same plan", R"({"base": {"k": 0.01}, "cells": [{"k": 0.005}, {"lambda": 0.5, "k": 0.005}]})",
            {"my-sweep.json", "cells[0] (k = 0.005)", "cells[1] (lambda = 0.5, k = 0.005)", "same plan"});
        row("same as base twice", R"({"base": {"k": 0.01}, "cells": [{"k": 0.01}, {"k": 0.010}]})", {"cells[0]", "cells[1]", "same plan"});
    }
    void refusalsNameTheFileAndEntry()
    {
        QFETCH(QString, text);
        QFETCH(QStringList, words);
        const std::string message = errorOf(text.toStdString());
        QVERIFY2(!message.empty(), "no error");
        for (const QString& w : words)
            QVERIFY2(message.find(w.toStdString()) != std::string::npos, (w.toStdString() + " not in: " + message).c_str());
    }

    /// The local backend runs each listed cell's plan once; the status and the merged results
    /// name the cells by their entries.
    void aLocalRunRunsEachListedCell()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        writeFile(dir.filePath("runner.sh"), kFakeRunner);
        QFile::setPermissions(dir.filePath("runner.sh"), QFileDevice::ReadOwner | QFileDevice::ExeOwner);
        const dpu::Sweep s = dpu::parseSweep(kListed, "s.json");
        dpu::LocalSweepOptions options;
        options.outDir = dir.filePath("out").toStdString();
        options.jobs = 2;
        options.cores = 2;
        options.program = dir.filePath("runner.sh").toStdString();
        dpu::LocalSweepObserver quiet;
        const dpu::LocalSweepSummary summary = dpu::runLocalSweep(s, options, quiet);
        QCOMPARE(summary.ran, size_t(3));
        QCOMPARE(summary.failed, size_t(0));
        for (const dpu::SweepCell& c : s.cells) {
            const std::string cellDir = dpu::sweepCellDir(options.outDir, c.id);
            QCOMPARE(dpu::sweepCellState(options.outDir, c.id), dpu::CellState::Done);
            QCOMPARE(dpu::sweepCellId(dpu::loadPlanFile(cellDir + "/given.json")), c.id);
            writeFile(QString::fromStdString(cellDir + "/results.jsonl"), "{\"round\": 1}\n");
        }
        const dpu::SweepFolderStatus status = dpu::readSweepFolderStatus(options.outDir, nullptr);
        QCOMPARE(status.cells.size(), size_t(3));
        QCOMPARE(status.cells[2].axes, std::string("bundle.values = \"q8\", train.lr = 0.002"));
        QCOMPARE(dpu::mergeSweepResults(options.outDir), size_t(3));
        std::ifstream merged(options.outDir + "/results.jsonl");
        std::string line;
        std::getline(merged, line);
        std::getline(merged, line);
        const auto second = nlohmann::json::parse(line).at("axes");
        QCOMPARE(second.size(), size_t(2));
        QCOMPARE(second.at("bundle.values").get<std::string>(), std::string("ternary"));
    }
};

QTEST_GUILESS_MAIN(TestSweepCells)
#include "test_sweep_cells.moc"
