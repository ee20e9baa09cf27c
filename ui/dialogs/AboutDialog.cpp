// SPDX-License-Identifier: MIT
// AboutDialog: a QMessageBox::about with the build's version.
#include "dialogs/AboutDialog.h"
#include "dpu/Version.h"
#include <QMessageBox>
#include <QObject>

namespace dpu::ui {

void AboutDialog::show(QWidget* parent)
{
    QMessageBox::about(parent, QObject::tr("About DPU Planner"),
                       QObject::tr("<h3>DPU Planner %1</h3>"
                                   "<p>Plan, run and export <b>Deep Partial Updating</b> of neural networks "
                                   "deployed on edge devices behind thin links.</p>"
                                   "<p>Implements Qu, Liu and Thiele, <i>Deep Partial Updating: Towards "
                                   "Communication Efficient Updating for On-Device Inference</i>, ECCV 2022.</p>"
                                   "<p>MIT licence. Built on LibTorch and Qt %2.</p>")
                           .arg(QStringLiteral(DPU_VERSION_STRING), QString::fromLatin1(qVersion())));
}

} // namespace dpu::ui
