// SPDX-License-Identifier: MIT
// dpu-cli subcommands: run, models, cost, plan.
#include "CliCommands.h"
#include "ArgList.h"
#include "CommandNumbers.h"
#include "InputShapeOption.h"
#include "StopOnSignals.h"
#include "TerminalProgress.h"
#include "dpu/Cost.h"
#include "dpu/DeployedForms.h"
#include "dpu/Error.h"
#include "dpu/Models.h"
#include "dpu/PlanFields.h"
#include "dpu/RoundEstimate.h"
#include "dpu/Runner.h"
#include <cstdio>
#include <optional>
#include <sstream>

namespace dpu::cli {
namespace {

/// The input the command is for: --input, else the model's usual one (MNIST's for mlp, CIFAR's else).
InputShape shapeFor(const std::string& model, const std::optional<InputShape>& given)
{
    return given ? *given : model == "mlp" ? InputShape{1, 28, 28} : InputShape{3, 32, 32};
}

std::string megabytes(int64_t bytes)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f MB", static_cast<double>(bytes) / 1e6);
    return buf;
}

/// The cost command's table: one partial round of `cm` at k, its parts, and the full updates.
void printCost(const std::string& model, const CostModel& cm, DeployedForm deployed, double k)
{
    const DeployedFormInfo& form = deployedFormInfo(deployed);
    const int64_t changed = cm.nonzeroWeights > 0 ? std::min(updatedCount(cm.partialWeights, k), cm.nonzeroWeights)
                                                  : updatedCount(cm.partialWeights, k);
    const double partial = partialRoundBits(cm, k) / 8.0, full = fullRoundBits(cm) / 8.0;
    const double valueBytes = cm.valueBits / 8.0 * static_cast<double>(changed), denseBytes = denseRoundBits(cm) / 8.0;
    std::printf("model            %s (I = %lld partial weights, %lld dense values", model.c_str(),
                static_cast<long long>(cm.partialWeights), static_cast<long long>(cm.denseWeights));
    if (form.keptMask == KeptMask::Zeros)
        std::printf(", %lld nonzero", static_cast<long long>(cm.nonzeroWeights));
    if (form.scalesPerChannel > 0)
        std::printf(", %lld scales", static_cast<long long>(cm.scaleValues));
    if (cm.codedDenseWeights > 0) // int8_biases codes
        std::printf(", biases as codes with %lld scales", static_cast<long long>(cm.codedDenseScales));
    std::printf(")\n");
    std::printf("k                %g (%lld weights changed per round)\n", k, static_cast<long long>(changed));
    std::printf("bytes per round  %.0f (values %.0f, indices %.0f, dense %.0f)\n", partial, valueBytes,
                partial - valueBytes - denseBytes, denseBytes);
    std::printf("full updating    %.0f bytes per round\n", full);
    std::printf("ratio to full    %.5f\n", partial / full);
    if (!form.reference) {
        // The paper's ratios are to the dense FP32 update; the devices' own full update is this one.
        const double own = deployedFullRoundBits(cm) / 8.0;
        std::printf("full %-11s %.0f bytes per round (%s)\n", form.shortName.c_str(), own, form.fullUpdateWords.c_str());
        std::printf("ratio to that    %.5f\n", partial / own);
    }
}

} // namespace

