// SPDX-License-Identifier: MIT
// A deployment's fields through the plan field table's bindings: differences, copies and values without a line per field.
#include "dpu/DeploymentFields.h"
#include "dpu/Plan.h"
#include "plan/PlanSchema.h"

namespace dpu {
namespace {

bool isDeploymentPath(const std::string& path)
{
    return path.rfind("fleet.", 0) == 0;
}

/// The field's value in `d` as a plan file writes it; null at the field's default, which a file
/// leaves out (every fleet.* field is written only when set).
plan::json valueOf(const plan::FieldBinding& b, const Deployment& d)
{
    Plan p;
    p.fleet = d;
    plan::json parent = plan::json::object();
    b.write(p, parent, "v");
    return parent.contains("v") ? parent["v"] : plan::json();
}

} // namespace

std::vector<const PlanField*> deploymentFields()
{
    std::vector<const PlanField*> out;
    for (const PlanField& f : planFields())
        if (isDeploymentPath(f.path))
            out.push_back(&f);
    return out;
}

std::vector<std::string> deploymentDifferences(const Deployment& a, const Deployment& b)
{
    std::vector<std::string> out;
    for (const plan::FieldBinding& f : plan::fieldBindings())
        if (isDeploymentPath(f.info.path) && valueOf(f, a) != valueOf(f, b))
            out.push_back(f.info.path);
    return out;
}

void copyDeploymentField(Deployment& to, const Deployment& from, const std::string& path)
{
    const plan::FieldBinding& b = plan::bindingAt(path);
    Plan p;
    p.fleet = to;
    const plan::json v = valueOf(b, from);
    if (v.is_null())
        b.reset(p);
    else
        b.read(v, p);
    to = p.fleet;
}

std::string deploymentFieldText(const Deployment& deployment, const std::string& path)
{
    const plan::FieldBinding& b = plan::bindingAt(path);
    const plan::json v = valueOf(b, deployment);
    return v.is_null() ? b.info.defaultValue : v.dump();
}

} // namespace dpu
