// SPDX-License-Identifier: MIT
// Dialog to export a run's update bundles: all rounds into a folder (with catch-up bundles), or one round's bundle.
#pragma once
#include "dpu/Events.h"
#include "workers/ExportWorker.h"
#include <QDialog>
#include <QElapsedTimer>
#include <QPointer>
#include <QThread>
#include <QTimer>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QRadioButton;

namespace dpu::ui {

/// A run the dialog can export: its output folder (with bundles/) and its finished rounds.
struct ExportRun {
    QString dir;
    std::vector<dpu::RoundRecord> records;
};

class ExportBundlesDialog : public QDialog {
    Q_OBJECT
public:
    /// `runDir` is the run's output folder (with bundles/), `records` its finished rounds.
    ExportBundlesDialog(QString runDir, std::vector<dpu::RoundRecord> records, QWidget* parent = nullptr);
    /// Several runs to choose from, each listed by folder name and what it is (strategies, k,
    /// coding, rounds, start); `current` is the one chosen first.
    ExportBundlesDialog(std::vector<ExportRun> runs, int current, QWidget* parent = nullptr);
    ~ExportBundlesDialog() override;

    /// The request the current inputs describe (what Export would do).
    ExportRequest request() const;
    bool isBusy() const { return busy_; }

public Q_SLOTS:
    /// Starts the export on a worker thread; progressed() as it goes, then finished().
    void startExport();

Q_SIGNALS:
    void progressed(const dpu::ui::ExportProgress& progress);
    void finished(bool ok, const QString& message);

protected:
    void reject() override;

private:
    void buildWidgets();
    void buildLayout();
    void connectWidgets();
    void selectRun(int index);
    void refreshRounds();
    void refreshCatchUp();
    void refreshSigning();
    void browse();
    void browseKey();
    void onProgress(const ExportProgress& progress);
    void onFinished(bool ok, const QString& message);
    void showStatus(const QString& text);
    void setBusy(bool busy);

    std::vector<ExportRun> runs_;
    QString runDir_;
    std::vector<dpu::RoundRecord> records_;
    QComboBox* run_ = nullptr;
    QComboBox* strategy_ = nullptr;
    QComboBox* seed_ = nullptr;
    QRadioButton* allRounds_ = nullptr;
    QRadioButton* oneRound_ = nullptr;
    QComboBox* round_ = nullptr;
    QCheckBox* catchUp_ = nullptr;
    QRadioButton* catchUpAll_ = nullptr;
    QRadioButton* catchUpChosen_ = nullptr;
    QLineEdit* catchUpVersions_ = nullptr;
    QLabel* signing_ = nullptr;
    QLineEdit* signKey_ = nullptr;   ///< a secret key file to sign the export with; empty: as the run signed
    QPushButton* signBrowse_ = nullptr;
    QLineEdit* destination_ = nullptr;
    QPushButton* browse_ = nullptr;
    QLabel* status_ = nullptr;
    QProgressBar* busyBar_ = nullptr;
    QPushButton* exportButton_ = nullptr;
    QPushButton* closeButton_ = nullptr;
    QString progressText_;
    QElapsedTimer elapsed_;
    QTimer tick_; ///< refreshes the elapsed time while the engine works without reporting
    QThread thread_;
    QPointer<ExportWorker> worker_; ///< the export under way (cancel() asks it to stop)
    bool busy_ = false;
};

} // namespace dpu::ui
