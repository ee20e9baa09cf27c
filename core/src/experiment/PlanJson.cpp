// SPDX-License-Identifier: MIT
// Plan <-> JSON: strict parsing (unknown keys and bad values name their path) and serialisation.
#include "dpu/Error.h"
#include "dpu/Plan.h"
#include <nlohmann/json.hpp>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

namespace dpu {
namespace {

using json = nlohmann::json;

const char* typeName(const json& v)
{
    return v.type_name();
}

/// Reads one JSON object, remembering its path and which keys were consumed.
class ObjectReader {
public:
    ObjectReader(const json& object, std::string path) : object_(object), path_(std::move(path))
    {
        if (!object_.is_object())
            throw PlanError(path_, std::string("expected an object, found ") + typeName(object_));
    }

    std::string at(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }
    const json* find(const std::string& key)
    {
        seen_.insert(key);
        auto it = object_.find(key);
        return it == object_.end() ? nullptr : &*it;
    }

    void string(const std::string& key, std::string& out)
    {
        if (const json* v = find(key)) {
            if (!v->is_string())
                throw PlanError(at(key), std::string("expected a string, found ") + typeName(*v));
            out = v->get<std::string>();
        }
    }
    void boolean(const std::string& key, bool& out)
    {
        if (const json* v = find(key)) {
            if (!v->is_boolean())
                throw PlanError(at(key), std::string("expected true or false, found ") + typeName(*v));
            out = v->get<bool>();
        }
    }
    void number(const std::string& key, double& out)
    {
        if (const json* v = find(key)) {
            if (!v->is_number())
                throw PlanError(at(key), std::string("expected a number, found ") + typeName(*v));
            out = v->get<double>();
        }
    }
    template <typename Int> void integer(const std::string& key, Int& out)
    {
        if (const json* v = find(key)) {
            if (!v->is_number_integer() && !(v->is_number_float() && v->get<double>() == std::floor(v->get<double>())))
                throw PlanError(at(key), std::string("expected an integer, found ") + v->dump());
            const double d = v->get<double>();
            if (d < static_cast<double>(std::numeric_limits<Int>::min())
                || d > static_cast<double>(std::numeric_limits<Int>::max()))
                throw PlanError(at(key), "integer out of range: " + v->dump());
            out = static_cast<Int>(v->get<int64_t>());
        }
    }
    /// Rejects keys nobody asked for: a typo must not silently fall back to a default.
    void finish() const
    {
        for (auto it = object_.begin(); it != object_.end(); ++it)
            if (!seen_.count(it.key()))
                throw PlanError(at(it.key()), "unknown key");
    }

private:
    const json& object_;
    std::string path_;
    std::set<std::string> seen_;
};

void require(bool ok, const std::string& path, const std::string& message)
{
    if (!ok)
        throw PlanError(path, message);
}

std::string show(double v)
{
    std::ostringstream s;
    s << v;
    return s.str();
}

std::vector<double> numberList(const json& v, const std::string& path)
{
    require(v.is_array(), path, std::string("expected an array of numbers, found ") + typeName(v));
    std::vector<double> out;
    for (size_t i = 0; i < v.size(); ++i) {
        require(v[i].is_number(), path + "[" + std::to_string(i) + "]", "expected a number, found " + v[i].dump());
        out.push_back(v[i].get<double>());
    }
    return out;
}

/// The dataset keys of the array and image kinds and of preprocessing (docs/plan-format.md).
void readDatasetExtras(ObjectReader& o, DatasetSpec& d)
{
    o.string("x", d.x);
    o.string("y", d.y);
    o.string("x_test", d.xTest);
    o.string("y_test", d.yTest);
    o.string("layout", d.layout);
    o.number("test_fraction", d.testFraction);
    o.integer("classes", d.classes);
    if (const json* v = o.find("image_size")) {
        if (v->is_number_integer()) {
            d.imageHeight = d.imageWidth = v->get<int>();
        } else {
            const auto hw = numberList(*v, "dataset.image_size");
            require(hw.size() == 2, "dataset.image_size", "expected [height, width] or one integer, found " + v->dump());
            d.imageHeight = static_cast<int>(hw[0]);
            d.imageWidth = static_cast<int>(hw[1]);
        }
    }
    o.integer("channels", d.channels);
    if (const json* v = o.find("normalise")) {
        if (v->is_string()) {
            d.normalise = v->get<std::string>();
        } else {
            ObjectReader n(*v, "dataset.normalise");
            const json* mean = n.find("mean");
            const json* std = n.find("std");
            require(mean && std, "dataset.normalise", "expected \"train\", \"first_round\", \"none\" or {\"mean\": [...], \"std\": [...]}");
            d.normalise = "given";
            d.mean = numberList(*mean, "dataset.normalise.mean");
            d.std = numberList(*std, "dataset.normalise.std");
            n.finish();
        }
    }
    if (const json* v = o.find("augment")) {
        ObjectReader a(*v, "dataset.augment");
        a.integer("crop_padding", d.augment.cropPadding);
        a.boolean("flip", d.augment.flip);
        a.finish();
    }
}

void validateDataset(const DatasetSpec& d)
{
    const std::set<std::string> kinds{"idx", "cifar10", "cifar100", "npy", "npz", "safetensors", "images"};
    require(kinds.count(d.kind) == 1, "dataset.kind",
            "expected \"idx\", \"cifar10\", \"cifar100\", \"npy\", \"npz\", \"safetensors\" or \"images\", found \"" + d.kind + "\"");
    require(!d.path.empty(), "dataset.path", "expected a folder or file");
    require(d.trainLimit >= 0, "dataset.train_limit", "expected >= 0");
    require(d.testLimit >= 0, "dataset.test_limit", "expected >= 0");
    const std::set<std::string> layouts{"auto", "nchw", "nhwc", "nhw", "ncl"};
    require(layouts.count(d.layout) == 1, "dataset.layout",
            "expected \"auto\", \"nchw\", \"nhwc\", \"nhw\" or \"ncl\", found \"" + d.layout + "\"");
    require(d.testFraction > 0 && d.testFraction < 1, "dataset.test_fraction",
            "expected a share in (0, 1), found " + show(d.testFraction));
    require(d.classes >= 0 && d.classes <= 100000, "dataset.classes", "expected 0 (from the labels) .. 100000, found " + std::to_string(d.classes));
    require(d.imageHeight >= 0 && d.imageHeight <= 4096 && d.imageWidth >= 0 && d.imageWidth <= 4096 &&
                (d.imageHeight == 0) == (d.imageWidth == 0),
            "dataset.image_size", "expected [height, width] each in 1..4096 (or 0: keep the images' size), found [" +
                                      std::to_string(d.imageHeight) + ", " + std::to_string(d.imageWidth) + "]");
    require(d.channels == 0 || d.channels == 1 || d.channels == 3, "dataset.channels",
            "expected 0 (as the first image), 1 or 3, found " + std::to_string(d.channels));
    require(d.normalise == "train" || d.normalise == "first_round" || d.normalise == "none" || d.normalise == "given",
            "dataset.normalise", "expected \"train\", \"first_round\", \"none\" or {\"mean\": [...], \"std\": [...]}, found \"" + d.normalise + "\"");
    if (d.normalise == "given") {
        require(!d.mean.empty() && d.mean.size() == d.std.size(), "dataset.normalise",
                "expected as many std values as mean values, one per channel (found " + std::to_string(d.mean.size()) +
                    " and " + std::to_string(d.std.size()) + ")");
        for (size_t i = 0; i < d.std.size(); ++i)
            require(d.std[i] > 0 && std::isfinite(d.std[i]) && std::isfinite(d.mean[i]),
                    "dataset.normalise.std[" + std::to_string(i) + "]", "expected a finite std > 0, found " + show(d.std[i]));
    }
    require(d.augment.cropPadding >= 0 && d.augment.cropPadding <= 64, "dataset.augment.crop_padding",
            "expected 0 (off) .. 64 pixels, found " + std::to_string(d.augment.cropPadding));
}

void writeDatasetExtras(json& j, const DatasetSpec& d)
{
    // Only what differs from the defaults, so earlier plans (and their checkpoints) read back unchanged.
    const DatasetSpec def;
    const std::pair<const char*, const std::string*> names[] = {{"x", &d.x}, {"y", &d.y}, {"x_test", &d.xTest}, {"y_test", &d.yTest}};
    for (const auto& [key, value] : names)
        if (!value->empty())
            j[key] = *value;
    if (d.layout != def.layout)
        j["layout"] = d.layout;
    if (d.testFraction != def.testFraction)
        j["test_fraction"] = d.testFraction;
    if (d.classes)
        j["classes"] = d.classes;
    if (d.imageHeight)
        j["image_size"] = {d.imageHeight, d.imageWidth};
    if (d.channels)
        j["channels"] = d.channels;
    if (d.normalise == "given")
        j["normalise"] = {{"mean", d.mean}, {"std", d.std}};
    else if (d.normalise != def.normalise)
        j["normalise"] = d.normalise;
    if (d.augment.enabled())
        j["augment"] = {{"crop_padding", d.augment.cropPadding}, {"flip", d.augment.flip}};
}

} // namespace

std::vector<std::string> valueCodings()
{
    return {"fp32", "fp16", "q8", "q8c", "q4", "ternary"};
}

std::vector<std::string> strategyNames()
{
    return {"fu", "dpu", "dpu-noreinit", "dpu-memory", "gcpu", "gcpu-reinit", "lcpu", "rpu", "pruning"};
}

Plan defaultPlan()
{
    return Plan{};
}

void validatePlan(const Plan& p)
{
    require(!p.name.empty(), "name", "expected a non-empty name");
    require(!p.model.empty(), "model", "expected a model name");
    require(p.widthMultiplier > 0 && p.widthMultiplier <= 4, "width_multiplier",
            "expected a value in (0, 4], found " + show(p.widthMultiplier));
    require(p.widthMultiplier == 1.0 || p.model == "mobilenetv1", "width_multiplier",
            "only mobilenetv1 has a width multiplier; expected 1 for model \"" + p.model + "\"");
    validateDataset(p.dataset);
    require(p.split.initial >= 1, "split.initial", "expected >= 1, found " + std::to_string(p.split.initial));
    require(p.split.perRound >= 0, "split.per_round", "expected >= 0, found " + std::to_string(p.split.perRound));
    require(p.split.rounds >= 1 && p.split.rounds <= 100000, "split.rounds",
            "expected 1..100000, found " + std::to_string(p.split.rounds));
    require(p.split.validation >= 1, "split.validation", "expected >= 1, found " + std::to_string(p.split.validation));
    require(!p.strategies.empty(), "strategies", "expected at least one strategy");
    const auto names = strategyNames();
    std::set<std::string> seen;
    for (size_t i = 0; i < p.strategies.size(); ++i) {
        const std::string at = "strategies[" + std::to_string(i) + "]";
        require(std::find(names.begin(), names.end(), p.strategies[i]) != names.end(), at,
                "unknown strategy \"" + p.strategies[i] + "\" (known: fu, dpu, dpu-noreinit, gcpu, gcpu-reinit, lcpu, rpu, pruning)");
        require(seen.insert(p.strategies[i]).second, at, "strategy \"" + p.strategies[i] + "\" listed twice");
    }
    require(p.k > 0 && p.k <= 1, "k", "expected a ratio in (0, 1], found " + show(p.k));
    require(p.lambda >= 0 && p.lambda <= 1, "lambda", "expected a value in [0, 1], found " + show(p.lambda));
    require(p.mode == "multi" || p.mode == "single", "mode", "expected \"multi\" or \"single\", found \"" + p.mode + "\"");
    const TrainSpec& t = p.train;
    require(t.epochs >= 1 && t.epochs <= 10000, "train.epochs", "expected 1..10000, found " + std::to_string(t.epochs));
    require(t.batch >= 1 && t.batch <= 65536, "train.batch", "expected 1..65536, found " + std::to_string(t.batch));
    require(t.optimizer == "adam" || t.optimizer == "sgd", "train.optimizer",
            "expected \"adam\" or \"sgd\", found \"" + t.optimizer + "\"");
    require(t.lr > 0 && t.lr < 100, "train.lr", "expected a learning rate in (0, 100), found " + show(t.lr));
    require(t.momentum >= 0 && t.momentum < 1, "train.momentum", "expected [0, 1), found " + show(t.momentum));
    require(t.weightDecay >= 0 && t.weightDecay < 1, "train.weight_decay", "expected [0, 1), found " + show(t.weightDecay));
    require(t.schedule.kind == "step" || t.schedule.kind == "cosine" || t.schedule.kind == "constant",
            "train.schedule.kind", "expected \"step\", \"cosine\" or \"constant\", found \"" + t.schedule.kind + "\"");
    require(t.schedule.stepEpochs >= 0, "train.schedule.step_epochs", "expected >= 0 (0: epochs / 3)");
    require(t.schedule.gamma > 0 && t.schedule.gamma <= 1, "train.schedule.gamma",
            "expected a factor in (0, 1], found " + show(t.schedule.gamma));
    const auto codings = valueCodings();
    std::string codingList;
    for (size_t i = 0; i < codings.size(); ++i)
        codingList += (i ? (i + 1 == codings.size() ? " or \"" : ", \"") : "\"") + codings[i] + "\"";
    require(std::find(codings.begin(), codings.end(), p.bundle.values) != codings.end(), "bundle.values",
            "expected " + codingList + ", found \"" + p.bundle.values + "\"");
    require(!p.bundle.quantAware || p.bundle.values != "fp32", "bundle.quant_aware",
            "needs a lossy bundle.values (fp32 is exact, nothing to be aware of); found \"fp32\"");
    require(p.bundle.denseTensors == "exact" || p.bundle.denseTensors == "partial" || p.bundle.denseTensors == "coded",
            "bundle.dense_tensors",
            "expected \"exact\", \"partial\" or \"coded\", found \"" + p.bundle.denseTensors + "\"");
    require(p.bundle.denseTensors != "coded" || p.bundle.values != "fp32", "bundle.dense_tensors",
            "\"coded\" needs a lossy bundle.values (under fp32 the exact dense edit is already the smallest); found \"fp32\"");
    require(p.budget.bytesPerRound >= 0, "budget.bytes_per_round",
            "expected bytes >= 0 (0: off), found " + std::to_string(p.budget.bytesPerRound));
    require(p.budget.bytesTotal >= 0, "budget.bytes_total",
            "expected bytes >= 0 (0: off), found " + std::to_string(p.budget.bytesTotal));
    require(p.budget.bytesPerRound == 0 || p.budget.bytesTotal == 0, "budget.bytes_total",
            "give either budget.bytes_per_round or budget.bytes_total, not both");
    require(!p.seeds.empty(), "seeds", "expected at least one seed");
    require(p.device == "auto" || p.device == "cpu" || p.device == "cuda", "device",
            "expected \"auto\", \"cpu\" or \"cuda\", found \"" + p.device + "\"");
    require(p.threads >= 0 && p.threads <= 1024, "threads", "expected 0 (all cores) .. 1024");
}

Plan parsePlan(const std::string& text, const std::string& source)
{
    json root;
    try {
        root = json::parse(text);
    } catch (const json::exception& e) {
        // parse_error, and out_of_range for a number no double holds (1e800): both bad input.
        throw PlanError("", source + ": not valid JSON (" + std::string(e.what()) + ")");
    }
    Plan p = defaultPlan();
    ObjectReader r(root, "");
    r.string("name", p.name);
    r.string("model", p.model);
    r.number("width_multiplier", p.widthMultiplier);
    if (const json* d = r.find("dataset")) {
        ObjectReader o(*d, "dataset");
        o.string("kind", p.dataset.kind);
        o.string("path", p.dataset.path);
        o.integer("train_limit", p.dataset.trainLimit);
        o.integer("test_limit", p.dataset.testLimit);
        readDatasetExtras(o, p.dataset);
        o.finish();
    }
    if (const json* s = r.find("split")) {
        ObjectReader o(*s, "split");
        o.integer("initial", p.split.initial);
        o.integer("per_round", p.split.perRound);
        o.integer("rounds", p.split.rounds);
        o.integer("validation", p.split.validation);
        o.finish();
    }
    if (const json* s = r.find("strategies")) {
        require(s->is_array(), "strategies", std::string("expected an array of names, found ") + typeName(*s));
        p.strategies.clear();
        for (size_t i = 0; i < s->size(); ++i) {
            require((*s)[i].is_string(), "strategies[" + std::to_string(i) + "]", "expected a string");
            p.strategies.push_back((*s)[i].get<std::string>());
        }
    }
    r.number("k", p.k);
    r.number("lambda", p.lambda);
    r.boolean("reinit", p.reinit);
    r.string("mode", p.mode);
    if (const json* t = r.find("train")) {
        ObjectReader o(*t, "train");
        o.integer("epochs", p.train.epochs);
        o.integer("batch", p.train.batch);
        o.string("optimizer", p.train.optimizer);
        o.number("lr", p.train.lr);
        o.number("momentum", p.train.momentum);
        o.boolean("nesterov", p.train.nesterov);
        o.number("weight_decay", p.train.weightDecay);
        if (const json* s = o.find("schedule")) {
            ObjectReader so(*s, "train.schedule");
            so.string("kind", p.train.schedule.kind);
            so.integer("step_epochs", p.train.schedule.stepEpochs);
            so.number("gamma", p.train.schedule.gamma);
            so.finish();
        }
        o.finish();
    }
    if (const json* b = r.find("bundle")) {
        ObjectReader o(*b, "bundle");
        o.string("values", p.bundle.values);
        o.boolean("write", p.bundle.write);
        o.string("secret_key", p.bundle.secretKey);
        o.boolean("quant_aware", p.bundle.quantAware);
        o.string("dense_tensors", p.bundle.denseTensors);
        o.finish();
    }
    if (const json* b = r.find("budget")) {
        ObjectReader o(*b, "budget");
        o.integer("bytes_per_round", p.budget.bytesPerRound);
        o.integer("bytes_total", p.budget.bytesTotal);
        o.finish();
    }
    if (const json* s = r.find("seeds")) {
        if (s->is_number_unsigned() || s->is_number_integer()) {
            require(s->get<int64_t>() >= 0, "seeds", "expected a non-negative integer");
            p.seeds = {s->get<uint64_t>()};
        } else {
            require(s->is_array(), "seeds", std::string("expected an integer or an array of integers, found ") + typeName(*s));
            p.seeds.clear();
            for (size_t i = 0; i < s->size(); ++i) {
                const json& v = (*s)[i];
                require(v.is_number_integer() && v.get<int64_t>() >= 0, "seeds[" + std::to_string(i) + "]",
                        "expected a non-negative integer, found " + v.dump());
                p.seeds.push_back(v.get<uint64_t>());
            }
        }
    }
    r.string("device", p.device);
    r.integer("threads", p.threads);
    r.finish();
    validatePlan(p);
    return p;
}

Plan loadPlanFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw Error(path + ": cannot open plan file");
    in.seekg(0, std::ios::end);
    const auto size = static_cast<uint64_t>(std::max<std::streamoff>(0, in.tellg()));
    if (size > kMaxPlanFileBytes)
        throw PlanError("", path + ": " + std::to_string(size) + " bytes is too large for a plan file (at most " +
                                std::to_string(kMaxPlanFileBytes) + ")");
    in.seekg(0);
    std::stringstream buffer;
    buffer << in.rdbuf();
    try {
        return parsePlan(buffer.str(), path);
    } catch (const PlanError& e) {
        if (e.path().empty())
            throw;
        throw PlanError(e.path(), std::string(e.what()).substr(e.path().size() + 2) + " (in " + path + ")");
    }
}

