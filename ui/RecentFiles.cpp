// SPDX-License-Identifier: MIT
// RecentFiles: keeps the menu and its settings key in step.
#include "RecentFiles.h"
#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>

namespace dpu::ui {

RecentFiles::RecentFiles(QMenu* menu, QObject* parent, const QString& settingsKey)
    : QObject(parent), menu_(menu), key_(settingsKey)
{
    files_ = QSettings().value(key_).toStringList();
    rebuild();
}

void RecentFiles::add(const QString& path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    files_.removeAll(absolute);
    files_.prepend(absolute);
    while (files_.size() > kMax)
        files_.removeLast();
    QSettings().setValue(key_, files_);
    rebuild();
}

void RecentFiles::rebuild()
{
    menu_->clear();
    int n = 0;
    for (const QString& path : files_) {
        // &1..&8 give keyboard accelerators; the full path shows as the status tip.
        const QString what = describe_ ? describe_(path) : QString();
        const QString name = QFileInfo(path).fileName().replace(QLatin1Char('&'), QStringLiteral("&&"));
        QAction* a = menu_->addAction(QStringLiteral("&%1 %2").arg(++n).arg(what.isEmpty() ? name : name + QStringLiteral(" — ") + what));
        a->setStatusTip(QDir::toNativeSeparators(path));
        connect(a, &QAction::triggered, this, [this, path] { Q_EMIT openRequested(path); });
    }
    menu_->setEnabled(!files_.isEmpty());
}

void RecentFiles::setDescriber(std::function<QString(const QString& path)> describe)
{
    describe_ = std::move(describe);
    rebuild();
}

QStringList RecentFiles::entryTexts() const
{
    QStringList out;
    for (const QAction* a : menu_->actions())
        out << a->text().mid(a->text().indexOf(QLatin1Char(' ')) + 1).replace(QStringLiteral("&&"), QStringLiteral("&"));
    return out;
}

} // namespace dpu::ui
