// SPDX-License-Identifier: MIT
// UserGuideDialog: the same guide as docs/user-guide.md, so the two never drift apart, with Back and Contents.
#include "dialogs/UserGuideDialog.h"
#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace dpu::ui {

namespace {
const QUrl kGuide(QStringLiteral("qrc:/docs/user-guide.md"));
} // namespace

UserGuideDialog::UserGuideDialog(QWidget* parent) : QDialog(parent)
{
    setObjectName(QStringLiteral("userGuide"));
    setWindowTitle(tr("DPU Planner user guide"));
    browser_ = new QTextBrowser(this);
    // Links are followed here: a page of the guide must not blank the viewer (QTextBrowser
    // cannot show a page it cannot load), and web pages open in the browser.
    browser_->setOpenLinks(false);
    connect(browser_, &QTextBrowser::anchorClicked, this, &UserGuideDialog::follow);
    browser_->setSource(kGuide, QTextDocument::MarkdownResource);
    back_ = new QPushButton(tr("&Back"), this);
    back_->setShortcut(QKeySequence::Back);
    back_->setEnabled(false);
    connect(back_, &QPushButton::clicked, browser_, &QTextBrowser::backward);
    connect(browser_, &QTextBrowser::backwardAvailable, back_, &QPushButton::setEnabled);
    auto* contents = new QPushButton(tr("&Contents"), this);
    connect(contents, &QPushButton::clicked, this, [this] { follow(kGuide); });
    note_ = new QLabel(this);
    note_->setWordWrap(true);
    note_->hide();
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* nav = new QHBoxLayout;
    nav->addWidget(back_);
    nav->addWidget(contents);
    nav->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(nav);
    layout->addWidget(browser_);
    layout->addWidget(note_);
    layout->addWidget(buttons);
    resize(720, 640);
}

void UserGuideDialog::follow(const QUrl& link)
{
    note_->hide();
    if (link.scheme() == QLatin1String("http") || link.scheme() == QLatin1String("https")) {
        QDesktopServices::openUrl(link);
        return;
    }
    const QUrl target = browser_->source().resolved(link);
    if (target.path() == browser_->source().path() && target.hasFragment()) {
        browser_->scrollToAnchor(target.fragment()); // a section of the page shown
        return;
    }
    if (!QFile::exists(QLatin1Char(':') + target.path())) {
        // A page the application does not carry (benchmarks, GPU notes): say where it is.
        note_->setText(tr("%1 is not part of the built-in guide: read docs/%1 in the source tree, or "
                          "/usr/share/doc/dpu-planner/docs/%1 where the package is installed.")
                           .arg(QFileInfo(target.path()).fileName()));
        note_->show();
        return;
    }
    browser_->setSource(target, QTextDocument::MarkdownResource);
}

QString UserGuideDialog::text() const
{
    return browser_->toPlainText();
}

QUrl UserGuideDialog::page() const
{
    return browser_->source();
}

QString UserGuideDialog::markdown()
{
    QFile f(QStringLiteral(":/docs/user-guide.md"));
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

} // namespace dpu::ui
