// SPDX-License-Identifier: MIT
// ExportBundlesDialog: pick run, strategy, seed, rounds, catch-ups and destination; the export runs off the GUI thread.
#include "dialogs/ExportBundlesDialog.h"
#include "dpu/Error.h"
#include "dpu/Plan.h"
#include "dpu/RunFolder.h"
#include "dpu/StrategyId.h"
#include <QButtonGroup>
#include <QCheckBox>
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
#include <QRegularExpressionValidator>
#include <QSettings>
#include <QVBoxLayout>
#include <algorithm>
#include <set>

namespace dpu::ui {

namespace {

// "folder — dpu, fu · k=0.01 · q4 · 10 rounds · 2026-12-04 21:16": run folders are named by date
// and plan alike, so the name alone does not tell two runs apart.
QString runEntry(const QString& dir)
{
    const QString name = QFileInfo(dir).fileName();
    try {
        return QStringLiteral("%1 — %2").arg(name, QString::fromStdString(dpu::describeRunFolder(dir.toStdString())));
    } catch (const dpu::Error&) {
        return ExportBundlesDialog::tr("%1 — not readable now").arg(name);
    }
}

QString defaultDestination(const QString& runDir)
{
    return QDir(runDir).filePath(QStringLiteral("export"));
}

} // namespace

ExportBundlesDialog::ExportBundlesDialog(QString runDir, std::vector<dpu::RoundRecord> records, QWidget* parent)
    : ExportBundlesDialog(std::vector<ExportRun>{ExportRun{std::move(runDir), std::move(records)}}, 0, parent)
{
}

ExportBundlesDialog::ExportBundlesDialog(std::vector<ExportRun> runs, int current, QWidget* parent)
    : QDialog(parent), runs_(std::move(runs))
{
    setWindowTitle(tr("Export Update Bundles"));
    buildWidgets();
    buildLayout();
    connectWidgets();
    thread_.setObjectName(QStringLiteral("dpu-export"));
    run_->setCurrentIndex(std::clamp(current, 0, std::max(0, run_->count() - 1)));
    selectRun(run_->currentIndex());
}

ExportBundlesDialog::~ExportBundlesDialog()
{
    thread_.quit();
    thread_.wait(); // an export in flight finishes writing its atomic files first
}

void ExportBundlesDialog::buildWidgets()
{
    run_ = new QComboBox;
    run_->setObjectName(QStringLiteral("run"));
    for (const ExportRun& r : runs_) {
        run_->addItem(runEntry(r.dir), r.dir);
        run_->setItemData(run_->count() - 1, QDir::toNativeSeparators(r.dir), Qt::ToolTipRole);
    }
    // The descriptions are long: the list shows them whole, the closed box keeps the dialog
    // narrower than a 1366-pixel screen.
    run_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    run_->setMinimumContentsLength(48);
    run_->setEnabled(runs_.size() > 1);
    strategy_ = new QComboBox;
    strategy_->setObjectName(QStringLiteral("strategy"));
    seed_ = new QComboBox;
    seed_->setObjectName(QStringLiteral("seed"));
    allRounds_ = new QRadioButton(tr("&All deployed rounds into a folder, with the round-0 device file"));
    allRounds_->setObjectName(QStringLiteral("allRounds"));
    allRounds_->setChecked(true);
    oneRound_ = new QRadioButton(tr("&One round's bundle:"));
    oneRound_->setObjectName(QStringLiteral("oneRound"));
    round_ = new QComboBox;
    round_->setObjectName(QStringLiteral("round"));
    round_->setEnabled(false);
    catchUp_ = new QCheckBox(tr("Add catch-&up bundles to the latest version, with catchup.json, for devices at"));
    catchUp_->setObjectName(QStringLiteral("catchUp"));
    catchUp_->setToolTip(tr("A device that missed rounds cannot apply the next round's bundle. A catch-up bundle takes "
                            "it from its version to the latest in one step; catchup.json says per version whether the "
                            "catch-up bundle, the missed bundles or the full model is the cheapest "
                            "(as dpu-cli bundle export --catchup)."));
    catchUpAll_ = new QRadioButton;
    catchUpAll_->setObjectName(QStringLiteral("catchUpAll"));
    catchUpAll_->setChecked(true);
    catchUpChosen_ = new QRadioButton(tr("&versions:"));
    catchUpChosen_->setObjectName(QStringLiteral("catchUpChosen"));
    catchUpVersions_ = new QLineEdit;
    catchUpVersions_->setObjectName(QStringLiteral("catchUpVersions"));
    catchUpVersions_->setPlaceholderText(tr("e.g. 0,2,3"));
    catchUpVersions_->setValidator(
        new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[0-9 ,]*")), catchUpVersions_));
    signing_ = new QLabel;
    signing_->setObjectName(QStringLiteral("signing"));
    signing_->setWordWrap(true);
    signKey_ = new QLineEdit;
    signKey_->setObjectName(QStringLiteral("signKey"));
    signKey_->setPlaceholderText(tr("none: the bundles as the run signed them"));
    signKey_->setToolTip(tr("An Ed25519 secret key file (64 bytes, from dpu-cli bundle keygen): every bundle the "
                            "export writes, the rounds and the catch-ups, is signed with it, and devices holding its "
                            "public key (dpu-apply --pubkey) accept them. As dpu-cli bundle export --sign."));
    signBrowse_ = new QPushButton(tr("Ke&y…"));
    signBrowse_->setObjectName(QStringLiteral("signBrowse"));
    destination_ = new QLineEdit;
    destination_->setObjectName(QStringLiteral("destination"));
    browse_ = new QPushButton(tr("&Browse…"));
    status_ = new QLabel;
    status_->setObjectName(QStringLiteral("status"));
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    busyBar_ = new QProgressBar;
    busyBar_->setObjectName(QStringLiteral("progress"));
    busyBar_->setVisible(false);
}

void ExportBundlesDialog::buildLayout()
{
    auto* form = new QFormLayout;
    form->addRow(tr("&Run:"), run_);
    form->addRow(tr("&Strategy:"), strategy_);
    form->addRow(tr("S&eed:"), seed_);
    auto* roundRow = new QHBoxLayout;
    roundRow->addWidget(oneRound_);
    roundRow->addWidget(round_, 1);
    auto* catchUpRow = new QHBoxLayout;
    catchUpRow->addSpacing(24); // belongs to "All deployed rounds"
    catchUpRow->addWidget(catchUpAll_);
    catchUpRow->addWidget(catchUpChosen_);
    catchUpRow->addWidget(catchUpVersions_, 1);
    auto* catchUpGroup = new QButtonGroup(this); // apart from the rounds' radio buttons
    catchUpGroup->addButton(catchUpAll_);
    catchUpGroup->addButton(catchUpChosen_);
    auto* destRow = new QHBoxLayout;
    destRow->addWidget(destination_, 1);
    destRow->addWidget(browse_);
    // A row of a layout gets no buddy from addRow(QString, QLayout*): the "&" would show as is.
    auto* destLabel = new QLabel(tr("&Destination:"));
    destLabel->setBuddy(destination_);
    form->addRow(destLabel, destRow);
    auto* signRow = new QHBoxLayout;
    signRow->addWidget(signKey_, 1);
    signRow->addWidget(signBrowse_);
    auto* signLabel = new QLabel(tr("Si&gn with:"));
    signLabel->setBuddy(signKey_);
    form->addRow(signLabel, signRow);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    closeButton_ = buttons->button(QDialogButtonBox::Close);
    exportButton_ = buttons->addButton(tr("E&xport"), QDialogButtonBox::AcceptRole);
    exportButton_->setObjectName(QStringLiteral("export"));
    connect(buttons, &QDialogButtonBox::rejected, this, &ExportBundlesDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(allRounds_);
    auto* catchUpIndent = new QHBoxLayout;
    catchUpIndent->addSpacing(24);
    catchUpIndent->addWidget(catchUp_, 1);
    layout->addLayout(catchUpIndent);
    layout->addLayout(catchUpRow);
    layout->addLayout(roundRow);
    layout->addWidget(signing_);
    layout->addWidget(busyBar_);
    layout->addWidget(status_);
    layout->addWidget(buttons);
    // Wide enough for the title bar to show the whole title (window managers cut it to the
    // dialog's width, and the form alone asked for less: "Export Updat…" at 1366x768) and for
    // every row; the run box's fixed contents length keeps this below a small screen's width.
    setMinimumWidth(std::max({560, fontMetrics().horizontalAdvance(windowTitle()) * 2 + 160,
                              layout->minimumSize().width()}));
}

void ExportBundlesDialog::connectWidgets()
{
    connect(run_, &QComboBox::currentIndexChanged, this, &ExportBundlesDialog::selectRun);
    connect(strategy_, &QComboBox::currentIndexChanged, this, &ExportBundlesDialog::refreshRounds);
    connect(seed_, &QComboBox::currentIndexChanged, this, &ExportBundlesDialog::refreshRounds);
    connect(oneRound_, &QRadioButton::toggled, this, [this](bool one) {
        round_->setEnabled(one);
        refreshRounds();
    });
    connect(catchUp_, &QCheckBox::toggled, this, &ExportBundlesDialog::refreshCatchUp);
    connect(catchUpChosen_, &QRadioButton::toggled, this, &ExportBundlesDialog::refreshCatchUp);
    connect(catchUpVersions_, &QLineEdit::textEdited, this, [this] { catchUpChosen_->setChecked(true); });
    connect(browse_, &QPushButton::clicked, this, &ExportBundlesDialog::browse);
    connect(signBrowse_, &QPushButton::clicked, this, &ExportBundlesDialog::browseKey);
    connect(exportButton_, &QPushButton::clicked, this, &ExportBundlesDialog::startExport);
    connect(&tick_, &QTimer::timeout, this, [this] { onProgress({0, 0, progressText_}); });
    tick_.setInterval(1000);
}

void ExportBundlesDialog::selectRun(int index)
{
    if (index < 0 || index >= int(runs_.size()))
        return;
    // Follow the run with the destination unless the user chose one of their own.
    const bool defaultDest = destination_->text().isEmpty() || destination_->text() == defaultDestination(runDir_);
    runDir_ = runs_[size_t(index)].dir;
    records_ = runs_[size_t(index)].records;
    if (defaultDest)
        destination_->setText(defaultDestination(runDir_));
    const QSignalBlocker blockStrategy(strategy_), blockSeed(seed_);
    strategy_->clear();
    seed_->clear();
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
    refreshSigning();
    refreshRounds();
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
    refreshCatchUp();
}

void ExportBundlesDialog::refreshCatchUp()
{
    // The latest version of this strategy and seed: catch-ups lead there from any version below.
    const std::string strategy = strategy_->currentText().toStdString();
    const uint64_t seed = seed_->currentData().toULongLong();
    uint64_t latest = 0;
    for (const auto& r : records_)
        if (r.strategy == strategy && r.seed == seed && r.deployed)
            latest = std::max(latest, r.deviceVersion);
    catchUpAll_->setText(latest > 1 ? tr("every ear&lier version (0–%1)").arg(latest - 1) : tr("every ear&lier version (0)"));
    const bool possible = !busy_ && allRounds_->isChecked() && latest > 0;
    catchUp_->setEnabled(possible);
    // A key signs a folder's export; one round's bundle is copied as the run wrote it.
    signKey_->setEnabled(!busy_ && allRounds_->isChecked());
    signBrowse_->setEnabled(!busy_ && allRounds_->isChecked());
    const bool on = possible && catchUp_->isChecked();
    catchUpAll_->setEnabled(on);
    catchUpChosen_->setEnabled(on);
    catchUpVersions_->setEnabled(on);
}

void ExportBundlesDialog::refreshSigning()
{
    // What the run signed with (plan "bundle.secret_key"); a key chosen below re-signs the export.
    const QString how = tr("Bundles are signed when the run makes them, with the Ed25519 secret key its plan names "
                           "(\"bundle\": {\"secret_key\": ...}, a key from dpu-cli bundle keygen), and catch-up "
                           "bundles with the same key. A key chosen in \"Sign with\" signs every bundle of the export "
                           "instead, the run's own bundles and folder unchanged.");
    try {
        const dpu::Plan plan = dpu::loadPlanFile(QDir(runDir_).filePath(QStringLiteral("plan.json")).toStdString());
        signing_->setText(plan.bundle.secretKey.empty()
                              ? tr("Signing: none (the run's plan names no bundle.secret_key).")
                              : tr("Signing: with %1 (the run's plan bundle.secret_key); catch-up bundles too.")
                                    .arg(QDir::toNativeSeparators(QString::fromStdString(plan.bundle.secretKey))));
    } catch (const dpu::Error&) {
        signing_->setText(tr("Signing: unknown (the run's plan.json is not readable)."));
    }
    signing_->setToolTip(how);
}

ExportRequest ExportBundlesDialog::request() const
{
    ExportRequest r;
    r.runDir = runDir_;
    r.strategy = strategy_->currentText();
    r.seed = seed_->currentData().toULongLong();
    r.round = oneRound_->isChecked() ? round_->currentData().toInt() : 0;
    r.destination = destination_->text().trimmed();
    if (r.round == 0)
        r.secretKey = signKey_->text().trimmed();
    if (r.round == 0 && catchUp_->isEnabled() && catchUp_->isChecked())
        r.catchUp = catchUpAll_->isChecked() ? QStringLiteral("all") : catchUpVersions_->text().simplified().remove(QLatin1Char(' '));
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

void ExportBundlesDialog::browseKey()
{
    const QString chosen = QFileDialog::getOpenFileName(this, tr("Signing Key"), signKey_->text(),
                                                        tr("Ed25519 secret keys (*.key);;All files (*)"));
    if (!chosen.isEmpty())
        signKey_->setText(chosen);
}

void ExportBundlesDialog::startExport()
{
    if (busy_)
        return;
    const ExportRequest req = request();
    if (catchUp_->isChecked() && catchUp_->isEnabled() && req.catchUp.isEmpty()) {
        showStatus(tr("Name the versions to add catch-up bundles for (e.g. 0,2,3), or choose every earlier version."));
        return;
    }
    // An earlier export there would be replaced: ask first.
    const QFileInfo target(req.destination);
    const bool taken = target.isDir() ? !QDir(target.filePath()).isEmpty() : target.exists();
    if (taken && QMessageBox::question(this, tr("Replace the export?"),
                                       tr("%1 already exists. Replace it with this export?")
                                           .arg(QDir::toNativeSeparators(target.filePath())),
                                       QMessageBox::Yes | QMessageBox::No, QMessageBox::No) != QMessageBox::Yes)
        return;
    QSettings().setValue(QStringLiteral("export/strategy"), strategy_->currentText());
    setBusy(true);
    auto* worker = new ExportWorker(req);
    worker_ = worker;
    worker->moveToThread(&thread_);
    connect(worker, &ExportWorker::progress, this, &ExportBundlesDialog::onProgress);
    connect(worker, &ExportWorker::finished, this, &ExportBundlesDialog::onFinished);
    connect(worker, &ExportWorker::finished, worker, &QObject::deleteLater);
    if (!thread_.isRunning())
        thread_.start();
    QMetaObject::invokeMethod(worker, &ExportWorker::run, Qt::QueuedConnection);
}

void ExportBundlesDialog::setBusy(bool busy)
{
    busy_ = busy;
    // Nothing to change mid-export; Close waits too (see reject()).
    for (QWidget* w : {static_cast<QWidget*>(run_), static_cast<QWidget*>(strategy_), static_cast<QWidget*>(seed_),
                       static_cast<QWidget*>(allRounds_), static_cast<QWidget*>(oneRound_),
                       static_cast<QWidget*>(destination_), static_cast<QWidget*>(browse_),
                       static_cast<QWidget*>(signKey_), static_cast<QWidget*>(signBrowse_)})
        w->setEnabled(!busy);
    // While it works, Close cancels (the engine stops before it writes anything).
    closeButton_->setText(busy ? tr("&Cancel Export") : tr("Close"));
    run_->setEnabled(!busy && runs_.size() > 1);
    round_->setEnabled(!busy && oneRound_->isChecked());
    busyBar_->setVisible(busy);
    if (busy) {
        busyBar_->setRange(0, 0);
        elapsed_.start();
        tick_.start();
        progressText_ = tr("Exporting…");
        closeButton_->setEnabled(true);
        onProgress({0, 0, progressText_});
    } else {
        tick_.stop();
    }
    refreshRounds(); // the export button and the catch-up choices
}

void ExportBundlesDialog::onProgress(const ExportProgress& p)
{
    if (!busy_)
        return; // a tick or a queued report after the end
    progressText_ = p.text;
    if (p.steps > 0) {
        busyBar_->setRange(0, p.steps);
        busyBar_->setValue(p.step);
    } else {
        busyBar_->setRange(0, 0); // one engine call without a fraction: show activity and time
    }
    const qint64 s = elapsed_.elapsed() / 1000;
    showStatus(tr("%1 (%2:%3; Cancel Export stops it before anything is written)")
                   .arg(p.text)
                   .arg(s / 60)
                   .arg(s % 60, 2, 10, QLatin1Char('0')));
    Q_EMIT progressed(p);
}

void ExportBundlesDialog::onFinished(bool ok, const QString& message)
{
    setBusy(false);
    showStatus(message);
    status_->setStyleSheet(ok ? QString() : QStringLiteral("color: #b00020;"));
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
    if (busy_) {
        // The engine stops at its next step and writes nothing; the dialog stays to say so.
        if (worker_)
            worker_->cancel();
        progressText_ = tr("Cancelling…");
        onProgress({0, 0, progressText_});
        return;
    }
    QDialog::reject();
}

} // namespace dpu::ui
