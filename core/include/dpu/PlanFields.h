// SPDX-License-Identifier: MIT
// The plan's fields described once (path, type, values, default, doc): parsing, writing, errors, forms and docs derive from it.
#pragma once
#include <functional>
#include <string>
#include <vector>

namespace dpu {

struct Plan;

/// When a field (or one of its choices) means something in a plan, with the words that say why
/// when it does not. One rule, read by every place that needs it: validatePlan() refuses a field
/// set where it does not apply, the window disables its widget (the tooltip says `why`) and
/// clears it, and the report does not describe it.
struct FieldCondition {
    std::function<bool(const Plan&)> holds; ///< true where the field applies
    std::string why;      ///< a sentence for a user: "only a sparse deployed model has a sparsity"
    std::string expected; ///< what makes it apply, as a plan file says it: "deployed \"sparse\""
    /// What the plan has instead, for an error: "deployed \"int8\"" (none: the error says no more).
    std::function<std::string(const Plan&)> found;
};

/// What a field set where it does not apply does to a plan.
enum class WhenOff {
    Refused, ///< an error naming the field (a value that would be silently meaningless)
    Ignored, ///< kept and without effect (a window disables it): `reinit` with a sparse model
};

/// A rule on one choice of a Choice or List field: "coded" dense tensors need a lossy coding.
struct ChoiceCondition {
    std::string choice;
    FieldCondition when;
};

/// What a field holds in a plan file.
enum class FieldType {
    String,  ///< any string (a name, a path)
    Boolean, ///< true or false
    Integer, ///< a whole number within `values`
    Number,  ///< a number within `values`
    Choice,  ///< one of `choices`
    List,    ///< a list (strategies, seeds, image size, normalisation statistics): `values` says which
};

/// One field of a plan file, as the engine reads it (no torch, JSON or Qt types: plain text).
struct PlanField {
    std::string path;                 ///< JSON path: "train.lr", "dataset.augment.flip"
    FieldType type = FieldType::String;
    std::vector<std::string> choices; ///< Choice: the names it takes, in order
    std::string values;               ///< what it takes, in words: "1..10000", "a ratio in (0, 1]"
    std::string defaultValue;         ///< the default as a plan file writes it: "6", "\"adam\"", "none"
    std::string doc;                  ///< one line: what it does
    /// Kept in plan files only: the window's form has no widget for it (its problems are
    /// listed under the form). A new key of this kind touches no UI code.
    bool advanced = false;
    /// When the field applies, every condition holding; none: always.
    std::vector<FieldCondition> appliesWhen;
    WhenOff whenOff = WhenOff::Refused;
    /// Choices that apply only in some plans (always refused where they do not).
    std::vector<ChoiceCondition> choiceRules;
    /// The dpu-cli option that sets it (fleet.* fields: `dpu-cli fleet`, `report --fleet`,
    /// `budget`), or "". A Boolean's option is a flag that sets `optionFlagValue`; a number's
    /// option is in the field's unit times `optionScale` (--period in seconds, the key in hours).
    std::string option;
    bool optionFlagValue = true;
    double optionScale = 1;
};

/// Every field of a plan, in the order docs/plan-format.md lists them. The table is the one
/// description: parsePlan() reads exactly these paths (any other key is an error naming its path),
/// planToJson() writes them, and their range errors use `values`.
const std::vector<PlanField>& planFields();

/// The field at `path`; an indexed path ("strategies[2]") finds its list. nullptr when none.
const PlanField* findPlanField(const std::string& path);

/// The field whose dpu-cli option is `option` ("--loss"); nullptr when none.
const PlanField* findFieldByOption(const std::string& option);

/// Sets the field at `path` of `plan` from `jsonValue` (JSON text: `0.1`, `"multicast"`,
/// `true`), as a plan file would, and checks the field's own range (not the rules across
/// fields: validatePlan()). Throws PlanError naming `path` for a wrong type or value, and for a
/// path the table does not have.
void setPlanField(Plan& plan, const std::string& path, const std::string& jsonValue);

/// Checks the plan's deployment (the fleet.* fields: each one's range and the link as a whole,
/// as validatePlan() does for them). Throws PlanError naming the field's path.
void validateDeployment(const Plan& plan);

/// Whether the field at `path` applies to `plan` (each of its appliesWhen conditions holds).
/// Throws std::out_of_range for a path the table does not have.
bool fieldApplies(const std::string& path, const Plan& plan);

/// Why the field at `path` does not apply to `plan` (the first condition that fails); "" when it applies.
std::string whyFieldOff(const std::string& path, const Plan& plan);

/// Whether `choice` of the field at `path` applies to `plan`; `why`, when given, gets the reason when not.
bool choiceApplies(const std::string& path, const std::string& choice, const Plan& plan, std::string* why = nullptr);

/// Puts every Refused field that does not apply back to its default, and takes out a choice that
/// does not apply (a Choice field to its default, a list without the item), until nothing changes
/// (a field whose meaning went with a cleared one is cleared too): what the window does when a
/// choice takes a field's meaning away. Fields that apply, and Ignored ones, keep their values.
void clearInapplicable(Plan& plan);

/// The objects that group fields ("dataset", "train.schedule", ...), parents before children.
std::vector<std::string> planObjectPaths();

/// The fields as a plain-text table for a terminal (`dpu-cli plan --fields`).
std::string planFieldsText();

/// The fields as the Markdown table of docs/plan-format.md ("| key | values | default | meaning |").
std::string planFieldsMarkdown();

} // namespace dpu
