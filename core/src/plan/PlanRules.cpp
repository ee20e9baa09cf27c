// SPDX-License-Identifier: MIT
// The plan's rules as data: when a field or a choice applies, the refusal of one set where it does not, and the clearing.
#include "dpu/Error.h"
#include "dpu/PlanFields.h"
#include "plan/PlanSchema.h"
#include <stdexcept>

namespace dpu {
namespace plan {

const FieldBinding& bindingAt(const std::string& path)
{
    for (const FieldBinding& b : fieldBindings())
        if (b.info.path == path)
            return b;
    throw std::out_of_range("no plan field " + path);
}

namespace {

std::string foundText(const FieldCondition& c, const Plan& p)
{
    return c.found ? ", found " + c.found(p) : std::string();
}

} // namespace

void checkApplies(const FieldBinding& b, const Plan& p)
{
    const PlanField& f = b.info;
    if (f.whenOff == WhenOff::Refused && b.isDefault && !b.isDefault(p))
        for (const FieldCondition& c : f.appliesWhen)
            if (!c.holds(p))
                throw PlanError(f.path, c.why + "; expected " + c.expected + " or no " + f.path + foundText(c, p));
    if (!b.chosen || f.choiceRules.empty())
        return;
    const std::vector<std::string> chosen = b.chosen(p);
    for (size_t i = 0; i < chosen.size(); ++i)
        for (const ChoiceCondition& r : f.choiceRules)
            if (r.choice == chosen[i] && !r.when.holds(p))
                throw PlanError(f.type == FieldType::List ? f.path + "[" + std::to_string(i) + "]" : f.path,
                                r.when.why + "; expected " + r.when.expected + " or no \"" + chosen[i] + "\""
                                    + foundText(r.when, p));
}

} // namespace plan

bool fieldApplies(const std::string& path, const Plan& plan)
{
    return whyFieldOff(path, plan).empty();
}

std::string whyFieldOff(const std::string& path, const Plan& plan)
{
    for (const FieldCondition& c : plan::bindingAt(path).info.appliesWhen)
        if (!c.holds(plan))
            return c.why;
    return {};
}

bool choiceApplies(const std::string& path, const std::string& choice, const Plan& plan, std::string* why)
{
    for (const ChoiceCondition& r : plan::bindingAt(path).info.choiceRules)
        if (r.choice == choice && !r.when.holds(plan)) {
            if (why)
                *why = r.when.why;
            return false;
        }
    return true;
}

namespace {

/// Clears what `b` holds that does not apply: the field (a Refused one), or a choice that does
/// not apply (a Choice field goes back to its default, a list loses that item). True when it did.
bool clearField(const plan::FieldBinding& b, Plan& plan)
{
    if (b.reset && !b.isDefault(plan) && b.info.whenOff == WhenOff::Refused && !fieldApplies(b.info.path, plan)) {
        b.reset(plan);
        return true;
    }
    if (!b.chosen)
        return false;
    for (const std::string& choice : b.chosen(plan))
        if (!choiceApplies(b.info.path, choice, plan)) {
            if (b.drop)
                b.drop(plan, choice);
            else if (b.reset)
                b.reset(plan);
            else
                return false;
            return true;
        }
    return false;
}

} // namespace

void clearInapplicable(Plan& plan)
{
    // Clearing one field may take another's meaning away (a later field's rule reads it): again
    // until nothing changes, bounded by the choices the table holds.
    const auto& table = plan::fieldBindings();
    for (size_t pass = 0; pass <= 4 * table.size(); ++pass) {
        bool changed = false;
        for (const plan::FieldBinding& b : table)
            changed = clearField(b, plan) || changed;
        if (!changed)
            return;
    }
}

} // namespace dpu