/// Each command's synopsis and what it does: the body of `dpu-cli --help` (data, kept apart from
/// the function that frames it).
constexpr const char* kCommandsHelp =
    "  run [PLAN.json] --out DIR [--resume] [--quiet]\n"
    "        Run a plan (default: Fashion-MNIST, MLP, DPU vs FU vs RPU at k = 0.01) and write\n"
    "        DIR/results.jsonl, DIR/results.csv, DIR/plan.json, a checkpoint per round and\n"
    "        DIR/bundles/ (the update bundle of every deployed round, see bundle export).\n"
    "        --resume continues a killed run to the same results. Ctrl-C stops after the\n"
    "        current batch and keeps the finished rounds.\n"
    "  models [--input CxHxW] [--classes N]\n"
    "        List the built-in models with their weight counts.\n"
    "  cost --model M --k K [--input CxHxW] [--classes N] [--budget BYTES]\n"
    "       [--values CODING] [--dense exact|partial|coded] [--deployed fp32|int8|sparse]\n"
    "       [--sparsity S] [--int8-biases codes|float]\n"
    "        Bytes per round of a partial update against full updating (dense FP32, and the\n"
    "        deployed model's own for int8 or sparse, S zeros: 0.5; int8's biases as codes\n"
    "        unless float, plan int8_biases); with --budget, the largest k that fits.\n"
    "  bundle inspect BUNDLE [--base WEIGHTS.safetensors] [--bytes]\n"
    "        Describe an update bundle: kind, versions, hashes, every tensor's coding and size\n"
    "        (a delta's tensor names and shapes come from the device file it applies to).\n"
    "  bundle verify BUNDLE [--base WEIGHTS.safetensors] [--pubkey KEY.pub]\n"
    "        Check a bundle as a device would (signature, base hash, digests) and decode it.\n"
    "  bundle export RUN_DIR --out DIR [--strategy NAME] [--seed N] [--catchup all|V[,V...]]\n"
    "        Copy a run's bundles of one strategy and seed, with the round-0 device file\n"
    "        initial.safetensors and bundles.json, after checking the whole chain applies;\n"
    "        --catchup adds catch-up bundles to the latest version and catchup.json (routes).\n"
    "  bundle catchup RUN_DIR --strategy NAME [--seed N] --from V [--to W] --out FILE\n"
    "        One bundle from version V to W (default: the latest) for a device that missed\n"
    "        rounds; the same device file as the missed bundles, byte for byte.\n"
    "  bundle keygen --out PREFIX\n"
    "        Make an Ed25519 key pair PREFIX.key / PREFIX.pub for signed bundles.\n"
    "  budget RUN_DIR... (--bytes-per-round N | --bytes-total N | --link KEY --window S\n"
    "         | --link KEY --energy J) [--json]\n"
    "         [--link KEY [--sf N] [--duty-cycle D] [--loss P [--loss-spread W]] [--multicast|--unicast]\n"
    "          [--class b|c [--ping-periodicity P]] [--listen-to-end] [--devices N] [--target Q [--every-device]]]\n"
    "        The best configuration (strategy, value coding, k) for a byte budget to one device,\n"
    "        from the finished runs' real bundle bytes (a folder of runs opens them all; runs\n"
    "        join when their plans differ only in k, strategies and bundle settings), and\n"
    "        why; below every run, the cost model calibrated on them gives an estimate.\n"
    "        --link KEY is a link model: lorawan-eu868, lorawan-us915 or a preset of\n"
    "        `dpu-cli fleet --help` (lora, nb-iot and ble stand for lorawan-eu868-sf7,\n"
    "        nb-iot-nb2 and ble-smp-pipelined), with the SF, the sub-band's duty cycle, frame\n"
    "        loss, delivery, N devices and the completion probability Q per device, default\n"
    "        0.99, or that every device completes with --every-device. It answers in its rate,\n"
    "        airtime, wall time and energy per device per round from its frames\n"
    "        (docs/fleet.md); with --window or --energy the budget is the largest bundle whose\n"
    "        round fits that time or energy per device. Exit 3 when nothing fits.\n"
    "  frontier RUN_DIR... [--json] [--image FILE.png|FILE.svg [--budget BYTES]]\n"
    "        The finished runs' frontier: per family (strategy, value coding) and k, the mean\n"
    "        test accuracy, its difference to FU, the real bundle bytes per round and per run\n"
    "        and their ratio to FU's analytic bits; --image draws it as the application does.\n"
    "  report RUN_DIR... --out FILE.pdf [--link KEY] [--budget BYTES]\n"
    "         [--fleet [every option of dpu-cli fleet; the plan's fleet keys for the rest]]\n"
    "         [--fleet-plan [every option of dpu-cli fleet plan but its output's]]\n"
    "        One PDF of finished runs (a folder of runs opens them all): the plan in words,\n"
    "        the accuracy charts, the frontier with the budget, a table per strategy with\n"
    "        one device's session time per round on the link (--link: a preset of `dpu-cli\n"
    "        fleet --help` or lora, nb-iot, ble; default: the first run's plan's fleet link,\n"
    "        as the window's form shows it),\n"
    "        the machine and the date.\n"
    "        --fleet adds a fleet page: the runs simulated as `dpu-cli fleet` does with the\n"
    "        same options (--link is then the fleet's link model), the fleet's accuracy beside\n"
    "        the server's, the spread of versions, and per strategy the time to 90 % of the\n"
    "        fleet, the energy and the bytes per device.\n"
    "        --fleet-plan adds a fleet plan page: the runs planned as `dpu-cli fleet plan` plans\n"
    "        them with the same options (targets, deployment, --periods, --keep, --no-estimates,\n"
    "        --exhaustive, --seed), the targets, the recommendation or the nearest in words, the\n"
    "        cells to run and the Pareto set. --fleet and --fleet-plan combine.\n"
    "  sweep run SWEEP.json --out DIR [--backend local] [--jobs N]\n"
    "        Run every cell of a sweep (a base plan and axes of values, or listed cells:\n"
    "        docs/sweep-format.md)\n"
    "        as `run DIR/cells/ID/plan.json --out DIR/cells/ID --resume`, N at a time, the cores\n"
    "        divided between them; finished cells are skipped, killed ones resume. N defaults\n"
    "        to 1 when the cells train on the CPU, to one per core when they train on a GPU.\n"
    "  sweep run SWEEP.json --out DIR --backend slurm [--partition P] [--time T] [--mem M]\n"
    "            [--cpus-per-task N] [--gpus-per-task N] [--throttle N] [--max-array N]\n"
    "            [--poll S] [--no-wait]\n"
    "        Submit the cells neither done nor queued as one sbatch job array (one task per\n"
    "        cell, at most N at once with --throttle) and follow it until none is queued or\n"
    "        running; DIR and dpu-cli must be on a filesystem every node sees (docs/cluster.md).\n"
    "  sweep status DIR\n"
    "        Each cell's state: pending, running, done or failed (on Slurm: and its array task).\n"
    "  sweep cancel DIR [--wait S]\n"
    "        Stop the sweep: a local one stops its cells, a Slurm one is scancelled; the cells\n"
    "        keep their finished rounds and `sweep run` resumes them.\n"
    "  sweep merge DIR\n"
    "        DIR/results.jsonl: every cell's records, tagged with \"cell\" and \"axes\".\n"
    "  fleet RUN_DIR... --devices N --link KEY [--sf-mix SF:W,...|fuotasim] [--availability P|TRACE]\n"
    "        [--loss P [--loss-spread W]] [--multicast|--unicast] [--class b|c [--ping-periodicity P]]\n"
    "        [--listen-to-end] [--catch-up unicast|multicast] [--json]\n"
    "        [--cpu cortex-m4|cortex-m0 --clock-mhz F --run-ma I [--cpi C] [--volts V]] ...\n"
    "        What a fleet of N devices behind that link runs, round by round, from the runs'\n"
    "        deployed versions: the share on each version, the fleet's accuracy beside the\n"
    "        server's, airtime, wall time and energy, the time until 50/90/99 % run the latest\n"
    "        version (docs/fleet.md); --cpu adds the time and energy the devices' processor spends\n"
    "        applying each bundle. `dpu-cli fleet --help` lists every option and link.\n"
    "  fleet plan RUN_DIR... [--fresh-share S --fresh-days D|--accuracy-gap X] [--battery-per-year B]\n"
    "        [--airtime-per-day S] [every option of dpu-cli fleet] [--periods H,...] [--json]\n"
    "        [--sweep-out FILE]\n"
    "        Which strategy, round period, delivery, sub-band, catch-up policy and repairs keep the\n"
    "        fleet within its targets at the best accuracy on the devices: every candidate simulated,\n"
    "        the Pareto set, the recommendation in words, or the nearest candidate and the target\n"
    "        that binds (exit 3), and the cells to run; --sweep-out FILE writes them as a sweep\n"
    "        file for `dpu-cli sweep run` (exit 4 when there are none). `dpu-cli fleet plan --help`\n"
    "        says more.\n"
    "  data PATH [--kind K] [--x NAME --y NAME --x-test NAME --y-test NAME] [--json]\n"
    "        What a dataset folder or file holds, read as a run reads it: its kind (detected\n"
    "        unless given: idx, cifar10, cifar100, npy, npz, safetensors, images), samples per\n"
    "        split, sample shape, classes and the samples of each class. Exit 1 on bad data,\n"
    "        naming the file and the problem.\n"
    "  plan [PLAN.json] [--default] [--fields [--markdown]]\n"
    "        Print the default plan as JSON (a starting point for your own), or PLAN.json checked\n"
    "        as run checks it and printed whole, every default filled in; --fields lists\n"
    "        every key a plan may hold with its values, default and meaning (--markdown: as\n"
    "        the table of docs/plan-format.md).\n";

