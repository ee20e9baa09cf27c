// SPDX-License-Identifier: MIT
// The deployed forms' table (dpu/DeployedForms.h): one entry per form, its names, fields and words, and its bytes against a real run.
#include "TestSupport.h"
#include "bundle/SafetensorsFile.h"
#include "dpu/Cost.h"
#include "dpu/DeployedForms.h"
#include "dpu/Error.h"
#include "dpu/FleetRuns.h"
#include "dpu/Models.h"
#include "dpu/Plan.h"
#include "dpu/PlanFields.h"
#include "dpu/RunFolder.h"
#include "dpu/Runner.h"
#include "runs/BundlePaths.h"
#include <QTemporaryDir>
#include <fstream>
#include <iterator>
#include <set>

namespace {

/// The default plan deployed as `form` (valid: the plan's other fields are the defaults).
dpu::Plan planDeployedAs(dpu::DeployedForm form)
{
    dpu::Plan p = dpu::defaultPlan();
    p.deployed = form;
    return p;
}

/// What the device file the run wrote holds: partial weights, their stored bytes, scales, and
/// the 1-D tensors (biases) held as codes with their scales (plan int8_biases codes).
struct StoredFile {
    int64_t partialWeights = 0;
    int64_t partialBytes = 0;
    int64_t scaleValues = 0;
    int64_t codedBiases = 0;
    int64_t biasScales = 0;
};

/// Reads a device file (safetensors) as the devices store it: a tensor "<name>.scale" is a scale
/// vector (of one value for a bias), every other tensor of more than one dimension a partial
/// weight tensor, and an I8 tensor of one dimension a bias as codes.
StoredFile storedFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    const std::vector<uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    StoredFile f;
    for (const auto& t : dpu::bundle::SafetensorsFile::read(bytes)) {
        const bool scale = t.name.size() > 6 && t.name.compare(t.name.size() - 6, 6, ".scale") == 0;
        if (scale && t.name.find(".bias.") != std::string::npos) {
            f.biasScales += static_cast<int64_t>(t.values.size());
        } else if (scale) {
            f.scaleValues += static_cast<int64_t>(t.values.size());
        } else if (t.shape.size() == 1 && t.dtype == dpu::bundle::DType::I8) {
            f.codedBiases += static_cast<int64_t>(t.codes.size());
        } else if (t.shape.size() > 1) {
            const auto n = static_cast<int64_t>(t.dtype == dpu::bundle::DType::I8 ? t.codes.size() : t.values.size());
            f.partialWeights += n;
            f.partialBytes += t.dtype == dpu::bundle::DType::I8 ? n : 4 * n;
        }
    }
    return f;
}

/// A small real run deployed as `form`: FU alone, one round of one epoch on 300 images of
/// Fashion-MNIST, with its bundles and the devices' initial file kept.
dpu::Plan smallRun(dpu::DeployedForm form)
{
    dpu::Plan p;
    p.name = "forms-" + dpu::nameOf(form);
    p.dataset.path = dpu::test::fashionMnistSubset(600, 400);
    p.dataset.testLimit = 400;
    p.split = {300, 300, 1, 300};
    p.strategies = {"fu"};
    p.train.epochs = 1;
    p.seeds = {3};
    p.deployed = form;
    p.bundle.write = true;
    return p;
}

} // namespace

