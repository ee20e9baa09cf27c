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
#include "models/RunBook.h"
#include "dpu/StrategyId.h"
#include <QDir>
#include <vector>

namespace dpu::ui {

bool ResultsRenderer::render(const QString& folder, QStringList* written, QString* error)
{
    const QString path = QDir(folder).filePath(QStringLiteral("results.jsonl"));
    RunBook book; // the window's names for the series ("dpu", "dpu s2" for one seed of several)
    const int id = book.openFolder(folder, error); // errors name the file and the line
    if (id == 0)
        return false;
    const std::vector<dpu::RoundRecord>& records = book.find(id)->records;
    if (records.empty()) {
        if (error)
            *error = QStringLiteral("%1: no rounds to draw").arg(path);
        return false;
    }
    AccuracyChart accuracy;
    BytesChart bytes;
    LayerChart layers;
    const dpu::RoundRecord* lastPartial = nullptr;
    for (const auto& r : records) {
        const QString key = book.seriesKey(id, r.strategy, r.seed, true);
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