std::string usage()
{
    return std::string("Usage: dpu-cli COMMAND [OPTIONS]\n"
                       "\n"
                       "Plan and run Deep Partial Updating (Qu, Liu, Thiele, ECCV 2022) of a neural network.\n"
                       "\n"
                       "Commands:\n") +
           kCommandsHelp +
           "\n"
           "Options:\n"
           "  -h, --help     this text\n"
           "  --version      print the version\n";
}

std::string commandUsage(const std::string& command, const std::string& subcommand)
{
    // usage() lists each entry as "  command [sub] ..." followed by lines indented further, so
    // one text serves the whole list and each command's --help.
    const std::string head = "  " + command + (subcommand.empty() ? "" : " " + subcommand);
    std::istringstream lines(usage());
    std::string line, out;
    bool inEntry = false;
    while (std::getline(lines, line)) {
        const bool entryStart = line.size() > 2 && line[0] == ' ' && line[1] == ' ' && line[2] != ' ';
        if (entryStart)
            inEntry = line.compare(0, head.size(), head) == 0 && (line.size() == head.size() || line[head.size()] == ' ');
        else if (line.empty() || line[0] != ' ')
            inEntry = false;
        if (inEntry)
            out += line + "\n";
    }
    return out.empty() ? out : "Usage: dpu-cli COMMAND [OPTIONS]\n\n" + out;
}

