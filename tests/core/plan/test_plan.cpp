// SPDX-License-Identifier: MIT
// Plan JSON: defaults, round trips of every key, and the field table against the docs.
#include "TestSupport.h"
#include "dpu/Error.h"
#include "dpu/DeploymentModel.h"
#include "dpu/Plan.h"
#include "dpu/PlanFields.h"
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <functional>
#include "experiment/RoundRules.h"

class TestPlan : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void defaultsAreThePapersShortPlan()
    {
        const dpu::Plan p = dpu::defaultPlan();
        QCOMPARE(p.model, std::string("mlp"));
        QCOMPARE(p.dataset.path, std::string("/usr/share/datasets/fashion-mnist"));
        QCOMPARE(p.split.initial, int64_t(1000));
        QCOMPARE(p.split.perRound, int64_t(1000));
        QCOMPARE(p.split.rounds, 10);
        QCOMPARE(p.k, 0.01);
        QCOMPARE(p.strategies, (std::vector<std::string>{"dpu", "fu", "rpu"}));
        QCOMPARE(p.train.batch, 128);
        dpu::validatePlan(p);
    }

    void roundTrip()
    {
        dpu::Plan p;
        p.name = "x";
        p.model = "vgg";
        p.dataset = {dpu::DataKind::Cifar10, "/data/cifar", 500, 200};
        p.split = {100, 50, 7, 30};
        p.strategies = {"gcpu", "pruning"};
        p.k = 0.05;
        p.lambda = 0.3;
        p.reinit = false;
        p.train.epochs = 9;
        p.train.optimizer = dpu::Optimizer::Sgd;
        p.train.schedule = {dpu::ScheduleKind::Cosine, 0, 0.5};
        p.seeds = {4, 5};
        p.device = dpu::ComputeDevice::Cpu;
        p.threads = 2;
        p.bundle = {dpu::Coding::Q8, false, "/keys/server.key"};
        const std::string text = dpu::planToJson(p);
        const dpu::Plan q = dpu::parsePlan(text);
        QCOMPARE(dpu::planToJson(q), text);
        QCOMPARE(q.dataset.trainLimit, int64_t(500));
        QCOMPARE(q.seeds, (std::vector<uint64_t>{4, 5}));
        QCOMPARE(dpu::nameOf(q.bundle.values), std::string("q8"));
        QCOMPARE(q.bundle.write, false);
        QCOMPARE(q.bundle.secretKey, std::string("/keys/server.key"));
    }

    void everyValueCodingParses()
    {
        const auto codings = dpu::valueCodings();
        QCOMPARE(codings.size(), size_t(6));
        for (const std::string& v : codings) {
            const dpu::Plan p = dpu::parsePlan(R"({"bundle": {"values": ")" + v + R"("}})");
            QCOMPARE(dpu::nameOf(p.bundle.values), v);
            QCOMPARE(dpu::nameOf(dpu::parsePlan(dpu::planToJson(p)).bundle.values), v);
        }
    }

    /// Budgets, the quantisation-aware fine-tune and the always-shipped tensors' rule read back
    /// as written, and are left out of the JSON while off, so earlier plans serialise unchanged.
    void roundOptionsRoundTrip()
    {
        const std::string plain = dpu::planToJson(dpu::defaultPlan());
        QVERIFY(plain.find("budget") == std::string::npos);
        QVERIFY(plain.find("quant_aware") == std::string::npos);
        QVERIFY(plain.find("dense_tensors") == std::string::npos);
        const dpu::Plan p = dpu::parsePlan(
            R"({"budget": {"bytes_per_round": 12000}, "bundle": {"values": "q8", "quant_aware": true, "dense_tensors": "partial"}})");
        QCOMPARE(p.budget.bytesPerRound, int64_t(12000));
        QCOMPARE(p.budget.bytesTotal, int64_t(0));
        QVERIFY(p.budget.enabled());
        QVERIFY(p.bundle.quantAware);
        QCOMPARE(dpu::nameOf(p.bundle.denseTensors), std::string("partial"));
        const std::string text = dpu::planToJson(p);
        QCOMPARE(dpu::planToJson(dpu::parsePlan(text)), text);
        const dpu::Plan t = dpu::parsePlan(R"({"budget": {"bytes_total": 90000}, "bundle": {"values": "fp16", "dense_tensors": "coded"}})");
        QCOMPARE(t.budget.bytesTotal, int64_t(90000));
        QCOMPARE(dpu::parsePlan(dpu::planToJson(t)).budget.bytesTotal, int64_t(90000));
        QVERIFY(!dpu::defaultPlan().budget.enabled());
    }

    /// Plans written before the ablation keys read as they did (reinit true: the rule, false:
    /// never) and serialise to the very bytes they had, which checkpoints and sweep ids hash.
    void earlierPlansSerialiseUnchanged()
    {
        for (const char* name : {"default-3fda6fc.json", "reinit-false-3fda6fc.json"}) {
            const std::vector<uint8_t> bytes = dpu::test::readFile(dpu::test::dataDir() + "/plans/" + name);
            const std::string text(bytes.begin(), bytes.end());
            const dpu::Plan p = dpu::parsePlan(text, name);
            QCOMPARE(p.reinitEvery, 0);
            QVERIFY(p.fuStart == dpu::FuStart::Seeded);
            QVERIFY(!p.rewind);
            QCOMPARE(dpu::planToJson(p), text);
        }
        QVERIFY(!dpu::parsePlan(R"({"reinit": false})").reinit);
        const std::vector<uint8_t> bytes = dpu::test::readFile(dpu::test::dataDir() + "/plans/default-3fda6fc.json");
        QCOMPARE(dpu::planToJson(dpu::defaultPlan()), std::string(bytes.begin(), bytes.end()));
    }

    /// The ablation keys read back as written, and only a plan that sets one writes it.
    void ablationKeysRoundTrip()
    {
        const dpu::Plan p = dpu::parsePlan(
            R"({"reinit_every": 5, "fu_start": "last", "rewind": true, "rewind_epochs": 2,
                "distill": {"weight": 0.3, "temperature": 2}})");
        QCOMPARE(p.rewindEpochs, 2);
        QCOMPARE(dpu::parsePlan(R"({"mode": "single", "rewind_epochs": 3})").rewindEpochs, 3); // single mode rewinds
        QVERIFY(dpu::planToJson(dpu::defaultPlan()).find("rewind_epochs") == std::string::npos);
        QCOMPARE(p.distill.weight, 0.3);
        QCOMPARE(p.distill.temperature, 2.0);
        QVERIFY(dpu::planToJson(dpu::defaultPlan()).find("distill") == std::string::npos);
        QCOMPARE(p.reinitEvery, 5);
        QVERIFY(p.reinit);
        QVERIFY(p.fuStart == dpu::FuStart::Last);
        QVERIFY(p.rewind);
        const std::string text = dpu::planToJson(p);
        QVERIFY(text.find("\"reinit_every\": 5") != std::string::npos);
        QVERIFY(text.find("\"fu_start\": \"last\"") != std::string::npos);
        QVERIFY(text.find("\"rewind\": true") != std::string::npos);
        QVERIFY(text.find("\"rewind_epochs\": 2") != std::string::npos);
        QVERIFY(text.find("\"temperature\": 2") != std::string::npos);
        QCOMPARE(dpu::planToJson(dpu::parsePlan(text)), text);
        for (const auto& n : dpu::enumNames<dpu::FuStart>())
            QVERIFY(dpu::parsePlan(R"({"fu_start": ")" + std::string(n.name) + R"("})").fuStart == n.value);
        QCOMPARE(dpu::findPlanField("fu_start")->choices, (std::vector<std::string>{"seeded", "fresh", "last"}));
    }

    /// The deployed model's form (the paper's Table 3): written only when sparse, read back.
    void deployedKeysRoundTrip()
    {
        QVERIFY(dpu::defaultPlan().deployed == dpu::DeployedForm::Fp32);
        QVERIFY(dpu::planToJson(dpu::defaultPlan()).find("deployed") == std::string::npos);
        const dpu::Plan p = dpu::parsePlan(R"({"deployed": "sparse", "deployed_sparsity": 0.75, "k": 0.25})");
        QVERIFY(p.deployed == dpu::DeployedForm::Sparse);
        QCOMPARE(p.deployedSparsity, 0.75);
        const std::string text = dpu::planToJson(p);
        QVERIFY(text.find("\"deployed\": \"sparse\"") != std::string::npos);
        QVERIFY(text.find("\"deployed_sparsity\": 0.75") != std::string::npos);
        QCOMPARE(dpu::planToJson(dpu::parsePlan(text)), text);
        QCOMPARE(dpu::findPlanField("deployed")->choices, (std::vector<std::string>{"fp32", "sparse", "int8"}));
        const dpu::Plan q = dpu::parsePlan(R"({"deployed": "int8", "k": 0.2})");
        QVERIFY(q.deployed == dpu::DeployedForm::Int8);
        QVERIFY(dpu::planToJson(q).find("\"deployed\": \"int8\"") != std::string::npos);
        QVERIFY(dpu::planToJson(q).find("deployed_sparsity") == std::string::npos);
        QVERIFY(q.int8Rescale == dpu::Int8Rescale::Never && dpu::planToJson(q).find("int8_rescale") == std::string::npos);
        const dpu::Plan r = dpu::parsePlan(R"({"deployed": "int8", "int8_rescale": "output"})");
        QVERIFY(r.int8Rescale == dpu::Int8Rescale::Output);
        QVERIFY(dpu::planToJson(r).find("\"int8_rescale\": \"output\"") != std::string::npos);
        QCOMPARE(dpu::findPlanField("int8_rescale")->choices, (std::vector<std::string>{"never", "output", "all"}));
    }

    /// The link and fleet a plan is for (issue 23): plan keys, written only when set, read back
    /// as set, and the fleet simulation's settings made of them.
    void fleetKeysRoundTrip()
    {
        const dpu::Plan plain = dpu::defaultPlan();
        QCOMPARE(plain.fleet.link.link, std::string("lorawan-eu868"));
        QCOMPARE(plain.fleet.devices, 200);
        QVERIFY(dpu::planToJson(plain).find("\"fleet\"") == std::string::npos); // earlier plans stay as they were
        const dpu::Plan p = dpu::parsePlan(R"({"fleet": {"link": "lorawan-eu868", "sf": 12, "duty_cycle": 0.1,
            "loss": 0.1, "delivery": "unicast", "devices": 50, "availability": 0.8, "round_period_h": 6}})");
        QCOMPARE(p.fleet.link.spreadingFactor, 12);
        QCOMPARE(p.fleet.link.dutyCycle, std::optional<double>(0.1));
        QCOMPARE(p.fleet.link.frameLoss, 0.1);
        QVERIFY(p.fleet.link.delivery == dpu::DeliveryChoice::Unicast);
        QCOMPARE(p.fleet.devices, 50);
        QCOMPARE(p.fleet.availability, 0.8);
        QCOMPARE(p.fleet.roundPeriodHours, 6.0);
        const std::string text = dpu::planToJson(p);
        QVERIFY(text.find("\"devices\": 50") != std::string::npos);
        QVERIFY(text.find("\"link\"") == std::string::npos); // the default link is not written
        QCOMPARE(dpu::planToJson(dpu::parsePlan(text)), text);
        const dpu::Deployment s = p.fleet;
        QCOMPARE(s.devices, 50);
        QCOMPARE(s.roundPeriodHours, 6.0);
        const dpu::Link link = dpu::linkOf(s.link);
        QCOMPARE(link.modulation.spreadingFactor, 12);
        QCOMPARE(link.dutyCycle, 0.1);
        QCOMPARE(link.frameLoss, 0.1);
        QVERIFY(link.delivery == dpu::LinkDelivery::Unicast);
        // 0 in a plan file is the preset's duty cycle (EU868: the 1 % sub-band).
        QVERIFY(!plain.fleet.link.dutyCycle);
        QCOMPARE(dpu::linkOf(plain.fleet.link).dutyCycle, 0.01);
        QCOMPARE(dpu::parsePlan(R"({"fleet": {"link": "nb-iot-nb1", "sf_mix": ""}})").fleet.link.link, std::string("nb-iot-nb1"));
        QCOMPARE(dpu::findPlanField("fleet.delivery")->choices, (std::vector<std::string>{"preset", "multicast", "unicast"}));
    }

    void partialPlansKeepDefaults()
    {
        const dpu::Plan p = dpu::parsePlan(R"({"k": 0.1, "train": {"epochs": 2}, "seeds": 7})");
        QCOMPARE(p.k, 0.1);
        QCOMPARE(p.train.epochs, 2);
        QCOMPARE(p.train.lr, 0.005);
        QCOMPARE(p.seeds, std::vector<uint64_t>{7});
    }

    /// docs/plan-format.md's table of keys is the engine's own field table, word for word: a key
    /// added, removed or changed in one and not the other fails here.
    void docsTableIsTheFieldTable()
    {
        QFile doc(QStringLiteral(DPU_SOURCE_DIR "/docs/plan-format.md"));
        QVERIFY(doc.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(doc.readAll());
        const QString begin = QStringLiteral("<!-- plan-fields: begin (dpu-cli plan --fields --markdown) -->\n");
        const qsizetype from = text.indexOf(begin), to = text.indexOf(QStringLiteral("<!-- plan-fields: end -->"));
        QVERIFY(from >= 0 && to > from);
        const QString table = text.mid(from + begin.size(), to - from - begin.size());
        QCOMPARE(table, QString::fromStdString(dpu::planFieldsMarkdown()));
    }

    /// The table describes the plan the parser reads: every field's written default reads back
    /// as the default plan, every key the writer writes is described, and each object is there.
    void fieldTableDescribesThePlan()
    {
        const std::string plain = dpu::planToJson(dpu::defaultPlan());
        for (const dpu::PlanField& f : dpu::planFields()) {
            QVERIFY2(dpu::findPlanField(f.path) == &f, f.path.c_str());
            QVERIFY2(!f.doc.empty() && !f.defaultValue.empty(), f.path.c_str());
            QVERIFY2(f.type != dpu::FieldType::Choice || !f.choices.empty(), f.path.c_str());
            if (f.defaultValue == "none")
                continue;
            // {"train": {"lr": 0.005}} for "train.lr": its default, written where its path says.
            QJsonValue v = QJsonDocument::fromJson(QByteArray("[") + f.defaultValue.c_str() + "]").array().at(0);
            QVERIFY2(!v.isUndefined(), f.path.c_str());
            const QStringList parts = QString::fromStdString(f.path).split(QLatin1Char('.'));
            for (qsizetype i = parts.size() - 1; i >= 0; --i)
                v = QJsonObject{{parts[i], v}};
            const std::string json = QJsonDocument(v.toObject()).toJson().toStdString();
            QCOMPARE(dpu::planToJson(dpu::parsePlan(json)), plain);
        }
        // Everything set: every key written is a described field (or an object of them).
        dpu::Plan p = dpu::parsePlan(R"({"width_multiplier": 0.5, "model": "mobilenetv1",
            "dataset": {"kind": "npz", "x": "a", "y": "b", "x_test": "c", "y_test": "d", "layout": "nhwc",
            "test_fraction": 0.3, "classes": 4, "image_size": [8, 9], "channels": 3, "train_limit": 5, "test_limit": 6,
            "normalise": {"mean": [0.1], "std": [0.2]}, "augment": {"crop_padding": 2, "flip": true}},
            "bundle": {"values": "q4", "secret_key": "k", "quant_aware": true, "dense_tensors": "coded"},
            "budget": {"bytes_total": 100}, "reinit_every": 2, "fu_start": "fresh", "rewind": true,
            "fleet": {"link": "lorawan-us915", "sf": 9, "sf_mix": "9:1,10:1", "duty_cycle": 0.5, "loss": 0.2,
                      "delivery": "multicast", "devices": 9, "availability": 0.5, "round_period_h": 2}})");
        const QJsonObject all = QJsonDocument::fromJson(QByteArray::fromStdString(dpu::planToJson(p))).object();
        const auto objects = dpu::planObjectPaths();
        std::function<void(const QJsonObject&, const QString&)> walk = [&](const QJsonObject& o, const QString& at) {
            for (auto it = o.begin(); it != o.end(); ++it) {
                const QString path = at.isEmpty() ? it.key() : at + QLatin1Char('.') + it.key();
                if (std::find(objects.begin(), objects.end(), path.toStdString()) != objects.end())
                    walk(it.value().toObject(), path);
                else
                    QVERIFY2(dpu::findPlanField(path.toStdString()), qPrintable(path));
            }
        };
        walk(all, QString());
        QCOMPARE(all.value(QStringLiteral("dataset")).toObject().size(), qsizetype(15));
        QVERIFY(!dpu::findPlanField("train.epoch"));
        QCOMPARE(dpu::findPlanField("strategies[3]")->path, std::string("strategies"));
    }

    /// The choices the table lists are the enums' names, and each parses to its value and back.
    void choicesAreTheEnumNames()
    {
        QCOMPARE(dpu::findPlanField("bundle.values")->choices, dpu::valueCodings());
        QCOMPARE(dpu::findPlanField("train.optimizer")->choices, (std::vector<std::string>{"adam", "sgd"}));
        for (const auto& n : dpu::enumNames<dpu::DataKind>())
            QVERIFY(dpu::enumFromString<dpu::DataKind>(n.name) == n.value);
        QCOMPARE(dpu::nameOf(dpu::ScheduleKind::Cosine), std::string("cosine"));
        QVERIFY(!dpu::enumFromString<dpu::RunMode>("Multi")); // exact spelling only
        QCOMPARE(dpu::quotedChoices({"a", "b", "c"}), std::string("\"a\", \"b\" or \"c\""));
    }

    /// Every shipped preset parses, and default.json is exactly the built-in default plan.
    void presetsAreValid()
    {
        const QDir dir(QStringLiteral(DPU_SOURCE_DIR "/resources/plans"));
        const auto files = dir.entryList({"*.json"}, QDir::Files);
        QVERIFY(files.size() >= 4);
        for (const QString& f : files)
            dpu::loadPlanFile(dir.filePath(f).toStdString()); // throws on any problem
        QCOMPARE(dpu::planToJson(dpu::loadPlanFile(dir.filePath("default.json").toStdString())),
                 dpu::planToJson(dpu::defaultPlan()));
    }

    /// Sec. 4.2: re-initialise when |D^r| > 2 |D| at the last (deployed) re-initialisation.
    void reinitialisationRule()
    {
        QVERIFY(dpu::shouldReinitialise(1000, 0)); // the first round
        QVERIFY(!dpu::shouldReinitialise(2000, 1000));
        QVERIFY(dpu::shouldReinitialise(3000, 1000));
        QVERIFY(!dpu::shouldReinitialise(6000, 3000));
        QVERIFY(dpu::shouldReinitialise(7000, 3000));
    }

    /// reinit_every n: rounds 1, 1 + n, 1 + 2n, ... (n = 1: every round); 0 never fires.
    void reinitialiseEveryNRounds()
    {
        std::vector<int> fired;
        for (int round = 1; round <= 9; ++round)
            if (dpu::reinitialisesEvery(round, 3))
                fired.push_back(round);
        QCOMPARE(fired, (std::vector<int>{1, 4, 7}));
        for (int round = 1; round <= 4; ++round) {
            QVERIFY(dpu::reinitialisesEvery(round, 1));
            QVERIFY(!dpu::reinitialisesEvery(round, 0));
        }
    }

    void deployGate()
    {
        QVERIFY(dpu::passesDeployGate(0.81, 0.80));
        QVERIFY(!dpu::passesDeployGate(0.80, 0.80)); // equal is not better: send nothing
        QVERIFY(!dpu::passesDeployGate(0.70, 0.80));
    }
};

QTEST_APPLESS_MAIN(TestPlan)
#include "test_plan.moc"