std::string planToJson(const Plan& p)
{
    json j;
    j["name"] = p.name;
    j["model"] = p.model;
    if (p.widthMultiplier != 1.0)
        j["width_multiplier"] = p.widthMultiplier;
    j["dataset"] = {{"kind", p.dataset.kind}, {"path", p.dataset.path}};
    if (p.dataset.trainLimit)
        j["dataset"]["train_limit"] = p.dataset.trainLimit;
    if (p.dataset.testLimit)
        j["dataset"]["test_limit"] = p.dataset.testLimit;
    writeDatasetExtras(j["dataset"], p.dataset);
    j["split"] = {{"initial", p.split.initial}, {"per_round", p.split.perRound},
                  {"rounds", p.split.rounds}, {"validation", p.split.validation}};
    j["strategies"] = p.strategies;
    j["k"] = p.k;
    j["lambda"] = p.lambda;
    j["reinit"] = p.reinit;
    j["mode"] = p.mode;
    j["train"] = {{"epochs", p.train.epochs}, {"batch", p.train.batch}, {"optimizer", p.train.optimizer},
                  {"lr", p.train.lr}, {"momentum", p.train.momentum}, {"nesterov", p.train.nesterov},
                  {"weight_decay", p.train.weightDecay},
                  {"schedule", {{"kind", p.train.schedule.kind}, {"step_epochs", p.train.schedule.stepEpochs},
                                {"gamma", p.train.schedule.gamma}}}};
    j["bundle"] = {{"values", p.bundle.values}, {"write", p.bundle.write}};
    if (!p.bundle.secretKey.empty())
        j["bundle"]["secret_key"] = p.bundle.secretKey;
    // Written only when set, so the plans (and checkpoints) of earlier runs read back unchanged.
    if (p.bundle.quantAware)
        j["bundle"]["quant_aware"] = true;
    if (p.bundle.denseTensors != "exact")
        j["bundle"]["dense_tensors"] = p.bundle.denseTensors;
    if (p.budget.bytesPerRound)
        j["budget"]["bytes_per_round"] = p.budget.bytesPerRound;
    if (p.budget.bytesTotal)
        j["budget"]["bytes_total"] = p.budget.bytesTotal;
    j["seeds"] = p.seeds;
    j["device"] = p.device;
    j["threads"] = p.threads;
    return j.dump(2) + "\n";
}

} // namespace dpu
