// SPDX-License-Identifier: MIT
// Help > User Guide: docs/user-guide.md, compiled into the application, in a browsable window.
#pragma once
#include <QDialog>

class QTextBrowser;

namespace dpu::ui {

class UserGuideDialog : public QDialog {
    Q_OBJECT
public:
    explicit UserGuideDialog(QWidget* parent = nullptr);
    /// The guide as shown (plain text), for tests.
    QString text() const;
    /// The guide's Markdown as shipped (":/docs/user-guide.md"); empty if missing.
    static QString markdown();

private:
    QTextBrowser* browser_;
};

} // namespace dpu::ui
