// SPDX-License-Identifier: MIT
// UiTestSupport: drives the plan form through findChild<> on the widgets' object names.
#include "UiTestSupport.h"
#include <QTemporaryDir>
#include "workers/EngineMetatypes.h"
#include "MainWindow.h"
#include "TestSupport.h"
#include "panels/PlanPanel.h"
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSettings>
#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QLabel>
#include <QMessageBox>
#include <QScrollArea>
#include <QScrollBar>
#include <QSlider>
#include <QSpinBox>
#include <QTimer>
#include <QtTest/QtTest>

namespace dpu::uitest {

bool prepareUiTest(const QTemporaryDir& scratch)
{
    if (!scratch.isValid())
        return false;
    isolateSettings(scratch.filePath(QStringLiteral("settings")));
    dpu::ui::registerEngineMetatypes();
    return true;
}

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
    auto* device = panel->findChild<QComboBox*>(QStringLiteral("device"));
    device->setCurrentText(uiTestDevice());
    QCOMPARE(device->currentText(), uiTestDevice());
    // The path's kind is detected as it is read; the plan can run once it is known.
    QVERIFY(QTest::qWaitFor([panel] { return !panel->detectingKind(); }, 60000));
    QVERIFY2(panel->validate(), qPrintable(panel->whyNotValid()));
}

QString uiTestDevice()
{
    return qEnvironmentVariable("DPU_TEST_DEVICE").startsWith(QStringLiteral("cuda")) ? QStringLiteral("cuda")
                                                                                       : QStringLiteral("cpu");
}

std::shared_ptr<QString> answerNextMessageBox(QMessageBox::StandardButton button, std::function<void()> before)
{
    auto text = std::make_shared<QString>();
    auto* timer = new QTimer(qApp);
    auto tries = std::make_shared<int>(0);
    timer->setInterval(20);
    QObject::connect(timer, &QTimer::timeout, timer, [timer, tries, text, button, before] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (!box) {
            if (++*tries > 1000)
                timer->deleteLater();
            return;
        }
        timer->stop();
        if (before)
            before();
        *text = box->text();
        if (QAbstractButton* b = box->button(button))
            b->click();
        else
            box->reject();
        timer->deleteLater();
    });
    timer->start();
    return text;
}

QStringList formVisibilityProblems(dpu::ui::MainWindow& window)
{
    QStringList problems;
    auto* scroll = window.findChild<QScrollArea*>(QStringLiteral("planScroll"));
    if (!scroll)
        return {QStringLiteral("no planScroll")};
    if (scroll->horizontalScrollBar()->isVisible())
        problems << QStringLiteral("horizontal scroll bar shown (form %1 px in a %2 px viewport)")
                        .arg(scroll->widget()->width()).arg(scroll->viewport()->width());
    QWidget* viewport = scroll->viewport();
    QList<QWidget*> fields;
    for (QWidget* w : scroll->widget()->findChildren<QWidget*>()) {
        if (!w->isVisibleTo(scroll->widget()))
            continue;
        const bool field = qobject_cast<QAbstractSpinBox*>(w) || qobject_cast<QLineEdit*>(w) || qobject_cast<QComboBox*>(w)
                           || qobject_cast<QAbstractButton*>(w) || qobject_cast<QSlider*>(w)
                           || (qobject_cast<QLabel*>(w) && !qobject_cast<QLabel*>(w)->text().isEmpty());
        // Line edits inside spin boxes and combo boxes are parts of their field.
        if (field && !qobject_cast<QAbstractSpinBox*>(w->parentWidget()) && !qobject_cast<QComboBox*>(w->parentWidget()))
            fields << w;
    }
    for (QWidget* w : fields) {
        const QRect r(w->mapTo(viewport, QPoint(0, 0)), w->size());
        const QString name = w->objectName().isEmpty() ? QString::fromLatin1(w->metaObject()->className()) + QLatin1Char(' ')
                                                               + (qobject_cast<QLabel*>(w) ? qobject_cast<QLabel*>(w)->text().left(30)
                                                                  : qobject_cast<QAbstractButton*>(w) ? qobject_cast<QAbstractButton*>(w)->text()
                                                                                                      : QString())
                                                         : w->objectName();
        if (r.width() < 8 || r.height() < 8)
            problems << QStringLiteral("%1 has no room (%2x%3)").arg(name).arg(r.width()).arg(r.height());
        else if (r.left() < 0 || r.right() >= viewport->width())
            problems << QStringLiteral("%1 reaches past the visible width (%2..%3 of %4)")
                            .arg(name).arg(r.left()).arg(r.right()).arg(viewport->width());
        else if (w->width() < w->minimumSizeHint().width() && !qobject_cast<QLabel*>(w))
            problems << QStringLiteral("%1 squeezed below its minimum (%2 < %3)")
                            .arg(name).arg(w->width()).arg(w->minimumSizeHint().width());
    }
    return problems;
}

} // namespace dpu::uitest
