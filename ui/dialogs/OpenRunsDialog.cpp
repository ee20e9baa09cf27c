// SPDX-License-Identifier: MIT
// OpenRunsDialog: Qt's folder chooser with several folders selectable in its list and detail views.
#include "dialogs/OpenRunsDialog.h"
#include <QAbstractItemView>
#include <QFileInfo>

namespace dpu::ui {

OpenRunsDialog::OpenRunsDialog(QWidget* parent, const QString& startFolder)
    : QFileDialog(parent, tr("Open runs: a run folder, several (Ctrl+click), or a folder of runs"), startFolder)
{
    setOption(QFileDialog::DontUseNativeDialog);
    setOption(QFileDialog::ShowDirsOnly);
    setFileMode(QFileDialog::Directory);
    setAcceptMode(QFileDialog::AcceptOpen);
    setLabelText(QFileDialog::Accept, tr("&Open"));
    // QFileDialog selects one folder in Directory mode; its views take several when asked to,
    // and accept() then hands over every selected folder.
    for (QAbstractItemView* view : findChildren<QAbstractItemView*>())
        if (view->objectName() == QLatin1String("listView") || view->objectName() == QLatin1String("treeView"))
            view->setSelectionMode(QAbstractItemView::ExtendedSelection);
}

QStringList OpenRunsDialog::folders() const
{
    QStringList out;
    for (const QString& f : selectedFiles())
        if (QFileInfo(f).isDir())
            out << QFileInfo(f).absoluteFilePath();
    out.removeDuplicates();
    return out;
}

} // namespace dpu::ui
