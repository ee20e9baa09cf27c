// SPDX-License-Identifier: MIT
// dpu-render-icon SVG SIZE OUT.png: renders the application icon to a square PNG for the hicolor theme.
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>
#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv)
{
    if (argc != 4) {
        std::fputs("usage: dpu-render-icon ICON.svg SIZE OUT.png\n", stderr);
        return 2;
    }
    // Build machines have no display, and a QImage needs none: never try to reach one.
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);

    const QString svg = QString::fromLocal8Bit(argv[1]);
    const int size = std::atoi(argv[2]);
    const QString out = QString::fromLocal8Bit(argv[3]);
    QSvgRenderer renderer(svg);
    if (!renderer.isValid() || size <= 0 || size > 1024) {
        std::fprintf(stderr, "dpu-render-icon: cannot render %s at size %s\n", argv[1], argv[2]);
        return 1;
    }
    QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    renderer.render(&painter);
    painter.end();
    if (!image.save(out, "PNG")) {
        std::fprintf(stderr, "dpu-render-icon: cannot write %s\n", argv[3]);
        return 1;
    }
    return 0;
}
