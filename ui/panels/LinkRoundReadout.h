// SPDX-License-Identifier: MIT
// One round on a link model as the Budget tab shows it: airtime, wall time, energy per device and battery share.
#pragma once
#include "dpu/LinkModel.h"
#include <QWidget>

class QLabel;

namespace dpu::ui {

class LinkRoundReadout : public QWidget {
    Q_OBJECT
public:
    explicit LinkRoundReadout(QWidget* parent = nullptr);

    /// Shows `round` (core's dpu::linkRound of the bundle to `devices` devices on `link`).
    void showRound(const dpu::Link& link, int devices, const dpu::LinkRound& round);
    /// Shows dashes and `why` (no link model chosen, nothing recommended, a link it refuses).
    void showNothing(const QString& why);

private:
    QLabel* link_;
    QLabel* airtime_;
    QLabel* wallTime_;
    QLabel* energy_;
    QLabel* battery_;
};

} // namespace dpu::ui
