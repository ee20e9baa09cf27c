// SPDX-License-Identifier: MIT
// Dialog to export a run's update bundles: all rounds into a folder, or one round's bundle.
#pragma once
#include "dpu/Events.h"
#include "workers/ExportWorker.h"
#include <QDialog>
#include <QThread>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QRadioButton;

namespace dpu::ui {

class ExportBundlesDialog : public QDialog {
    Q_OBJECT
public:
    /// `runDir` is the run's output folder (with bundles/), `records` its finished rounds.
    ExportBundlesDialog(QString runDir, std::vector<dpu::RoundRecord> records, QWidget* parent = nullptr);
    ~ExportBundlesDialog() override;

    /// The request the current inputs describe (what Export would do).
    ExportRequest request() const;
    bool isBusy() const { return busy_; }

public Q_SLOTS:
    /// Starts the export on a worker thread; finished() follows.
    void startExport();

Q_SIGNALS:
    void finished(bool ok, const QString& message);

protected:
    void reject() override;

private:
    void refreshRounds();
    void browse();
    void onFinished(bool ok, const QString& message);
    void showStatus(const QString& text);

    QString runDir_;
    std::vector<dpu::RoundRecord> records_;
    QComboBox* strategy_ = nullptr;
    QComboBox* seed_ = nullptr;
    QRadioButton* allRounds_ = nullptr;
    QRadioButton* oneRound_ = nullptr;
    QComboBox* round_ = nullptr;
    QLineEdit* destination_ = nullptr;
    QLabel* status_ = nullptr;
    QProgressBar* busyBar_ = nullptr;
    QPushButton* exportButton_ = nullptr;
    QThread thread_;
    bool busy_ = false;
};

} // namespace dpu::ui
