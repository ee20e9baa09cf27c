// SPDX-License-Identifier: MIT
// A sweep file's cells: the axes' cartesian product or the listed cells, each a checked plan with a content-derived id.
#include "SweepCells.h"
#include "dpu/Error.h"
#include <map>
#include <set>

namespace dpu::sweepcells {
namespace {

using KeyValues = std::vector<std::pair<std::string, std::string>>;

/// Sets `value` at the dotted `key` of `plan`, creating the objects on the way (a missing
/// plan key keeps its default, so an axis may name a key the base leaves out).
void applyKey(json& plan, const std::string& key, const json& value, const std::string& where)
{
    json* node = &plan;
    size_t start = 0;
    while (true) {
        const size_t dot = key.find('.', start);
        const std::string part = key.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        if (part.empty())
            throw Error(where + ": expected a plan key path such as train.lr, found '" + key + "'");
        if (!node->is_object())
            throw Error(where + ": '" + key.substr(0, start ? start - 1 : 0) +
                        "' of the base plan is not an object, so '" + key + "' cannot be set");
        if (dot == std::string::npos) {
            (*node)[part] = value;
            return;
        }
        node = &(*node)[part];
        if (node->is_null())
            *node = json::object();
        start = dot + 1;
    }
}

/// "k = 0.005, bundle.values = \"q8\"": a cell's values as errors name them.
std::string labelOf(const KeyValues& values)
{
    std::string label;
    for (const auto& [key, value] : values)
        label += (label.empty() ? "" : ", ") + key + " = " + value;
    return label;
}

/// Builds the cells of one sweep from its base: applies a cell's values, checks the plan,
/// takes its id and refuses a second cell of the same plan.
class CellBuilder {
public:
    CellBuilder(const json& basePlan, const std::string& source) : base_(basePlan), source_(source)
    {
        // A base named by its fields ("fashion-mlp-k0.01") names each cell by its own fields
        // ("fashion-mlp-k0.003"): the name a plan, a chart title and a CSV row show.
        try {
            const Plan base = parsePlan(basePlan.dump(), "base");
            automaticName_ = base.name == automaticPlanName(base);
        } catch (const Error&) {
            // A base that is no plan alone (a cell completes it): each cell is checked in build().
        }
    }

    /// The cell of `values`; `where(key)` names a key's place in the file, `label` the cell.
    template <class Where>
    SweepCell build(const KeyValues& values, const Where& where, const std::string& label)
    {
        json cellPlan = base_;
        SweepCell cell;
        bool named = false;
        for (const auto& [key, value] : values) {
            applyKey(cellPlan, key, json::parse(value), where(key));
            named = named || key == "name";
        }
        cell.axisValues = values;
        try {
            cell.plan = parsePlan(cellPlan.dump(), "cell");
        } catch (const Error& e) {
            throw Error(source_ + ": the cell " + label + " is not a valid plan: " + e.what());
        }
        // The id is the cell's content as given (the base's name): sweeps started before cells
        // were renamed keep their cells' folders. A cell that sets its own name keeps it.
        cell.id = sweepCellId(cell.plan);
        if (automaticName_ && !named)
            cell.plan.name = automaticPlanName(cell.plan);
        auto [it, fresh] = ids_.emplace(cell.id, label);
        if (!fresh)
            throw Error(source_ + ": the cells " + it->second + " and " + label +
                        " are the same plan (a value that changes nothing?)");
        return cell;
    }

private:
    json base_;
    std::string source_;
    bool automaticName_ = false;
    std::map<std::string, std::string> ids_; // id -> the first cell's label, to report duplicates
};

} // namespace

std::vector<SweepCell> expandAxes(const json& basePlan, const std::vector<SweepAxis>& axes, const std::string& source)
{
    CellBuilder builder(basePlan, source);
    std::vector<SweepCell> cells;
    std::vector<size_t> index(axes.size(), 0);
    while (true) {
        KeyValues values;
        for (size_t a = 0; a < axes.size(); ++a)
            values.emplace_back(axes[a].key, axes[a].values[index[a]]);
        cells.push_back(builder.build(values, [&](const std::string& key) { return source + ": axes." + key; }, labelOf(values)));
        size_t a = axes.size();
        while (a > 0 && ++index[a - 1] == axes[a - 1].values.size())
            index[--a] = 0;
        if (a == 0)
            return cells;
    }
}

std::vector<SweepCell> readListedCells(const json& basePlan, const json& list, const std::string& source)
{
    if (!list.is_array() || list.empty())
        throw Error(source + ": cells: expected a non-empty list of objects of plan keys and values such as "
                             "[{\"k\": 0.005}, {\"k\": 0.0025, \"bundle.values\": \"ternary\"}], found " +
                    (list.is_array() ? std::string("an empty list") : std::string(list.type_name())));
    CellBuilder builder(basePlan, source);
    std::vector<SweepCell> cells;
    for (size_t i = 0; i < list.size(); ++i) {
        const json& entry = list[i];
        const std::string at = source + ": cells[" + std::to_string(i) + "]";
        if (!entry.is_object() || entry.empty())
            throw Error(at + ": expected an object of at least one plan key and its value such as {\"k\": 0.005}, found " +
                        (entry.is_object() ? std::string("an empty object") : std::string(entry.type_name())));
        KeyValues values;
        for (auto it = entry.begin(); it != entry.end(); ++it)
            values.emplace_back(it.key(), it->dump());
        const std::string label = "cells[" + std::to_string(i) + "] (" + labelOf(values) + ")";
        cells.push_back(builder.build(values, [&](const std::string& key) { return at + "." + key; }, label));
    }
    return cells;
}

std::vector<SweepAxis> axesOfCells(const std::vector<SweepCell>& cells)
{
    std::vector<SweepAxis> axes;
    std::map<std::string, size_t> axisOf;
    std::set<std::pair<std::string, std::string>> seen;
    for (const SweepCell& cell : cells)
        for (const auto& [key, value] : cell.axisValues) {
            auto [it, fresh] = axisOf.emplace(key, axes.size());
            if (fresh)
                axes.push_back({key, {}});
            if (seen.insert({key, value}).second)
                axes[it->second].values.push_back(value);
        }
    return axes;
}

} // namespace dpu::sweepcells
