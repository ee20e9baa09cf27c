// SPDX-License-Identifier: MIT
// Walks a loaded TorchScript module's attributes and code constants for tensors whose storage cannot back them.
#include "models/ScriptTensors.h"
#include <torch/csrc/jit/api/function_impl.h>
#include <torch/csrc/jit/ir/constants.h>
#include <torch/csrc/jit/ir/ir.h>
#include <torch/csrc/jit/mobile/type_parser.h>
#include <torch/csrc/jit/serialization/unpickler.h>
#include <cstring>
#include <functional>
#include <unordered_set>

namespace dpu {

namespace {

/// The bytes from its storage's start that a tensor's elements reach (offset, sizes and strides,
/// overflow-checked because they are the file's), or -1 with `why` set when no storage can hold
/// them.
int64_t bytesNeeded(const at::Tensor& t, std::string& why)
{
    int64_t last = t.storage_offset(); // the last element's offset, in elements
    if (last < 0) {
        why = "a negative storage offset";
        return -1;
    }
    for (int64_t d = 0; d < t.dim(); ++d) {
        int64_t step = 0;
        if (t.stride(d) < 0) {
            why = "a negative stride";
            return -1;
        }
        if (__builtin_mul_overflow(t.size(d) - 1, t.stride(d), &step) || __builtin_add_overflow(last, step, &last)) {
            why = "a shape too large for any storage";
            return -1;
        }
    }
    int64_t needed = 0;
    if (__builtin_add_overflow(last, int64_t(1), &needed) ||
        __builtin_mul_overflow(needed, int64_t(t.element_size()), &needed)) {
        why = "a shape too large for any storage";
        return -1;
    }
    return needed;
}

bool hasElements(const at::Tensor& t)
{
    return t.defined() && t.layout() == at::kStrided && t.numel() > 0;
}

/// Why a tensor cannot be computed with, or empty when it can: damaged_storage.pt loads with a
/// parameter whose storage has no data, and its first forward pass read address zero.
std::string tensorProblem(const at::Tensor& t)
{
    if (!hasElements(t))
        return {};
    std::string why;
    const int64_t needed = bytesNeeded(t, why);
    if (needed < 0)
        return why;
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
    std::function<std::string(const at::Tensor&)> check = tensorProblem;

    void visit(const c10::IValue& v, const std::string& name, int depth = 0)
    {
        if (!problem.empty() || depth > 64)
            return;
        if (v.isTensor()) {
            const std::string why = check(v.toTensor());
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
                visit(object->getSlot(i), joined(name, type->getAttributeName(i)), depth + 1);
        }
    }

private:
    std::unordered_set<const void*> seen_;

    static std::string joined(const std::string& name, const std::string& attribute)
    {
        return name.empty() ? attribute : attribute.empty() ? name : name + "." + attribute;
    }
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

namespace {

/// An object read by recordProblem, whatever its real class: its state's entries as attributes
/// when the state is a dictionary with string keys (a module's or a plain class's), else the state
/// itself in one unnamed attribute, so that the walk names the tensors it reaches as the code does.
c10::intrusive_ptr<c10::ivalue::Object> objectOfState(const c10::StrongTypePtr& read, c10::IValue state)
{
    const auto unit = read.cu_;
    // The resolver may have given another type to a damaged class name: the object stays one.
    const auto classType = read.type_->cast<c10::ClassType>();
    auto type = c10::ClassType::create(classType && classType->name() ? *classType->name() : c10::QualifiedName("__torch__.object"), unit);
    std::vector<c10::IValue> slots;
    bool named = state.isGenericDict();
    if (named)
        for (const auto& entry : state.toGenericDict())
            named = named && entry.key().isString();
    if (named) {
        for (const auto& entry : state.toGenericDict()) {
            type->addAttribute(entry.key().toStringRef(), c10::AnyType::get());
            slots.push_back(entry.value());
        }
    } else {
        type->addAttribute("", c10::AnyType::get()); // joined() leaves the name as it is
        slots.push_back(std::move(state));
    }
    auto object = c10::ivalue::Object::create(c10::StrongTypePtr(unit, type), slots.size());
    for (size_t i = 0; i < slots.size(); ++i)
        object->setSlot(i, std::move(slots[i]));
    return object;
}

/// The resolver also gets restore_type_tag's container types ("Dict[str, Tensor]"), which may
/// name the module's classes, which this reading does not know.
c10::TypePtr containerType(const std::string& text)
{
    try {
        return torch::jit::Unpickler::defaultTypeParser(text);
    } catch (const std::exception&) {
    }
    try {
        return c10::parseType(text); // the parser of LibTorch's mobile loader
    } catch (const std::exception&) {
        return c10::AnyType::get();
    }
}

c10::StrongTypePtr resolved(const c10::QualifiedName& name, const std::shared_ptr<torch::jit::CompilationUnit>& unit)
{
    const std::string& text = name.qualifiedName();
    if (text.find('[') != std::string::npos) // "List[...]", "Dict[...]": only container tags have them
        return c10::StrongTypePtr(unit, containerType(text));
    return c10::StrongTypePtr(unit, c10::ClassType::create(name, unit)); // see objectOfState
}

} // namespace

std::string recordProblem(const std::map<std::string, ArchiveRecord>& records, uint64_t version)
{
    for (const std::string archive : {"data", "constants"}) {
        const auto pickle = records.find(archive + ".pkl");
        if (pickle == records.end())
            continue;
        // Which record each storage came from: the unpickler gets the records' own bytes, not
        // copies, so a storage's data pointer names its record.
        std::map<const void*, std::string> names;
        auto unit = std::make_shared<torch::jit::CompilationUnit>();
        size_t at = 0;
        const auto* bytes = static_cast<const char*>(pickle->second.data);
        const size_t size = pickle->second.size;
        torch::jit::Unpickler unpickler(
            [&](char* out, size_t n) {
                n = std::min(n, size - at);
                if (n > 0)
                    std::memcpy(out, bytes + at, n);
                at += n;
                return n;
            },
            [&](const c10::QualifiedName& name) { return resolved(name, unit); },
            objectOfState,
            [&](const std::string& key) {
                const auto record = records.find(archive + "/" + key);
                void* data = record == records.end() ? nullptr : const_cast<void*>(record->second.data);
                if (data != nullptr)
                    names.emplace(data, record->first);
                return at::DataPtr(data, at::kCPU); // not owned: the records outlive the walk
            },
            at::Device(at::kCPU), /*use_storage_device=*/false, containerType);
        unpickler.set_version(version);
        c10::IValue value;
        try {
            value = unpickler.parse_ivalue();
        } catch (const std::exception&) {
            return {}; // not readable this way: the load says what is wrong, or the module is fine
        }
        TensorWalk walk;
        walk.check = [&](const at::Tensor& t) -> std::string {
            if (!hasElements(t) || t.storage().data() == nullptr)
                return {}; // no data at all: the check of the loaded module names it
            const auto name = names.find(t.storage().data());
            if (name == names.end())
                return {};
            std::string why;
            const int64_t needed = bytesNeeded(t, why);
            if (needed < 0)
                return why;
            const size_t held = records.at(name->second).size;
            if (size_t(needed) > held)
                return std::to_string(held) + " bytes of data in " + name->second + " where its shape " +
                       c10::str(t.sizes()) + " needs " + std::to_string(needed);
            return {};
        };
        try {
            walk.visit(value, archive == "data" ? "" : "constant");
        } catch (const std::exception&) {
            // LibTorch's own asserts: a list tagged as tensors that holds something else, say
            return archive + ".pkl is damaged: its values do not match the types it gives them";
        }
        if (!walk.problem.empty())
            return walk.problem;
    }
    return {};
}

} // namespace dpu
