// SPDX-License-Identifier: MIT
// ChartExporter: paints the view into a QImage or a QSvgGenerator, then writes through AtomicFile.
#include "charts/ChartExporter.h"
#include "AtomicFile.h"
#include "charts/LegendFit.h"
#include <QBuffer>
#include <QCoreApplication>
#include <QChartView>
#include <QFileDialog>
#include <QMessageBox>
#include <QImage>
#include <QPainter>
#include <QSvgGenerator>

namespace dpu::ui {
namespace {
// A chart in a hidden tab, or one never shown (headless rendering), has not been laid out:
// QGraphicsView only sees resize events while visible. Send one by hand so QChartView sizes
// its chart, then let the chart's own layout requests run before painting.
QSize exportSize(QChartView* view)
{
    QSize size = view->size();
    if (size.width() < 320 || size.height() < 220) {
        size = QSize(900, 560);
        view->resize(size);
    }
    view->chart()->resize(size);
    LegendFit::place(view->chart(), size); // a hidden view saw no resize event
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    QCoreApplication::sendPostedEvents();
    return size;
}

// Paints the chart's scene, not the view: independent of the view's viewport and scroll state.
void paintChart(QChartView* view, QPainter* painter, const QSize& size)
{
    QChart* chart = view->chart();
    chart->scene()->render(painter, QRectF(QPointF(0, 0), QSizeF(size)), chart->geometry());
}
} // namespace

bool ChartExporter::toPng(QChartView* view, const QString& path, QString* error, qreal scale)
{
    const QSize size = exportSize(view);
    QImage image(size * scale, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.scale(scale, scale); // crisp at high DPI: laid out in points, stored in pixels
        paintChart(view, &painter, size);
    }
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, "PNG")) {
        if (error)
            *error = QStringLiteral("%1: could not encode the PNG").arg(path);
        return false;
    }
    return AtomicFile::write(path, png, error);
}

bool ChartExporter::toSvg(QChartView* view, const QString& path, QString* error)
{
    const QSize size = exportSize(view);
    QByteArray svg;
    QBuffer buffer(&svg);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator generator;
    generator.setOutputDevice(&buffer);
    generator.setSize(size);
    generator.setViewBox(QRect(QPoint(0, 0), size));
    generator.setTitle(view->chart() ? view->chart()->title() : QString());
    generator.setDescription(QStringLiteral("DPU Planner chart"));
    {
        QPainter painter(&generator);
        paintChart(view, &painter, size);
    }
    return AtomicFile::write(path, svg, error);
}

void ChartExporter::exportWithDialog(QChartView* view, bool svg)
{
    const QString title = view->chart() ? view->chart()->title() : QStringLiteral("chart");
    const QString filter = svg ? QObject::tr("SVG image (*.svg)") : QObject::tr("PNG image (*.png)");
    const QString path = QFileDialog::getSaveFileName(view, QObject::tr("Export chart"),
                                                      title.section(QLatin1Char(':'), 0, 0) + (svg ? ".svg" : ".png"), filter);
    if (path.isEmpty())
        return;
    QString error;
    if (!(svg ? toSvg(view, path, &error) : toPng(view, path, &error)))
        QMessageBox::warning(view, QObject::tr("Export chart"), error);
}

} // namespace dpu::ui
