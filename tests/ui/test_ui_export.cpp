// SPDX-License-Identifier: MIT
// The export dialog on a real run: a folder of bundles that dpu-apply-compatible code accepts, one round, errors.
#include "TestSupport.h"
#include "UiTestSupport.h"
#include "dialogs/ExportBundlesDialog.h"
#include "dpu/Bundles.h"
#include "dpu/CatchUp.h"
#include "dpu/Error.h"
#include "dpu/RunFolder.h"
#include "workers/ExportWorker.h"
#include <QCheckBox>
#include <QDirIterator>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProgressBar>
#include "dpu/Runner.h"
#include <QComboBox>
#include <QDir>
#include <QDialogButtonBox>
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

    static QByteArray readAll(const QString& path)
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

    // Every file under `dir`, relative to it, sorted.
    static QStringList filesUnder(const QString& dir)
    {
        QStringList files;
        QDirIterator it(dir, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext())
            files << QDir(dir).relativeFilePath(it.next());
        files.sort();
        return files;
    }

    static const dpu::RoundRecord* lastDeployed(const std::vector<dpu::RoundRecord>& records, const std::string& strategy)
    {
        const dpu::RoundRecord* last = nullptr;
        for (const auto& r : records)
            if (r.strategy == strategy && r.deployed)
                last = &r;
        return last;
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

    void exportsCatchUpsAsTheCliDoes()
    {
        ExportBundlesDialog d(run_, records_);
        d.findChild<QComboBox*>(QStringLiteral("strategy"))->setCurrentText(QStringLiteral("dpu"));
        auto* catchUp = d.findChild<QCheckBox*>(QStringLiteral("catchUp"));
        QVERIFY(catchUp->isEnabled());
        QVERIFY(d.request().catchUp.isEmpty()); // off unless asked for
        catchUp->setChecked(true);
        // Chosen versions travel in the CLI's words.
        d.findChild<QRadioButton*>(QStringLiteral("catchUpChosen"))->setChecked(true);
        d.findChild<QLineEdit*>(QStringLiteral("catchUpVersions"))->setText(QStringLiteral("0, 1"));
        QCOMPARE(d.request().catchUp, QStringLiteral("0,1"));
        d.findChild<QRadioButton*>(QStringLiteral("catchUpAll"))->setChecked(true);
        QCOMPARE(d.request().catchUp, QStringLiteral("all"));
        // Only a folder export carries catch-ups.
        d.findChild<QRadioButton*>(QStringLiteral("oneRound"))->setChecked(true);
        QVERIFY(!catchUp->isEnabled());
        QVERIFY(d.request().catchUp.isEmpty());
        d.findChild<QRadioButton*>(QStringLiteral("allRounds"))->setChecked(true);
        const QString out = dir_.filePath(QStringLiteral("catchup-window"));
        d.findChild<QLineEdit*>(QStringLiteral("destination"))->setText(out);
        QSignalSpy progressed(&d, &ExportBundlesDialog::progressed);
        bool ok = false;
        QString message;
        QVERIFY(exportAndWait(d, &ok, &message));
        QVERIFY2(ok, qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("catchup.json")), qPrintable(message));
        QVERIFY(progressed.count() >= 1); // the dialog heard the worker before the end
        QVERIFY(!d.findChild<QProgressBar*>(QStringLiteral("progress"))->isVisible());
        // What `dpu-cli bundle export RUN --strategy dpu --seed 4 --catchup all` writes, byte for byte.
        const QString cli = dir_.filePath(QStringLiteral("catchup-cli"));
        dpu::CatchUpSelection all;
        all.all = true;
        dpu::exportRunBundlesWithCatchUp(run_.toStdString(), "dpu", 4, false, cli.toStdString(), all);
        const QStringList files = filesUnder(out);
        QCOMPARE(files, filesUnder(cli));
        QVERIFY(files.contains(QStringLiteral("catchup.json")));
        for (const QString& f : files)
            QVERIFY2(readAll(out + '/' + f) == readAll(cli + '/' + f), qPrintable(f));
        // The engine's own decoder takes a round-0 device to the latest state in one step.
        const dpu::RoundRecord* last = lastDeployed(records_, "dpu");
        QVERIFY(last);
        const QJsonObject index = QJsonDocument::fromJson(readAll(out + "/catchup.json")).object();
        QCOMPARE(index.value(QStringLiteral("versions")).toArray().size(), int(last->deviceVersion));
        const auto v = dpu::verifyBundleFile((out + "/catchup/from-000.dpub").toStdString(),
                                             (out + "/initial.safetensors").toStdString());
        QVERIFY2(v.ok, v.message.c_str());
        QCOMPARE(QString::fromStdString(v.targetSha256), QString::fromStdString(last->deviceSha256));
    }

    void workerReportsProgress()
    {
        dpu::ui::ExportRequest r;
        r.runDir = run_;
        r.strategy = QStringLiteral("dpu");
        r.seed = 4;
        r.destination = dir_.filePath(QStringLiteral("catchup-worker"));
        r.catchUp = QStringLiteral("0");
        std::vector<dpu::ui::ExportProgress> seen;
        bool ok = false;
        const QString message = dpu::ui::ExportWorker::exportNow(r, &ok, [&](const dpu::ui::ExportProgress& p) { seen.push_back(p); });
        QVERIFY2(ok, qPrintable(message));
        QVERIFY(seen.size() >= 2);
        // Each step says what it does, with its fraction: the chain check, the catch-up, the writing.
        QVERIFY(std::any_of(seen.begin(), seen.end(), [](const dpu::ui::ExportProgress& p) {
            return p.text.contains(QStringLiteral("catch-up bundle from version 0")) && p.steps == 3;
        }));
        QCOMPARE(seen.back().step, seen.back().steps);
        QVERIFY(QFile::exists(r.destination + "/catchup/from-000.dpub"));
        QVERIFY(!QFile::exists(r.destination + "/catchup/from-001.dpub"));
        // A malformed list is the user's message, not an exception, and writes nothing.
        r.catchUp = QStringLiteral("0,x");
        r.destination = dir_.filePath(QStringLiteral("catchup-bad"));
        QVERIFY(dpu::ui::ExportWorker::exportNow(r, &ok).contains(QStringLiteral("0,x")));
        QVERIFY(!ok);
        QVERIFY(!QFile::exists(r.destination));
    }

    void showsWhatEachRunIs()
    {
        const QString other = dir_.filePath(QStringLiteral("no-such-run"));
        ExportBundlesDialog d({{other, {}}, {run_, records_}}, 1);
        auto* run = d.findChild<QComboBox*>(QStringLiteral("run"));
        QCOMPARE(run->count(), 2);
        QCOMPARE(run->currentIndex(), 1);
        const QString described = QString::fromStdString(dpu::describeRunFolder(run_.toStdString()));
        QVERIFY2(run->currentText().startsWith(QFileInfo(run_).fileName()), qPrintable(run->currentText()));
        QVERIFY2(run->currentText().contains(described), qPrintable(run->currentText()));
        QVERIFY(run->itemText(0).contains(QStringLiteral("not readable")));
        QCOMPARE(d.request().runDir, run_);
        QCOMPARE(d.findChild<QComboBox*>(QStringLiteral("strategy"))->count(), 2);
        QVERIFY(d.findChild<QLabel*>(QStringLiteral("signing"))->text().contains(QStringLiteral("none")));
        QVERIFY(d.findChild<QLabel*>(QStringLiteral("signing"))->toolTip().contains(QStringLiteral("secret_key")));
        run->setCurrentIndex(0); // a run without records: nothing to pick, and the destination follows
        QCOMPARE(d.request().runDir, other);
        QCOMPARE(d.findChild<QLineEdit*>(QStringLiteral("destination"))->text(), QDir(other).filePath(QStringLiteral("export")));
        // Alt+letter reaches one button each (the check test_ui_use makes on a bare dialog).
        QSet<QChar> seen;
        for (QAbstractButton* b : d.findChildren<QAbstractButton*>()) {
            const int amp = b->text().indexOf(QLatin1Char('&'));
            if (amp < 0 || amp + 1 >= b->text().size())
                continue;
            const QChar m = b->text().at(amp + 1).toLower();
            QVERIFY2(!seen.contains(m), qPrintable(b->text()));
            seen.insert(m);
        }
        // The whole title and every row fit, within a 1366-pixel-wide screen.
        d.show();
        QVERIFY(QTest::qWaitForWindowExposed(&d));
        QVERIFY(d.minimumWidth() >= d.fontMetrics().horizontalAdvance(d.windowTitle()) * 2);
        QVERIFY(d.width() >= d.minimumSizeHint().width());
        QVERIFY2(d.minimumSizeHint().width() <= 1300, qPrintable(QString::number(d.minimumSizeHint().width())));
    }

    void signedRunSignsItsCatchUps()
    {
        const std::string key = dir_.filePath(QStringLiteral("sign")).toStdString();
        try {
            dpu::generateSigningKeys(key + ".key", key + ".pub");
        } catch (const dpu::Error& e) {
            QSKIP(e.what()); // built without libsodium
        }
        dpu::Plan p;
        p.name = "signed";
        p.dataset.testLimit = 600;
        p.split = {300, 300, 3, 300};
        p.strategies = {"dpu"};
        p.k = 0.02;
        p.train.epochs = 1;
        p.seeds = {4};
        p.bundle.secretKey = key + ".key";
        const QString run = dir_.filePath(QStringLiteral("signed-run"));
        dpu::RunObserver quiet;
        const auto records = dpu::Runner(p, {run.toStdString()}).run(quiet).records;
        ExportBundlesDialog d(run, records);
        QVERIFY2(d.findChild<QLabel*>(QStringLiteral("signing"))->text().contains(QStringLiteral("sign.key")),
                 qPrintable(d.findChild<QLabel*>(QStringLiteral("signing"))->text()));
        d.findChild<QCheckBox*>(QStringLiteral("catchUp"))->setChecked(true);
        const QString out = dir_.filePath(QStringLiteral("signed-export"));
        d.findChild<QLineEdit*>(QStringLiteral("destination"))->setText(out);
        bool ok = false;
        QString message;
        QVERIFY(exportAndWait(d, &ok, &message));
        QVERIFY2(ok, qPrintable(message));
        const dpu::RoundRecord* last = lastDeployed(records, "dpu");
        QVERIFY(last);
        const auto v = dpu::verifyBundleFile((out + "/catchup/from-000.dpub").toStdString(),
                                             (out + "/initial.safetensors").toStdString(), key + ".pub");
        QVERIFY2(v.ok, v.message.c_str());
        QCOMPARE(QString::fromStdString(v.targetSha256), QString::fromStdString(last->deviceSha256));
    }

    /// A key chosen in "Sign with" signs an unsigned run's export, rounds and catch-ups, as
    /// dpu-cli bundle export --sign; the run's own bundles stay unsigned.
    void signsAnUnsignedRunAtExport()
    {
        const std::string key = dir_.filePath(QStringLiteral("export-signer")).toStdString();
        dpu::generateSigningKeys(key + ".key", key + ".pub");
        ExportBundlesDialog d(run_, records_);
        auto* signKey = d.findChild<QLineEdit*>(QStringLiteral("signKey"));
        QVERIFY(signKey && signKey->isEnabled());
        signKey->setText(QString::fromStdString(key + ".key"));
        d.findChild<QComboBox*>(QStringLiteral("strategy"))->setCurrentText(QStringLiteral("dpu"));
        d.findChild<QCheckBox*>(QStringLiteral("catchUp"))->setChecked(true);
        const QString out = dir_.filePath(QStringLiteral("signed-at-export"));
        d.findChild<QLineEdit*>(QStringLiteral("destination"))->setText(out);
        QCOMPARE(d.request().secretKey, QString::fromStdString(key + ".key"));
        bool ok = false;
        QString message;
        QVERIFY(exportAndWait(d, &ok, &message));
        QVERIFY2(ok && message.contains(QStringLiteral("signed with")), qPrintable(message));
        const std::string pub = key + ".pub";
        const auto round = dpu::verifyBundleFile((out + "/round-001.dpub").toStdString(),
                                                 (out + "/initial.safetensors").toStdString(), pub);
        QVERIFY2(round.ok, round.message.c_str());
        const auto catchUp = dpu::verifyBundleFile((out + "/catchup/from-000.dpub").toStdString(),
                                                   (out + "/initial.safetensors").toStdString(), pub);
        QVERIFY2(catchUp.ok, catchUp.message.c_str());
        const auto own = dpu::verifyBundleFile(run_.toStdString() + "/bundles/seed-4/dpu/round-001.dpub",
                                               (out + "/initial.safetensors").toStdString(), pub);
        QVERIFY(!own.ok); // the run's own bundles are as it wrote them
        // One round's bundle is copied as the run wrote it: no key for it.
        d.findChild<QRadioButton*>(QStringLiteral("oneRound"))->setChecked(true);
        QVERIFY(!signKey->isEnabled());
        QVERIFY(d.request().secretKey.isEmpty());
    }

    /// Cancelling stops the export at its next step, before anything is written; the dialog's
    /// Close button cancels while it works.
    void cancellingWritesNothing()
    {
        dpu::ui::ExportRequest r;
        r.runDir = run_;
        r.strategy = QStringLiteral("dpu");
        r.seed = 4;
        r.catchUp = QStringLiteral("all");
        r.destination = dir_.filePath(QStringLiteral("cancelled"));
        dpu::RunControl control;
        std::vector<dpu::ui::ExportProgress> seen;
        bool ok = true;
        const QString message = dpu::ui::ExportWorker::exportNow(
            r, &ok,
            [&](const dpu::ui::ExportProgress& p) {
                seen.push_back(p);
                if (p.step == 1)
                    control.requestCancel(); // after the chain check, during the catch-ups
            },
            &control);
        QVERIFY(!ok);
        QVERIFY2(message.contains(QStringLiteral("cancelled")), qPrintable(message));
        QVERIFY(!QFileInfo::exists(r.destination));
        QVERIFY(seen.size() >= 2);
        QVERIFY(seen.front().steps > 2); // a fraction: chain check, each catch-up, the writing
        QVERIFY2(seen.front().text.contains(QStringLiteral("Step 1 of")), qPrintable(seen.front().text));

        ExportBundlesDialog d(run_, records_);
        d.findChild<QComboBox*>(QStringLiteral("strategy"))->setCurrentText(QStringLiteral("dpu"));
        d.findChild<QCheckBox*>(QStringLiteral("catchUp"))->setChecked(true);
        const QString out = dir_.filePath(QStringLiteral("cancelled-dialog"));
        d.findChild<QLineEdit*>(QStringLiteral("destination"))->setText(out);
        QSignalSpy spy(&d, &ExportBundlesDialog::finished);
        d.startExport();
        QVERIFY(d.isBusy());
        auto* close = d.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Close);
        QVERIFY(close->isEnabled());
        QVERIFY2(close->text().contains(QStringLiteral("Cancel")), qPrintable(close->text()));
        close->click();
        QVERIFY(spy.wait(60000));
        QVERIFY(!spy.at(0).at(0).toBool());
        QVERIFY2(spy.at(0).at(1).toString().contains(QStringLiteral("cancelled")), qPrintable(spy.at(0).at(1).toString()));
        QVERIFY(!QFileInfo::exists(out));
        QVERIFY(d.isVisible() || !d.isBusy()); // still there to say so, and no longer busy
        QCOMPARE(close->text(), QStringLiteral("Close"));
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
