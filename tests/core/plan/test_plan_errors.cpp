// SPDX-License-Identifier: MIT
// Plan JSON that cannot be used: errors that name the field path, the file or the source; recovery of the rest.
#include "TestSupport.h"
#include "dpu/Error.h"
#include "dpu/Plan.h"
#include "dpu/PlanFields.h"
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <functional>

class TestPlanErrors : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void errorsNameTheField_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("fragment");
        QTest::newRow("unknown top key") << R"({"kk": 1})" << "kk" << "unknown key";
        QTest::newRow("unknown nested key") << R"({"train": {"epoch": 3}})" << "train.epoch" << "unknown key";
        QTest::newRow("k too big") << R"({"k": 1.5})" << "k" << "found 1.5";
        QTest::newRow("k zero") << R"({"k": 0})" << "k" << "(0, 1]";
        QTest::newRow("k string") << R"({"k": "0.1"})" << "k" << "expected a number, found string";
        QTest::newRow("epochs float") << R"({"train": {"epochs": 2.5}})" << "train.epochs" << "expected an integer";
        QTest::newRow("negative epochs") << R"({"train": {"epochs": -1}})" << "train.epochs" << "found -1";
        QTest::newRow("strategy") << R"({"strategies": ["dpu", "xyz"]})" << "strategies[1]" << "unknown strategy \"xyz\"";
        QTest::newRow("duplicate strategy") << R"({"strategies": ["fu", "fu"]})" << "strategies[1]" << "listed twice";
        QTest::newRow("no strategies") << R"({"strategies": []})" << "strategies" << "at least one";
        QTest::newRow("optimizer") << R"({"train": {"optimizer": "rmsprop"}})" << "train.optimizer" << "\"rmsprop\"";
        QTest::newRow("schedule") << R"({"train": {"schedule": {"kind": "cyclic"}}})" << "train.schedule.kind" << "\"cyclic\"";
        QTest::newRow("dataset kind") << R"({"dataset": {"kind": "imagenet"}})" << "dataset.kind" << "\"imagenet\"";
        QTest::newRow("device") << R"({"device": "tpu"})" << "device" << "\"tpu\"";
        QTest::newRow("seed negative") << R"({"seeds": [1, -2]})" << "seeds[1]" << "non-negative";
        QTest::newRow("split type") << R"({"split": 5})" << "split" << "expected an object";
        QTest::newRow("rounds zero") << R"({"split": {"rounds": 0}})" << "split.rounds" << "found 0";
        QTest::newRow("lambda") << R"({"lambda": 2})" << "lambda" << "[0, 1]";
        QTest::newRow("width on mlp") << R"({"width_multiplier": 0.5})" << "width_multiplier" << "only mobilenetv1";
        QTest::newRow("mode") << R"({"mode": "double"})" << "mode" << "\"double\"";
        QTest::newRow("bundle values") << R"({"bundle": {"values": "int4"}})" << "bundle.values" << "\"int4\"";
        QTest::newRow("bundle key") << R"({"bundle": {"sign": true}})" << "bundle.sign" << "unknown key";
        QTest::newRow("bundle write") << R"({"bundle": {"write": 1}})" << "bundle.write" << "true or false";
        QTest::newRow("quant-aware exact") << R"({"bundle": {"quant_aware": true}})" << "bundle.quant_aware" << "lossy";
        QTest::newRow("dense tensors") << R"({"bundle": {"dense_tensors": "sparse"}})" << "bundle.dense_tensors"
                                       << "\"sparse\"";
        QTest::newRow("coded exact") << R"({"bundle": {"dense_tensors": "coded"}})" << "bundle.dense_tensors" << "lossy";
        QTest::newRow("budget negative") << R"({"budget": {"bytes_per_round": -5}})" << "budget.bytes_per_round"
                                         << "found -5";
        QTest::newRow("budget float") << R"({"budget": {"bytes_total": 10.5}})" << "budget.bytes_total"
                                      << "expected an integer";
        QTest::newRow("budget both") << R"({"budget": {"bytes_per_round": 5000, "bytes_total": 50000}})"
                                     << "budget.bytes_total" << "not both";
        QTest::newRow("budget key") << R"({"budget": {"bytes": 5000}})" << "budget.bytes" << "unknown key";
        QTest::newRow("reinit_every negative") << R"({"reinit_every": -1})" << "reinit_every" << "found -1";
        QTest::newRow("reinit_every float") << R"({"reinit_every": 2.5})" << "reinit_every" << "expected an integer";
        QTest::newRow("reinit_every never") << R"({"reinit": false, "reinit_every": 3})" << "reinit_every"
                                            << "expected reinit true or no reinit_every, found reinit false";
        QTest::newRow("reinit_every single") << R"({"mode": "single", "reinit_every": 2})" << "reinit_every"
                                             << "single mode";
        QTest::newRow("fu_start") << R"({"fu_start": "random"})" << "fu_start"
                                  << "expected \"seeded\", \"fresh\" or \"last\", found \"random\"";
        QTest::newRow("rewind") << R"({"rewind": "yes"})" << "rewind" << "true or false";
        QTest::newRow("rewind_epochs without rewinding") << R"({"rewind_epochs": 2})" << "rewind_epochs"
                                                         << "only iterative rewinding has rewinding steps";
        QTest::newRow("rewind_epochs above epochs") << R"({"rewind": true, "train": {"epochs": 4}, "rewind_epochs": 5})"
                                                    << "rewind_epochs" << "at most train.epochs (4), found 5";
        QTest::newRow("rewind_epochs negative") << R"({"rewind": true, "rewind_epochs": -1})" << "rewind_epochs"
                                                << "found -1";
        QTest::newRow("distill weight") << R"({"distill": {"weight": 1.5}})" << "distill.weight" << "[0, 1], found 1.5";
        QTest::newRow("temperature alone") << R"({"distill": {"temperature": 2}})" << "distill.temperature"
                                           << "expected distill.weight > 0";
        QTest::newRow("fleet link") << R"({"fleet": {"link": "wifi"}})" << "fleet.link" << "wifi";
        QTest::newRow("fleet link empty") << R"({"fleet": {"link": ""}})" << "fleet.link" << "found \"\"";
        QTest::newRow("fleet sf") << R"({"fleet": {"sf": 13}})" << "fleet.sf" << "expected 0 .. 12, found 13";
        QTest::newRow("fleet sf region") << R"({"fleet": {"link": "lorawan-eu868", "sf": 5}})" << "fleet.sf" << "SF5";
        QTest::newRow("fleet mix") << R"({"fleet": {"sf_mix": "6:1,7:1"}})" << "fleet.sf_mix" << "SF6";
        QTest::newRow("fleet sub-band") << R"({"fleet": {"duty_cycle": 0.05}})" << "fleet.duty_cycle" << "sub-bands";
        QTest::newRow("fleet loss") << R"({"fleet": {"loss": 1}})" << "fleet.loss" << "[0, 1)";
        QTest::newRow("fleet delivery") << R"({"fleet": {"delivery": "broadcast"}})" << "fleet.delivery" << "\"broadcast\"";
        QTest::newRow("fleet devices") << R"({"fleet": {"devices": 0}})" << "fleet.devices" << "found 0";
        QTest::newRow("fleet availability") << R"({"fleet": {"availability": 0}})" << "fleet.availability" << "(0, 1]";
        QTest::newRow("fleet key") << R"({"fleet": {"nodes": 5}})" << "fleet.nodes" << "unknown key";
        QTest::newRow("deployed") << R"({"deployed": "int4"})" << "deployed"
                                  << "expected \"fp32\", \"sparse\" or \"int8\", found \"int4\"";
        QTest::newRow("sparsity of a dense model") << R"({"deployed_sparsity": 0.7})" << "deployed_sparsity"
                                                   << "only a sparse deployed model";
        QTest::newRow("sparsity one") << R"({"deployed": "sparse", "deployed_sparsity": 1})" << "deployed_sparsity"
                                      << "(0, 1), found 1";
        QTest::newRow("k beyond the nonzeros") << R"({"deployed": "sparse", "deployed_sparsity": 0.9, "k": 0.2})" << "k"
                                               << "at most 1 - deployed_sparsity = 0.1";
        QTest::newRow("pruning on a sparse model") << R"({"deployed": "sparse", "strategies": ["dpu", "pruning"]})"
                                                   << "strategies[1]" << "no \"pruning\", found deployed \"sparse\"";
        QTest::newRow("reinit_every on a sparse model") << R"({"deployed": "sparse", "reinit_every": 2})"
                                                        << "reinit_every" << "deployed \"sparse\"";
        QTest::newRow("reinit_every on an INT8 model") << R"({"deployed": "int8", "reinit_every": 3})"
                                                       << "reinit_every" << "deployed \"int8\"";
        QTest::newRow("pruning on an INT8 model") << R"({"deployed": "int8", "strategies": ["fu", "pruning"]})"
                                                  << "strategies[1]" << "no \"pruning\", found deployed \"int8\"";
        QTest::newRow("float values on an INT8 model") << R"({"deployed": "int8", "bundle": {"values": "q8"}})"
                                                       << "bundle.values" << "int8 codes; expected a deployed model other than \"int8\" or no bundle.values, found deployed \"int8\"";
        QTest::newRow("budget on an INT8 model") << R"({"deployed": "int8", "budget": {"bytes_per_round": 30000}})"
                                                 << "budget.bytes_per_round" << "not yet supported with deployed \"int8\"";
        QTest::newRow("sparsity of an INT8 model") << R"({"deployed": "int8", "deployed_sparsity": 0.7})"
                                                   << "deployed_sparsity" << "only a sparse deployed model";
        QTest::newRow("rescale of a float model") << R"({"int8_rescale": "output"})" << "int8_rescale"
                                                  << "only an INT8 model has scales to grow";
        QTest::newRow("rescale unknown") << R"({"deployed": "int8", "int8_rescale": "some"})" << "int8_rescale"
                                         << "never";
    }
    void errorsNameTheField()
    {
        QFETCH(QString, json);
        QFETCH(QString, path);
        QFETCH(QString, fragment);
        try {
            dpu::parsePlan(json.toStdString());
            QFAIL("no error");
        } catch (const dpu::PlanError& e) {
            QCOMPARE(QString::fromStdString(e.path()), path);
            QVERIFY2(QString(e.what()).startsWith(path + ": "), e.what());
            QVERIFY2(QString(e.what()).contains(fragment), e.what());
        }
    }

    void invalidJsonNamesTheSource()
    {
        try {
            dpu::parsePlan("{\"k\": ", "my-plan.json");
            QFAIL("no error");
        } catch (const dpu::PlanError& e) {
            QVERIFY2(QString(e.what()).contains("my-plan.json: not valid JSON"), e.what());
        }
        // Garbage reads as words, not as the JSON library's internal tag; the window shows
        // recoverPlan's message as it is.
        for (const auto& parse : {std::function<void()>([] { dpu::parsePlan("garbage", "g.json"); }),
                                  std::function<void()>([] { dpu::recoverPlan("garbage", "g.json"); })}) {
            const std::string message = dpu::test::thrownMessage<dpu::PlanError>(parse);
            QVERIFY2(message.rfind("g.json: not valid JSON (line 1, column 1: syntax error", 0) == 0, message.c_str());
            QVERIFY2(message.find("[json.exception") == std::string::npos, message.c_str());
        }
    }

    void numberBeyondDoubleIsAPlanError()
    {
        // Found by fuzz_plan: nlohmann throws out_of_range (not parse_error) for 1e800, which
        // escaped parsePlan as a bare library exception.
        for (const char* text : {"{\"k\": 1e800}", "10e800", "{\"split\": {\"rounds\": -1e999}}"}) {
            try {
                dpu::parsePlan(text, "huge.json");
                QFAIL(text);
            } catch (const dpu::PlanError& e) {
                QVERIFY2(QString(e.what()).contains("huge.json: not valid JSON"), e.what());
                QVERIFY2(QString(e.what()).contains("number overflow"), e.what());
            }
        }
    }

    void recoverKeepsGoodFieldsAndListsBadOnes()
    {
        const auto r = dpu::recoverPlan(R"({"k": "x", "lambda": 0.25, "train": {"epochs": -3, "lr": 0.01},
            "strategies": ["dpu", "nonsense"], "mystery": 1, "split": 7})", "f.json");
        QCOMPARE(r.plan.lambda, 0.25);  // used
        QCOMPARE(r.plan.train.lr, 0.01);
        QCOMPARE(r.plan.k, dpu::defaultPlan().k); // defaults where the file was wrong
        QCOMPARE(r.plan.train.epochs, dpu::defaultPlan().train.epochs);
        QCOMPARE(r.plan.strategies, dpu::defaultPlan().strategies);
        QCOMPARE(r.plan.split.rounds, dpu::defaultPlan().split.rounds);
        QStringList paths;
        for (const auto& problem : r.problems)
            paths << QString::fromStdString(problem.path);
        paths.sort();
        QCOMPARE(paths, (QStringList{"k", "mystery", "split", "strategies[1]", "train.epochs"}));
        for (const auto& problem : r.problems)
            QVERIFY2(!problem.message.empty() && problem.message.find(problem.path + ": ") != 0, problem.message.c_str());
        // A valid file has no problems and equals parsePlan's plan.
        const std::string good = dpu::planToJson(dpu::defaultPlan());
        const auto clean = dpu::recoverPlan(good);
        QVERIFY(clean.problems.empty());
        QCOMPARE(dpu::planToJson(clean.plan), good);
        // Not an object at all: refused whole.
        for (const char* text : {"[1, 2]", "garbage", "1e800"}) {
            try {
                dpu::recoverPlan(text, "g.json");
                QFAIL(text);
            } catch (const dpu::PlanError& e) {
                QVERIFY2(QString(e.what()).startsWith("g.json: "), e.what());
            }
        }
    }

    void planFilesBeyondTheLimitAreRefusedUnread()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("big.json").toStdString();
        std::vector<uint8_t> bytes(dpu::kMaxPlanFileBytes + 1, ' ');
        bytes[0] = '{';
        bytes.back() = '}';
        dpu::test::writeFile(path, bytes);
        try {
            dpu::loadPlanFile(path);
            QFAIL("accepted");
        } catch (const dpu::PlanError& e) {
            QVERIFY2(QString(e.what()).contains("too large for a plan file"), e.what());
        }
    }

    void fileErrorsNameTheFile()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("bad.json").toStdString();
        dpu::test::writeFile(path, {'{', '"', 'k', '"', ':', '9', '}'});
        try {
            dpu::loadPlanFile(path);
            QFAIL("no error");
        } catch (const dpu::PlanError& e) {
            QCOMPARE(e.path(), std::string("k"));
            QVERIFY2(QString(e.what()).contains(QString::fromStdString(path)), e.what());
        }
        QVERIFY_THROWS_EXCEPTION(dpu::Error, dpu::loadPlanFile(dir.filePath("missing.json").toStdString()));
    }
};

QTEST_APPLESS_MAIN(TestPlanErrors)
#include "test_plan_errors.moc"
