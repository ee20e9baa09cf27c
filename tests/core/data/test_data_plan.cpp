// SPDX-License-Identifier: MIT
// The plan's dataset keys of issue 14: parsed, validated with their paths, written back only when set.
#include "TestSupport.h"
#include "dpu/Error.h"
#include "dpu/Plan.h"

using dpu::PlanError;

class TestDataPlan : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void parsesAndRoundTrips()
    {
        const auto p = dpu::parsePlan(R"({"dataset": {"kind": "npz", "path": "/d/data.npz", "x": "feat", "y": "lab",
            "x_test": "ft", "y_test": "lt", "layout": "nhwc", "test_fraction": 0.1, "classes": 12,
            "image_size": [20, 30], "channels": 3, "normalise": {"mean": [0.5, 0.4, 0.3], "std": [0.2, 0.2, 0.25]},
            "augment": {"crop_padding": 4, "flip": true}}})");
        const auto& d = p.dataset;
        QCOMPARE(dpu::nameOf(d.kind), std::string("npz"));
        QCOMPARE(d.x + d.y + d.xTest + d.yTest, std::string("featlabftlt"));
        QCOMPARE(dpu::nameOf(d.layout), std::string("nhwc"));
        QCOMPARE(d.testFraction, 0.1);
        QCOMPARE(d.classes, 12);
        QCOMPARE(d.imageHeight, 20);
        QCOMPARE(d.imageWidth, 30);
        QCOMPARE(d.channels, 3);
        QCOMPARE(dpu::nameOf(d.normalise), std::string("given"));
        QCOMPARE(d.std, (std::vector<double>{0.2, 0.2, 0.25}));
        QCOMPARE(d.augment.cropPadding, 4);
        QVERIFY(d.augment.flip);
        const std::string json = dpu::planToJson(p);
        QCOMPARE(dpu::planToJson(dpu::parsePlan(json)), json);
        QCOMPARE(dpu::parsePlan(R"({"dataset": {"image_size": 16, "normalise": "first_round"}})").dataset.imageWidth, 16);
    }

    void defaultsAreNotWritten()
    {
        // Plans (and checkpoints) of earlier runs must serialise exactly as before.
        const std::string json = dpu::planToJson(dpu::defaultPlan());
        for (const char* key : {"layout", "test_fraction", "normalise", "augment", "image_size", "x_test", "classes"})
            QVERIFY2(json.find(std::string("\"") + key + "\"") == std::string::npos, key);
    }

    void badValuesNameTheirKey()
    {
        DPU_EXPECT_THROW_MESSAGE(PlanError, dpu::parsePlan(R"({"dataset": {"kind": "hdf5"}})"), "dataset.kind", "\"images\"");
        DPU_EXPECT_THROW_MESSAGE(PlanError, dpu::parsePlan(R"({"dataset": {"layout": "hwc"}})"), "dataset.layout");
        DPU_EXPECT_THROW_MESSAGE(PlanError, dpu::parsePlan(R"({"dataset": {"test_fraction": 1}})"), "dataset.test_fraction");
        DPU_EXPECT_THROW_MESSAGE(PlanError, dpu::parsePlan(R"({"dataset": {"channels": 2}})"), "dataset.channels");
        DPU_EXPECT_THROW_MESSAGE(PlanError, dpu::parsePlan(R"({"dataset": {"image_size": [0, 5]}})"), "dataset.image_size");
        DPU_EXPECT_THROW_MESSAGE(PlanError, dpu::parsePlan(R"({"dataset": {"image_size": [1, 2, 3]}})"), "dataset.image_size");
        DPU_EXPECT_THROW_MESSAGE(PlanError, dpu::parsePlan(R"({"dataset": {"normalise": "batch"}})"), "dataset.normalise");
        DPU_EXPECT_THROW_MESSAGE(PlanError, dpu::parsePlan(R"({"dataset": {"normalise": {"mean": [0.5]}}})"), "dataset.normalise");
        DPU_EXPECT_THROW_MESSAGE(PlanError, dpu::parsePlan(R"({"dataset": {"normalise": {"mean": [0.5], "std": [0]}}})"),
                                 "dataset.normalise.std[0]");
        DPU_EXPECT_THROW_MESSAGE(PlanError, dpu::parsePlan(R"({"dataset": {"normalise": {"mean": [0.5], "std": [1], "x": 1}}})"),
                                 "dataset.normalise.x", "unknown key");
        DPU_EXPECT_THROW_MESSAGE(PlanError, dpu::parsePlan(R"({"dataset": {"augment": {"crop_padding": -1}}})"),
                                 "dataset.augment.crop_padding");
        DPU_EXPECT_THROW_MESSAGE(PlanError, dpu::parsePlan(R"({"dataset": {"augment": {"mixup": true}}})"),
                                 "dataset.augment.mixup", "unknown key");
        // An editor keeps the good dataset keys and marks the bad one.
        const auto r = dpu::recoverPlan(R"({"dataset": {"kind": "npy", "path": "/d", "layout": "x"}})");
        QCOMPARE(r.problems.size(), size_t{1});
        QCOMPARE(r.problems[0].path, std::string("dataset.layout"));
        QCOMPARE(dpu::nameOf(r.plan.dataset.kind), std::string("npy"));
    }
};

QTEST_GUILESS_MAIN(TestDataPlan)
#include "test_data_plan.moc"
