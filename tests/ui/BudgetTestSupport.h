// SPDX-License-Identifier: MIT
// What the Budget tab's tests share: a small cost model, a plan at k, a link by key, a label's text.
#pragma once
#include "dpu/Cost.h"
#include "dpu/DeploymentModel.h"
#include "dpu/LinkModel.h"
#include "dpu/Plan.h"
#include <QLabel>
#include <QString>
#include <QWidget>

namespace dpu::uitest {

/// I = 1000 partial weights, 10 dense.
inline const dpu::CostModel kModel{1000, 10};

/// The default plan at k with the model and value coding.
inline dpu::Plan planAt(double k, const char* model = "mlp", const char* values = "fp32")
{
    dpu::Plan p;
    p.k = k;
    p.model = model;
    p.bundle.values = *dpu::enumFromString<dpu::Coding>(values);
    return p;
}

/// A link model by its key (and the SF for the LoRaWAN regions), as core's linkOf makes it.
inline dpu::Link linkOf(const char* key, int spreadingFactor = 0)
{
    dpu::DeploymentLink s;
    s.link = key;
    s.spreadingFactor = spreadingFactor;
    return dpu::linkOf(s);
}

/// The text of the label named `name` under `w` (or says that there is none).
inline QString labelText(const QWidget& w, const char* name)
{
    auto* l = w.findChild<QLabel*>(QString::fromLatin1(name));
    return l ? l->text() : QStringLiteral("(no label %1)").arg(QString::fromLatin1(name));
}

} // namespace dpu::uitest
