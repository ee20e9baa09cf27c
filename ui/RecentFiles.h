// SPDX-License-Identifier: MIT
// A recent-files menu (plans, run folders), persisted in QSettings.
#pragma once
#include <QObject>
#include <QStringList>
#include <functional>

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
    /// Says what each entry is beside its name ("run-3 — dpu, fu · k=0.01 · q4 · …"): run
    /// folders all look alike by name. Returns "" where it cannot tell (the name stands alone).
    void setDescriber(std::function<QString(const QString& path)> describe);
    /// The menu's entries as shown (accelerator markers removed).
    QStringList entryTexts() const;

Q_SIGNALS:
    void openRequested(const QString& path);

private:
    void rebuild();
    static constexpr int kMax = 8;
    QMenu* menu_;
    QString key_;
    QStringList files_;
    std::function<QString(const QString&)> describe_;
};

} // namespace dpu::ui
