// SPDX-License-Identifier: MIT
// readRunStatus: a run folder's run.json into its status, once, for the Fleet and Fleet plan workers.
#include "workers/RunStatusFile.h"
#include "dpu/Error.h"
#include <QDir>
#include <QFile>

namespace dpu::ui {

void readRunStatus(dpu::RunFolder& run)
{
    if (run.status.known || run.dir.empty())
        return;
    QFile f(QDir(QString::fromStdString(run.dir)).filePath(QStringLiteral("run.json")));
    if (!f.open(QIODevice::ReadOnly))
        return;
    try {
        run.status = dpu::runStatusFromJson(f.readAll().toStdString(), f.fileName().toStdString());
    } catch (const dpu::Error&) {
        // Only a size here: the run folder's own reader reports it when the run is opened.
    }
}

} // namespace dpu::ui
