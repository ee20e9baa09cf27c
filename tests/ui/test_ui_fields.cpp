// SPDX-License-Identifier: MIT
// Tests of invalid input: each bad value shows its reason at its own field as the user types,
// Run is disabled and says why, and nothing starts.
#include "MainWindow.h"
#include "UiTestSupport.h"
#include "dpu/DatasetSize.h"
#include "dpu/PlanFields.h"
#include "panels/PlanPanel.h"
#include "workers/EngineMetatypes.h"
#include "workers/RunQueue.h"
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QJsonArray>
#include <QStatusBar>
#include <QtTest/QtTest>
#include <sys/stat.h>

using dpu::ui::MainWindow;
using dpu::ui::PlanPanel;

class TestUiFields : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;
    QString dataset_;

    /// The field of `path` shows `reason` in its own red line, frame and tooltip; Run refuses.
    void expectRefused(MainWindow& w, const QString& path, const QString& reason)
    {
        PlanPanel* panel = w.planPanel();
        QVERIFY2(!panel->isValid(), qPrintable(path));
        QLabel* line = panel->errorLabelFor(path);
        QVERIFY2(line, qPrintable(path));
        QVERIFY2(line->text().contains(reason), qPrintable(path + QStringLiteral(": ") + line->text()));
        QVERIFY2(!line->isHidden() && line->isVisible(), qPrintable(path));
        // The tooltip and Run's reason carry the bare reason (the line may name the field first).
        const QString bare = reason.mid(reason.indexOf(QStringLiteral(": ")) + 1).trimmed();
        QVERIFY2(panel->fieldFor(path)->toolTip().contains(bare),
                 qPrintable(path + QStringLiteral(": ") + panel->fieldFor(path)->toolTip()));
        QVERIFY(panel->fieldFor(path)->styleSheet().contains(QStringLiteral("border")));
        // Only this field is marked.
        for (QLabel* other : panel->findChildren<QLabel*>())
            if (other->objectName().startsWith(QStringLiteral("fieldError_")) && other != line)
                QVERIFY2(other->isHidden(), qPrintable(other->objectName() + QStringLiteral(": ") + other->text()));
        QVERIFY(!w.runAction()->isEnabled());
        QVERIFY2(w.runAction()->toolTip().contains(bare), qPrintable(w.runAction()->toolTip()));
        QSignalSpy queued(w.runQueue(), &dpu::ui::RunQueue::runQueued);
        w.runAction()->trigger(); // a disabled action does nothing; startRun() refuses as well
        QVERIFY(!w.startRun());
        QCOMPARE(queued.size(), 0);
        QVERIFY(!w.runQueue()->isBusy());
    }

    void expectFine(MainWindow& w, const QString& path)
    {
        QVERIFY2(w.planPanel()->isValid(), qPrintable(w.planPanel()->errorText()));
        QVERIFY(w.planPanel()->errorLabelFor(path)->isHidden());
        QVERIFY(w.planPanel()->fieldFor(path)->styleSheet().isEmpty());
        QVERIFY(w.runAction()->isEnabled());
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(dpu::uitest::prepareUiTest(tmp_));
        dataset_ = dpu::uitest::datasetFolder(tmp_.path());
    }

    /// The form marks every plan field the engine describes (dpu::planFields()) at one widget, or
    /// lists it as kept in files only; nothing else: a new plan key must say where it is shown.
    void everyPlanFieldHasAPlace()
    {
        PlanPanel panel;
        const QStringList without = PlanPanel::pathsWithoutField();
        QStringList described;
        for (const dpu::PlanField& f : dpu::planFields()) {
            const QString path = QString::fromStdString(f.path);
            described << path;
            QVERIFY2((panel.fieldFor(path) != nullptr) != without.contains(path), qPrintable(path));
        }
        for (const QString& path : without)
            QVERIFY2(described.contains(path), qPrintable(path));
        // Indexed and deeper paths land on their field's widget.
        QCOMPARE(panel.fieldFor(QStringLiteral("strategies[2]")), panel.fieldFor(QStringLiteral("strategies")));
        QCOMPARE(panel.fieldFor(QStringLiteral("dataset.normalise.std[0]")), panel.fieldFor(QStringLiteral("dataset.normalise")));
        QVERIFY(!panel.fieldFor(QStringLiteral("mystery")));
    }

    /// Alt+E and Alt+S focus Epochs and Seeds (their labels' buddies are the fields, not the
    /// rows holding them), and Tab visits Epochs and Learning rate before λ, as they are shown.
    void trainingRowsTakeMnemonicsAndTabInOrder()
    {
        PlanPanel panel;
        QHash<QString, QWidget*> buddies;
        for (QLabel* l : panel.findChildren<QLabel*>())
            if (l->buddy() && l->text().contains(QLatin1Char('&'))) // the labels Alt+letter reaches
                buddies.insert(l->text(), l->buddy());
        QCOMPARE(buddies.value(QStringLiteral("&Epochs")), panel.findChild<QWidget*>(QStringLiteral("epochs")));
        QCOMPARE(buddies.value(QStringLiteral("&Seeds")), panel.findChild<QWidget*>(QStringLiteral("seeds")));
        for (auto it = buddies.begin(); it != buddies.end(); ++it)
            QVERIFY2(it.value()->focusPolicy() != Qt::NoFocus, qPrintable(it.key()));
        // The focus chain from Epochs reaches Learning rate before λ.
        QWidget* w = panel.findChild<QWidget*>(QStringLiteral("epochs"));
        QWidget* const lr = panel.findChild<QWidget*>(QStringLiteral("lr"));
        QWidget* const lambda = panel.findChild<QWidget*>(QStringLiteral("lambda"));
        int steps = 0;
        while (w != lr && w != lambda && ++steps < 200)
            w = w->nextInFocusChain();
        QCOMPARE(w, lr);
    }

    void eachBadValueIsMarkedAtItsField()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        dpu::uitest::fillPlanForm(w, dataset_, 300, 300, 2, 1, {"dpu", "fu"});
        PlanPanel* p = w.planPanel();
        expectFine(w, QStringLiteral("k"));

        auto* k = p->findChild<QDoubleSpinBox*>(QStringLiteral("k"));
        k->setValue(0);
        expectRefused(w, QStringLiteral("k"), QStringLiteral("expected a ratio in (0, 1], found 0"));
        k->setValue(0.01);
        expectFine(w, QStringLiteral("k"));
        // Typed as a user types: scientific notation is read (it once became 17), a negative
        // ratio stays negative (it once became "-0") and is refused at the field.
        auto type = [&](const char* text) {
            k->selectAll();
            QTest::keyClicks(k, QString::fromLatin1(text));
            k->interpretText();
        };
        type("1e-7");
        QCOMPARE(p->plan().k, 1e-7);
        QCOMPARE(k->text().toLower(), QStringLiteral("1e-07")); // "1E-07" in the en_US locale
        expectFine(w, QStringLiteral("k"));
        type("-0.5");
        QCOMPARE(p->plan().k, -0.5);
        expectRefused(w, QStringLiteral("k"), QStringLiteral("expected a ratio in (0, 1], found -0.5"));
        type("0.01");
        expectFine(w, QStringLiteral("k"));

        for (QCheckBox* c : p->findChildren<QCheckBox*>())
            if (c->objectName().startsWith(QStringLiteral("strategy_")))
                c->setChecked(false);
        expectRefused(w, QStringLiteral("strategies"), QStringLiteral("at least one strategy"));
        p->findChild<QCheckBox*>(QStringLiteral("strategy_dpu"))->setChecked(true);
        expectFine(w, QStringLiteral("strategies"));

        // Typed character by character: the check follows every keystroke.
        auto* path = p->findChild<QLineEdit*>(QStringLiteral("datasetPath"));
        path->clear();
        QTest::keyClicks(path, tmp_.filePath(QStringLiteral("nowhere")));
        expectRefused(w, QStringLiteral("dataset.path"), QStringLiteral("folder not found"));
        // A folder without the expected files names the missing ones.
        const QString half = tmp_.filePath(QStringLiteral("half-idx"));
        QVERIFY(QDir().mkpath(half));
        for (const char* name : {"train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte"}) {
            QFile f(QDir(half).filePath(QString::fromLatin1(name)));
            QVERIFY(f.open(QIODevice::WriteOnly));
        }
        path->setText(half);
        // An existing path is marked once its kind is detected, not with the kind shown before.
        QVERIFY(p->detectingKind());
        QVERIFY(p->errorLabelFor(QStringLiteral("dataset.path"))->isHidden());
        QVERIFY(!w.runAction()->isEnabled());
        QVERIFY2(w.runAction()->toolTip().contains(QStringLiteral("still being detected")), qPrintable(w.runAction()->toolTip()));
        QVERIFY(QTest::qWaitFor([p] { return !p->detectingKind(); }, 60000));
        expectRefused(w, QStringLiteral("dataset.path"),
                      QStringLiteral("missing t10k-images-idx3-ubyte, t10k-labels-idx1-ubyte"));
        QVERIFY(!p->errorLabelFor(QStringLiteral("dataset.path"))->text().contains(QStringLiteral("train-")));
        path->setText(dataset_);
        QVERIFY(QTest::qWaitFor([p] { return !p->detectingKind(); }, 60000));
        expectFine(w, QStringLiteral("dataset.path"));
        // CIFAR-10 wants its binary batches: the MNIST folder does not have them.
        p->findChild<QComboBox*>(QStringLiteral("datasetKind"))->setCurrentIndex(1);
        expectRefused(w, QStringLiteral("dataset.path"), QStringLiteral("data_batch_1.bin"));
        p->findChild<QComboBox*>(QStringLiteral("datasetKind"))->setCurrentIndex(0);
        expectFine(w, QStringLiteral("dataset.path"));

        auto* rounds = p->findChild<QSpinBox*>(QStringLiteral("splitRounds"));
        rounds->setValue(0);
        expectRefused(w, QStringLiteral("split.rounds"), QStringLiteral("Rounds: expected 1..100000, found 0"));
        rounds->setValue(2);
        expectFine(w, QStringLiteral("split.rounds"));

        auto* epochs = p->findChild<QSpinBox*>(QStringLiteral("epochs"));
        epochs->setValue(0);
        expectRefused(w, QStringLiteral("train.epochs"), QStringLiteral("expected 1..10000, found 0"));
        epochs->setValue(1);

        auto* lr = p->findChild<QDoubleSpinBox*>(QStringLiteral("lr"));
        lr->setValue(0);
        expectRefused(w, QStringLiteral("train.lr"), QStringLiteral("expected a learning rate in (0, 100), found 0"));
        lr->setValue(100);
        expectRefused(w, QStringLiteral("train.lr"), QStringLiteral("found 100"));
        lr->setValue(0.005);
        expectFine(w, QStringLiteral("train.lr"));

        auto* seeds = p->findChild<QLineEdit*>(QStringLiteral("seeds"));
        seeds->clear();
        QTest::keyClicks(seeds, QStringLiteral("1, x"));
        expectRefused(w, QStringLiteral("seeds"), QStringLiteral("expected non-negative integers, found \"x\""));
        seeds->clear();
        expectRefused(w, QStringLiteral("seeds"), QStringLiteral("expected at least one seed"));
        QTest::keyClicks(seeds, QStringLiteral("1 2"));
        expectFine(w, QStringLiteral("seeds"));
        QCOMPARE(p->plan().seeds.size(), size_t(2));
    }

    void valuesChoiceRoundTripsEveryCoding()
    {
        MainWindow w;
        PlanPanel* p = w.planPanel();
        auto* values = p->findChild<QComboBox*>(QStringLiteral("bundleValues"));
        QVERIFY(values);
        QCOMPARE(values->count(), int(dpu::valueCodings().size()));
        dpu::Plan plan = p->plan();
        for (const std::string& v : dpu::valueCodings()) {
            plan.bundle.values = *dpu::enumFromString<dpu::Coding>(v);
            p->setPlan(plan);
            QCOMPARE(values->currentData().toString().toStdString(), v);
            QCOMPARE(dpu::nameOf(p->plan().bundle.values), v);
        }
        values->setCurrentIndex(values->findData(QStringLiteral("q8c")));
        QCOMPARE(dpu::nameOf(p->plan().bundle.values), std::string("q8c"));
    }

    void roundsBeyondTheDatasetAreRefused()
    {
        // The user's case: 80 rounds of 1000 + 1000 need 80,000 of Fashion-MNIST's 60,000. With
        // the synthetic stand-in (fewer samples) the same rule applies at its own size.
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        dpu::uitest::fillPlanForm(w, dataset_, 1000, 1000, 2, 1, {"dpu"});
        PlanPanel* p = w.planPanel();
        dpu::Plan plan = p->plan();
        plan.dataset.trainLimit = 0; // the whole training split, as a user's plan has it
        p->setPlan(plan);
        const int64_t train = dpu::readDatasetSize(plan.dataset).train;
        const int fit = static_cast<int>(train / 1000); // |D1| + (r - 1) * 1000 <= train
        auto* rounds = p->findChild<QSpinBox*>(QStringLiteral("splitRounds"));
        rounds->setValue(fit + 20);
        expectRefused(w, QStringLiteral("split.rounds"),
                      QStringLiteral("expected at most %1 rounds").arg(fit));
        QVERIFY(p->errorLabelFor(QStringLiteral("split.rounds"))->text().contains(QStringLiteral("training split has")));
        rounds->setValue(fit);
        expectFine(w, QStringLiteral("split.rounds"));
        // |D1| alone larger than the data: the first field is the one named.
        p->findChild<QSpinBox*>(QStringLiteral("splitRounds"))->setValue(1);
        p->findChild<QSpinBox*>(QStringLiteral("splitInitial"))->setValue(static_cast<int>(train) + 1);
        expectRefused(w, QStringLiteral("split.initial"), QStringLiteral("(the training split)"));
    }

    void hostilePlanFilesAreMarkedAndRefused()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        dpu::uitest::fillPlanForm(w, dataset_, 300, 300, 2, 1, {"dpu", "fu"});
        PlanPanel* p = w.planPanel();
        const QJsonObject good = QJsonDocument::fromJson(QByteArray::fromStdString(dpu::planToJson(p->plan()))).object();
        auto write = [&](const QString& name, const QByteArray& bytes) {
            const QString path = tmp_.filePath(name);
            QFile f(path);
            f.open(QIODevice::WriteOnly | QIODevice::Truncate);
            f.write(bytes);
            return path;
        };
        auto withValue = [&](const QString& name, const QString& key, const QString& sub, const QJsonValue& v) {
            QJsonObject o = good;
            if (sub.isEmpty()) {
                o[key] = v;
            } else {
                QJsonObject inner = o[key].toObject();
                inner[sub] = v;
                o[key] = inner;
            }
            return write(name, QJsonDocument(o).toJson());
        };
        QString error;

        // Garbage: refused whole, the form keeps the plan it had.
        const std::string before = dpu::planToJson(p->plan());
        // A device node or a FIFO is refused by what it is, not read (/dev/zero never ends).
        QVERIFY(!w.openPlan(QStringLiteral("/dev/zero"), &error));
        QVERIFY2(error.contains(QStringLiteral("/dev/zero: expected a plan file, found no regular file")), qPrintable(error));
        const QString fifo = tmp_.filePath(QStringLiteral("plan.fifo"));
        QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
        QVERIFY(!w.openPlan(fifo, &error));
        QVERIFY2(error.contains(fifo), qPrintable(error));
        QVERIFY(!w.openPlan(write(QStringLiteral("garbage.json"), QByteArray("\x00\xff{{ not a plan", 15)), &error));
        QVERIFY2(error.contains(QStringLiteral("garbage.json: not valid JSON")), qPrintable(error));
        QCOMPARE(dpu::planToJson(p->plan()), before);
        QVERIFY(w.runAction()->isEnabled());

        // A wrong type: the field is marked, holds its default, and Run waits for an edit.
        QVERIFY2(w.openPlan(withValue(QStringLiteral("types.json"), QStringLiteral("k"), {}, QStringLiteral("a lot")), &error),
                 qPrintable(error));
        expectRefused(w, QStringLiteral("k"), QStringLiteral("expected a number, found string in types.json"));
        QCOMPARE(p->plan().split.perRound, int64_t(300)); // the file's other fields are used
        p->setK(0.02);
        expectFine(w, QStringLiteral("k"));

        // A number out of range: the field shows the file's value, as its message does.
        QVERIFY(w.openPlan(withValue(QStringLiteral("negative.json"), QStringLiteral("k"), {}, -0.5), &error));
        QCOMPARE(p->findChild<QDoubleSpinBox*>(QStringLiteral("k"))->value(), -0.5);
        expectRefused(w, QStringLiteral("k"), QStringLiteral("expected a ratio in (0, 1], found -0.5"));
        p->setK(0.02);
        expectFine(w, QStringLiteral("k"));

        // A whole number out of range: the field shows it too, not the default the plan kept.
        QVERIFY(w.openPlan(withValue(QStringLiteral("rounds.json"), QStringLiteral("split"), QStringLiteral("rounds"), -5), &error));
        QCOMPARE(p->findChild<QSpinBox*>(QStringLiteral("splitRounds"))->value(), -5);
        expectRefused(w, QStringLiteral("split.rounds"), QStringLiteral("in rounds.json"));
        QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("errors")), qPrintable(w.statusBar()->currentMessage()));
        // A good file opened next: the bad one's message leaves the status bar.
        QVERIFY(w.openPlan(withValue(QStringLiteral("good.json"), QStringLiteral("k"), {}, 0.02), &error));
        QCOMPARE(w.statusBar()->currentMessage(), QStringLiteral("Opened good.json"));
        expectFine(w, QStringLiteral("split.rounds"));

        // A strategy the engine does not know beside one it knows: the known one ticked, not the default's.
        QVERIFY(w.openPlan(withValue(QStringLiteral("unknown.json"), QStringLiteral("strategies"), {},
                                     QJsonArray{QStringLiteral("dpu"), QStringLiteral("foo")}), &error));
        expectRefused(w, QStringLiteral("strategies"), QStringLiteral("foo"));
        QVERIFY(p->findChild<QCheckBox*>(QStringLiteral("strategy_dpu"))->isChecked());
        QVERIFY(!p->findChild<QCheckBox*>(QStringLiteral("strategy_fu"))->isChecked());
        QVERIFY(!p->findChild<QCheckBox*>(QStringLiteral("strategy_rpu"))->isChecked());

        // A huge number: the field is marked with the range it must lie in.
        QVERIFY(w.openPlan(withValue(QStringLiteral("huge.json"), QStringLiteral("split"), QStringLiteral("rounds"), 1e300), &error));
        expectRefused(w, QStringLiteral("split.rounds"), QStringLiteral("in huge.json"));
        p->findChild<QSpinBox*>(QStringLiteral("splitRounds"))->setValue(3);
        expectFine(w, QStringLiteral("split.rounds"));
        // Beyond what a double holds: not JSON any more, refused whole.
        QVERIFY(!w.openPlan(write(QStringLiteral("beyond.json"), "{\"k\": 1e800}"), &error));
        QVERIFY2(error.contains(QStringLiteral("number overflow")), qPrintable(error));

        // A field the form does not show: listed under the form, Run refused, says how to fix it.
        QVERIFY(w.openPlan(withValue(QStringLiteral("hidden.json"), QStringLiteral("train"), QStringLiteral("batch"), -5), &error));
        QVERIFY(!p->isValid());
        QVERIFY2(p->errorText().contains(QStringLiteral("train.batch")) && p->errorText().contains(QStringLiteral("fix it in the file")),
                 qPrintable(p->errorText()));
        QVERIFY(!w.runAction()->isEnabled());
        QVERIFY(!w.startRun());

        // 100 MB of JSON: refused before it is read.
        const QString big = tmp_.filePath(QStringLiteral("big.json"));
        {
            QFile f(big);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QByteArray chunk(1 << 20, ' ');
            chunk[0] = '[';
            for (int i = 0; i < 100; ++i) {
                f.write(chunk);
                chunk[0] = ' ';
            }
            f.write("]");
        }
        QVERIFY(!w.openPlan(big, &error));
        QVERIFY2(error.contains(QStringLiteral("too large for a plan file")), qPrintable(error));
    }

    /// A budget per round or per run replaces k (k's fields are disabled and the plan carries the
    /// budget); quantisation-awareness and coded biases are offered only with a lossy coding; a
    /// plan file's run budget comes back as one.
    void budgetAndCodingFields()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        dpu::uitest::fillPlanForm(w, dataset_, 300, 300, 2, 1, {"dpu", "fu"});
        PlanPanel* p = w.planPanel();
        auto* budget = p->findChild<QSpinBox*>(QStringLiteral("budgetBytes"));
        auto* unit = p->findChild<QComboBox*>(QStringLiteral("budgetUnit"));
        auto* values = p->findChild<QComboBox*>(QStringLiteral("bundleValues"));
        auto* dense = p->findChild<QComboBox*>(QStringLiteral("bundleDense"));
        auto* quantAware = p->findChild<QCheckBox*>(QStringLiteral("quantAware"));
        auto* k = p->findChild<QDoubleSpinBox*>(QStringLiteral("k"));
        QVERIFY(budget && unit && values && dense && quantAware && k);
        QCOMPARE(p->plan().budget.bytesPerRound, int64_t(0));
        QCOMPARE(dpu::nameOf(p->plan().bundle.denseTensors), std::string("exact"));
        QVERIFY(k->isEnabled());
        QVERIFY(!quantAware->isEnabled()); // fp32 by default
        auto codedEnabled = [dense] {
            return qobject_cast<QStandardItemModel*>(dense->model())->item(dense->findData(QStringLiteral("coded")))->isEnabled();
        };
        QVERIFY(!codedEnabled());

        budget->setValue(20000);
        QVERIFY(!k->isEnabled());
        QCOMPARE(p->plan().budget.bytesPerRound, int64_t(20000));
        QCOMPARE(p->plan().budget.bytesTotal, int64_t(0));
        expectFine(w, QStringLiteral("budget.bytes_per_round"));
        unit->setCurrentIndex(unit->findData(QStringLiteral("run"))); // the same bytes for the whole run
        QCOMPARE(p->plan().budget.bytesPerRound, int64_t(0));
        QCOMPARE(p->plan().budget.bytesTotal, int64_t(20000));
        QVERIFY(!k->isEnabled());
        expectFine(w, QStringLiteral("budget.bytes_total"));

        values->setCurrentIndex(values->findData(QStringLiteral("q4")));
        QVERIFY(quantAware->isEnabled());
        QVERIFY(codedEnabled());
        quantAware->setChecked(true);
        dense->setCurrentIndex(dense->findData(QStringLiteral("coded")));
        QVERIFY(p->plan().bundle.quantAware);
        QCOMPARE(dpu::nameOf(p->plan().bundle.values), std::string("q4"));
        QCOMPARE(dpu::nameOf(p->plan().bundle.denseTensors), std::string("coded"));
        expectFine(w, QStringLiteral("bundle.dense_tensors"));
        values->setCurrentIndex(values->findData(QStringLiteral("fp32")));
        QVERIFY(!quantAware->isEnabled() && !quantAware->isChecked());
        QVERIFY(!p->plan().bundle.quantAware);
        QCOMPARE(dpu::nameOf(p->plan().bundle.denseTensors), std::string("exact")); // fp32 cannot code them
        QVERIFY(!codedEnabled());
        dense->setCurrentIndex(dense->findData(QStringLiteral("partial")));
        QCOMPARE(dpu::nameOf(p->plan().bundle.denseTensors), std::string("partial"));

        // setPlan() shows what a plan file holds; plan() gives it back.
        dpu::Plan loaded = p->plan();
        loaded.bundle.values = dpu::Coding::Fp16;
        loaded.bundle.quantAware = true;
        loaded.bundle.denseTensors = dpu::DenseTensors::Coded;
        loaded.budget.bytesPerRound = 0;
        loaded.budget.bytesTotal = 50000;
        p->setPlan(loaded);
        QCOMPARE(unit->currentData().toString(), QStringLiteral("run"));
        QCOMPARE(budget->value(), 50000);
        QCOMPARE(dense->currentData().toString(), QStringLiteral("coded"));
        QVERIFY(!k->isEnabled());
        QCOMPARE(dpu::planToJson(p->plan()), dpu::planToJson(loaded));
        budget->setValue(0); // off: k decides again
        QVERIFY(k->isEnabled());
        QCOMPARE(p->plan().budget.bytesTotal, int64_t(0));
    }
};

QTEST_MAIN(TestUiFields)
#include "test_ui_fields.moc"
