// SPDX-License-Identifier: MIT
// The window at a device pixel ratio of 2 (QT_SCALE_FACTOR=2): crisp grabs, icons, exported charts
// and a plan form that fits.
#include "MainWindow.h"
#include "UiTestSupport.h"
#include "charts/AccuracyChart.h"
#include "charts/ChartExporter.h"
#include "panels/PlanPanel.h"
#include "panels/ResultsPanel.h"
#include <QComboBox>
#include <QApplication>
#include <QImage>
#include <QTemporaryDir>
#include <QtTest/QtTest>

using dpu::ui::MainWindow;

class TestUiHiDpi : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(tmp_.isValid());
        dpu::uitest::isolateSettings(tmp_.filePath(QStringLiteral("settings")));
        QCOMPARE(qApp->devicePixelRatio(), 2.0); // set up by main() below
    }

    void windowRendersAtTwiceThePixels()
    {
        MainWindow w;
        w.resize(1000, 700);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QCOMPARE(w.devicePixelRatioF(), 2.0);
        const QPixmap shot = w.grab();
        QCOMPARE(shot.devicePixelRatio(), 2.0);
        QCOMPARE(shot.size(), w.size() * 2); // device pixels: laid out in points, drawn in pixels
        // The icon is an SVG: at ratio 2 it is drawn at 64 device pixels for a 32-point slot.
        const QPixmap icon = w.windowIcon().pixmap(QSize(32, 32), 2.0);
        QCOMPARE(icon.size(), QSize(64, 64));
        QVERIFY(!icon.toImage().isNull());
    }

    void planFormFitsA1366x768ScreenAtRatio2()
    {
        // A 2732x1536 panel at ratio 2 lays out as 1366x768 points: the form must still fit.
        MainWindow w;
        w.resize(1366, 768);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        for (const char* model : {"mlp", "vgg", "mobilenetv1"}) {
            w.planPanel()->findChild<QComboBox*>(QStringLiteral("model"))->setCurrentText(QString::fromLatin1(model));
            QCoreApplication::processEvents();
            const QStringList problems = dpu::uitest::formVisibilityProblems(w);
            QVERIFY2(problems.isEmpty(), qPrintable(QString::fromLatin1(model) + QStringLiteral(": ") + problems.join(QStringLiteral("; "))));
        }
    }

    void exportedChartKeepsItsLayoutAndDoublesItsPixels()
    {
        MainWindow w;
        w.resize(1000, 700);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* chart = w.resultsPanel()->accuracyChart();
        const QString png = tmp_.filePath(QStringLiteral("a.png"));
        QString error;
        QVERIFY2(dpu::ui::ChartExporter::toPng(chart, png, &error, 2.0), qPrintable(error));
        const QImage image(png);
        QVERIFY(!image.isNull());
        QCOMPARE(image.width() % 2, 0);
        QVERIFY(image.width() >= 2 * 320); // at least the minimum layout size, at 2 pixels per point
    }
};

int main(int argc, char** argv)
{
    // Before QApplication exists, as a user's environment would have it on a 2x screen.
    qputenv("QT_SCALE_FACTOR", "2");
    QApplication app(argc, argv);
    TestUiHiDpi test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "test_ui_hidpi.moc"
