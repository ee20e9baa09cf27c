// SPDX-License-Identifier: MIT
// FrontierChart: what each family bought per real byte, and where the budget cuts the curves.
#include "charts/FrontierChart.h"
#include "charts/LegendFit.h"
#include "charts/ByteAxis.h"
#include "charts/NiceAxis.h"
#include "charts/SeriesPalette.h"
#include "dpu/PlanEnums.h"
#include "charts/Units.h"
#include <QCategoryAxis>
#include <QImage>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPainter>
#include <QPainterPath>
#include <QPen>
#include <QScatterSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <map>

namespace dpu::ui {
namespace {

/// A coding's marker, drawn in the strategy's colour: the line style tells codings apart in
/// colour, the shape tells them apart in black and white print too. A family with more keys
/// than its coding (coded biases, a budget, the quantisation-aware fine-tune) gets the hollow
/// shape, so "dpu q4" and "dpu coded q4" differ on the chart, not only in the legend.
QImage codingMarker(const QString& coding, const QColor& color, bool hollow)
{
    QImage image(24, 24, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter p(&image);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(hollow ? QPen(color, 3) : QPen(Qt::white, 2));
    p.setBrush(hollow ? QBrush(Qt::white) : QBrush(color));
    QPainterPath path;
    // The coding as the family names it (a run's plan); an unknown name gets the circle.
    const auto c = dpu::enumFromString<dpu::Coding>(coding.toStdString()).value_or(dpu::Coding::Fp32);
    if (c == dpu::Coding::Fp16) {
        path.addRect(4, 4, 16, 16);
    } else if (c == dpu::Coding::Q8) {
        path.moveTo(12, 2);
        path.lineTo(22, 21);
        path.lineTo(2, 21);
        path.closeSubpath();
    } else if (c == dpu::Coding::Q8c) { // q8's error, context-coded: a hexagon
        path.moveTo(7, 2);
        path.lineTo(17, 2);
        path.lineTo(22, 12);
        path.lineTo(17, 22);
        path.lineTo(7, 22);
        path.lineTo(2, 12);
        path.closeSubpath();
    } else if (c == dpu::Coding::Q4) {
        path.moveTo(12, 1);
        path.lineTo(23, 12);
        path.lineTo(12, 23);
        path.lineTo(1, 12);
        path.closeSubpath();
    } else if (c == dpu::Coding::Ternary) {
        path.moveTo(12, 22);
        path.lineTo(22, 3);
        path.lineTo(2, 3);
        path.closeSubpath();
    } else {
        path.addEllipse(3, 3, 18, 18);
    }
    p.drawPath(path);
    return image;
}

double realX(const FrontierPoint& p)
{
    // A log axis cannot show 0 bytes: drawn at 1 byte. NaN (no update round after the initial
    // deployment) stays NaN: such a point has no place on the axis and is not drawn.
    return std::isnan(p.realBytesPerUpdateRound) ? p.realBytesPerUpdateRound : std::max(1.0, p.realBytesPerUpdateRound);
}

} // namespace

FrontierChart::FrontierChart(QWidget* parent) : ChartView(tr("Accuracy against real bytes per update round (finished runs)"), parent)
{
    setObjectName(QStringLiteral("frontierChart"));
    bytesAxis_ = new ByteAxis(tr("Real bundle bytes per update round per device"), tr("Real bytes per update round"), this);
    x_ = bytesAxis_->logAxis();
    y_ = new QValueAxis(this);
    y_->setTitleText(tr("Mean test accuracy (%)"));
    NiceAxis::fit(y_, 0, 100, 5, 0, 100);
    setAxes(x_, y_);
    chart()->addAxis(bytesAxis_->labelAxis(), Qt::AlignBottom);
    bytesAxis_->attach(chart());
    // The legend shows each family's marker (its coding), not a plain colour square.
    chart()->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
    // Many bytes for little accuracy: no family's runs sit there, so the legend may.
    LegendFit::setInsideCorner(chart(), Qt::BottomRightCorner);
}

QString FrontierChart::budgetKey()
{
    return tr("budget");
}

QString FrontierChart::codingOf(const FrontierPoint& point)
{
    for (const auto& [key, value] : point.familyValues)
        if (key == "bundle.values" && value.size() >= 2)
            return QString::fromStdString(value.substr(1, value.size() - 2));
    return QStringLiteral("fp32");
}

Qt::PenStyle FrontierChart::codingStyle(const QString& coding)
{
    static const std::map<QString, Qt::PenStyle> styles{{QStringLiteral("fp32"), Qt::SolidLine},
                                                        {QStringLiteral("fp16"), Qt::DashLine},
                                                        {QStringLiteral("q8"), Qt::DotLine},
                                                        {QStringLiteral("q8c"), Qt::DotLine},
                                                        {QStringLiteral("q4"), Qt::DashDotLine},
                                                        {QStringLiteral("ternary"), Qt::DashDotDotLine}};
    const auto it = styles.find(coding);
    return it == styles.end() ? Qt::DashLine : it->second;
}

void FrontierChart::setFrontier(const std::vector<FrontierPoint>& points, double budgetBytes, const QList<QPointF>& expected)
{
    clearSeries(); // also deletes the expected-points series
    expected_ = nullptr;
    points_ = points;
    std::vector<FrontierPoint> sorted = points;
    std::stable_sort(sorted.begin(), sorted.end(), [](const FrontierPoint& a, const FrontierPoint& b) {
        return a.family != b.family ? a.family < b.family : a.k < b.k;
    });
    double lo = 100, hi = 0;
    std::map<QString, QString> codings; // family -> coding
    std::map<QString, bool> variants;   // family -> has keys besides its coding
    for (const FrontierPoint& p : sorted) {
        if (std::isnan(realX(p)))
            continue; // no update round after its initial deployment: no bytes per update round
        const QString key = QString::fromStdString(p.family.empty() ? p.strategy : p.family);
        addPoint(key, QPointF(realX(p), 100.0 * p.meanAccuracy));
        codings[key] = codingOf(p);
        variants[key] = std::any_of(p.familyValues.begin(), p.familyValues.end(),
                                    [](const auto& kv) { return kv.first != "bundle.values"; });
        lo = std::min(lo, 100.0 * p.meanAccuracy);
        hi = std::max(hi, 100.0 * p.meanAccuracy);
    }
    for (const QPointF& e : expected) {
        lo = std::min(lo, e.y());
        hi = std::max(hi, e.y());
    }
    if (lo > hi) {
        lo = 0;
        hi = 100;
    }
    if (budgetBytes > 0) {
        // The budget as a vertical line across the data's accuracy range.
        const QString key = budgetKey();
        addPoint(key, QPointF(budgetBytes, std::max(0.0, lo - 2)));
        addPoint(key, QPointF(budgetBytes, std::min(100.0, hi + 2)));
        QLineSeries* line = series(key);
        line->setPointsVisible(false);
        QPen pen(colorFor(key), 1.5, Qt::DashLine);
        line->setPen(pen);
    }
    // After the last series is made (each new one re-spreads shades): every family of a
    // strategy in the strategy's own colour, its coding told by line style and marker.
    for (const auto& [key, coding] : codings) {
        QLineSeries* s = series(key);
        const QColor color = SeriesPalette::strategyColor(SeriesPalette::strategyOf(key));
        QPen pen(color, 2, codingStyle(coding));
        s->setPen(pen);
        s->setColor(color);
        s->setMarkerSize(12); // few points, each a finished run: make them visible
        s->setLightMarker(codingMarker(coding, color, variants[key]));
    }
    if (!expected.isEmpty()) {
        expected_ = new QScatterSeries;
        expected_->setName(tr("recommended"));
        expected_->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
        expected_->setMarkerSize(11);
        expected_->setColor(Qt::black);
        chart()->addSeries(expected_);
        expected_->attachAxis(axisX());
        expected_->attachAxis(axisY());
        QRectF all = QRectF(QPointF(budgetBytes > 0 ? budgetBytes : 1e3, lo), QSizeF(0, hi - lo));
        for (const FrontierPoint& p : points)
            if (!std::isnan(realX(p)))
                all |= QRectF(QPointF(realX(p), 100.0 * p.meanAccuracy), QSizeF(1e-9, 1e-9));
        for (const QPointF& e : expected) {
            expected_->append(QPointF(std::max(1.0, e.x()), e.y()));
            all |= QRectF(QPointF(std::max(1.0, e.x()), e.y()), QSizeF(1e-9, 1e-9));
        }
        fitAxes(all); // the markers are not in the base class's bounds
    }
    fitLegend(); // the budget line and the recommended markers have entries too
}

void FrontierChart::fitAxes(const QRectF& b)
{
    // Whole decades keep the log grid readable; a point just above a decade (10.1 KB) would sit
    // half outside on the axis, so the range reaches a little beyond the points.
    bytesAxis_->setRange(b.left() / 1.15, b.right() * 1.15);
    NiceAxis::fit(y_, b.top() - 2, b.bottom() + 2, 6, 0, 100);
}

QString FrontierChart::describePoint(const QString& key, const QPointF& p) const
{
    if (key == budgetKey())
        return tr("budget: %1 per round").arg(Units::bytes(p.x()));
    const FrontierPoint* best = nullptr;
    for (const FrontierPoint& f : points_)
        if (QString::fromStdString(f.family.empty() ? f.strategy : f.family) == key
            && (!best || std::abs(realX(f) - p.x()) < std::abs(realX(*best) - p.x())))
            best = &f;
    if (!best)
        return key;
    QString text = tr("%1 at k = %2 (%3 runs, %4 rounds)\n%5 per update round%6, %7 a run: %8 % mean test accuracy")
                       .arg(key)
                       .arg(best->k)
                       .arg(best->runs)
                       .arg(best->rounds)
                       .arg(Units::bytes(best->realBytesPerUpdateRound))
                       .arg(best->measuredBytes ? QString() : tr(" (analytic: no bundle measured)"))
                       .arg(Units::bytes(best->realBytesPerRun))
                       .arg(100.0 * best->meanAccuracy, 0, 'f', 2);
    if (!std::isnan(best->accuracyToFu))
        text += tr(" (%1 points to FU)").arg(100.0 * best->accuracyToFu, 0, 'f', 2);
    if (!std::isnan(best->ratioToFu))
        text += tr("\n%1 of FU's bits").arg(best->ratioToFu, 0, 'g', 3);
    return text;
}

} // namespace dpu::ui
