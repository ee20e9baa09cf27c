// SPDX-License-Identifier: MIT
// The plan's rules as data: when a field applies, what a field set where it does not do, and the window's clearing.
#include "dpu/Error.h"
#include "dpu/Plan.h"
#include "dpu/PlanFields.h"
#include "plan/PlanSchema.h"
#include <QtTest>
#include <functional>
#include <set>

namespace {

/// A field set in a plan where it applies, and one change that takes its meaning away.
struct RuleCase {
    const char* name;
    std::string path;    ///< the field the rule is on
    std::string setJson; ///< a valid plan with the field set (or the ruled choice chosen)
    std::function<void(dpu::Plan&)> turnOff;
    std::string errorPath; ///< where validatePlan() names it ("strategies[1]" for a list's item)
    bool choice = false;   ///< a rule on one choice of the field, not on the field
};

std::vector<RuleCase> refusedCases()
{
    using dpu::Plan;
    return {
        {"width on mlp", "width_multiplier", R"({"model": "mobilenetv1", "width_multiplier": 0.5})",
         [](Plan& p) { p.model = "mlp"; }, "width_multiplier"},
        {"period without reinit", "reinit_every", R"({"reinit_every": 3})", [](Plan& p) { p.reinit = false; }, "reinit_every"},
        {"period in single mode", "reinit_every", R"({"reinit_every": 3})", [](Plan& p) { p.mode = dpu::RunMode::Single; },
         "reinit_every"},
        {"period on a sparse model", "reinit_every", R"({"reinit_every": 3})",
         [](Plan& p) { p.deployed = dpu::DeployedForm::Sparse; }, "reinit_every"},
        {"rewind steps without rewinding", "rewind_epochs", R"({"rewind": true, "rewind_epochs": 1})",
         [](Plan& p) { p.rewind = false; }, "rewind_epochs"},
        {"sparsity of a dense model", "deployed_sparsity", R"({"deployed": "sparse", "deployed_sparsity": 0.7})",
         [](Plan& p) { p.deployed = dpu::DeployedForm::Fp32; }, "deployed_sparsity"},
        {"rescale of a float model", "int8_rescale", R"({"deployed": "int8", "int8_rescale": "output"})",
         [](Plan& p) { p.deployed = dpu::DeployedForm::Fp32; }, "int8_rescale"},
        {"bias ranking on an INT8 model's bias codes", "bundle.dense_tensors",
         R"({"deployed": "int8", "int8_biases": "float", "bundle": {"dense_tensors": "partial"}})",
         [](Plan& p) { p.int8Biases = dpu::Int8Biases::Codes; }, "bundle.dense_tensors"},
        {"bias codes of a float model", "int8_biases", R"({"deployed": "int8", "int8_biases": "float"})",
         [](Plan& p) { p.deployed = dpu::DeployedForm::Sparse; }, "int8_biases"},
        {"FU's INT8 training of a float model", "fu_int8_training", R"({"deployed": "int8", "fu_int8_training": "post"})",
         [](Plan& p) { p.deployed = dpu::DeployedForm::Fp32; }, "fu_int8_training"},
        {"clock_mhz without a processor", "fleet.clock_mhz", R"({"fleet": {"cpu": "cortex-m4", "clock_mhz": 80}})",
         [](Plan& p) { p.fleet.cpu.cpu = dpu::CpuChoice::None; }, "fleet.clock_mhz"},
        {"cpi without a processor", "fleet.cpi", R"({"fleet": {"cpu": "cortex-m4", "cpi": 2}})",
         [](Plan& p) { p.fleet.cpu.cpu = dpu::CpuChoice::None; }, "fleet.cpi"},
        {"run_ma without a processor", "fleet.run_ma", R"({"fleet": {"cpu": "cortex-m4", "run_ma": 5}})",
         [](Plan& p) { p.fleet.cpu.cpu = dpu::CpuChoice::None; }, "fleet.run_ma"},
        {"volts without a processor", "fleet.volts", R"({"fleet": {"cpu": "cortex-m4", "volts": 3.3}})",
         [](Plan& p) { p.fleet.cpu.cpu = dpu::CpuChoice::None; }, "fleet.volts"},
        {"an SF on NB-IoT", "fleet.sf", R"({"fleet": {"sf": 9}})", [](Plan& p) { p.fleet.link.link = "nb-iot-nb2"; }, "fleet.sf"},
        {"a mix on NB-IoT", "fleet.sf_mix", R"({"fleet": {"sf_mix": "fuotasim"}})",
         [](Plan& p) { p.fleet.link.link = "nb-iot-nb2"; }, "fleet.sf_mix"},
        {"a device class on NB-IoT", "fleet.device_class", R"({"fleet": {"device_class": "b"}})",
         [](Plan& p) { p.fleet.link.link = "nb-iot-nb2"; }, "fleet.device_class"},
        {"fresh days without a fresh share", "fleet.targets.fresh_days",
         R"({"fleet": {"targets": {"fresh_share": 0.9, "fresh_days": 3}}})", [](Plan& p) { p.fleet.targets.freshShare.reset(); },
         "fleet.targets.fresh_days"},
        {"an accuracy gap without a fresh share", "fleet.targets.accuracy_gap",
         R"({"fleet": {"targets": {"fresh_share": 0.9, "accuracy_gap": 1}}})", [](Plan& p) { p.fleet.targets.freshShare.reset(); },
         "fleet.targets.accuracy_gap"},
        {"FU's epochs without FU", "fu_epochs", R"({"strategies": ["fu", "dpu"], "fu_epochs": 54})",
         [](Plan& p) { p.strategies = {"dpu"}; }, "fu_epochs"},
        {"temperature without distillation", "distill.temperature", R"({"distill": {"weight": 0.5, "temperature": 2}})",
         [](Plan& p) { p.distill.weight = 0; }, "distill.temperature"},
        {"quantisation-aware under fp32", "bundle.quant_aware", R"({"bundle": {"values": "q8", "quant_aware": true}})",
         [](Plan& p) { p.bundle.values = dpu::Coding::Fp32; }, "bundle.quant_aware"},
        {"coding of an INT8 model", "bundle.values", R"({"bundle": {"values": "q8"}})",
         [](Plan& p) { p.deployed = dpu::DeployedForm::Int8; }, "bundle.values"},
        {"budget per round of an INT8 model", "budget.bytes_per_round", R"({"budget": {"bytes_per_round": 5000}})",
         [](Plan& p) { p.deployed = dpu::DeployedForm::Int8; }, "budget.bytes_per_round"},
        {"budget in total of an INT8 model", "budget.bytes_total", R"({"budget": {"bytes_total": 50000}})",
         [](Plan& p) { p.deployed = dpu::DeployedForm::Int8; }, "budget.bytes_total"},
        {"coded dense tensors under fp32", "bundle.dense_tensors", R"({"bundle": {"values": "q4", "dense_tensors": "coded"}})",
         [](Plan& p) { p.bundle.values = dpu::Coding::Fp32; }, "bundle.dense_tensors", true},
        {"pruning on a sparse model", "strategies", R"({"strategies": ["fu", "pruning"]})",
         [](Plan& p) { p.deployed = dpu::DeployedForm::Sparse; }, "strategies[1]", true},
    };
}

} // namespace

