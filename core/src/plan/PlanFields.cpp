// SPDX-License-Identifier: MIT
// The public view of the plan field table: the descriptions, lookups, and the help and docs tables made from them.
#include "dpu/PlanFields.h"
#include "plan/PlanSchema.h"
#include <algorithm>
#include <sstream>

namespace dpu {
namespace plan {

std::string parentPath(const std::string& path)
{
    const size_t dot = path.rfind('.');
    return dot == std::string::npos ? std::string() : path.substr(0, dot);
}

std::string leafKey(const std::string& path)
{
    const size_t dot = path.rfind('.');
    return dot == std::string::npos ? path : path.substr(dot + 1);
}

std::string showNumber(double v)
{
    std::ostringstream s;
    s << v;
    return s.str();
}

} // namespace plan

namespace {

/// What a field takes, in words: its choices, or its range.
std::string valuesText(const PlanField& f, const char* quote)
{
    if (f.type != FieldType::Choice)
        return f.values;
    std::string out;
    for (size_t i = 0; i < f.choices.size(); ++i)
        out += (i ? ", " : "") + (quote + f.choices[i] + quote);
    return f.values.empty() ? out : out + " " + f.values;
}

/// The field's rules in words: "applies only with deployed "sparse"" (empty: none).
std::string rulesText(const PlanField& f, const char* quote)
{
    std::string conditions;
    for (const FieldCondition& c : f.appliesWhen)
        conditions += (conditions.empty() ? "" : " and ") + c.expected;
    std::string out;
    if (!conditions.empty())
        out = "applies only with " + conditions + (f.whenOff == WhenOff::Ignored ? " (kept, without effect, otherwise)" : "");
    for (const ChoiceCondition& r : f.choiceRules)
        out += (out.empty() ? "" : "; ") + (quote + r.choice + quote) + " only with " + r.when.expected;
    return out;
}

} // namespace

const std::vector<PlanField>& planFields()
{
    static const std::vector<PlanField> fields = [] {
        std::vector<PlanField> out;
        for (const plan::FieldBinding& b : plan::fieldBindings())
            out.push_back(b.info);
        return out;
    }();
    return fields;
}

const PlanField* findPlanField(const std::string& path)
{
    const std::string bare = path.substr(0, path.find('['));
    for (const PlanField& f : planFields())
        if (f.path == bare)
            return &f;
    return nullptr;
}

const PlanField* findFieldByOption(const std::string& option)
{
    for (const PlanField& f : planFields())
        if (!f.option.empty() && f.option == option)
            return &f;
    return nullptr;
}

std::vector<std::string> planObjectPaths()
{
    std::vector<std::string> objects;
    for (const PlanField& f : planFields())
        for (std::string parent = plan::parentPath(f.path); !parent.empty(); parent = plan::parentPath(parent))
            if (std::find(objects.begin(), objects.end(), parent) == objects.end())
                objects.push_back(parent);
    // Parents before children: a parent path is shorter than any path below it.
    std::stable_sort(objects.begin(), objects.end(),
                     [](const std::string& a, const std::string& b) { return std::count(a.begin(), a.end(), '.') < std::count(b.begin(), b.end(), '.'); });
    return objects;
}

std::string planFieldsText()
{
    std::ostringstream out;
    for (const PlanField& f : planFields()) {
        out << f.path << "  (default " << f.defaultValue << ")" << (f.advanced ? "  [plan files only]" : "") << "\n";
        out << "    " << valuesText(f, "") << "\n";
        // The doc's Markdown backticks read as noise in a terminal.
        std::string doc = f.doc;
        doc.erase(std::remove(doc.begin(), doc.end(), '`'), doc.end());
        out << "    " << doc << "\n";
        if (const std::string rules = rulesText(f, ""); !rules.empty())
            out << "    " << rules << "\n";
        if (!f.option.empty())
            out << "    dpu-cli: " << f.option << "\n";
    }
    return out.str();
}

std::string planFieldsMarkdown()
{
    std::ostringstream out;
    out << "| key | values | default | meaning |\n| --- | --- | --- | --- |\n";
    for (const PlanField& f : planFields()) {
        std::string values = valuesText(f, "`");
        std::string def = f.defaultValue == "none" ? "none" : "`" + f.defaultValue + "`";
        // A '|' inside a cell would end it: the table's cells never hold one, but a Choice of
        // the future might.
        std::replace(values.begin(), values.end(), '|', '/');
        out << "| `" << f.path << "` | " << values << " | " << def << " | " << f.doc;
        if (const std::string rules = rulesText(f, "`"); !rules.empty())
            out << "; " << rules;
        if (!f.option.empty())
            out << "; dpu-cli `" << f.option << "`";
        out << " |\n";
    }
    return out.str();
}

} // namespace dpu
