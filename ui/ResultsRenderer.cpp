// SPDX-License-Identifier: MIT
// ResultsRenderer: the same chart widgets as the window, filled from results.jsonl, for headless users.
#include "ResultsRenderer.h"
#include "charts/AccuracyChart.h"
#include "charts/BytesChart.h"
#include "charts/ChartExporter.h"
#include "charts/LayerChart.h"
#include "dpu/Error.h"
#include "dpu/RunFolder.h"
#include "dpu/StrategyId.h"
#include <QDir>
#include <set>
#include <vector>

namespace dpu::ui {

bool ResultsRenderer::render(const QString& folder, QStringList* written, QString* error)
{
    const QString path = QDir(folder).filePath(QStringLiteral("results.jsonl"));
    std::vector<dpu::RoundRecord> records;
    try {
        records = dpu::loadRunRecords(folder.toStdString()); // errors name the file and the line
    } catch (const dpu::Error& e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
    if (records.empty()) {
        if (error)
            *error = QStringLiteral("%1: no rounds to draw").arg(path);
        return false;
    }
    std::set<uint64_t> seeds;
    for (const auto& r : records)
        seeds.insert(r.seed);
    AccuracyChart accuracy;
    BytesChart bytes;
    LayerChart layers;
    const dpu::RoundRecord* lastPartial = nullptr;
    for (const auto& r : records) {
        QString key = QString::fromStdString(r.strategy);
        if (seeds.size() > 1)
            key += QStringLiteral(" s%1").arg(r.seed);
        accuracy.addRecord(key, r);
        bytes.addRecord(key, r);
        if (!dpu::isBaseline(r.strategy) && r.deployed)
            lastPartial = &r;
    }
    layers.showRecord(lastPartial ? *lastPartial : records.back());
    const struct {
        QChartView* view;
        const char* name;
    } charts[] = {{&accuracy, "accuracy"}, {&bytes, "accuracy-vs-bytes"}, {&layers, "layers"}};
    for (const auto& c : charts) {
        c.view->resize(1000, 620);
        for (const char* ext : {"png", "svg"}) {
            const QString out = QDir(folder).filePath(QStringLiteral("%1.%2").arg(QString::fromLatin1(c.name), QString::fromLatin1(ext)));
            const bool ok = QLatin1String(ext) == QLatin1String("png") ? ChartExporter::toPng(c.view, out, error)
                                                                        : ChartExporter::toSvg(c.view, out, error);
            if (!ok)
                return false;
            if (written)
                *written << out;
        }
    }
    return true;
}

} // namespace dpu::ui
