// SPDX-License-Identifier: MIT
// The report's text as HTML: the plan in words, where and when the runs ran, the table per strategy.
#pragma once
#include "dpu/Frontier.h"
#include "dpu/Recommend.h"
#include "dpu/RunFolder.h"
#include "report/ReportWriter.h"
#include <QString>
#include <QStringList>
#include <vector>

namespace dpu::ui {

class ReportText {
public:
    /// A plan as sentences a reader without the application follows.
    static QString planInWords(const dpu::Plan& plan, const dpu::RunStatus& status);
    /// Page 1: title, plans, runs (machine, date, state), the table per strategy. `names`: each
    /// run's name (RunBook::runName); none given: the plans' names.
    static QString firstPage(const std::vector<dpu::RunFolder>& runs, const ReportOptions& options, QStringList names = {});
    /// Under the frontier: the budget's answer and the runs left out of the frontier (by `names`,
    /// one per run), with why.
    static QString frontierNotes(const std::vector<dpu::RunFolder>& runs, const QStringList& names,
                                 const std::vector<dpu::FrontierGroup>& groups, int shown, const ReportOptions& options);
    /// The recommendation for options.budgetBytes per round among the shown group's runs (the
    /// first run's run.json gives the model's size for estimates).
    static dpu::Recommendation recommendation(const std::vector<dpu::RunFolder>& runs,
                                              const std::vector<dpu::FrontierGroup>& groups, int shown,
                                              const ReportOptions& options);
    /// DPU's re-initialisation as the plan sets it: the paper's rule, every n rounds, or never
    /// (the report's sentence and the form's Method… button say it alike).
    static QString reinitInWords(const dpu::Plan& plan);
    /// The runs' plans' names: how a lone run is named.
    static QStringList planNames(const std::vector<dpu::RunFolder>& runs);

private:
    /// Page 1's parts: each plan in words (once per plan), the runs (folder, machine, date,
    /// state), and the table per strategy (accuracy, difference to FU, bytes, time on the link).
    static QString plansInWords(const std::vector<dpu::RunFolder>& runs);
    static QString runsTable(const std::vector<dpu::RunFolder>& runs, const QStringList& names);
    static QString strategyTable(const std::vector<dpu::RunFolder>& runs, const QStringList& names, const ReportOptions& options);
};

} // namespace dpu::ui