int runCommand(const std::vector<std::string>& argv)
{
    ArgList args(argv);
    const std::string out = args.value("--out");
    const bool resume = args.flag("--resume");
    const bool quiet = args.flag("--quiet");
    const auto pos = args.positional();
    if (out.empty())
        throw UsageError("run needs --out DIR");
    if (pos.size() > 1)
        throw UsageError("run takes at most one plan file");
    const Plan plan = pos.empty() ? defaultPlan() : loadPlanFile(pos[0]);

    // SIGINT/SIGTERM cancel the run's token; the engine stops at its next batch boundary,
    // keeping the finished rounds.
    TerminalProgress progress(quiet);
    RunSummary summary;
    {
        StopOnSignals stop;
        Runner runner(plan, {out, resume, &stop.control()});
        summary = runner.run(progress);
    }
    progress.printSummary(summary);
    if (summary.cancelled) {
        std::fprintf(stderr, "Stopped: %zu finished rounds kept in %s (continue with --resume)\n",
                     summary.records.size(), out.c_str());
        return 130;
    }
    return 0;
}

int modelsCommand(const std::vector<std::string>& argv)
{
    ArgList args(argv, numberOptionsOf("models"));
    const std::string input = args.value("--input");
    const int classes = static_cast<int>(args.integer("--classes", 10));
    args.positional();
    const std::optional<InputShape> given = input.empty() ? std::nullopt : std::optional<InputShape>(parseInputShape(input));
    std::printf("%-12s %-10s %12s %10s %12s  %s\n", "model", "input", "partial I", "dense", "fp32 size", "description");
    for (const auto& name : builtinModels()) {
        const InputShape shape = shapeFor(name, given);
        char in[32];
        std::snprintf(in, sizeof in, "%dx%dx%d", shape.channels, shape.height, shape.width);
        if (inputGrownWeights(name, shape) > kMaxBuiltWeights) { // listed, not built: see `cost --model` for why
            std::printf("%-12s %-10s %12s %10s %12s  %s\n", name.c_str(), in, "-", "-", "too large", modelDescription(name).c_str());
            continue;
        }
        const ModelInfo info = describeModel(name, shape, classes);
        std::printf("%-12s %-10s %12lld %10lld %12s  %s\n", name.c_str(), in,
                    static_cast<long long>(info.partialWeights), static_cast<long long>(info.denseWeights),
                    megabytes(info.fp32Bytes()).c_str(), modelDescription(name).c_str());
    }
    std::printf("\nAlso: torchscript:PATH loads a TorchScript module saved with torch.jit.save.\n");
    return 0;
}

