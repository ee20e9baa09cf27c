// SPDX-License-Identifier: MIT
// Bundle size benchmark: delta bundles in every value coding between two safetensors files, checked by the device decoder.
//
// bench_bundle OLD.safetensors NEW.safetensors OUTDIR
// Writes OUTDIR/old.safetensors (the base as the device stores it), OUTDIR/new.safetensors (the
// file the fp32 bundle produces: NEW with the next update version),
// OUTDIR/{fp32,fp16,q8,q8c,q8c-dense,q4,ternary,full}.dpub, and one JSON object on stdout with every
// bundle's byte accounting, its error over the changed weights and per-tensor change counts
// (q8c-dense: q8c with the changed biases quantised on the same grid, BundleInput::quantiseDense).
// Tensors of more than one dimension are partial (changed = any bit differs); 1-D tensors are the
// always-shipped dense ones, as in a DPU round.
#include "bundle/BundleApplier.h"
#include "bundle/BundleWriter.h"
#include "bundle/SafetensorsFile.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <stdexcept>

using namespace dpu::bundle;

namespace {

std::vector<uint8_t> readFile(const std::string& path)
{
    std::ifstream f(path, std::ios::binary);
    if (!f)
        throw std::runtime_error("cannot read " + path);
    return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

void writeFile(const std::string& path, const std::vector<uint8_t>& b)
{
    std::ofstream f(path, std::ios::binary);
    f.write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
    if (!f)
        throw std::runtime_error("cannot write " + path);
}

std::string meta(const std::map<std::string, std::string>& m, const std::string& key, const std::string& def)
{
    const auto it = m.find(key);
    return it == m.end() ? def : it->second;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc != 4) {
        std::fprintf(stderr, "usage: bench_bundle OLD.safetensors NEW.safetensors OUTDIR\n");
        return 2;
    }
    try {
        std::map<std::string, std::string> oldMeta, newMeta;
        const std::vector<TensorData> oldT = SafetensorsFile::read(readFile(argv[1]), nullptr, &oldMeta);
        const std::vector<TensorData> newT = SafetensorsFile::read(readFile(argv[2]), nullptr, &newMeta);
        if (oldT.size() != newT.size())
            throw std::runtime_error("old and new files differ in tensor count");
        const std::string model = meta(oldMeta, "dpu.model", "model");
        const std::string compat = meta(oldMeta, "dpu.compat", "");
        const uint64_t version = std::stoull(meta(oldMeta, "dpu.update_version", "1"));
        const std::vector<uint8_t> base =
            SafetensorsFile::write(oldT, SafetensorsFile::deviceMetadata(model, compat, version));
        const std::string out = argv[3];
        writeFile(out + "/old.safetensors", base);

        nlohmann::json result;
        nlohmann::json tensors = nlohmann::json::array();
        std::vector<std::vector<uint8_t>> masks(newT.size());
        for (size_t i = 0; i < newT.size(); ++i) {
            if (oldT[i].name != newT[i].name || oldT[i].shape != newT[i].shape)
                throw std::runtime_error("tensor " + newT[i].name + " differs in name or shape");
            const bool partial = newT[i].shape.size() > 1;
            uint64_t changed = 0;
            if (partial)
                masks[i].resize(newT[i].values.size());
            for (size_t j = 0; j < newT[i].values.size(); ++j) {
                const bool c = std::memcmp(&oldT[i].values[j], &newT[i].values[j], 4) != 0;
                changed += c;
                if (partial)
                    masks[i][j] = c;
            }
            tensors.push_back({{"name", newT[i].name}, {"numel", newT[i].values.size()},
                               {"partial", partial}, {"changed", changed}});
        }
        result["tensors"] = tensors;
        result["old_size"] = base.size();
        const std::pair<const char*, ValueCoding> codings[] = {
            {"fp32", ValueCoding::Fp32}, {"fp16", ValueCoding::Fp16}, {"q8", ValueCoding::Q8},
            {"q8c", ValueCoding::Q8c},   {"q8c-dense", ValueCoding::Q8c}, {"q4", ValueCoding::Q4},
            {"ternary", ValueCoding::Ternary}};
        for (const auto& [cname, coding] : codings) {
            const std::string name = cname;
            BundleInput in;
            in.kind = Kind::Delta;
            in.coding = coding;
            in.quantiseDense = name == "q8c-dense";
            in.model = model;
            in.compat = compat;
            in.updateVersion = version + 1;
            in.baseFile = base;
            in.target = newT;
            in.masks = masks;
            const auto t0 = std::chrono::steady_clock::now();
            const BundleOutput b = BundleWriter::write(in);
            const double writeSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            // The device decoder must reproduce the writer's file exactly, or the sizes mean nothing.
            const BundleApplier::Result applied = BundleApplier::apply(b.bytes, base, {});
            if (applied.status != 0 || applied.file != b.targetFile)
                throw std::runtime_error(name + " bundle does not apply: " + applied.message);
            if (coding == ValueCoding::Fp32) {
                if (b.applied.size() != newT.size())
                    throw std::runtime_error("fp32 bundle lost tensors");
                writeFile(out + "/new.safetensors", b.targetFile);
            }
            writeFile(out + "/" + name + ".dpub", b.bytes);
            // Error of the lossy codings over the changed values (fp32 is exact: 0): relative to the
            // update's size over all tensors, and as an RMS over the changed weights of the partial
            // tensors (the q8-equivalence measure) and over every changed value.
            double se = 0, ref = 0, sePartial = 0, seAll = 0;
            uint64_t nPartial = 0, nAll = 0;
            for (size_t i = 0; i < newT.size(); ++i)
                for (size_t j = 0; j < newT[i].values.size(); ++j) {
                    const double d = double(b.applied[i].values[j]) - newT[i].values[j];
                    se += d * d;
                    ref += double(newT[i].values[j] - oldT[i].values[j]) * (newT[i].values[j] - oldT[i].values[j]);
                    if (std::memcmp(&oldT[i].values[j], &newT[i].values[j], 4) == 0)
                        continue;
                    seAll += d * d;
                    ++nAll;
                    if (!masks[i].empty()) {
                        sePartial += d * d;
                        ++nPartial;
                    }
                }
            const BundleStats& s = b.stats;
            result["bundles"][name] = {
                {"bytes", s.totalBytes}, {"envelope", s.envelopeBytes}, {"header", s.headerBytes},
                {"dense", s.denseBytes}, {"sparse", s.sparseBytes}, {"position_bits", s.positionBits},
                {"value_bits", s.valueBits}, {"changed", s.changed}, {"partial_weights", s.partialWeights},
                {"write_seconds", writeSeconds},
                {"rel_error", ref > 0 ? std::sqrt(se / ref) : 0.0},
                {"rms_changed_weights", nPartial ? std::sqrt(sePartial / double(nPartial)) : 0.0},
                {"rms_changed_all", nAll ? std::sqrt(seAll / double(nAll)) : 0.0}};
        }
        // The full bundle (the model itself, dense): the reference for the device-speed figure.
        BundleInput full;
        full.kind = Kind::Full;
        full.model = model;
        full.compat = compat;
        full.updateVersion = version + 1;
        full.target = newT;
        const BundleOutput f = BundleWriter::write(full);
        if (BundleApplier::apply(f.bytes, {}, {}).file != f.targetFile)
            throw std::runtime_error("full bundle does not apply");
        writeFile(out + "/full.dpub", f.bytes);
        result["bundles"]["full"] = {{"bytes", f.stats.totalBytes}};
        std::cout << result.dump() << "\n";
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_bundle: %s\n", e.what());
        return 1;
    }
    return 0;
}
