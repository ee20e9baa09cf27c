// SPDX-License-Identifier: MIT
// UiTestSupport: drives the plan form through findChild<> on the widgets' object names.
#include "UiTestSupport.h"
#include "MainWindow.h"
#include "TestSupport.h"
#include "panels/PlanPanel.h"
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSettings>
#include <QSpinBox>
#include <QtTest/QtTest>

namespace dpu::uitest {

void isolateSettings(const QString& folder)
{
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, folder);
    QCoreApplication::setOrganizationName(QStringLiteral("dpu-planner-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("dpu-planner-tests"));
}

QString datasetFolder(const QString& scratch)
{
    const std::string fashion = dpu::test::fashionMnistDir();
    if (!fashion.empty())
        return QString::fromStdString(fashion);
    const QString dir = QDir(scratch).filePath(QStringLiteral("synthetic-idx"));
    if (!QDir(dir).exists())
        dpu::test::writeIdxFolder(dir.toStdString(), 4000, 1200);
    return dir;
}

void fillPlanForm(dpu::ui::MainWindow& window, const QString& dataset, int initial, int perRound, int rounds,
                  int epochs, const QStringList& strategies, double k)
{
    dpu::ui::PlanPanel* panel = window.planPanel();
    // Fields the form does not show: a Fashion-MNIST subset keeps the run to seconds.
    dpu::Plan base = panel->plan();
    base.dataset.trainLimit = 3000;
    base.dataset.testLimit = 1000;
    base.train.batch = 64;
    base.threads = 0;
    panel->setPlan(base);

    panel->findChild<QLineEdit*>(QStringLiteral("name"))->setText(QStringLiteral("ui-test"));
    panel->findChild<QComboBox*>(QStringLiteral("model"))->setCurrentText(QStringLiteral("mlp"));
    panel->findChild<QComboBox*>(QStringLiteral("datasetKind"))->setCurrentIndex(0);
    panel->findChild<QLineEdit*>(QStringLiteral("datasetPath"))->setText(dataset);
    panel->findChild<QSpinBox*>(QStringLiteral("splitInitial"))->setValue(initial);
    panel->findChild<QSpinBox*>(QStringLiteral("splitPerRound"))->setValue(perRound);
    panel->findChild<QSpinBox*>(QStringLiteral("splitRounds"))->setValue(rounds);
    panel->findChild<QSpinBox*>(QStringLiteral("splitValidation"))->setValue(300);
    panel->findChild<QSpinBox*>(QStringLiteral("epochs"))->setValue(epochs);
    for (const auto& s : dpu::strategyNames()) {
        const QString name = QString::fromStdString(s);
        panel->findChild<QCheckBox*>(QStringLiteral("strategy_") + name)->setChecked(strategies.contains(name));
    }
    panel->findChild<QDoubleSpinBox*>(QStringLiteral("k"))->setValue(k);
    panel->findChild<QLineEdit*>(QStringLiteral("seeds"))->setText(QStringLiteral("1"));
    panel->findChild<QComboBox*>(QStringLiteral("device"))->setCurrentText(QStringLiteral("cpu"));
    QVERIFY2(panel->validate(), qPrintable(panel->errorText()));
}

} // namespace dpu::uitest
