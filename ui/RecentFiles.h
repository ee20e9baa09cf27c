// SPDX-License-Identifier: MIT
// The recent plan files menu, persisted in QSettings.
#pragma once
#include <QObject>
#include <QStringList>

class QMenu;

namespace dpu::ui {

class RecentFiles : public QObject {
    Q_OBJECT
public:
    RecentFiles(QMenu* menu, QObject* parent = nullptr);
    /// Moves path to the top of the list (at most kMax entries) and saves the list.
    void add(const QString& path);
    QStringList files() const { return files_; }

Q_SIGNALS:
    void openRequested(const QString& path);

private:
    void rebuild();
    static constexpr int kMax = 8;
    QMenu* menu_;
    QStringList files_;
};

} // namespace dpu::ui