class TestPlanRules : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void everyRuleHasACase()
    {
        // A rule added to the table without a case here fails: each is exercised below.
        std::set<std::string> ruled, cased;
        for (const dpu::PlanField& f : dpu::planFields())
            if ((!f.appliesWhen.empty() && f.whenOff == dpu::WhenOff::Refused) || !f.choiceRules.empty())
                ruled.insert(f.path);
        for (const RuleCase& c : refusedCases())
            cased.insert(c.path);
        QCOMPARE(cased, ruled);
    }

    void aFieldSetWhereItDoesNotApplyIsRefused_data()
    {
        QTest::addColumn<int>("index");
        const auto cases = refusedCases();
        for (size_t i = 0; i < cases.size(); ++i)
            QTest::newRow(cases[i].name) << static_cast<int>(i);
    }
    void aFieldSetWhereItDoesNotApplyIsRefused()
    {
        QFETCH(int, index);
        const RuleCase c = refusedCases()[static_cast<size_t>(index)];
        dpu::Plan p = dpu::parsePlan(c.setJson);
        QVERIFY(dpu::fieldApplies(c.path, p));
        c.turnOff(p);
        std::string why;
        if (c.choice) {
            const std::vector<std::string> chosen = dpu::plan::bindingAt(c.path).chosen(p);
            QVERIFY(std::any_of(chosen.begin(), chosen.end(),
                                [&](const std::string& n) { return !dpu::choiceApplies(c.path, n, p, &why); }));
        } else {
            QVERIFY(!dpu::fieldApplies(c.path, p));
            why = dpu::whyFieldOff(c.path, p);
        }
        QVERIFY(!why.empty());
        try {
            dpu::validatePlan(p);
            QFAIL("a field set where it does not apply was accepted");
        } catch (const dpu::PlanError& e) {
            QCOMPARE(e.path(), c.errorPath);
            // The error is the rule's own sentence, and says what it found.
            QVERIFY2(std::string(e.what()).find(why) != std::string::npos, e.what());
            QVERIFY2(std::string(e.what()).find("expected") != std::string::npos, e.what());
        }
    }

    void clearingPutsBackWhatNoLongerApplies_data() { aFieldSetWhereItDoesNotApplyIsRefused_data(); }
    void clearingPutsBackWhatNoLongerApplies()
    {
        QFETCH(int, index);
        const RuleCase c = refusedCases()[static_cast<size_t>(index)];
        dpu::Plan p = dpu::parsePlan(c.setJson);
        const dpu::Plan whereItApplies = p;
        dpu::clearInapplicable(p); // nothing to clear: the field applies
        QCOMPARE(dpu::planToJson(p), dpu::planToJson(whereItApplies));
        c.turnOff(p);
        dpu::clearInapplicable(p);
        dpu::validatePlan(p); // would throw if the rule still failed
        if (c.path == "strategies") // a list loses the item, and keeps the rest
            QCOMPARE(p.strategies, std::vector<std::string>{"fu"});
        else
            QVERIFY(dpu::plan::bindingAt(c.path).isDefault(p));
    }

    void ignoredFieldsStayAndHaveNoEffect()
    {
        // k under a budget, reinit on a sparse model, rewind in single mode: the plan keeps them,
        // the window disables their widgets.
        dpu::Plan p = dpu::parsePlan(R"({"k": 0.3, "budget": {"bytes_per_round": 5000}})");
        QVERIFY(!dpu::fieldApplies("k", p));
        QVERIFY(!dpu::whyFieldOff("k", p).empty());
        p = dpu::parsePlan(R"({"deployed": "sparse", "reinit": false})");
        QVERIFY(!dpu::fieldApplies("reinit", p));
        p = dpu::parsePlan(R"({"mode": "single", "rewind": true})");
        QVERIFY(!dpu::fieldApplies("rewind", p));
        dpu::clearInapplicable(p);
        QVERIFY(p.rewind);
        QVERIFY(dpu::fieldApplies("rewind", dpu::parsePlan(R"({"mode": "multi"})")));
    }

    void clearingFollowsAChain()
    {
        // Clearing one field can take the next one's meaning away: rewind_epochs goes with single
        // mode's end only once rewind (ignored, so kept) no longer makes rewinding iterative.
        dpu::Plan p = dpu::parsePlan(R"({"mode": "single", "rewind_epochs": 1})");
        p.mode = dpu::RunMode::Multi;
        QVERIFY(!dpu::fieldApplies("rewind_epochs", p));
        dpu::clearInapplicable(p);
        QCOMPARE(p.rewindEpochs, 0);
        dpu::validatePlan(p);
    }

    void unknownPathsThrow()
    {
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, dpu::fieldApplies("no.such.field", dpu::defaultPlan()));
    }
};

QTEST_APPLESS_MAIN(TestPlanRules)
#include "test_plan_rules.moc"
