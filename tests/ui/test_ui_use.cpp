// SPDX-License-Identifier: MIT
// What a user tripped over: unsaved edits on Open, the plan name, k > 1, the link after a
// restart, empty exports, keyboard mnemonics, the user guide, --help without a display.
#include "MainWindow.h"
#include "UiTestSupport.h"
#include "dialogs/ExportBundlesDialog.h"
#include "dialogs/UserGuideDialog.h"
#include "models/RoundsTableModel.h"
#include "panels/CostReadout.h"
#include "panels/PlanPanel.h"
#include "panels/ResultsPanel.h"
#include "workers/EngineMetatypes.h"
#include "workers/RunQueue.h"
#include <QAbstractButton>
#include <QAction>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QProcess>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QPushButton>
#include <QtTest/QtTest>

using dpu::ui::MainWindow;

namespace {

QAction* actionNamed(QWidget& w, const QString& text)
{
    for (QAction* a : w.findChildren<QAction*>())
        if (a->text().remove(QLatin1Char('&')) == text)
            return a;
    return nullptr;
}

/// The letter after a single '&' ('\0' when there is none).
QChar mnemonic(const QString& text)
{
    for (int i = 0; i + 1 < text.size(); ++i) {
        if (text[i] != QLatin1Char('&'))
            continue;
        if (text[i + 1] == QLatin1Char('&')) {
            ++i;
            continue;
        }
        return text[i + 1].toLower();
    }
    return QChar();
}

} // namespace

