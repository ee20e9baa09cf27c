// SPDX-License-Identifier: MIT
// What the dpu-cli sweep tests share: the tiny 4-cell sweep file, dpu-cli calls, file helpers, `sweep status` and merged-results readers.
#pragma once
#include "CliProcess.h"
#include <QByteArray>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <map>

namespace dpu::test {

/// Four short cells (k x bundle.values, DPU only, 300-sample splits, 1 epoch, seed 2), `rounds`
/// rounds each: seconds per cell on two cores.
inline QByteArray tinySweepJson(int rounds)
{
    return QByteArray(R"({"base": {"name": "tiny-sweep", "dataset": {"test_limit": 600},
    "split": {"initial": 300, "per_round": 300, "rounds": )") +
           QByteArray::number(rounds) + R"(, "validation": 300},
    "strategies": ["dpu"], "train": {"epochs": 1}, "seeds": [2]},
  "axes": {"k": [0.01, 0.02], "bundle.values": ["fp32", "q8"]}})";
}

/// One finished dpu-cli call (3 minutes at most unless told).
inline CliResult cli(const QStringList& args, int timeoutMs = 180000)
{
    return runCli(args, timeoutMs);
}

inline QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/// Replaces the file; false when it cannot be written.
inline bool writeAll(const QString& path, const QByteArray& data)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(data) == data.size();
}

/// Cell id -> state, from `sweep status`'s table.
inline std::map<QString, QString> statusStates(const QString& out)
{
    std::map<QString, QString> m;
    for (const QString& line : out.split('\n')) {
        const QStringList cells = line.split(' ', Qt::SkipEmptyParts);
        if (cells.size() >= 2 && cells[0].size() == 12 && cells[0] != "cell")
            m[cells[0]] = cells[1];
    }
    return m;
}

/// Every record of DIR/results.jsonl (`sweep merge`) keyed by (cell, strategy, seed, round),
/// without its wall-clock field.
inline std::map<QString, QJsonObject> mergedRecords(const QString& dir)
{
    std::map<QString, QJsonObject> records;
    for (const QByteArray& line : readAll(dir + "/results.jsonl").split('\n')) {
        if (line.isEmpty())
            continue;
        QJsonObject r = QJsonDocument::fromJson(line).object();
        r.remove("seconds");
        const QString key = r["cell"].toString() + "/" + r["strategy"].toString() + "/" +
                            QString::number(r["seed"].toInteger()) + "/" + QString::number(r["round"].toInt());
        records[key] = r;
    }
    return records;
}

} // namespace dpu::test