class TestDeployedForms : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private Q_SLOTS:
    /// Every enumerator has exactly one entry, at its own index, and exactly one form is the
    /// paper's reference (dense FP32).
    void eachFormHasOneEntry()
    {
        const auto& forms = dpu::deployedForms();
        QCOMPARE(forms.size(), dpu::enumNames<dpu::DeployedForm>().size());
        std::set<int> seen;
        int references = 0;
        for (size_t i = 0; i < forms.size(); ++i) {
            QCOMPARE(static_cast<size_t>(forms[i].form), i);
            QVERIFY(seen.insert(static_cast<int>(forms[i].form)).second);
            QCOMPARE(&dpu::deployedFormInfo(forms[i].form), &forms[i]);
            references += forms[i].reference ? 1 : 0;
        }
        QCOMPARE(references, 1);
        QVERIFY(dpu::deployedFormInfo(dpu::DeployedForm::Fp32).reference);
        // A value no table lists is a defect, said as one.
        QVERIFY_THROWS_EXCEPTION(dpu::InternalError, dpu::deployedFormInfo(static_cast<dpu::DeployedForm>(99)));
    }

    /// The plan's names are the table's: nameOf, enumFromString and a plan file round trip.
    void namesRoundTripWithThePlan()
    {
        QCOMPARE(dpu::enumStrings<dpu::DeployedForm>(), (std::vector<std::string>{"fp32", "sparse", "int8"}));
        for (const dpu::DeployedFormInfo& f : dpu::deployedForms()) {
            QCOMPARE(dpu::nameOf(f.form), f.name);
            QVERIFY(dpu::enumFromString<dpu::DeployedForm>(f.name) == f.form);
            const dpu::Plan back = dpu::parsePlan(dpu::planToJson(planDeployedAs(f.form)));
            QVERIFY2(back.deployed == f.form, f.name.c_str());
        }
    }

    /// A form's fields apply exactly where the plan is deployed as that form, and the field
    /// table knows each of them.
    void fieldsApplyWithTheirFormOnly()
    {
        for (const dpu::DeployedFormInfo& owner : dpu::deployedForms())
            for (const std::string& path : owner.fields) {
                QVERIFY2(dpu::findPlanField(path), path.c_str());
                for (const dpu::DeployedFormInfo& f : dpu::deployedForms())
                    QVERIFY2(dpu::fieldApplies(path, planDeployedAs(f.form)) == f.owns(path),
                             qPrintable(QString::fromStdString(path + " with " + f.name)));
            }
        QVERIFY(dpu::deployedFormInfo(dpu::DeployedForm::Sparse).owns("deployed_sparsity"));
        QVERIFY(dpu::deployedFormInfo(dpu::DeployedForm::Int8).owns("int8_rescale"));
        // The rules the facts stand for: bundle.values, a budget and re-initialisation.
        for (const dpu::DeployedFormInfo& f : dpu::deployedForms()) {
            const dpu::Plan p = planDeployedAs(f.form);
            QCOMPARE(dpu::fieldApplies("bundle.values", p), !f.ownValueCodes);
            QCOMPARE(dpu::fieldApplies("budget.bytes_per_round", p), f.takesBudget);
            QCOMPARE(dpu::fieldApplies("reinit_every", p), !f.keepsItsForm());
        }
    }

    /// The facts agree with one another: 8 bits a stored byte on the link, codes of its own for a
    /// quantiser, a kept mask for a pruned base, words for every form but the reference.
    void factsAgree()
    {
        for (const dpu::DeployedFormInfo& f : dpu::deployedForms()) {
            const QByteArray name = QByteArray::fromStdString(f.name);
            QVERIFY2(f.valueBits == 8 * f.storedBytesPerWeight, name);
            QVERIFY2(f.ownValueCodes == (f.quantiser != dpu::Quantiser::None), name);
            QVERIFY2((f.scalesPerChannel > 0) == (f.quantiser == dpu::Quantiser::Int8PerChannel), name);
            QVERIFY2((f.firstDeployment == dpu::FirstDeployment::PrunedBase) == (f.keptMask == dpu::KeptMask::Zeros), name);
            QVERIFY2((f.firstDeployment == dpu::FirstDeployment::QuantisedBase) == (f.quantiser != dpu::Quantiser::None), name);
            QVERIFY2(f.keepsItsForm() == !f.reference, name);
            QVERIFY2(!f.shortName.empty() && !f.choiceLabel.empty() && !f.fullUpdateWords.empty(), name);
            for (const std::string* words : {&f.summaryWords, &f.contextWords, &f.reportWords}) {
                QVERIFY2(words->empty() == f.reference, name);
                // %1 is the sparsity, in the words of a form that keeps zeros only.
                QVERIFY2((words->find("%1") != std::string::npos) == (!f.reference && f.keptMask == dpu::KeptMask::Zeros), name);
            }
            QVERIFY2(f.choiceHelp.empty() == f.reference, name);
        }
    }

    /// The cost model of a real model (the MLP on 28x28 images) prices each form from its facts:
    /// its value bits, its nonzeros (a kept mask) and its scales (one per output channel).
    void costModelAsksTheForm()
    {
        const dpu::ModelInfo mlp = dpu::describeModel("mlp", {1, 28, 28}, 10);
        int64_t channels = 0;
        for (const auto& shape : dpu::partialShapesOf(mlp))
            channels += shape[0];
        for (const dpu::DeployedFormInfo& f : dpu::deployedForms()) {
            for (const dpu::Int8Biases biases : {dpu::Int8Biases::Float, dpu::Int8Biases::Codes}) {
                const dpu::CostModel cm = dpu::deployedCostModel(dpu::partialShapesOf(mlp), mlp.denseWeights, f.form,
                                                                 0.5, biases, dpu::biasSizesOf(mlp));
                QCOMPARE(cm.partialWeights, mlp.partialWeights);
                QCOMPARE(cm.valueBits, f.valueBits);
                QCOMPARE(cm.scaleValues, f.scalesPerChannel * channels);
                QCOMPARE(cm.nonzeroWeights > 0, f.keptMask == dpu::KeptMask::Zeros);
                // Only a form with codes holds its biases as codes: the MLP's three, 1,034 values.
                const bool coded = f.ownValueCodes && biases == dpu::Int8Biases::Codes;
                QCOMPARE(cm.codedDenseWeights, coded ? int64_t(1034) : int64_t(0));
                QCOMPARE(cm.codedDenseScales, coded ? int64_t(3) : int64_t(0));
                if (!f.keepsItsForm() || f.ownValueCodes) // the full update is the stored file's weights (and scales)
                    QCOMPARE(dpu::deployedFullRoundBits(cm),
                             8.0 * double(f.storedBytesPerWeight * (mlp.partialWeights + cm.codedDenseWeights)
                                          + 4 * (mlp.denseWeights - cm.codedDenseWeights + cm.scaleValues
                                                 + cm.codedDenseScales)));
            }
        }
    }

    /// A real run of each form: the devices' file holds storedBytesPerWeight bytes a partial
    /// weight and scalesPerChannel scales per output channel, the cost model the run priced FU's
    /// round with says the same, and the fleet's device file (FleetRuns) is those bytes, or for a
    /// form with scales the full bundle that carries them.
    void storedBytesAgreeWithARealRun()
    {
        if (dpu::test::fashionMnistDir().empty())
            QFAIL("Fashion-MNIST is missing: install the Debian package dataset-fashion-mnist (scripts/deps does)");
        for (const dpu::DeployedFormInfo& f : dpu::deployedForms()) {
            const std::string out = dir_.filePath(QString::fromStdString(f.name)).toStdString();
            const dpu::Plan plan = smallRun(f.form);
            dpu::validatePlan(plan);
            dpu::RunObserver quiet;
            const auto records = dpu::Runner(plan, {out}).run(quiet).records;
            QCOMPARE(records.size(), size_t(1));
            QVERIFY(records[0].deployed);
            const StoredFile file = storedFile(dpu::bundlepaths::initialFile(out, 3));
            const dpu::RunFolder run = dpu::loadRunFolder(out);
            QCOMPARE(file.partialWeights, run.status.partialWeights);
            QCOMPARE(file.partialBytes, f.storedBytesPerWeight * file.partialWeights);

            const dpu::ModelInfo mlp = dpu::describeModel("mlp", {1, 28, 28}, 10);
            const dpu::CostModel cm = dpu::deployedCostModel(dpu::partialShapesOf(mlp), mlp.denseWeights, f.form, 0.5,
                                                             plan.int8Biases, dpu::biasSizesOf(mlp));
            QCOMPARE(cm.partialWeights, file.partialWeights);
            QCOMPARE(cm.scaleValues, file.scaleValues);
            QCOMPARE(cm.codedDenseWeights, file.codedBiases); // INT8's biases as codes (the default), one scale each
            QCOMPARE(cm.codedDenseScales, file.biasScales);
            QCOMPARE(file.codedBiases > 0, f.ownValueCodes);
            QCOMPARE(cm.valueBits, 8 * f.storedBytesPerWeight);
            QCOMPARE(records[0].analyticBits, dpu::deployedFullRoundBits(cm)); // round 1 ships the form in full

            const dpu::FleetRunInput fleet = dpu::fleetStrategiesOf(run, 3);
            QCOMPARE(fleet.strategies.size(), size_t(1));
            const int64_t stored = file.partialBytes + file.codedBiases + 4 * (run.status.denseWeights - file.codedBiases);
            if (f.scalesPerChannel > 0) { // the full bundle: codes, scales, dense values and a header
                QCOMPARE(fleet.strategies[0].deviceFileBytes, records[0].bundleBytes);
                QVERIFY(fleet.strategies[0].deviceFileBytes >= stored + 4 * file.scaleValues);
            } else {
                QCOMPARE(fleet.strategies[0].deviceFileBytes, stored);
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestDeployedForms)
#include "test_deployed_forms.moc"