class TestUiUse : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(tmp_.isValid());
        dpu::uitest::isolateSettings(tmp_.filePath(QStringLiteral("settings")));
    }

    void openingAPlanAsksAboutUnsavedEdits()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* name = w.planPanel()->findChild<QLineEdit*>(QStringLiteral("name"));
        name->clear();
        QTest::keyClicks(name, QStringLiteral("my-edits"));
        QVERIFY(w.windowTitle().contains(QLatin1Char('*')));
        QAction* preset = actionNamed(w, QStringLiteral("paper-vgg-cifar10"));
        QVERIFY(preset);
        // Cancel: the edits stay.
        auto asked = dpu::uitest::answerNextMessageBox(QMessageBox::Cancel);
        preset->trigger();
        QVERIFY(asked->contains(QStringLiteral("not saved")));
        QCOMPARE(name->text(), QStringLiteral("my-edits"));
        // Discard: the preset replaces them.
        asked = dpu::uitest::answerNextMessageBox(QMessageBox::Discard);
        preset->trigger();
        QVERIFY(!asked->isEmpty());
        QCOMPARE(QString::fromStdString(w.planPanel()->plan().model), QStringLiteral("vgg"));
        // Nothing unsaved: no question (a box would stay open and the test time out).
        QVERIFY(!w.windowTitle().contains(QLatin1Char('*')));
        actionNamed(w, QStringLiteral("paper-mlp-fashion"))->trigger();
        QCOMPARE(QString::fromStdString(w.planPanel()->plan().model), QStringLiteral("mlp"));
    }

    void planNameFollowsTheModelUntilTyped()
    {
        MainWindow w;
        QVERIFY(w.openPlan(QStringLiteral(":/plans/default.json")));
        dpu::ui::PlanPanel* p = w.planPanel();
        auto* name = p->findChild<QLineEdit*>(QStringLiteral("name"));
        auto* model = p->findChild<QComboBox*>(QStringLiteral("model"));
        QCOMPARE(name->text(), QStringLiteral("fashion-mlp-k0.01"));
        model->setCurrentText(QStringLiteral("vgg"));
        QCOMPARE(name->text(), QStringLiteral("fashion-vgg-k0.01"));
        p->setK(0.05);
        QCOMPARE(name->text(), QStringLiteral("fashion-vgg-k0.05"));
        // A typed name stays whatever changes next.
        name->clear();
        QTest::keyClicks(name, QStringLiteral("mine"));
        model->setCurrentText(QStringLiteral("mlp"));
        QCOMPARE(name->text(), QStringLiteral("mine"));
        QVERIFY(!p->nameFollows());
        // A plan file's own name is kept too.
        dpu::Plan named = p->plan();
        named.name = "field-trial-3";
        p->setPlan(named);
        model->setCurrentText(QStringLiteral("vgg"));
        QCOMPARE(name->text(), QStringLiteral("field-trial-3"));
    }

    void sweepRunsOfAnAutomaticNameSayTheirKOnce()
    {
        MainWindow w;
        w.setAskBeforeClosingRun(false);
        w.runQueue()->setOutputRoot(tmp_.filePath(QStringLiteral("runs")));
        dpu::ui::registerEngineMetatypes();
        QVERIFY(w.openPlan(QStringLiteral(":/plans/default.json")));
        w.planPanel()->findChild<QLineEdit*>(QStringLiteral("datasetPath"))->setText(dpu::uitest::datasetFolder(tmp_.path()));
        w.planPanel()->setNameFollows(true);
        QSignalSpy queued(w.runQueue(), &dpu::ui::RunQueue::runQueued);
        QSignalSpy finished(&w, &MainWindow::runsFinished);
        QCOMPARE(w.queueKSweep({0.05}).size(), 1);
        w.runQueue()->stop();
        QCOMPARE(queued.size(), 1);
        const QString name = QString::fromStdString(queued[0][1].value<dpu::Plan>().name);
        QVERIFY2(name.endsWith(QStringLiteral("-mlp-k0.05")) && name.count(QStringLiteral("-k")) == 1, qPrintable(name));
        QVERIFY(finished.wait(60000));
    }

    void kAboveOneGetsAMessage()
    {
        MainWindow w;
        auto* k = w.planPanel()->findChild<QDoubleSpinBox*>(QStringLiteral("k"));
        k->clear();
        QTest::keyClicks(k, QStringLiteral("2"));
        QCOMPARE(k->value(), 2.0); // typed, not swallowed
        QVERIFY2(w.planPanel()->fieldError(QStringLiteral("k")).contains(QStringLiteral("(0, 1], found 2")),
                 qPrintable(w.planPanel()->errorText()));
        QVERIFY(!w.runAction()->isEnabled());
    }

    void linkChoiceSurvivesARestart()
    {
        // The Link row is the plan's fleet.link: it comes back with the plan.
        {
            MainWindow w;
            auto* link = w.planPanel()->findChild<QComboBox*>(QStringLiteral("planLink"));
            const int lteM = link->findData(QStringLiteral("lte-m"));
            QVERIFY(lteM > 0);
            link->setCurrentIndex(lteM);
            Q_EMIT link->activated(lteM);
            w.show();
            QVERIFY(w.close());
        }
        MainWindow again;
        QCOMPARE(again.planPanel()->plan().fleet.link.link, std::string("lte-m"));
        QCOMPARE(again.planPanel()->costReadout()->linkKey(), QStringLiteral("lte-m"));
        QCOMPARE(again.planPanel()->costReadout()->link().key, std::string("lte-m"));
    }

    void exportingNoResultsSaysSo()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QCOMPARE(w.resultsPanel()->roundsModel()->rowCount(), 0);
        for (const QString& text : {QStringLiteral("Export Results as CSV…"), QStringLiteral("Export Results as JSON…")}) {
            QAction* a = actionNamed(w, text);
            QVERIFY2(a, qPrintable(text));
            // The message comes instead of a file dialog (which would block the test).
            auto said = dpu::uitest::answerNextMessageBox(QMessageBox::Ok);
            a->trigger();
            QVERIFY2(said->contains(QStringLiteral("no results")), qPrintable(*said));
        }
    }

    void mnemonicsOfTheMainWindowAreUnique()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QMap<QChar, QStringList> owners;
        for (QAction* a : w.menuBar()->actions())
            if (!mnemonic(a->text()).isNull())
                owners[mnemonic(a->text())] << QStringLiteral("menu ") + a->text();
        for (QTabWidget* tabs : w.findChildren<QTabWidget*>())
            for (int i = 0; i < tabs->count(); ++i)
                if (!mnemonic(tabs->tabText(i)).isNull())
                    owners[mnemonic(tabs->tabText(i))] << QStringLiteral("tab ") + tabs->tabText(i);
        for (QLabel* l : w.findChildren<QLabel*>())
            if (!mnemonic(l->text()).isNull() && l->buddy())
                owners[mnemonic(l->text())] << QStringLiteral("label ") + l->text();
        for (QAbstractButton* b : w.findChildren<QAbstractButton*>())
            if (!mnemonic(b->text()).isNull())
                owners[mnemonic(b->text())] << QStringLiteral("button ") + b->text();
        QStringList clashes;
        for (auto it = owners.begin(); it != owners.end(); ++it)
            if (it.value().size() > 1)
                clashes << QStringLiteral("Alt+%1: %2").arg(it.key().toUpper(), it.value().join(QStringLiteral(", ")));
        QVERIFY2(clashes.isEmpty(), qPrintable(clashes.join(QStringLiteral("; "))));
        QVERIFY(owners.value(QLatin1Char('r')).constFirst().startsWith(QStringLiteral("menu"))); // Alt+R: the Run menu
    }

    void exportDialogShowsNoLiteralAmpersand()
    {
        dpu::ui::ExportBundlesDialog d(tmp_.path(), {});
        for (QLabel* l : d.findChildren<QLabel*>())
            if (!mnemonic(l->text()).isNull())
                QVERIFY2(l->buddy(), qPrintable(l->text() + QStringLiteral(" shows its '&'")));
        QSet<QChar> seen;
        for (QAbstractButton* b : d.findChildren<QAbstractButton*>()) {
            const QChar m = mnemonic(b->text());
            QVERIFY2(m.isNull() || !seen.contains(m), qPrintable(b->text()));
            seen.insert(m);
        }
        // Wide enough that a title bar shows the whole title (it was cut to the form's width).
        QVERIFY(d.minimumWidth() >= d.fontMetrics().horizontalAdvance(d.windowTitle()) * 2);
    }

    void helpHasTheUserGuideAndFieldsExplainThemselves()
    {
        MainWindow w;
        QAction* guide = w.findChild<QAction*>(QStringLiteral("userGuideAction"));
        QVERIFY(guide);
        QCOMPARE(guide->shortcut(), QKeySequence(QKeySequence::HelpContents));
        guide->trigger();
        auto* dialog = w.findChild<dpu::ui::UserGuideDialog*>();
        QVERIFY(dialog);
        QVERIFY(dialog->text().contains(QStringLiteral("Updating ratio k")));
        QVERIFY(dialog->text().contains(QStringLiteral("cifar-10-binary.tar.gz")));
        // A link to another page of the guide opens it in the viewer, and Back returns.
        QVERIFY(!dialog->backButton()->isEnabled());
        dialog->follow(QUrl(QStringLiteral("sweep-format.md")));
        QCOMPARE(dialog->page(), QUrl(QStringLiteral("qrc:/docs/sweep-format.md")));
        QVERIFY2(dialog->text().contains(QStringLiteral("axes")), qPrintable(dialog->text().left(200)));
        QVERIFY(dialog->backButton()->isEnabled());
        dialog->backButton()->click();
        QCOMPARE(dialog->page(), QUrl(QStringLiteral("qrc:/docs/user-guide.md")));
        QVERIFY(dialog->text().contains(QStringLiteral("Updating ratio k")));
        // A page not compiled in leaves the guide on screen and says where to read it.
        dialog->follow(QUrl(QStringLiteral("benchmarks.md")));
        QCOMPARE(dialog->page(), QUrl(QStringLiteral("qrc:/docs/user-guide.md")));
        QVERIFY(dialog->text().contains(QStringLiteral("Updating ratio k")));
        dialog->close();
        dpu::ui::PlanPanel* p = w.planPanel();
        for (const auto& s : dpu::strategyNames())
            QVERIFY2(!p->findChild<QAbstractButton*>(QStringLiteral("strategy_") + QString::fromStdString(s))->toolTip().isEmpty(),
                     s.c_str());
        QVERIFY(p->findChild<QDoubleSpinBox*>(QStringLiteral("lambda"))->toolTip().contains(QStringLiteral("global")));
        QVERIFY(p->findChild<QSpinBox*>(QStringLiteral("epochs"))->toolTip().contains(QStringLiteral("fine-tune")));
    }

    void cifarFolderSaysWhereToGetTheData()
    {
        MainWindow w;
        dpu::ui::PlanPanel* p = w.planPanel();
        p->findChild<QComboBox*>(QStringLiteral("datasetKind"))->setCurrentIndex(2); // CIFAR-100
        p->findChild<QLineEdit*>(QStringLiteral("datasetPath"))->setText(tmp_.filePath(QStringLiteral("none")));
        const QString reason = p->fieldError(QStringLiteral("dataset.path"));
        QVERIFY(reason.startsWith(QStringLiteral("folder not found")));
        QVERIFY2(reason.contains(QStringLiteral("cifar-100-binary.tar.gz")) && reason.contains(QStringLiteral("train.bin")),
                 qPrintable(reason));
    }

    void plannerHelpNeedsNoDisplay()
    {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char* v : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
            env.remove(QString::fromLatin1(v));
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(DPU_BINARY_DIR "/app/gui/dpu-planner"), {QStringLiteral("--help")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        const QString out = QString::fromUtf8(p.readAllStandardOutput());
        QVERIFY2(out.contains(QStringLiteral("--screenshot")) && out.contains(QStringLiteral("two thirds")), qPrintable(out));
    }
};

QTEST_MAIN(TestUiUse)
#include "test_ui_use.moc"
