// SPDX-License-Identifier: MIT
// A recent-files menu (plans, run folders), persisted in QSettings.
#pragma once
#include <QObject>
#include <QStringList>

class QMenu;

namespace dpu::ui {

class RecentFiles : public QObject {
    Q_OBJECT
public:
    /// `settingsKey`: where the list lives in QSettings ("recentFiles": plans, "recentRuns": run folders).
    RecentFiles(QMenu* menu, QObject* parent = nullptr, const QString& settingsKey = QStringLiteral("recentFiles"));
    /// Moves path to the top of the list (at most kMax entries) and saves the list.
    void add(const QString& path);
    QStringList files() const { return files_; }

Q_SIGNALS:
    void openRequested(const QString& path);

private:
    void rebuild();
    static constexpr int kMax = 8;
    QMenu* menu_;
    QString key_;
    QStringList files_;
};

} // namespace dpu::ui
