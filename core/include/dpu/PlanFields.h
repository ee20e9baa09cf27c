// SPDX-License-Identifier: MIT
// The plan's fields described once (path, type, values, default, doc): parsing, writing, errors, forms and docs derive from it.
#pragma once
#include <string>
#include <vector>

namespace dpu {

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
};

/// Every field of a plan, in the order docs/plan-format.md lists them. The table is the one
/// description: parsePlan() reads exactly these paths (any other key is an error naming its path),
/// planToJson() writes them, and their range errors use `values`.
const std::vector<PlanField>& planFields();

/// The field at `path`; an indexed path ("strategies[2]") finds its list. nullptr when none.
const PlanField* findPlanField(const std::string& path);

/// The objects that group fields ("dataset", "train.schedule", ...), parents before children.
std::vector<std::string> planObjectPaths();

/// The fields as a plain-text table for a terminal (`dpu-cli plan --fields`).
std::string planFieldsText();

/// The fields as the Markdown table of docs/plan-format.md ("| key | values | default | meaning |").
std::string planFieldsMarkdown();

} // namespace dpu
