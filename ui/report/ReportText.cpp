// SPDX-License-Identifier: MIT
// ReportText: HTML for QTextDocument; figures come from the records, the cost model and the frontier in core.
#include "report/ReportText.h"
#include "dpu/PlanFields.h"
#include "dpu/DeployedForms.h"
#include "dpu/Cost.h"
#include "dpu/UpdateBytes.h"
#include "dpu/StrategyId.h"
#include "charts/Units.h"
#include <QCoreApplication>
#include <QDateTime>
#include <QStringList>
#include <cmath>
#include <map>
#include <algorithm>

namespace dpu::ui {

namespace {

QString esc(const std::string& s)
{
    return QString::fromStdString(s).toHtmlEscaped();
}

QString tr(const char* text, const char* disambiguation = nullptr, int n = -1)
{
    return QCoreApplication::translate("dpu::ui::ReportText", text, disambiguation, n);
}

/// What the time column is: one device's session on the report's link (as the plan form's
/// per-device row), or why there is none.
QString linkSentence(const ReportOptions& options)
{
    if (!options.link)
        return tr("no link was given, so no times.");
    const dpu::Link& l = *options.link;
    const QString devices = options.devices == 1 ? tr("one device") : tr("%L1 devices").arg(options.devices);
    return tr("the time one device's session for one round takes on %1 (%2 to %3, duty cycle %4 %, "
                  "frame loss %5 %).")
        .arg(QString::fromStdString(l.name).toHtmlEscaped(),
             l.delivery == dpu::LinkDelivery::Multicast ? tr("multicast") : tr("unicast"), devices)
        .arg(l.dutyCycle * 100)
        .arg(l.frameLoss * 100);
}

QString sessionTime(const ReportOptions& options, double bytes)
{
    if (!options.link || !(bytes > 0)) // NaN: no update round
        return QStringLiteral("–");
    try {
        return Units::seconds(
            dpu::linkRound(*options.link, static_cast<int64_t>(std::ceil(bytes)), std::max(1, options.devices)).deviceSeconds);
    } catch (const std::exception&) { // a link the caller did not check: no time rather than none at all
        return QStringLiteral("–");
    }
}

struct StrategyFigures {
    double meanAccuracy = 0;
    dpu::UpdateBytes bytes; ///< the initial deployment apart from the update rounds, per seed
};

StrategyFigures figures(const dpu::RunFolder& run, const std::string& strategy)
{
    StrategyFigures f;
    std::map<uint64_t, std::vector<const dpu::RoundRecord*>> seeds;
    int n = 0;
    for (const dpu::RoundRecord& r : run.records) {
        if (r.strategy != strategy)
            continue;
        f.meanAccuracy += r.testAccuracy;
        seeds[r.seed].push_back(&r);
        ++n;
    }
    if (n > 0)
        f.meanAccuracy /= n;
    for (const auto& [seed, records] : seeds)
        f.bytes.addUnit(records);
    return f;
}

} // namespace

QString ReportText::reinitInWords(const dpu::Plan& p)
{
    // The plan's rule, in its words: "nothing re-initialises a sparse or INT8 deployed model".
    if (!dpu::fieldApplies("reinit", p))
        return QObject::tr("never re-initialised (%1)").arg(QString::fromStdString(dpu::whyFieldOff("reinit", p)));
    if (!p.reinit)
        return QObject::tr("never re-initialised");
    if (p.reinitEvery > 0)
        return p.reinitEvery == 1 ? QObject::tr("re-initialised every round")
                                  : QObject::tr("re-initialised every %1 rounds").arg(p.reinitEvery);
    return QObject::tr("re-initialised by the paper's rule");
}

QStringList ReportText::planNames(const std::vector<dpu::RunFolder>& runs)
{
    QStringList out;
    for (const dpu::RunFolder& run : runs)
        out << QString::fromStdString(run.plan.name);
    return out;
}

QString ReportText::planInWords(const dpu::Plan& p, const dpu::RunStatus& status)
{
    QStringList s;
    QString model = tr("The model is <b>%1</b>").arg(esc(p.model));
    if (status.partialWeights > 0)
        model += tr(" with %L1 weights that partial updating may change and %L2 always-shipped values (biases, normalisation)")
                     .arg(status.partialWeights).arg(status.denseWeights);
    s << model + QLatin1Char('.');
    s << tr("It learns from %1 data in %2%3.")
             .arg(esc(dpu::nameOf(p.dataset.kind)), esc(p.dataset.path),
                  p.dataset.trainLimit > 0 ? tr(" (first %L1 training samples)").arg(p.dataset.trainLimit) : QString());
    const int rounds = status.rounds > 0 ? status.rounds : p.split.rounds;
    if (p.mode == dpu::RunMode::Single)
        s << tr("One deployed model is updated once (single-round mode, iterative rewinding).");
    else
        s << tr("Round 1 trains on %L1 samples and each of the %2 later rounds collects %L3 more (%4 rounds in all); "
                "%L5 samples are held out for validation.")
                 .arg(p.split.initial).arg(rounds - 1).arg(p.split.perRound).arg(rounds).arg(p.split.validation);
    QStringList strategies;
    for (const std::string& st : p.strategies)
        strategies << esc(st);
    s << tr("Strategies compared: <b>%1</b>. Partial strategies change a share k = %2 of the weights per round "
            "(DPU: lambda = %3, %4).")
             .arg(strategies.join(QStringLiteral(", ")))
             .arg(p.k)
             .arg(p.lambda)
             .arg(reinitInWords(p));
    // The paper's ablations, said only when a plan departs from the default (plan-format.md).
    if (p.fuStart == dpu::FuStart::Fresh)
        s << tr("Full updating starts each round from a different random model.");
    else if (p.fuStart == dpu::FuStart::Last)
        s << tr("Full updating starts each round from the last round's weights.");
    if (p.fuEpochs > 0 && dpu::fieldApplies("fu_epochs", p))
        s << tr("Full updating trains %n epoch(s) per step in its own rounds.", nullptr, p.fuEpochs);
    if (p.fuInt8Training == dpu::FuInt8Training::Post && dpu::fieldApplies("fu_int8_training", p))
        s << tr("The first INT8 model and full updating train in float and are quantised after training.");
    // A field is described where the plan's rules say it applies.
    if (p.rewind && dpu::fieldApplies("rewind", p))
        s << tr("The partial strategies rewind iteratively, 20 % of the remaining weights per step.");
    if (p.rewindEpochs > 0 && dpu::fieldApplies("rewind_epochs", p))
        s << tr("Each rewinding step before the last trains %1 epoch(s), the last %2.").arg(p.rewindEpochs).arg(p.train.epochs);
    // The deployed form says itself (dpu/DeployedForms.h): nothing for the paper's dense FP32 model.
    const dpu::DeployedFormInfo& form = dpu::deployedFormInfo(p.deployed);
    if (!form.reportWords.empty()) {
        const QString words = QString::fromStdString(form.reportWords);
        s << (form.keptMask == dpu::KeptMask::Zeros ? words.arg(p.deployedSparsity * 100.0) : words);
    }
    if (dpu::fieldApplies("int8_biases", p))
        s << (p.int8Biases == dpu::Int8Biases::Codes
                  ? tr("Its biases are int8 codes too, each tensor with one scale set anew in every round.")
                  : tr("Its biases stay float32."));
    s << tr("Each training step runs %n epoch(s) of %1 (learning rate %2, %3 schedule, batch %4); seeds: %5.", nullptr,
            p.train.epochs)
             .arg(esc(dpu::nameOf(p.train.optimizer)))
             .arg(p.train.lr)
             .arg(esc(dpu::nameOf(p.train.schedule.kind)))
             .arg(p.train.batch)
             .arg([&] {
                 QStringList seeds;
                 for (const uint64_t seed : p.seeds)
                     seeds << QString::number(seed);
                 return seeds.join(QStringLiteral(", "));
             }());
    if (const dpu::DeployedFormInfo& form = dpu::deployedFormInfo(p.deployed); form.ownValueCodes)
        s << tr("Update bundles carry the deployed model's own %1 codes.").arg(esc(form.shortName));
    else
        s << tr("Update bundles carry %1 values.").arg(esc(dpu::nameOf(p.bundle.values)));
    return s.join(QLatin1Char(' '));
}

QString ReportText::firstPage(const std::vector<dpu::RunFolder>& runs, const ReportOptions& options, QStringList names)
{
    QString h;
    h += QStringLiteral("<h1>%1</h1>").arg(tr("Deep Partial Updating: report"));
    h += QStringLiteral("<p>%1</p>")
             .arg(tr("Made %1 on %2.")
                      .arg(QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'")),
                           esc(dpu::describeThisMachine())));

    h += plansInWords(runs);
    if (names.size() != static_cast<int>(runs.size()))
        names = planNames(runs);
    h += runsTable(runs, names);
    h += strategyTable(runs, names, options);
    return h;
}

QString ReportText::plansInWords(const std::vector<dpu::RunFolder>& runs)
{
    QString h;
    // The plan in words, once per plan (a k sweep differs only in k and name).
    h += QStringLiteral("<h2>%1</h2>").arg(tr("The plan"));
    std::vector<const dpu::RunFolder*> described;
    for (const dpu::RunFolder& run : runs) {
        bool seen = false;
        for (const dpu::RunFolder* d : described)
            seen = seen || dpu::planDifferences(d->plan, run.plan, dpu::defaultSweptKeys()).empty();
        if (seen)
            continue;
        described.push_back(&run);
        h += QStringLiteral("<p><b>%1</b>: %2</p>").arg(esc(run.plan.name), planInWords(run.plan, run.status));
    }
    if (described.size() < runs.size())
        h += QStringLiteral("<p>%1</p>").arg(tr("Runs of one plan that differ only in k are described once."));
    return h;
}

QString ReportText::runsTable(const std::vector<dpu::RunFolder>& runs, const QStringList& names)
{
    QString h;
    h += QStringLiteral("<h2>%1</h2><table border=\"1\" cellspacing=\"0\" cellpadding=\"3\" width=\"100%\">").arg(tr("The runs"));
    h += QStringLiteral("<tr><th>%1</th><th>%2</th><th>%3</th><th>%4</th></tr>")
             .arg(tr("Folder"), tr("Ran on"), tr("When"), tr("State"));
    for (size_t i = 0; i < runs.size(); ++i) {
        const dpu::RunFolder& run = runs[i];
        const dpu::RunStatus& st = run.status;
        const QString when = st.started.empty() ? tr("not recorded")
                                                : esc(st.started) + (st.ended.empty() ? QString() : QStringLiteral(" – ") + esc(st.ended));
        const QString state = run.complete() ? tr("finished") : tr("stopped early: not on the frontier");
        // The run's name across the table, as the table per strategy has it (in a column of its
        // own a long name wrapped); ReportPages prints it on the page of the row below it.
        h += QStringLiteral("<tr><td colspan=\"4\" bgcolor=\"#eeeeee\"><b>%1</b></td></tr>").arg(names[static_cast<int>(i)].toHtmlEscaped());
        h += QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td><td>%4</td></tr>")
                 .arg(esc(run.label()),
                      st.host.empty() ? tr("not recorded") : esc(st.host) + QStringLiteral(" (") + esc(st.device) + QLatin1Char(')'),
                      when, state);
    }
    h += QStringLiteral("</table>");
    return h;
}

QString ReportText::strategyTable(const std::vector<dpu::RunFolder>& runs, const QStringList& names,
                                  const ReportOptions& options)
{
    QString h;
    // A sweep's runs differ only in k: the table names them by k.
    bool sweep = true;
    for (const dpu::RunFolder& run : runs)
        sweep = sweep && dpu::planDifferences(runs.front().plan, run.plan, dpu::defaultSweptKeys()).empty();
    auto shortName = [sweep, &runs, &names](const dpu::RunFolder& run) {
        if (!sweep)
            return names[static_cast<int>(&run - runs.data())].toHtmlEscaped();
        const auto sameK = std::count_if(runs.begin(), runs.end(), [&](const dpu::RunFolder& r) { return r.plan.k == run.plan.k; });
        return sameK == 1 ? QStringLiteral("k = %1").arg(run.plan.k)
                          : QStringLiteral("k = %1 (%2)").arg(run.plan.k).arg(esc(run.label()));
    };
    h += QStringLiteral("<h2>%1</h2>").arg(tr("Per strategy"));
    h += QStringLiteral("<p>%1</p>")
             .arg(tr("Mean test accuracy over every round and seed; the difference to full updating (FU) of the same run in "
                     "percentage points; the bundles a device receives: the initial deployment (the first deployed round's, "
                     "in no per-round figure), the bytes per update round (the deployed rounds after it) and over the run; "
                     "the time per update round is %1")
                      .arg(linkSentence(options)));
    h += QStringLiteral("<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\" width=\"100%\">");
    h += QStringLiteral("<tr><th>%1</th><th>%2</th><th>%3</th><th>%4</th><th>%5</th><th>%6</th><th>%7</th></tr>")
             .arg(tr("Strategy"), tr("Mean accuracy"), tr("vs FU"), tr("Initial deployment"), tr("Bytes per update round"),
                  tr("Bytes in total"), tr("Time per update round"));
    bool anyAnalytic = false;
    for (const dpu::RunFolder& run : runs) {
        // Each run's rows under a row of its own name across the table: in a column of its own
        // a long name ("forms-k0.01 · fp32 · deployed=sparse") wrapped over five lines.
        if (runs.size() > 1)
            h += QStringLiteral("<tr><td colspan=\"7\" bgcolor=\"#eeeeee\"><b>%1</b></td></tr>").arg(shortName(run));
        const bool hasFu = std::any_of(run.plan.strategies.begin(), run.plan.strategies.end(),
                                       [](const std::string& s) { return dpu::isBaseline(s); });
        const StrategyFigures fu = hasFu ? figures(run, dpu::baselineStrategyName()) : StrategyFigures{};
        for (const std::string& strategy : run.plan.strategies) {
            const StrategyFigures f = figures(run, strategy);
            anyAnalytic = anyAnalytic || f.bytes.analytic();
            const QString diff = !hasFu || dpu::isBaseline(strategy)
                                     ? QStringLiteral("–")
                                     : QStringLiteral("%1%2 pp")
                                           .arg(f.meanAccuracy >= fu.meanAccuracy ? QStringLiteral("+") : QString())
                                           .arg(100.0 * (f.meanAccuracy - fu.meanAccuracy), 0, 'f', 2);
            const double perUpdate = f.bytes.bytesPerUpdateRound();
            const QString time = sessionTime(options, perUpdate);
            h += QStringLiteral("<tr><td>%1</td><td align=\"right\">%2</td><td align=\"right\">%3</td><td align=\"right\">%4</td>"
                                "<td align=\"right\">%5</td><td align=\"right\">%6</td><td align=\"right\">%7</td></tr>")
                     .arg(esc(strategy), Units::percent(f.meanAccuracy), diff, Units::roundedBytes(f.bytes.initialDeploymentBytes()),
                          std::isnan(perUpdate) ? QStringLiteral("–") : Units::roundedBytes(perUpdate),
                          Units::roundedBytes(f.bytes.totalBytesPerUnit()), time);
        }
    }
    h += QStringLiteral("</table>");
    if (anyAnalytic)
        h += QStringLiteral("<p>%1</p>").arg(tr("Where a run measured no bundle, its bytes are the analytic figure."));
    return h;
}

dpu::Recommendation ReportText::recommendation(const std::vector<dpu::RunFolder>& runs,
                                               const std::vector<dpu::FrontierGroup>& groups, int shown,
                                               const ReportOptions& options)
{
    const dpu::FrontierGroup* g = shown < 0 ? nullptr : &groups[static_cast<size_t>(shown)];
    const dpu::RunFolder& first = g ? runs[std::stoul(g->runIds.front())] : runs.front();
    const dpu::CostModel cost = dpu::runCostModel(first);
    return dpu::recommend(g, first.plan, cost, {dpu::Budget::Scope::PerRound, options.budgetBytes});
}

QString ReportText::frontierNotes(const std::vector<dpu::RunFolder>& runs, const QStringList& names,
                                  const std::vector<dpu::FrontierGroup>& groups,
                                  int shown, const ReportOptions& options)
{
    QString h;
    if (shown < 0) {
        h += QStringLiteral("<p>%1</p>").arg(tr("No run finished: the frontier needs finished runs."));
        return h;
    }
    const dpu::FrontierGroup& g = groups[static_cast<size_t>(shown)];
    const dpu::RunFolder& first = runs[std::stoul(g.runIds.front())];
    h += QStringLiteral("<p>%1</p>")
             .arg(tr("Each line is one family (a strategy under one value coding) across k; each point its mean test "
                     "accuracy against the real bundle bytes of an update round (a deployed round after the first). It joins the %n finished run(s) of "
                     "plan %1 and those that differ from it only in k, strategies and bundle settings.",
                     nullptr, static_cast<int>(g.runIds.size()))
                      .arg(esc(first.plan.name)));
    h += QStringLiteral("<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\" width=\"100%\">"
                        "<tr><th>%1</th><th>%2</th><th>%3</th><th>%4</th><th>%5</th><th>%6</th><th>%7</th></tr>")
             .arg(tr("Family"), tr("k"), tr("Mean accuracy"), tr("To FU (points)"), tr("Real bytes per update round"),
                  tr("All rounds / FU's bits"), tr("Runs, rounds"));
    bool unmeasured = false;
    for (const dpu::FrontierPoint& p : g.points) {
        unmeasured = unmeasured || !p.measuredBytes;
        h += QStringLiteral("<tr><td>%1</td><td align=\"right\">%2</td><td align=\"right\">%3</td><td align=\"right\">%4</td>"
                            "<td align=\"right\">%5</td><td align=\"right\">%6</td><td align=\"right\">%7, %8</td></tr>")
                 .arg(esc(p.family))
                 .arg(p.k)
                 .arg(Units::percent(p.meanAccuracy),
                      // FU against itself (the frontier's reference) says nothing: "-0.00" from rounding.
                      std::isnan(p.accuracyToFu) || p.family == g.fuReference ? QStringLiteral("–")
                                                                              : QString::number(100.0 * p.accuracyToFu, 'f', 2),
                      (std::isnan(p.realBytesPerUpdateRound) ? QStringLiteral("–") : Units::roundedBytes(p.realBytesPerUpdateRound))
                          + (p.measuredBytes ? QString() : QStringLiteral("*")),
                      std::isnan(p.ratioToFu) ? QStringLiteral("–") : QString::number(p.ratioToFu, 'g', 3))
                 .arg(p.runs)
                 .arg(p.rounds);
    }
    h += QStringLiteral("</table>");
    if (unmeasured)
        h += QStringLiteral("<p>%1</p>").arg(tr("* analytic bytes: these runs measured no bundle."));
    if (options.budgetBytes > 0) {
        const dpu::Recommendation r = recommendation(runs, groups, shown, options);
        h += QStringLiteral("<p>%1</p>")
                 .arg(tr("Budget: %1 per round per device (dashed line). Recommended: %2")
                          .arg(Units::bytes(options.budgetBytes), esc(r.why)));
    }
    for (size_t i = 0; i < groups.size(); ++i) {
        if (static_cast<int>(i) == shown)
            continue;
        QStringList left, why;
        for (const std::string& id : groups[i].runIds)
            left << names[static_cast<int>(std::stoul(id))].toHtmlEscaped();
        for (const std::string& d : dpu::planDifferences(groups[i].plan, g.plan, dpu::frontierFreeKeys()))
            why << esc(d);
        h += QStringLiteral("<p>%1</p>").arg(tr("Left out: %1, whose plan differs (%2).").arg(left.join(QStringLiteral(", ")), why.join(QStringLiteral("; "))));
    }
    for (size_t i = 0; i < runs.size(); ++i)
        if (!runs[i].complete())
            h += QStringLiteral("<p>%1</p>").arg(tr("Left out: %1, stopped before its last round (its mean would favour early rounds).")
                                                     .arg(names[static_cast<int>(i)].toHtmlEscaped()));
    return h;
}

} // namespace dpu::ui
