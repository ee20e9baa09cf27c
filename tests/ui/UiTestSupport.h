// SPDX-License-Identifier: MIT
// Helpers of the UI tests: isolated settings, a tiny plan, filling the plan form like a user.
#pragma once
#include "dpu/Plan.h"
#include <QMessageBox>
#include <QString>
#include <QStringList>
#include <functional>
#include <memory>

namespace dpu::ui {
class MainWindow;
}

class QTemporaryDir;

namespace dpu::uitest {

/// Points QSettings at a fresh temporary folder so tests never see the user's settings.
void isolateSettings(const QString& folder);

/// What every UI test's initTestCase does first: settings isolated under `scratch`/settings
/// and the engine's structs registered for queued signals. False when `scratch` is not valid.
bool prepareUiTest(const QTemporaryDir& scratch);

/// Fashion-MNIST when installed, otherwise a small synthetic MNIST-format folder under `scratch`.
QString datasetFolder(const QString& scratch);

/// The device the window's runs use in the UI tests: "cuda" when DPU_TEST_DEVICE asks for it
/// (bench/gpu/check.sh on a GPU machine), else "cpu".
QString uiTestDevice();

/// Fills the plan panel through its widgets (as a user would): MLP, the given dataset folder,
/// split {initial, perRound, rounds, 300}, 1 epoch (or `epochs`), strategies, k, on uiTestDevice().
void fillPlanForm(dpu::ui::MainWindow& window, const QString& dataset, int initial, int perRound, int rounds,
                  int epochs, const QStringList& strategies, double k = 0.01);

/// Answers the next message box that opens (polled for up to 20 s) with `button`, after running
/// `before` while the box is still open. The returned string receives the box's text.
std::shared_ptr<QString> answerNextMessageBox(QMessageBox::StandardButton button, std::function<void()> before = {});

/// What a user could not see of the plan form: a horizontal scroll bar, or a field (input,
/// button, label) that reaches past the form's visible width or has no width at all.
QStringList formVisibilityProblems(dpu::ui::MainWindow& window);

} // namespace dpu::uitest