int costCommand(const std::vector<std::string>& argv)
{
    ArgList args(argv, numberOptionsOf("cost"));
    const std::string model = args.value("--model", "mlp");
    const double k = args.real("--k", 0.01);
    const std::string input = args.value("--input");
    const int classes = static_cast<int>(args.integer("--classes", 10));
    const std::optional<double> budget = args.real("--budget");
    const std::string valuesText = args.value("--values", "fp32");
    const std::string denseText = args.value("--dense", "exact");
    const std::string deployedText = args.value("--deployed", "fp32");
    const std::optional<double> sparsityGiven = args.real("--sparsity");
    const double sparsity = sparsityGiven.value_or(0.5);
    const std::optional<std::string> biasesGiven = args.optionalValue("--int8-biases");
    args.positional();
    // All are said wrong before any model is built.
    const auto values = enumFromString<Coding>(valuesText);
    if (!values)
        throw PlanError("bundle.values", "expected " + quotedChoices(valueCodings()) + ", found \"" + valuesText + "\"");
    const auto dense = enumFromString<DenseTensors>(denseText);
    if (!dense)
        throw UsageError("--dense: expected " + quotedChoices(enumStrings<DenseTensors>()) + ", found '" + denseText + "'");
    const auto deployed = enumFromString<DeployedForm>(deployedText);
    if (!deployed)
        throw UsageError("--deployed: expected " + quotedChoices(enumStrings<DeployedForm>()) + ", found '" + deployedText + "'");
    if (sparsityGiven && !deployedFormInfo(*deployed).owns("deployed_sparsity"))
        throw UsageError("--sparsity goes with --deployed sparse");
    const auto biases = enumFromString<Int8Biases>(biasesGiven.value_or("codes"));
    if (!biases)
        throw UsageError("--int8-biases: expected " + quotedChoices(enumStrings<Int8Biases>()) + ", found '"
                         + *biasesGiven + "'");
    if (biasesGiven && !deployedFormInfo(*deployed).owns("int8_biases"))
        throw UsageError("--int8-biases goes with --deployed int8");
    const InputShape shape = shapeFor(model, input.empty() ? std::nullopt : std::optional<InputShape>(parseInputShape(input)));
    refuseModelTooLarge(model, shape);
    const ModelInfo info = describeModel(model, shape, classes);
    // Priced as a run of this deployed form prices its rounds (8-bit codes; positions among the nonzeros).
    const CostModel cm = deployedCostModel(partialShapesOf(info), info.denseWeights, *deployed, sparsity, *biases,
                                           biasSizesOf(info));
    printCost(model, cm, *deployed, k);
    const double full = fullRoundBits(cm) / 8.0;
    if (*values != Coding::Fp32 || *dense != DenseTensors::Exact) {
        // The plan form's nominal figure for this coding (before any run calibrates it).
        Plan p = defaultPlan();
        p.model = model;
        p.k = k;
        p.bundle.values = *values;
        p.bundle.denseTensors = *dense;
        p.deployed = *deployed;
        p.int8Biases = *biases;
        const double coded = nominalRoundBits(cm, p) / 8.0;
        std::printf("nominal %-8s %.0f bytes per round (%g bits per changed value%s, biases %s; ratio to full %.5f)\n",
                    valuesText.c_str(), coded, cm.valueBits != 32 ? cm.valueBits : nominalValueBits(*values),
                    *values == Coding::Q8c ? " and 0.662 of H(k) per position: q8's, context-coded" : "",
                    denseText.c_str(), coded / full);
    }
    if (budget)
        std::printf("budget %.0f B    largest k = %.6g\n", *budget, largestKForBudget(cm, *budget * 8.0));
    return 0;
}

int planCommand(const std::vector<std::string>& argv)
{
    ArgList args(argv);
    args.flag("--default");
    const bool fields = args.flag("--fields");
    const bool markdown = args.flag("--markdown");
    const std::vector<std::string> files = args.positional();
    if (markdown && !fields)
        throw UsageError("--markdown goes with --fields");
    if (files.size() > 1 || (!files.empty() && fields))
        throw UsageError("plan takes at most one plan file, and none with --fields");
    // The field table is the plan's one description: docs/plan-format.md holds its Markdown.
    // A file is checked as run would check it and printed whole, every default filled in.
    std::fputs((fields ? (markdown ? planFieldsMarkdown() : planFieldsText())
                       : planToJson(files.empty() ? defaultPlan() : loadPlanFile(files.front())))
                   .c_str(),
               stdout);
    return 0;
}

} // namespace dpu::cli
