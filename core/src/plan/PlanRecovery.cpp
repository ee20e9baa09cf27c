// SPDX-License-Identifier: MIT
// Reading a damaged plan file field by field: each bad field falls back to its default and is reported.
#include "dpu/Error.h"
#include "util/JsonErrorText.h"
#include "dpu/Plan.h"
#include <nlohmann/json.hpp>

namespace dpu {

namespace {

using json = nlohmann::json;

/// Removes the value at a PlanError path ("train.lr", "strategies[2]": the whole list) from
/// `root`; false when there is nothing there to remove (a rule across fields).
bool erasePath(json& root, const std::string& path)
{
    std::string rest = path.substr(0, path.find('['));
    json* object = &root;
    for (size_t dot; (dot = rest.find('.')) != std::string::npos; rest = rest.substr(dot + 1)) {
        auto it = object->find(rest.substr(0, dot));
        if (it == object->end() || !it->is_object())
            // The parent itself is not an object (e.g. "train": 3): it goes as a whole.
            return it != object->end() && object->erase(rest.substr(0, dot)) > 0;
        object = &*it;
    }
    return object->is_object() && object->erase(rest) > 0;
}

} // namespace

RecoveredPlan recoverPlan(const std::string& text, const std::string& source)
{
    json root;
    try {
        root = json::parse(text);
    } catch (const json::exception& e) {
        throw PlanError("", source + ": not valid JSON (" + util::jsonErrorText(e.what()) + ")");
    }
    if (!root.is_object())
        throw PlanError("", source + ": expected a JSON object (a plan), found " + std::string(root.type_name()));
    RecoveredPlan out;
    // Each pass drops the field parsePlan() stopped at; a plan has a few dozen keys, so the
    // loop is bounded by them (and by a fixed cap against surprises).
    for (int pass = 0; pass < 256; ++pass) {
        try {
            out.plan = parsePlan(root.dump(), source);
            return out;
        } catch (const PlanError& e) {
            std::string message = e.what();
            if (!e.path().empty() && message.rfind(e.path() + ": ", 0) == 0)
                message = message.substr(e.path().size() + 2);
            out.problems.push_back({e.path(), message});
            if (e.path().empty() || !erasePath(root, e.path())) {
                // A rule across fields that no single key breaks: the defaults stand in for all.
                out.plan = defaultPlan();
                return out;
            }
        }
    }
    out.plan = defaultPlan();
    return out;
}

} // namespace dpu
