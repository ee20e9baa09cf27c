// SPDX-License-Identifier: MIT
// Help > User Guide: docs/user-guide.md and the pages it links to, compiled in, in a browsable window.
#pragma once
#include <QDialog>
#include <QUrl>

class QLabel;
class QPushButton;
class QTextBrowser;

namespace dpu::ui {

class UserGuideDialog : public QDialog {
    Q_OBJECT
public:
    explicit UserGuideDialog(QWidget* parent = nullptr);
    /// The page as shown (plain text), for tests.
    QString text() const;
    /// The page shown ("qrc:/docs/user-guide.md" first).
    QUrl page() const;
    /// Follows a link as a click does: a page of the guide opens here (Back returns), a web
    /// address in the browser, a page not compiled in is named with where to find it.
    void follow(const QUrl& link);
    QPushButton* backButton() const { return back_; }
    /// The guide's Markdown as shipped (":/docs/user-guide.md"); empty if missing.
    static QString markdown();

private:
    QTextBrowser* browser_;
    QPushButton* back_;
    QLabel* note_;
};

} // namespace dpu::ui
