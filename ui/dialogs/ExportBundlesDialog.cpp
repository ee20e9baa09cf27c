// SPDX-License-Identifier: MIT
// ExportBundlesDialog: pick strategy, seed, rounds and destination; the export runs off the GUI thread.
#include "dialogs/ExportBundlesDialog.h"
#include "dpu/StrategyId.h"
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QVBoxLayout>
#include <algorithm>
#include <set>

namespace dpu::ui {

ExportBundlesDialog::ExportBundlesDialog(QString runDir, std::vector<dpu::RoundRecord> records, QWidget* parent)
    : QDialog(parent), runDir_(std::move(runDir)), records_(std::move(records))
{
    setWindowTitle(tr("Export Update Bundles"));
    strategy_ = new QComboBox;
    strategy_->setObjectName(QStringLiteral("strategy"));
    seed_ = new QComboBox;
    seed_->setObjectName(QStringLiteral("seed"));
    std::set<std::string> seenStrategy;
    std::set<uint64_t> seenSeed;
    for (const auto& r : records_) {
        if (seenStrategy.insert(r.strategy).second)
            strategy_->addItem(QString::fromStdString(r.strategy));
        if (seenSeed.insert(r.seed).second)
            seed_->addItem(QString::number(r.seed), QVariant::fromValue<qulonglong>(r.seed));
    }
    // The strategy exported last time, else the first that updates partially: FU's full models
    // are rarely what a device fleet is sent.
    const QString last = QSettings().value(QStringLiteral("export/strategy")).toString();
    int preferred = strategy_->findText(last);
    for (int i = 0; i < strategy_->count() && preferred < 0; ++i)
        if (!dpu::isBaseline(strategy_->itemText(i).toStdString()))
            preferred = i;
    strategy_->setCurrentIndex(std::max(0, preferred));
    allRounds_ = new QRadioButton(tr("&All deployed rounds into a folder, with the round-0 device file"));
    allRounds_->setObjectName(QStringLiteral("allRounds"));
    allRounds_->setChecked(true);
    oneRound_ = new QRadioButton(tr("&One round's bundle:"));
    oneRound_->setObjectName(QStringLiteral("oneRound"));
    round_ = new QComboBox;
    round_->setObjectName(QStringLiteral("round"));
    destination_ = new QLineEdit(QDir(runDir_).filePath(QStringLiteral("export")));
    destination_->setObjectName(QStringLiteral("destination"));
    auto* browseButton = new QPushButton(tr("&Browse…"));
    status_ = new QLabel;
    status_->setObjectName(QStringLiteral("status"));
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    busyBar_ = new QProgressBar;
    busyBar_->setRange(0, 0); // the chain check has no meaningful fraction: show activity
    busyBar_->setVisible(false);

    auto* form = new QFormLayout;
    form->addRow(tr("&Strategy:"), strategy_);
    form->addRow(tr("S&eed:"), seed_);
    auto* roundRow = new QHBoxLayout;
    roundRow->addWidget(oneRound_);
    roundRow->addWidget(round_, 1);
    auto* destRow = new QHBoxLayout;
    destRow->addWidget(destination_, 1);
    destRow->addWidget(browseButton);
    // A row of a layout gets no buddy from addRow(QString, QLayout*): the "&" would show as is.
    auto* destLabel = new QLabel(tr("&Destination:"));
    destLabel->setBuddy(destination_);
    form->addRow(destLabel, destRow);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    exportButton_ = buttons->addButton(tr("E&xport"), QDialogButtonBox::AcceptRole);
    exportButton_->setObjectName(QStringLiteral("export"));
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(allRounds_);
    layout->addLayout(roundRow);
    layout->addWidget(busyBar_);
    layout->addWidget(status_);
    layout->addWidget(buttons);
    // Wide enough for the title bar to show the whole title (window managers cut it to the
    // dialog's width, and the form alone asked for less) and a run folder's path.
    setMinimumWidth(std::max(520, fontMetrics().horizontalAdvance(windowTitle()) * 2 + 160));

    connect(strategy_, &QComboBox::currentIndexChanged, this, &ExportBundlesDialog::refreshRounds);
    connect(seed_, &QComboBox::currentIndexChanged, this, &ExportBundlesDialog::refreshRounds);
    connect(oneRound_, &QRadioButton::toggled, this, [this](bool one) {
        round_->setEnabled(one);
        refreshRounds();
    });
    connect(browseButton, &QPushButton::clicked, this, &ExportBundlesDialog::browse);
    connect(exportButton_, &QPushButton::clicked, this, &ExportBundlesDialog::startExport);
    connect(buttons, &QDialogButtonBox::rejected, this, &ExportBundlesDialog::reject);
    round_->setEnabled(false);
    refreshRounds();
    thread_.setObjectName(QStringLiteral("dpu-export"));
}

ExportBundlesDialog::~ExportBundlesDialog()
{
    thread_.quit();
    thread_.wait(); // an export in flight finishes writing its atomic files first
}

void ExportBundlesDialog::refreshRounds()
{
    const QString previous = round_->currentText();
    round_->clear();
    const std::string strategy = strategy_->currentText().toStdString();
    const uint64_t seed = seed_->currentData().toULongLong();
    for (const auto& r : records_)
        if (r.strategy == strategy && r.seed == seed && r.deployed)
            round_->addItem(QString::number(r.round), r.round);
    if (!previous.isEmpty() && round_->findText(previous) >= 0)
        round_->setCurrentText(previous);
    exportButton_->setEnabled(!busy_ && (allRounds_->isChecked() || round_->count() > 0));
    if (oneRound_->isChecked() && round_->count() == 0)
        showStatus(tr("No round of %1 with seed %2 was deployed: there is no bundle to export.")
                       .arg(strategy_->currentText(), seed_->currentText()));
}

ExportRequest ExportBundlesDialog::request() const
{
    ExportRequest r;
    r.runDir = runDir_;
    r.strategy = strategy_->currentText();
    r.seed = seed_->currentData().toULongLong();
    r.round = oneRound_->isChecked() ? round_->currentData().toInt() : 0;
    r.destination = destination_->text().trimmed();
    return r;
}

void ExportBundlesDialog::browse()
{
    QString chosen;
    if (allRounds_->isChecked())
        chosen = QFileDialog::getExistingDirectory(this, tr("Export Bundles to Folder"), destination_->text());
    else
        chosen = QFileDialog::getSaveFileName(this, tr("Export Bundle"),
                                              QDir(runDir_).filePath(QStringLiteral("round-%1.dpub").arg(round_->currentText())),
                                              tr("Update bundles (*.dpub)"));
    if (!chosen.isEmpty())
        destination_->setText(chosen);
}

void ExportBundlesDialog::startExport()
{
    if (busy_)
        return;
    // An earlier export there would be replaced: ask first.
    const QFileInfo target(destination_->text().trimmed());
    const bool taken = target.isDir() ? !QDir(target.filePath()).isEmpty() : target.exists();
    if (taken && QMessageBox::question(this, tr("Replace the export?"),
                                       tr("%1 already exists. Replace it with this export?")
                                           .arg(QDir::toNativeSeparators(target.filePath())),
                                       QMessageBox::Yes | QMessageBox::No, QMessageBox::No) != QMessageBox::Yes)
        return;
    QSettings().setValue(QStringLiteral("export/strategy"), strategy_->currentText());
    busy_ = true;
    exportButton_->setEnabled(false);
    busyBar_->setVisible(true);
    showStatus(tr("Exporting and checking every bundle…"));
    auto* worker = new ExportWorker(request());
    worker->moveToThread(&thread_);
    connect(worker, &ExportWorker::finished, this, &ExportBundlesDialog::onFinished);
    connect(worker, &ExportWorker::finished, worker, &QObject::deleteLater);
    if (!thread_.isRunning())
        thread_.start();
    QMetaObject::invokeMethod(worker, &ExportWorker::run, Qt::QueuedConnection);
}

void ExportBundlesDialog::onFinished(bool ok, const QString& message)
{
    busy_ = false;
    busyBar_->setVisible(false);
    showStatus(message);
    status_->setStyleSheet(ok ? QString() : QStringLiteral("color: #b00020;"));
    refreshRounds();
    Q_EMIT finished(ok, message);
}

void ExportBundlesDialog::showStatus(const QString& text)
{
    status_->setText(text);
    // A window's layout does not give a word-wrapped label the height its text needs at the
    // label's width: a message of several lines (the export's folder path) lost its last line.
    // Asking for that height as the label's minimum makes the dialog grow to show it all.
    status_->setMinimumHeight(0);
    status_->setMinimumHeight(status_->heightForWidth(status_->width()));
}

void ExportBundlesDialog::reject()
{
    if (busy_)
        return; // closing mid-export would leave the user unsure what was written
    QDialog::reject();
}

} // namespace dpu::ui
