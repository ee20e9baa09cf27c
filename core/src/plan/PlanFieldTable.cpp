// SPDX-License-Identifier: MIT
// The table of plan fields: every key a plan file may hold, its type, values, default and doc, bound to the Plan struct.
#include "plan/PlanFieldBuilders.h"
#include "plan/PlanFieldParts.h"
#include "dpu/StrategyId.h"
#include <algorithm>

namespace dpu::plan {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// A string field whose check is "not empty".
FieldBinding required(const std::string& path, Ref<std::string> ref, const std::string& values, const std::string& doc)
{
    return text(path, ref, Write::Always, values, doc, true);
}

/// rewind_epochs: shorter steps for iterative rewinding; meaningless, so refused, without it.
FieldBinding rewindEpochsField()
{
    FieldBinding b = integer<int>(
        "rewind_epochs", [](Plan& p) -> int& { return p.rewindEpochs; }, 0, 10000, "0 (train.epochs) .. 10000", Write::Set,
        "iterative rewinding (single mode, or `rewind`): epochs of each fine-tune step before the last, the step "
        "schedule compressed in proportion; the last step trains train.epochs; 0: every step train.epochs (the paper's)");
    b.check = [range = b.check](const Plan& p) {
        range(p);
        require(p.rewindEpochs == 0 || p.rewindEpochs <= p.train.epochs, "rewind_epochs",
                "expected at most train.epochs (" + std::to_string(p.train.epochs) + "), found " + std::to_string(p.rewindEpochs));
    };
    return appliesWhen(std::move(b), {rewindsIteratively, "only iterative rewinding has rewinding steps",
                                      "mode \"single\" or rewind true",
                                      [](const Plan&) { return std::string("mode \"multi\" with rewind false"); }});
}

/// A form that every update keeps is never re-initialised (dpu/DeployedForms.h).
bool reinitialisableForm(const Plan& p)
{
    return !deployedFormInfo(p.deployed).keepsItsForm();
}

/// Nothing re-initialises a sparse or INT8 model: the seeded random model is neither.
const FieldCondition kReinitsDeployed{reinitialisableForm, "nothing re-initialises a sparse or INT8 deployed model",
                                      "deployed \"fp32\"", foundDeployed};

/// reinit_every: a round count replacing the rule; it needs the rule's strategies to re-initialise.
FieldBinding reinitEveryField()
{
    FieldBinding b = integer<int>(
        "reinit_every", [](Plan& p) -> int& { return p.reinitEvery; }, 0, 100000, "0 (the rule) .. 100000", Write::Set,
        "DPU/LCPU/GCPU-reinit re-initialise every n rounds (rounds 1, 1 + n, ...) instead of the rule; 0: the rule");
    b = appliesWhen(std::move(b), {[](const Plan& p) { return p.reinit; },
                                   "only a plan that re-initialises has a period", "reinit true",
                                   [](const Plan&) { return std::string("reinit false"); }});
    b = appliesWhen(std::move(b), {[](const Plan& p) { return p.mode == RunMode::Multi; },
                                   "single mode updates once and re-initialises nothing", "mode \"multi\"",
                                   [](const Plan&) { return std::string("mode \"single\""); }});
    return appliesWhen(std::move(b), kReinitsDeployed);
}

/// deployed: a sparse model keeps its zeros and an INT8 model its codes, so nothing may replace
/// either with a dense float model.
FieldBinding deployedField()
{
    FieldBinding b = choice<DeployedForm>(
        "deployed", [](Plan& p) -> DeployedForm& { return p.deployed; }, Write::Set,
        "the model on the devices: `fp32` (dense), `sparse` (round 1 deploys a trained model pruned to "
        "`deployed_sparsity` per partial tensor by magnitude with a masked fine-tune; later updates change only "
        "its nonzeros, FU prunes to the same sparsity) or `int8` (round 1 deploys a trained model as int8 codes "
        "with a float scale per output channel; later updates train through the quantiser and change codes, "
        "FU quantises with new scales); neither is re-initialised");
    // Its rules on other fields (strategies, reinit_every, the budget, bundle.values) are theirs.
    return b;
}

FieldBinding deployedSparsityField()
{
    FieldBinding b = number("deployed_sparsity", [](Plan& p) -> double& { return p.deployedSparsity; },
                            {0, 1, false, false}, "a share in (0, 1)", Write::Set,
                            "`deployed` sparse: the share of each partial tensor's weights that are zero (the paper: 0.5)");
    b.check = [range = b.check](const Plan& p) {
        range(p);
        if (!deployedFormInfo(p.deployed).owns("deployed_sparsity"))
            return;
        // k stays a share of all partial weights; a round cannot change more than the nonzeros.
        require(p.k <= 1.0 - p.deployedSparsity, "k",
                "expected at most 1 - deployed_sparsity = " + showNumber(1.0 - p.deployedSparsity)
                    + " (a round changes only nonzeros), found " + showNumber(p.k));
    };
    return appliesWhen(std::move(b), ownedByDeployedForm("deployed_sparsity", "only a sparse deployed model has a sparsity"));
}

/// int8_rescale: an INT8 model's scales; a float or sparse model has none to grow.
FieldBinding int8RescaleField()
{
    FieldBinding b = advanced(choice<Int8Rescale>(
        "int8_rescale", [](Plan& p) -> Int8Rescale& { return p.int8Rescale; }, Write::Set,
        "`deployed` int8, partial rounds: whose output channels get a larger scale where a weight outgrows the "
        "±127 codes (the partial-updating strategies then train those tensors without the clamp, and the grown "
        "channel's codes are re-coded and shipped with its scale): `never` (round 1's scales stay, the paper), "
        "`output` (the last partial tensor, the classifier) or `all`"));
    return appliesWhen(std::move(b), ownedByDeployedForm("int8_rescale", "only an INT8 model has scales to grow"));
}

/// fu_int8_training: how an INT8 model's full trainings meet the quantiser; a float or sparse
/// model has none.
FieldBinding fuInt8TrainingField()
{
    FieldBinding b = advanced(choice<FuInt8Training>(
        "fu_int8_training", [](Plan& p) -> FuInt8Training& { return p.fuInt8Training; }, Write::Set,
        "`deployed` int8: how the trainings that bring their own scales (FU's rounds, and round 1's base that every "
        "strategy updates) train: `quant_aware` (through the quantiser, straight-through, with the scales the model "
        "ships, max |w| / 127 per output channel of the weights being trained; the paper's INT8 model and vanilla "
        "update) or `post` (in float, quantised after training)"));
    return appliesWhen(std::move(b), ownedByDeployedForm("fu_int8_training", "only an INT8 model is quantised"));
}

/// int8_biases: how an INT8 model holds its 1-D parameters; a float or sparse model has no codes.
FieldBinding int8BiasesField()
{
    FieldBinding b = advanced(choice<Int8Biases>(
        "int8_biases", [](Plan& p) -> Int8Biases& { return p.int8Biases; }, Write::Set,
        "`deployed` int8: the 1-D parameters (biases, BatchNorm scales and shifts): `codes` (int8 codes with one "
        "float scale per tensor, max |b| / 127 of the values each round deploys, trained through the quantiser "
        "like the weights; a changed bias ships 8 bits) or `float` (float32, exact; the plans before this key)"));
    return appliesWhen(std::move(b), ownedByDeployedForm("int8_biases", "only an INT8 model has codes"));
}

/// fu_epochs: FU's own training budget; a plan without FU has none to set.
FieldBinding fuEpochsField()
{
    FieldBinding b = advanced(integer<int>(
        "fu_epochs", [](Plan& p) -> int& { return p.fuEpochs; }, 0, 10000, "0 (train.epochs) .. 10000", Write::Set,
        "FU's epochs of each training step in its own rounds (its full training, and on a sparse model the masked "
        "fine-tune after pruning; the step schedule follows them), e.g. to give FU as many epochs as DPU's "
        "iterative rewinding trains; single mode's round-1 base, which every strategy shares, keeps train.epochs; "
        "0: train.epochs"));
    const auto hasFu = [](const Plan& p) {
        return std::any_of(p.strategies.begin(), p.strategies.end(), [](const std::string& s) { return isBaseline(s); });
    };
    return appliesWhen(std::move(b), {hasFu, "only FU trains with fu_epochs", "strategies with \"fu\"",
                                      [](const Plan&) { return std::string("strategies without \"fu\""); }});
}

/// distill.*: the weight switches distillation on; a temperature without it would do nothing.
std::vector<FieldBinding> distillFields()
{
    std::vector<FieldBinding> t;
    t.push_back(advanced(number("distill.weight", [](Plan& p) -> double& { return p.distill.weight; },
                                {0, 1, true, true}, "a share in [0, 1]", Write::Set,
                                "distillation: DPU/GCPU/LCPU/RPU train towards FU's model of the same round (soft "
                                "targets) with this share of the loss, the labels with the rest; 0: off")));
    t.push_back(advanced(number("distill.temperature", [](Plan& p) -> double& { return p.distill.temperature; },
                                {0, 100, false, true}, "a value in (0, 100]", Write::Set,
                                "distillation: softens both models' outputs (the soft loss is scaled by its square)")));
    t.back() = appliesWhen(std::move(t.back()), {[](const Plan& p) { return p.distill.enabled(); },
                                                 "only distillation has a temperature", "distill.weight > 0"});
    return t;
}

std::vector<FieldBinding> topAndData()
{
    std::vector<FieldBinding> t;
    t.push_back(required("name", [](Plan& p) -> std::string& { return p.name; }, "a non-empty name",
                         "shown in progress and results"));
    t.push_back(required("model", [](Plan& p) -> std::string& { return p.model; }, "a model name",
                         "`mlp`, `vgg`, `resnet20`, `resnet56`, `mobilenetv1`, or `torchscript:PATH`"));
    FieldBinding width = number("width_multiplier", [](Plan& p) -> double& { return p.widthMultiplier; },
                                {0, 4, false, true}, "a value in (0, 4]", Write::Set, "MobileNetV1 width multiplier");
    // No widget on the form: a MobileNetV1 plan file's key.
    t.push_back(appliesWhen(advanced(std::move(width)), {[](const Plan& p) { return p.model == "mobilenetv1"; },
                                               "only mobilenetv1 has a width multiplier", "model \"mobilenetv1\"",
                                               [](const Plan& p) { return "model \"" + p.model + "\""; }}));
    t.push_back(choice<DataKind>("dataset.kind", [](Plan& p) -> DataKind& { return p.dataset.kind; }, Write::Always,
                                 "`idx` (MNIST format, `.gz` or raw), `cifar10`, `cifar100` (binary versions), `npy`, "
                                 "`npz`, `safetensors`, `images` (see [Datasets](#datasets))"));
    t.push_back(required("dataset.path", [](Plan& p) -> std::string& { return p.dataset.path; }, "a folder or file",
                         "folder holding the dataset files (`npz`, `safetensors`: the file)"));
    t.push_back(integer<int64_t>("dataset.train_limit", [](Plan& p) -> int64_t& { return p.dataset.trainLimit; }, 0,
                                 INT64_MAX, ">= 0", Write::Set, "use only the first N training samples (0: all)"));
    t.push_back(integer<int64_t>("dataset.test_limit", [](Plan& p) -> int64_t& { return p.dataset.testLimit; }, 0,
                                 INT64_MAX, ">= 0", Write::Set, "use only the first N test samples (0: all)"));
    t.push_back(text("dataset.x", [](Plan& p) -> std::string& { return p.dataset.x; }, Write::Set, "an array name",
                     "arrays: the training inputs; none: `x` or else `x_train`"));
    t.push_back(text("dataset.y", [](Plan& p) -> std::string& { return p.dataset.y; }, Write::Set, "an array name",
                     "arrays: the training labels; none: `y` or else `y_train`"));
    t.push_back(text("dataset.x_test", [](Plan& p) -> std::string& { return p.dataset.xTest; }, Write::Set,
                     "an array name", "arrays: the test inputs; none: `x_test` when present, else a hold-out"));
    t.push_back(text("dataset.y_test", [](Plan& p) -> std::string& { return p.dataset.yTest; }, Write::Set,
                     "an array name", "arrays: the test labels; none: `y_test` when present"));
    t.push_back(choice<ArrayLayout>("dataset.layout", [](Plan& p) -> ArrayLayout& { return p.dataset.layout; },
                                    Write::Set, "arrays: how `x` maps to channels x height x width (see [Datasets](#datasets))"));
    t.push_back(number("dataset.test_fraction", [](Plan& p) -> double& { return p.dataset.testFraction; },
                       {0, 1, false, false}, "a share in (0, 1)", Write::Set,
                       "share held out (seeded, the same for every seed) as the test split when the data has none"));
    t.push_back(integer<int>("dataset.classes", [](Plan& p) -> int& { return p.dataset.classes; }, 0, 100000,
                             "0 (from the labels) .. 100000", Write::Set,
                             "arrays: the class count; 0 counts it from the labels (largest + 1, every class must have samples)"));
    t.push_back(imageSizeField());
    t.push_back(integer<int>("dataset.channels", [](Plan& p) -> int& { return p.dataset.channels; }, 0, 3,
                             "0 (as the first image), 1 or 3", Write::Set,
                             "images: decode to 1 (gray) or 3 (RGB) channels; 0: as the first image"));
    t.back().check = [range = t.back().check](const Plan& p) {
        range(p);
        require(p.dataset.channels != 2, "dataset.channels", "expected 0 (as the first image), 1 or 3, found 2");
    };
    t.push_back(normaliseField());
    t.push_back(integer<int>("dataset.augment.crop_padding", [](Plan& p) -> int& { return p.dataset.augment.cropPadding; },
                             0, 64, "0 (off) .. 64 pixels", Write::Set,
                             "training batches: random crop of the original size from the image padded by this many pixels (0: off)"));
    t.push_back(flag("dataset.augment.flip", [](Plan& p) -> bool& { return p.dataset.augment.flip; }, Write::Set,
                     "training batches: random horizontal flip"));
    return t;
}

std::vector<FieldBinding> splitAndMethod()
{
    std::vector<FieldBinding> t;
    t.push_back(integer<int64_t>("split.initial", [](Plan& p) -> int64_t& { return p.split.initial; }, 1, INT64_MAX,
                                 ">= 1", Write::Always, "`|D1|`, samples before the first deployment"));
    t.push_back(integer<int64_t>("split.per_round", [](Plan& p) -> int64_t& { return p.split.perRound; }, 0, INT64_MAX,
                                 ">= 0", Write::Always, "`|dD|`, new samples per round"));
    t.push_back(integer<int>("split.rounds", [](Plan& p) -> int& { return p.split.rounds; }, 1, 100000, "1..100000",
                             Write::Always,
                             "rounds; `initial + (rounds - 1) * per_round` must not exceed the training samples (after "
                             "`train_limit`), else the plan is refused naming the largest count that fits"));
    t.push_back(integer<int64_t>("split.validation", [](Plan& p) -> int64_t& { return p.split.validation; }, 1,
                                 INT64_MAX, ">= 1", Write::Always,
                                 "validation samples drawn (seeded) from the test split; the rest is test"));
    t.push_back(strategiesField());
    t.push_back(appliesWhen(number("k", [](Plan& p) -> double& { return p.k; }, {0, 1, false, true}, "a ratio in (0, 1]",
                                   Write::Always, "updating ratio: share of partial weights changed per round"),
                            {[](const Plan& p) { return !p.budget.enabled(); },
                             "a byte budget decides how many weights a round changes", "no budget"},
                            WhenOff::Ignored));
    t.push_back(number("lambda", [](Plan& p) -> double& { return p.lambda; }, {0, 1, true, true}, "a value in [0, 1]",
                       Write::Always, "DPU's weight of the normalised global contribution (1 - lambda: local)"));
    // The window edits these five in its Method… dialog.
    t.push_back(appliesWhen(flag("reinit", [](Plan& p) -> bool& { return p.reinit; }, Write::Always,
                                 "DPU/LCPU re-initialise by the rule of the paper (Sec. 4.2), or every `reinit_every` "
                                 "rounds; false: never"),
                            kReinitsDeployed, WhenOff::Ignored));
    t.push_back(reinitEveryField());
    t.push_back(choice<FuStart>("fu_start", [](Plan& p) -> FuStart& { return p.fuStart; }, Write::Set,
                                "FU's start each round: `seeded` (the same seeded random model, the paper's "
                                "baseline), `fresh` (a new random model each round), `last` (the deployed "
                                "weights of the round before)"));
    t.push_back(fuEpochsField());
    t.push_back(appliesWhen(flag("rewind", [](Plan& p) -> bool& { return p.rewind; }, Write::Set,
                                 "multi mode: DPU/GCPU/LCPU rewind iteratively, 20 % of the remaining weights per step "
                                 "(as single mode always does), instead of all at once"),
                            {[](const Plan& p) { return p.mode == RunMode::Multi; },
                             "single mode always rewinds iteratively", "mode \"multi\""},
                            WhenOff::Ignored));
    t.push_back(advanced(rewindEpochsField()));
    t.push_back(advanced(choice<KShare>("k_share", [](Plan& p) -> KShare& { return p.kShare; }, Write::Set,
                               "how DPU/GCPU/LCPU share a round's changed weights among the partial tensors: "
                               "`global` (the largest contributions over all, the paper's top-k), `layer` (each "
                               "tensor the share k of its own), `mass` (each tensor in proportion to its "
                               "contributions' sum, the largest within it), `mixed` (`global` in a round that "
                               "starts from a random model, round 1 or a re-initialisation, `mass` in the others)")));
    t.push_back(choice<RunMode>("mode", [](Plan& p) -> RunMode& { return p.mode; }, Write::Always,
                                "`multi`: multi-round updating; `single`: round 1 trains the deployed model fully, round 2 "
                                "updates it once with iterative rewinding (20 % of the remaining weights per step)"));
    t.push_back(deployedField());
    t.push_back(deployedSparsityField());
    t.push_back(int8RescaleField());
    t.push_back(fuInt8TrainingField());
    t.push_back(int8BiasesField());
    return t;
}

std::vector<FieldBinding> training()
{
    std::vector<FieldBinding> t;
    t.push_back(integer<int>("train.epochs", [](Plan& p) -> int& { return p.train.epochs; }, 1, 10000, "1..10000",
                             Write::Always, "epochs of each training step (the full step and the sparse fine-tune)"));
    t.push_back(advanced(integer<int>("train.batch", [](Plan& p) -> int& { return p.train.batch; }, 1, 65536, "1..65536",
                             Write::Always, "mini-batch size")));
    t.push_back(choice<Optimizer>("train.optimizer", [](Plan& p) -> Optimizer& { return p.train.optimizer; },
                                  Write::Always, "`adam` (PyTorch defaults) or `sgd`"));
    t.push_back(number("train.lr", [](Plan& p) -> double& { return p.train.lr; }, {0, 100, false, false},
                       "a learning rate in (0, 100)", Write::Always, "initial learning rate"));
    t.push_back(advanced(number("train.momentum", [](Plan& p) -> double& { return p.train.momentum; }, {0, 1, true, false},
                       "[0, 1)", Write::Always, "SGD momentum")));
    t.push_back(advanced(flag("train.nesterov", [](Plan& p) -> bool& { return p.train.nesterov; }, Write::Always,
                     "SGD with Nesterov momentum")));
    t.push_back(advanced(number("train.weight_decay", [](Plan& p) -> double& { return p.train.weightDecay; }, {0, 1, true, false},
                       "[0, 1)", Write::Always, "L2 weight decay")));
    t.push_back(advanced(choice<ScheduleKind>("train.schedule.kind", [](Plan& p) -> ScheduleKind& { return p.train.schedule.kind; },
                                     Write::Always,
                                     "`step` (StepLR), `cosine` (annealing to 0 over the epochs), `constant`")));
    t.push_back(advanced(integer<int>("train.schedule.step_epochs", [](Plan& p) -> int& { return p.train.schedule.stepEpochs; }, 0,
                             INT32_MAX, ">= 0 (0: epochs / 3)", Write::Always,
                             "step: decay every N epochs; 0 means every `epochs / 3`")));
    t.push_back(advanced(number("train.schedule.gamma", [](Plan& p) -> double& { return p.train.schedule.gamma; },
                       {0, 1, false, true}, "a factor in (0, 1]", Write::Always, "step: decay factor")));
    const auto distill = distillFields();
    t.insert(t.end(), distill.begin(), distill.end());
    t.push_back(seedsField());
    t.push_back(choice<ComputeDevice>("device", [](Plan& p) -> ComputeDevice& { return p.device; }, Write::Always,
                                      "`auto` (CUDA when available), `cpu`, `cuda`"));
    t.push_back(advanced(integer<int>("threads", [](Plan& p) -> int& { return p.threads; }, 0, 1024, "0 (all cores) .. 1024",
                             Write::Always, "intra-op threads (0: all cores)")));
    return t;
}

} // namespace

const std::vector<FieldBinding>& fieldBindings()
{
    static const std::vector<FieldBinding> table = [] {
        std::vector<FieldBinding> all;
        for (auto part : {topAndData(), splitAndMethod(), training(), bundleAndBudget(), fleetFields(), fleetTargetFields()})
            all.insert(all.end(), part.begin(), part.end());
        return all;
    }();
    return table;
}

} // namespace dpu::plan
