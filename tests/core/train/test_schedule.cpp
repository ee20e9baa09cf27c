// SPDX-License-Identifier: MIT
// Learning-rate schedules: StepLR at E/3 and cosine annealing as PyTorch defines them.
#include "TestSupport.h"
#include "train/Schedule.h"

class TestSchedule : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void stepEveryThird()
    {
        dpu::TrainSpec s;
        s.epochs = 60;
        s.lr = 0.005;
        s.schedule = {dpu::ScheduleKind::Step, 0, 0.1}; // the paper's MLP: /10 every 20 epochs
        DPU_COMPARE_NEAR(dpu::learningRate(s, 0), 0.005, 1e-15);
        DPU_COMPARE_NEAR(dpu::learningRate(s, 19), 0.005, 1e-15);
        DPU_COMPARE_NEAR(dpu::learningRate(s, 20), 0.0005, 1e-15);
        DPU_COMPARE_NEAR(dpu::learningRate(s, 59), 0.00005, 1e-15);
        s.epochs = 2; // fewer than 3 epochs: decay every epoch, not never
        DPU_COMPARE_NEAR(dpu::learningRate(s, 1), 0.0005, 1e-15);
    }
    void explicitStep()
    {
        dpu::TrainSpec s;
        s.epochs = 10;
        s.lr = 1.0;
        s.schedule = {dpu::ScheduleKind::Step, 4, 0.2};
        DPU_COMPARE_NEAR(dpu::learningRate(s, 3), 1.0, 1e-15);
        DPU_COMPARE_NEAR(dpu::learningRate(s, 4), 0.2, 1e-15);
        DPU_COMPARE_NEAR(dpu::learningRate(s, 8), 0.04, 1e-15);
    }
    void cosine()
    {
        dpu::TrainSpec s;
        s.epochs = 100;
        s.lr = 0.1;
        s.schedule.kind = dpu::ScheduleKind::Cosine;
        DPU_COMPARE_NEAR(dpu::learningRate(s, 0), 0.1, 1e-15);
        DPU_COMPARE_NEAR(dpu::learningRate(s, 50), 0.05, 1e-12);
        DPU_COMPARE_NEAR(dpu::learningRate(s, 25), 0.1 * (1 + std::cos(M_PI / 4)) / 2, 1e-12);
    }
    /// rewind_epochs' steps: fewer epochs, an explicit step compressed in proportion (at least
    /// one epoch), E/3 and cosine following the new count; no change at 0 or at E and above.
    void shortenedSpecCompressesTheSchedule()
    {
        dpu::TrainSpec s;
        s.epochs = 20;
        s.lr = 0.005;
        s.schedule = {dpu::ScheduleKind::Step, 6, 0.1}; // the fidelity setting's
        const dpu::TrainSpec four = dpu::shortenedSpec(s, 4);
        QCOMPARE(four.epochs, 4);
        QCOMPARE(four.schedule.stepEpochs, 1); // 6 * 4 / 20 = 1.2
        DPU_COMPARE_NEAR(dpu::learningRate(four, 1), 0.0005, 1e-15);
        QCOMPARE(dpu::shortenedSpec(s, 10).schedule.stepEpochs, 3);
        QCOMPARE(dpu::shortenedSpec(s, 1).schedule.stepEpochs, 1); // 0.3 rounds up to one epoch
        QCOMPARE(four.lr, s.lr);
        QCOMPARE(four.schedule.gamma, s.schedule.gamma);
        for (const int same : {0, -1, 20, 25}) {
            const dpu::TrainSpec t = dpu::shortenedSpec(s, same);
            QCOMPARE(t.epochs, 20);
            QCOMPARE(t.schedule.stepEpochs, 6);
        }
        s.schedule.stepEpochs = 0; // every E/3: follows the shortened E
        DPU_COMPARE_NEAR(dpu::learningRate(dpu::shortenedSpec(s, 6), 2), 0.0005, 1e-15);
        QCOMPARE(dpu::shortenedSpec(s, 6).schedule.stepEpochs, 0);
        s.schedule.kind = dpu::ScheduleKind::Cosine;
        DPU_COMPARE_NEAR(dpu::learningRate(dpu::shortenedSpec(s, 4), 2), 0.0025, 1e-12);
    }
    void constant()
    {
        dpu::TrainSpec s;
        s.schedule.kind = dpu::ScheduleKind::Constant;
        s.lr = 0.3;
        QCOMPARE(dpu::learningRate(s, 7), 0.3);
    }
};

QTEST_APPLESS_MAIN(TestSchedule)
#include "test_schedule.moc"
