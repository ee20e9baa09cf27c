// SPDX-License-Identifier: MIT
// The export dialog on a real run: a folder of bundles that dpu-apply-compatible code accepts, one round, errors.
#include "TestSupport.h"
#include "UiTestSupport.h"
#include "dialogs/ExportBundlesDialog.h"
#include "dpu/Bundles.h"
#include "dpu/Runner.h"
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QMessageBox>
#include <QtTest/QtTest>

using dpu::ui::ExportBundlesDialog;

class TestUiExport : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString run_;
    std::vector<dpu::RoundRecord> records_;

    static bool exportAndWait(ExportBundlesDialog& d, bool* ok, QString* message)
    {
        QSignalSpy spy(&d, &ExportBundlesDialog::finished);
        d.findChild<QPushButton*>(QStringLiteral("export"))->click();
        if (!spy.wait(60000))
            return false;
        *ok = spy.at(0).at(0).toBool();
        *message = spy.at(0).at(1).toString();
        return true;
    }

private Q_SLOTS:
    void initTestCase()
    {
        dpu::uitest::isolateSettings(dir_.filePath(QStringLiteral("settings")));
        if (dpu::test::fashionMnistDir().empty())
            QFAIL("Fashion-MNIST is missing: install the Debian package dataset-fashion-mnist (scripts/deps does)");
        dpu::Plan p;
        p.name = "export";
        p.dataset.testLimit = 600;
        p.split = {300, 300, 3, 300};
        p.strategies = {"dpu", "fu"};
        p.k = 0.02;
        p.train.epochs = 1;
        p.seeds = {4};
        run_ = dir_.filePath(QStringLiteral("run"));
        dpu::RunObserver quiet;
        records_ = dpu::Runner(p, {run_.toStdString()}).run(quiet).records;
        QCOMPARE(records_.size(), size_t(6));
    }

    void exportsAllRoundsIntoAFolder()
    {
        ExportBundlesDialog d(run_, records_);
        d.show(); // as the window opens it: the message must fit the dialog
        QVERIFY(QTest::qWaitForWindowExposed(&d));
        auto* strategy = d.findChild<QComboBox*>(QStringLiteral("strategy"));
        QCOMPARE(strategy->count(), 2);
        strategy->setCurrentText(QStringLiteral("dpu"));
        // as deep as the window's own run folders, so that the message wraps over several lines
        const QString out = dir_.filePath(QStringLiteral("share/DPU Planner/dpu-planner/runs/20261123-234935-fashion-k0.01-1/all"));
        QVERIFY(QDir().mkpath(QFileInfo(out).path()));
        d.findChild<QLineEdit*>(QStringLiteral("destination"))->setText(out);
        bool ok = false;
        QString message;
        QVERIFY(exportAndWait(d, &ok, &message));
        QVERIFY2(ok, qPrintable(message));
        QVERIFY(!d.isBusy());
        auto* status = d.findChild<QLabel*>(QStringLiteral("status"));
        QCOMPARE(status->text(), message);
        // The message (three sentences and the folder's path) wraps over several lines: the
        // dialog grows to show them all instead of cutting off the last (seen under Xvfb).
        QTRY_VERIFY2(status->height() >= status->heightForWidth(status->width()),
                     qPrintable(QStringLiteral("%1 < %2").arg(status->height()).arg(status->heightForWidth(status->width()))));
        const auto* exportButton = d.findChild<QPushButton*>(QStringLiteral("export"));
        QTRY_VERIFY2(status->geometry().bottom() < exportButton->mapTo(&d, QPoint(0, 0)).y(),
                     qPrintable(QStringLiteral("label bottom %1, button top %2, dialog height %3")
                                    .arg(status->geometry().bottom())
                                    .arg(exportButton->mapTo(&d, QPoint(0, 0)).y())
                                    .arg(d.height())));
        QVERIFY(QFile::exists(out + "/initial.safetensors"));
        QVERIFY(QFile::exists(out + "/bundles.json"));
        int deployed = 0;
        for (const auto& r : records_)
            if (r.strategy == "dpu" && r.deployed) {
                ++deployed;
                QCOMPARE(QFileInfo(out + QStringLiteral("/round-%1.dpub").arg(r.round, 3, 10, QLatin1Char('0'))).size(),
                         qint64(r.bundleBytes));
            }
        QVERIFY(message.contains(QString::number(deployed)));
    }

    void exportsOneRound()
    {
        ExportBundlesDialog d(run_, records_);
        d.findChild<QComboBox*>(QStringLiteral("strategy"))->setCurrentText(QStringLiteral("fu"));
        d.findChild<QRadioButton*>(QStringLiteral("oneRound"))->setChecked(true);
        auto* round = d.findChild<QComboBox*>(QStringLiteral("round"));
        QVERIFY(round->count() >= 1);
        const int chosen = round->itemData(0).toInt();
        const QString out = dir_.filePath(QStringLiteral("one.dpub"));
        d.findChild<QLineEdit*>(QStringLiteral("destination"))->setText(out);
        QCOMPARE(d.request().round, chosen);
        bool ok = false;
        QString message;
        QVERIFY(exportAndWait(d, &ok, &message));
        QVERIFY2(ok, qPrintable(message));
        const auto v = dpu::verifyBundleFile(out.toStdString(), "");
        QVERIFY2(v.ok, v.message.c_str()); // FU bundles are full: they verify without a base
        for (const auto& r : records_)
            if (r.strategy == "fu" && r.round == chosen)
                QCOMPARE(QString::fromStdString(v.targetSha256), QString::fromStdString(r.deviceSha256));
    }

    void strategyDefaultAndReplacingAsk()
    {
        // Nothing exported before (exportsOneRound's choice forgotten) and FU first in the
        // records: the dialog still proposes the partial strategy.
        QSettings().remove(QStringLiteral("export/strategy"));
        std::vector<dpu::RoundRecord> fuFirst(records_.rbegin(), records_.rend());
        QCOMPARE(fuFirst.front().strategy, std::string("fu"));
        const QString out = dir_.filePath(QStringLiteral("one.dpub")); // exportsOneRound wrote it
        QVERIFY(QFile::exists(out));
        const QByteArray before = [&] { QFile f(out); return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray(); }();
        {
            ExportBundlesDialog d(run_, fuFirst);
            auto* strategy = d.findChild<QComboBox*>(QStringLiteral("strategy"));
            QCOMPARE(strategy->currentText(), QStringLiteral("dpu"));
            strategy->setCurrentText(QStringLiteral("fu"));
            d.findChild<QRadioButton*>(QStringLiteral("oneRound"))->setChecked(true);
            d.findChild<QLineEdit*>(QStringLiteral("destination"))->setText(out);
            // The file exists: asked first; No keeps it as it was and exports nothing.
            QSignalSpy finished(&d, &ExportBundlesDialog::finished);
            auto asked = dpu::uitest::answerNextMessageBox(QMessageBox::No);
            d.findChild<QPushButton*>(QStringLiteral("export"))->click();
            QVERIFY2(asked->contains(QStringLiteral("already exists")), qPrintable(*asked));
            QVERIFY(!d.isBusy());
            QVERIFY(!finished.wait(300));
            QFile f(out);
            QVERIFY(f.open(QIODevice::ReadOnly));
            QCOMPARE(f.readAll(), before);
            // Yes replaces it.
            asked = dpu::uitest::answerNextMessageBox(QMessageBox::Yes);
            bool ok = false;
            QString message;
            QVERIFY(exportAndWait(d, &ok, &message));
            QVERIFY2(ok, qPrintable(message));
            QVERIFY(!asked->isEmpty());
        }
        // The strategy exported last is proposed next time (dpu comes first in these records).
        ExportBundlesDialog again(run_, records_);
        QCOMPARE(again.findChild<QComboBox*>(QStringLiteral("strategy"))->currentText(), QStringLiteral("fu"));
    }

    void errorsAreShownNotThrown()
    {
        // A run folder whose bundles are gone: the message names the missing file.
        ExportBundlesDialog d(dir_.filePath(QStringLiteral("no-such-run")), records_);
        d.findChild<QLineEdit*>(QStringLiteral("destination"))->setText(dir_.filePath(QStringLiteral("never")));
        bool ok = true;
        QString message;
        QVERIFY(exportAndWait(d, &ok, &message));
        QVERIFY(!ok);
        QVERIFY2(message.contains(QStringLiteral("no-such-run")), qPrintable(message));
        QVERIFY(!QFile::exists(dir_.filePath(QStringLiteral("never"))));
        QVERIFY(d.findChild<QPushButton*>(QStringLiteral("export"))->isEnabled()); // can try again
    }
};

QTEST_MAIN(TestUiExport)
#include "test_ui_export.moc"
