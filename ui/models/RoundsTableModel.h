// SPDX-License-Identifier: MIT
// Table model over the finished RoundRecords of the runs on screen.
#pragma once
#include "dpu/Events.h"
#include <QAbstractTableModel>
#include <QModelIndexList>
#include <vector>

namespace dpu::ui {

class RoundsTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Run, Round, Strategy, Coding, Seed, Samples, Reinitialised, Deployed, ValAccuracy, TestAccuracy,
        UpdatedWeights, Bytes, BundleBytes, CumulativeBundleBytes, CumulativeRatio, ColumnCount
    };
    /// Raw numbers for sorting (Qt::DisplayRole is formatted text).
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit RoundsTableModel(QObject* parent = nullptr);

    /// coding: the run's bundle.values ("fp32", "q4"); runs of one k differ by it.
    void append(const QString& run, const dpu::RoundRecord& record, const QString& coding = QStringLiteral("fp32"));
    void clear();
    const dpu::RoundRecord& record(int row) const { return rows_[static_cast<size_t>(row)].record; }
    /// The Run column of a row: which run it belongs to.
    const QString& run(int row) const { return rows_[static_cast<size_t>(row)].run; }
    std::vector<dpu::RoundRecord> records() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// Tab-separated text (header line + rows) of the given rows, in the given order; ready for
    /// the clipboard (spreadsheets paste it as cells).
    QString toTsv(const QList<int>& rows) const;
    /// Every row as CSV (RFC 4180 quoting), header first.
    QString toCsv() const;

private:
    struct Row {
        QString run;
        dpu::RoundRecord record;
        QString coding;
    };
    QVariant value(const Row& row, int column) const;
    std::vector<Row> rows_;
};

} // namespace dpu::ui
