// SPDX-License-Identifier: MIT
// Walks a loaded TorchScript module's attributes and code constants for tensors whose storage cannot back them.
#include "models/ScriptTensors.h"
#include <torch/csrc/jit/api/function_impl.h>
#include <torch/csrc/jit/ir/constants.h>
#include <torch/csrc/jit/ir/ir.h>
#include <unordered_set>

namespace dpu {

namespace {

/// Why a tensor cannot be computed with, or empty when it can: damaged_storage.pt loads with a
/// parameter whose storage has no data, and its first forward pass read address zero.
std::string tensorProblem(const at::Tensor& t)
{
    if (!t.defined() || t.layout() != at::kStrided || t.numel() == 0)
        return {};
    // The last element's offset, in elements, from the storage's start; checked for overflow
    // because the sizes and strides are the file's.
    int64_t last = t.storage_offset();
    if (last < 0)
        return "a negative storage offset";
    for (int64_t d = 0; d < t.dim(); ++d) {
        int64_t step = 0;
        if (t.stride(d) < 0)
            return "a negative stride";
        if (__builtin_mul_overflow(t.size(d) - 1, t.stride(d), &step) || __builtin_add_overflow(last, step, &last))
            return "a shape too large for any storage";
    }
    int64_t needed = 0;
    if (__builtin_add_overflow(last, int64_t(1), &needed) ||
        __builtin_mul_overflow(needed, int64_t(t.element_size()), &needed))
        return "a shape too large for any storage";
    const c10::Storage& storage = t.storage();
    if (!storage || storage.data() == nullptr)
        return "no data";
    if (int64_t(storage.nbytes()) < needed)
        return std::to_string(storage.nbytes()) + " bytes of data where its shape needs " + std::to_string(needed);
    return {};
}

/// Depth-first over one value. The file's pickle may share a container between places, or nest
/// one in itself: each container is visited once, and nesting stops at a depth no module needs.
class TensorWalk {
public:
    std::string problem; // "tensor NAME is damaged: it has WHAT" once one is found

    void visit(const c10::IValue& v, const std::string& name, int depth = 0)
    {
        if (!problem.empty() || depth > 64)
            return;
        if (v.isTensor()) {
            const std::string why = tensorProblem(v.toTensor());
            if (!why.empty())
                problem = "tensor " + name + " is damaged: it has " + why;
            return;
        }
        if (!v.isPtrType() || !seen_.insert(v.internalToPointer()).second)
            return;
        if (v.isTensorList()) {
            const auto list = v.toTensorVector();
            for (size_t i = 0; i < list.size(); ++i)
                visit(list[i], name + "[" + std::to_string(i) + "]", depth + 1);
        } else if (v.isList()) {
            const auto list = v.toListRef();
            for (size_t i = 0; i < list.size(); ++i)
                visit(list[i], name + "[" + std::to_string(i) + "]", depth + 1);
        } else if (v.isTuple()) {
            const auto& elements = v.toTupleRef().elements();
            for (size_t i = 0; i < elements.size(); ++i)
                visit(elements[i], name + "[" + std::to_string(i) + "]", depth + 1);
        } else if (v.isGenericDict()) {
            size_t i = 0;
            for (const auto& entry : v.toGenericDict()) {
                // by a short string key as the code names it, else by position
                const bool named = entry.key().isString() && entry.key().toStringRef().size() <= 40;
                const std::string at = named ? "\"" + entry.key().toStringRef() + "\"" : std::to_string(i);
                visit(entry.key(), name + " key " + std::to_string(i), depth + 1);
                visit(entry.value(), name + "[" + at + "]", depth + 1);
                ++i;
            }
        } else if (v.isObject()) {
            // Submodules are objects too: named_attributes() already walks them by name.
            const auto object = v.toObject();
            const auto type = object->type();
            if (type->is_module())
                return;
            for (size_t i = 0; i < object->slots().size() && i < type->numAttributes(); ++i)
                visit(object->getSlot(i), name + "." + type->getAttributeName(i), depth + 1);
        }
    }

private:
    std::unordered_set<const void*> seen_;
};

/// Constants of a graph and its nested blocks (loops, branches).
void visitConstants(torch::jit::Block* block, const std::string& function, TensorWalk& walk)
{
    for (torch::jit::Node* node : block->nodes()) {
        if (!walk.problem.empty())
            return;
        if (node->kind() == c10::prim::Constant && node->outputs().size() == 1 &&
            node->output()->type()->kind() == c10::TypeKind::TensorType) {
            // Named by shape and place: a constant has no name of its own in the code.
            if (const auto value = torch::jit::toIValue(node->output()); value && value->isTensor())
                walk.visit(*value, "constant of shape " + c10::str(value->toTensor().sizes()) + " in " + function);
        }
        for (torch::jit::Block* inner : node->blocks())
            visitConstants(inner, function, walk);
    }
}

} // namespace

std::string damagedTensorOf(const torch::jit::Module& module)
{
    TensorWalk walk;
    for (const auto& a : module.named_attributes(/*recurse=*/true))
        walk.visit(a.value, a.name);
    // Tensor constants (a traced module's captured tensors: its constants.pkl) live in the code of
    // the module's compilation unit, which holds the methods of every class it uses.
    const auto unit = module._ivalue()->compilation_unit();
    for (torch::jit::Function* function : unit->get_functions()) {
        if (!walk.problem.empty())
            break;
        if (function->isGraphFunction())
            visitConstants(torch::jit::toGraphFunction(*function).graph()->block(), function->qualname().qualifiedName(), walk);
    }
    return walk.problem;
}

} // namespace dpu
