// SPDX-License-Identifier: MIT
// RoundsTableModel: one row per (run, seed, round, strategy) unit, appended as rounds finish.
#include "models/RoundsTableModel.h"
#include <QLocale>

namespace dpu::ui {
namespace {
QString csvField(const QString& s)
{
    if (!s.contains(QLatin1Char(',')) && !s.contains(QLatin1Char('"')) && !s.contains(QLatin1Char('\n')))
        return s;
    QString q = s;
    q.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + q + QLatin1Char('"');
}
} // namespace

RoundsTableModel::RoundsTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void RoundsTableModel::append(const QString& run, const dpu::RoundRecord& record, const QString& coding)
{
    const int row = static_cast<int>(rows_.size());
    beginInsertRows({}, row, row);
    rows_.push_back({run, record, coding});
    endInsertRows();
}

void RoundsTableModel::clear()
{
    beginResetModel();
    rows_.clear();
    endResetModel();
}

std::vector<dpu::RoundRecord> RoundsTableModel::records() const
{
    std::vector<dpu::RoundRecord> out;
    out.reserve(rows_.size());
    for (const Row& r : rows_)
        out.push_back(r.record);
    return out;
}

int RoundsTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int RoundsTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RoundsTableModel::value(const Row& row, int column) const
{
    const dpu::RoundRecord& r = row.record;
    switch (column) {
    case Run: return row.run;
    case Round: return r.round;
    case Strategy: return QString::fromStdString(r.strategy);
    case Coding: return row.coding;
    case Seed: return static_cast<qulonglong>(r.seed);
    case Samples: return static_cast<qlonglong>(r.samples);
    case Reinitialised: return r.reinitialised;
    case Deployed: return r.deployed;
    case ValAccuracy: return r.valAccuracy;
    case TestAccuracy: return r.testAccuracy;
    case UpdatedWeights: return static_cast<qlonglong>(r.updatedWeights);
    case Bytes: return r.analyticBits / 8.0;
    case BundleBytes: return static_cast<qlonglong>(r.bundleBytes);
    case CumulativeBundleBytes: return static_cast<qlonglong>(r.cumulativeBundleBytes);
    case CumulativeRatio: return r.cumulativeRatio;
    default: return {};
    }
}

QVariant RoundsTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const Row& row = rows_[static_cast<size_t>(index.row())];
    const QVariant v = value(row, index.column());
    switch (role) {
    case SortRole:
        return v;
    case Qt::DisplayRole:
        switch (index.column()) {
        case Reinitialised:
        case Deployed: return v.toBool() ? tr("yes") : tr("no");
        case ValAccuracy:
        case TestAccuracy: return QStringLiteral("%1 %").arg(100.0 * v.toDouble(), 0, 'f', 2);
        case Bytes: return QLocale().toString(v.toDouble(), 'f', 0);
        case CumulativeRatio: return QString::number(v.toDouble(), 'g', 4);
        case UpdatedWeights:
        case BundleBytes:
        case CumulativeBundleBytes:
        case Samples: return QLocale().toString(v.toLongLong());
        default: return v;
        }
    case Qt::TextAlignmentRole:
        return index.column() == Run || index.column() == Strategy || index.column() == Coding ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                                                   : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        if (index.column() == Bytes)
            return tr("Analytic bytes of this round (DESIGN.md: 32 bits per changed weight, H(k) bits per weight "
                      "for positions, 32 bits per dense value); 0 when the round did not deploy");
        if (index.column() == BundleBytes)
            return tr("Real size of the update bundle the round exported; 0 when the round did not deploy");
        if (index.column() == CumulativeBundleBytes)
            return tr("Bundle bytes sent to a device so far: what the Accuracy vs bytes chart draws");
        if (index.column() == CumulativeRatio)
            return tr("The paper's cost ratio: cumulative analytic bits over rounds x a full FP32 model's bits "
                      "(the analytic figure, not the bundles' bytes)");
        return {};
    default:
        return {};
    }
}

QVariant RoundsTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char* const names[] = {"Run", "Round", "Strategy", "Coding", "Seed", "Samples", "Re-initialised", "Deployed",
                                        "Val. accuracy", "Test accuracy", "Updated weights", "Bytes (analytic)",
                                        "Bundle bytes", "Bundle bytes so far", "Cumulative ratio (analytic)"};
    static_assert(sizeof names / sizeof names[0] == ColumnCount, "one header per column");
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

QString RoundsTableModel::toTsv(const QList<int>& rows) const
{
    QStringList lines;
    QStringList header;
    for (int c = 0; c < ColumnCount; ++c)
        header << headerData(c, Qt::Horizontal).toString();
    lines << header.join(QLatin1Char('\t'));
    for (int r : rows) {
        QStringList cells;
        for (int c = 0; c < ColumnCount; ++c)
            cells << data(index(r, c)).toString();
        lines << cells.join(QLatin1Char('\t'));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

QString RoundsTableModel::toCsv() const
{
    // Machine-readable: raw numbers (accuracy as a fraction, bytes unrounded), not display text.
    static const char* const keys[] = {"run", "round", "strategy", "coding", "seed", "samples", "reinitialised", "deployed",
                                       "val_accuracy", "test_accuracy", "updated_weights", "analytic_bytes",
                                       "bundle_bytes", "cumulative_bundle_bytes", "cumulative_ratio"};
    static_assert(sizeof keys / sizeof keys[0] == ColumnCount, "one CSV key per column");
    QStringList lines;
    QStringList header;
    for (const char* k : keys)
        header << QString::fromLatin1(k);
    lines << header.join(QLatin1Char(','));
    for (const Row& row : rows_) {
        QStringList cells;
        for (int c = 0; c < ColumnCount; ++c) {
            const QVariant v = value(row, c);
            if (v.typeId() == QMetaType::Bool)
                cells << (v.toBool() ? QStringLiteral("true") : QStringLiteral("false"));
            else if (v.typeId() == QMetaType::Double)
                cells << QString::number(v.toDouble(), 'g', 10);
            else
                cells << csvField(v.toString());
        }
        lines << cells.join(QLatin1Char(','));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

} // namespace dpu::ui
