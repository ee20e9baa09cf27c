// SPDX-License-Identifier: MIT
// PlanModelRow: the plan form's model row: the model list, what the model weighs on the data shown, which models fit it.
#pragma once
#include "dpu/Models.h"
#include "dpu/PlanEnums.h"
#include <QHash>
#include <QObject>
#include <QString>
#include <string>
#include <vector>

class QComboBox;
class QFormLayout;
class QLabel;
class QWidget;

namespace dpu::ui {

class FieldErrorMarks;
struct ProbeResult;

/// The Model row and the line under it. The list offers the built-in models (and accepts
/// "torchscript:PATH"); the line says how many weights the model has for the data shown, built
/// once per input shape on the GUI thread; the items of models that do not fit the data read
/// are disabled, their tooltip saying why.
class PlanModelRow : public QObject {
    Q_OBJECT
public:
    /// Adds the row to `form` (its widgets are children of the form's widget) with its error line.
    PlanModelRow(QFormLayout* form, FieldErrorMarks& marks, QObject* parent);

    /// The model named (trimmed).
    QString name() const;
    /// Shows `name` as the model (a name the list lacks is kept as typed).
    void setName(const QString& name);
    /// The built-in models the list offers, for the probe to check against the data.
    std::vector<std::string> offered() const;
    /// The combo box (the plan path "model" is marked there).
    QWidget* field() const;

    /// Describes the model for the data of `kind` (its fixed shape, or the shape `probed` read)
    /// and shows its weights; returns the description, empty when the model is unknown, cannot
    /// be built, or the data's shape is not known yet. widthMultiplier is mobilenetv1's.
    dpu::ModelInfo describe(dpu::DataKind kind, const ProbeResult* probed, double widthMultiplier);
    /// Why the last describe() failed (unknown model, one that cannot be built); empty when fine.
    QString problem() const;
    /// Offers every model again, then disables those `probed` (when read without error) says do not fit.
    void showFits(const ProbeResult* probed);

Q_SIGNALS:
    /// The model named changed (typed or chosen); `field` is the combo box.
    void modelChanged(QObject* field, const QString& text);

private:
    /// Shows no weights, and `problem` as the reason when there is one.
    void showNone(const QString& problem);

    QComboBox* model_;
    QLabel* info_; ///< the weights; its "error" property is problem() (tests read it)
    QHash<QString, dpu::ModelInfo> cache_; ///< "name|CxHxW|classes|width" -> description
};

} // namespace dpu::ui
