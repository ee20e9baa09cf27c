// SPDX-License-Identifier: MIT
// Builders of plan field bindings by type (text, flag, integer, number, choice): one line per field in the table.
#pragma once
#include "dpu/DeployedForms.h"
#include "dpu/Error.h"
#include "plan/PlanSchema.h"
#include <cmath>
#include <limits>
#include <optional>

namespace dpu::plan {

/// `b`, marked as kept in plan files only (no widget on the form).
inline FieldBinding advanced(FieldBinding b)
{
    b.info.advanced = true;
    return b;
}

/// Where a field's value lives in a plan; a captureless lambda: [](Plan& p) -> double& { return p.k; }.
template <typename T> using Ref = T& (*)(Plan&);

/// ", found deployed \"int8\"": what a rule on the deployed model found.
inline std::string foundDeployed(const Plan& p)
{
    return "deployed \"" + nameOf(p.deployed) + "\"";
}

/// Where `path` means something: a deployed form that lists it among its fields
/// (dpu/DeployedForms.h); `why` says so to a user, and what is expected names those forms.
inline FieldCondition ownedByDeployedForm(const std::string& path, std::string why)
{
    std::string expected;
    for (const DeployedFormInfo& f : deployedForms())
        if (f.owns(path))
            expected += (expected.empty() ? "deployed \"" : " or \"") + f.name + "\"";
    return {[path](const Plan& p) { return deployedFormInfo(p.deployed).owns(path); }, std::move(why), expected,
            foundDeployed};
}

/// `b`, applying only where `c` holds; `off` says what a value set elsewhere does.
inline FieldBinding appliesWhen(FieldBinding b, FieldCondition c, WhenOff off = WhenOff::Refused)
{
    b.info.appliesWhen.push_back(std::move(c));
    b.info.whenOff = off;
    return b;
}

/// `b`, with `choice` allowed only where `c` holds.
inline FieldBinding choiceWhen(FieldBinding b, const std::string& choice, FieldCondition c)
{
    b.info.choiceRules.push_back({choice, std::move(c)});
    return b;
}

/// Whether a field is written when it equals its default (Always), or left out then (Set).
enum class Write { Always, Set };

/// The default plan, to read defaults from and compare against.
inline const Plan& defaults()
{
    static const Plan p = defaultPlan();
    return p;
}

template <typename T> const T& value(Ref<T> ref, const Plan& p)
{
    return ref(const_cast<Plan&>(p)); // reading only: the Ref type serves reads and writes
}

/// Gives `b` its default's test and reset through `ref`.
template <typename T> FieldBinding withDefault(FieldBinding b, Ref<T> ref)
{
    b.isDefault = [ref](const Plan& p) { return value(ref, p) == value(ref, defaults()); };
    b.reset = [ref](Plan& p) { ref(p) = value(ref, defaults()); };
    return b;
}

inline void require(bool ok, const std::string& path, const std::string& message)
{
    if (!ok)
        throw PlanError(path, message);
}

/// Puts `v` unless the field is left out while it equals its default.
template <typename T> auto writer(Ref<T> ref, Write when)
{
    return [ref, when](const Plan& p, json& parent, const std::string& key) {
        if (when == Write::Always || !(value(ref, p) == value(ref, defaults())))
            parent[key] = value(ref, p);
    };
}

inline FieldBinding text(const std::string& path, Ref<std::string> ref, Write when, const std::string& values,
                         const std::string& doc, bool nonEmpty = false)
{
    FieldBinding b = describedField(path, FieldType::String, {}, values, json(value(ref, defaults())).dump(), doc);
    if (when == Write::Set && value(ref, defaults()).empty())
        b.info.defaultValue = "none";
    b.read = [path, ref](const json& v, Plan& p) {
        require(v.is_string(), path, std::string("expected a string, found ") + v.type_name());
        ref(p) = v.get<std::string>();
    };
    b.write = writer(ref, when);
    if (nonEmpty)
        b.check = [path, ref, values](const Plan& p) { require(!value(ref, p).empty(), path, "expected " + values); };
    return withDefault(std::move(b), ref);
}

inline FieldBinding flag(const std::string& path, Ref<bool> ref, Write when, const std::string& doc)
{
    FieldBinding b = describedField(path, FieldType::Boolean, {}, "true or false", value(ref, defaults()) ? "true" : "false", doc);
    b.read = [path, ref](const json& v, Plan& p) {
        require(v.is_boolean(), path, std::string("expected true or false, found ") + v.type_name());
        ref(p) = v.get<bool>();
    };
    b.write = writer(ref, when);
    return withDefault(std::move(b), ref);
}

/// A whole number in [lo, hi]; `values` words the range for errors and docs ("1..10000").
template <typename Int>
FieldBinding integer(const std::string& path, Ref<Int> ref, Int lo, Int hi, const std::string& values, Write when,
                     const std::string& doc)
{
    FieldBinding b = describedField(path, FieldType::Integer, {}, values, std::to_string(value(ref, defaults())), doc);
    b.read = [path, ref](const json& v, Plan& p) {
        const bool whole = v.is_number_integer() || (v.is_number_float() && v.get<double>() == std::floor(v.get<double>()));
        require(whole, path, "expected an integer, found " + v.dump());
        const double d = v.get<double>();
        require(d >= static_cast<double>(std::numeric_limits<Int>::min()) && d <= static_cast<double>(std::numeric_limits<Int>::max()),
                path, "integer out of range: " + v.dump());
        ref(p) = static_cast<Int>(v.get<int64_t>());
    };
    b.write = writer(ref, when);
    b.check = [path, ref, lo, hi, values](const Plan& p) {
        const Int v = value(ref, p);
        require(v >= lo && v <= hi, path, "expected " + values + ", found " + std::to_string(v));
    };
    return withDefault(std::move(b), ref);
}

/// Bounds of a number: lo and hi, each included or not.
struct Bounds {
    double lo, hi;
    bool loIncluded, hiIncluded;
    bool contain(double v) const
    {
        return (loIncluded ? v >= lo : v > lo) && (hiIncluded ? v <= hi : v < hi);
    }
};

inline FieldBinding number(const std::string& path, Ref<double> ref, Bounds bounds, const std::string& values, Write when,
                           const std::string& doc)
{
    FieldBinding b = describedField(path, FieldType::Number, {}, values, json(value(ref, defaults())).dump(), doc);
    b.read = [path, ref](const json& v, Plan& p) {
        require(v.is_number(), path, std::string("expected a number, found ") + v.type_name());
        ref(p) = v.get<double>();
    };
    b.write = writer(ref, when);
    b.check = [path, ref, bounds, values](const Plan& p) {
        require(bounds.contain(value(ref, p)), path, "expected " + values + ", found " + showNumber(value(ref, p)));
    };
    return withDefault(std::move(b), ref);
}

/// One of an enum's names (PlanEnums.h); an unknown name is refused with the list.
template <typename E> FieldBinding choice(const std::string& path, Ref<E> ref, Write when, const std::string& doc)
{
    const std::vector<std::string> names = enumStrings<E>();
    FieldBinding b = describedField(path, FieldType::Choice, names, "", "\"" + nameOf(value(ref, defaults())) + "\"", doc);
    b.read = [path, ref, names](const json& v, Plan& p) {
        require(v.is_string(), path, std::string("expected a string, found ") + v.type_name());
        const std::optional<E> e = enumFromString<E>(v.get<std::string>());
        require(e.has_value(), path, "expected " + quotedChoices(names) + ", found \"" + v.get<std::string>() + "\"");
        ref(p) = *e;
    };
    b.write = [ref, when](const Plan& p, json& parent, const std::string& key) {
        if (when == Write::Always || value(ref, p) != value(ref, defaults()))
            parent[key] = nameOf(value(ref, p));
    };
    b.chosen = [ref](const Plan& p) { return std::vector<std::string>{nameOf(value(ref, p))}; };
    return withDefault(std::move(b), ref);
}

} // namespace dpu::plan
