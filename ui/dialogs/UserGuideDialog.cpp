// SPDX-License-Identifier: MIT
// UserGuideDialog: the same guide as docs/user-guide.md, so the two never drift apart.
#include "dialogs/UserGuideDialog.h"
#include <QDialogButtonBox>
#include <QFile>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace dpu::ui {

UserGuideDialog::UserGuideDialog(QWidget* parent) : QDialog(parent)
{
    setObjectName(QStringLiteral("userGuide"));
    setWindowTitle(tr("DPU Planner user guide"));
    browser_ = new QTextBrowser(this);
    browser_->setOpenExternalLinks(true); // the dataset download pages
    browser_->setMarkdown(markdown());
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(browser_);
    layout->addWidget(buttons);
    resize(720, 640);
}

QString UserGuideDialog::text() const
{
    return browser_->toPlainText();
}

QString UserGuideDialog::markdown()
{
    QFile f(QStringLiteral(":/docs/user-guide.md"));
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

} // namespace dpu::ui
