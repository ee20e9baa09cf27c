// SPDX-License-Identifier: MIT
// SweepTargetBox: the destination of "Queue k sweep" and its settings, remembered between sessions.
#include "panels/SweepTargetBox.h"
#include "AppFolders.h"
#include <QComboBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QRegularExpressionValidator>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QThread>
#include <QVBoxLayout>
#include <algorithm>

namespace dpu::ui {
namespace {

/// Slurm words go into #SBATCH lines: no spaces, quotes or backslashes (as dpu-cli's options).
QLineEdit* wordField(QWidget* parent, const char* name, const QString& placeholder, const QString& tip)
{
    auto* e = new QLineEdit(parent);
    e->setObjectName(QString::fromLatin1(name));
    e->setPlaceholderText(placeholder);
    e->setToolTip(tip);
    e->setValidator(new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[^\\s'\"\\\\]*")), e));
    return e;
}

QSpinBox* spin(QWidget* parent, const char* name, int lo, int hi, int value, const QString& special, const QString& tip)
{
    auto* s = new QSpinBox(parent);
    s->setObjectName(QString::fromLatin1(name));
    s->setRange(lo, hi);
    s->setValue(value);
    if (!special.isEmpty())
        s->setSpecialValueText(special);
    s->setToolTip(tip);
    return s;
}

} // namespace

SweepTargetBox::SweepTargetBox(QWidget* parent) : QWidget(parent)
{
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(0, 0, 0, 0);
    auto* top = new QFormLayout;
    where_ = new QComboBox(this);
    where_->setObjectName(QStringLiteral("sweepWhere"));
    where_->addItem(tr("This window, one run at a time"));
    where_->addItem(tr("This computer, cells in parallel"));
    where_->addItem(tr("Slurm cluster"));
    where_->setToolTip(tr("The window's run queue shows every round live; a sweep folder runs each ratio as its own "
                          "process (here or as a Slurm job array) and fills the results as cells finish"));
    top->addRow(tr("Run on"), where_);
    v->addLayout(top);

    folderRow_ = new QWidget(this);
    auto* ff = new QFormLayout(folderRow_);
    ff->setContentsMargins(0, 0, 0, 0);
    folder_ = new QLineEdit(defaultFolder(), folderRow_);
    folder_->setObjectName(QStringLiteral("sweepFolderRoot"));
    folder_->setToolTip(tr("Each sweep gets a folder in here; for Slurm it must be on a filesystem every node sees"));
    ff->addRow(tr("Sweep folders in"), folder_);
    v->addWidget(folderRow_);

    local_ = new QWidget(this);
    auto* lf = new QFormLayout(local_);
    lf->setContentsMargins(0, 0, 0, 0);
    const int cores = std::max(1, QThread::idealThreadCount());
    jobs_ = spin(local_, "sweepJobs", 1, 256, std::min(2, cores), {},
                 tr("Cells at the same time; the %1 cores are divided between them").arg(cores));
    lf->addRow(tr("Cells at once"), jobs_);
    v->addWidget(local_);

    slurm_ = new QWidget(this);
    auto* sf = new QFormLayout(slurm_);
    sf->setContentsMargins(0, 0, 0, 0);
    partition_ = wordField(slurm_, "sweepPartition", tr("cluster default"), tr("sbatch --partition"));
    time_ = wordField(slurm_, "sweepTime", tr("partition default"), tr("Time limit per cell, e.g. 02:00:00 (sbatch --time)"));
    cpus_ = spin(slurm_, "sweepCpus", 0, 1024, 0, tr("1"), tr("CPUs per cell, also its threads (--cpus-per-task)"));
    gpus_ = spin(slurm_, "sweepGpus", 0, 64, 0, tr("none"), tr("GPUs per cell (--gres=gpu:N); set the plan's device to cuda"));
    mem_ = wordField(slurm_, "sweepMem", tr("cluster default"), tr("Memory per cell, e.g. 4G (--mem)"));
    throttle_ = spin(slurm_, "sweepThrottle", 0, 100000, 0, tr("no limit"), tr("Cells running at once (the array's %N)"));
    sf->addRow(tr("Partition"), partition_);
    sf->addRow(tr("Time limit"), time_);
    sf->addRow(tr("CPUs per cell"), cpus_);
    sf->addRow(tr("GPUs per cell"), gpus_);
    sf->addRow(tr("Memory per cell"), mem_);
    sf->addRow(tr("Throttle"), throttle_);
    v->addWidget(slurm_);

    connect(where_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] {
        updateVisibility();
        Q_EMIT changed();
    });
    for (QLineEdit* e : {folder_, partition_, time_, mem_})
        connect(e, &QLineEdit::textChanged, this, &SweepTargetBox::changed);
    for (QSpinBox* s : {jobs_, cpus_, gpus_, throttle_})
        connect(s, qOverload<int>(&QSpinBox::valueChanged), this, &SweepTargetBox::changed);
    updateVisibility();
}

QString SweepTargetBox::defaultFolder()
{
    return appDataFolder() + QStringLiteral("/sweeps");
}

void SweepTargetBox::updateVisibility()
{
    const auto where = static_cast<SweepTarget::Where>(where_->currentIndex());
    folderRow_->setVisible(where != SweepTarget::Where::Queue);
    local_->setVisible(where == SweepTarget::Where::Local);
    slurm_->setVisible(where == SweepTarget::Where::Slurm);
}

SweepTarget SweepTargetBox::target() const
{
    SweepTarget t;
    t.where = static_cast<SweepTarget::Where>(where_->currentIndex());
    t.jobs = jobs_->value();
    t.folder = folder_->text().trimmed().isEmpty() ? defaultFolder() : folder_->text().trimmed();
    t.slurm.partition = partition_->text().toStdString();
    t.slurm.time = time_->text().toStdString();
    t.slurm.mem = mem_->text().toStdString();
    t.slurm.cpusPerTask = cpus_->value();
    t.slurm.gpusPerTask = gpus_->value();
    t.slurm.throttle = throttle_->value();
    return t;
}

void SweepTargetBox::setTarget(const SweepTarget& t)
{
    where_->setCurrentIndex(static_cast<int>(t.where));
    jobs_->setValue(t.jobs);
    folder_->setText(t.folder);
    partition_->setText(QString::fromStdString(t.slurm.partition));
    time_->setText(QString::fromStdString(t.slurm.time));
    mem_->setText(QString::fromStdString(t.slurm.mem));
    cpus_->setValue(t.slurm.cpusPerTask);
    gpus_->setValue(t.slurm.gpusPerTask);
    throttle_->setValue(t.slurm.throttle);
}

void SweepTargetBox::saveSettings(QSettings& s) const
{
    const SweepTarget t = target();
    s.setValue(QStringLiteral("sweep/where"), static_cast<int>(t.where));
    s.setValue(QStringLiteral("sweep/jobs"), t.jobs);
    s.setValue(QStringLiteral("sweep/folder"), t.folder);
    s.setValue(QStringLiteral("sweep/partition"), QString::fromStdString(t.slurm.partition));
    s.setValue(QStringLiteral("sweep/time"), QString::fromStdString(t.slurm.time));
    s.setValue(QStringLiteral("sweep/mem"), QString::fromStdString(t.slurm.mem));
    s.setValue(QStringLiteral("sweep/cpus"), t.slurm.cpusPerTask);
    s.setValue(QStringLiteral("sweep/gpus"), t.slurm.gpusPerTask);
    s.setValue(QStringLiteral("sweep/throttle"), t.slurm.throttle);
}

void SweepTargetBox::restoreSettings(const QSettings& s)
{
    SweepTarget t = target();
    t.where = static_cast<SweepTarget::Where>(std::clamp(s.value(QStringLiteral("sweep/where"), 0).toInt(), 0, 2));
    t.jobs = s.value(QStringLiteral("sweep/jobs"), t.jobs).toInt();
    t.folder = s.value(QStringLiteral("sweep/folder"), t.folder).toString();
    t.slurm.partition = s.value(QStringLiteral("sweep/partition")).toString().toStdString();
    t.slurm.time = s.value(QStringLiteral("sweep/time")).toString().toStdString();
    t.slurm.mem = s.value(QStringLiteral("sweep/mem")).toString().toStdString();
    t.slurm.cpusPerTask = s.value(QStringLiteral("sweep/cpus"), 0).toInt();
    t.slurm.gpusPerTask = s.value(QStringLiteral("sweep/gpus"), 0).toInt();
    t.slurm.throttle = s.value(QStringLiteral("sweep/throttle"), 0).toInt();
    setTarget(t); // the spin boxes clamp what a hand-edited file holds
}

} // namespace dpu::ui
