// SPDX-License-Identifier: MIT
// What a dataset folder or file holds, for the plan form before a run: kind, samples, shape, classes, balance.
#pragma once
#include "dpu/DataReadObserver.h"
#include "dpu/Plan.h"
#include "dpu/RunControl.h"
#include "dpu/Shape.h"
#include <cstdint>
#include <string>
#include <vector>

namespace dpu {

/// One class of a probed dataset.
struct ClassInfo {
    std::string name;  ///< the subfolder's name for image folders, else the label ("0", "1", ...)
    int64_t train = 0; ///< samples in the training split (after limits)
    int64_t test = 0;  ///< samples in the test split (validation is drawn from it)
};

/// A dataset as the engine will read it; every field comes from the data, nothing from file names alone.
struct DataProbe {
    DataKind kind = DataKind::Idx;
    std::string name;           ///< e.g. "Fashion-MNIST", or the file or folder name
    std::string description;    ///< one line, e.g. "data.npz (npz) 800 train / 200 test"
    int64_t train = 0, test = 0;
    bool heldOut = false;       ///< the test split is a seeded hold-out of dataset.test_fraction
    InputShape shape;           ///< what a model sees per sample: channels x height x width
    std::string layout;         ///< arrays: the layout used (nchw, nhwc, nhw, ncl, nf); else "nchw"
    std::string dtype;          ///< values as the engine keeps them before normalisation: "uint8" or "float32"
    int classes = 0;
    std::vector<ClassInfo> perClass; ///< one entry per class, in label order
};

/// The kind of dataset at `path`, from what is there: an IDX folder (train-images-idx3-ubyte[.gz]),
/// a CIFAR-10 or CIFAR-100 binary folder (also the archives' cifar-10-batches-bin/ and
/// cifar-100-binary/), a folder of .npy files (x.npy or x_train.npy), an .npz archive (ZIP magic),
/// a safetensors file (.safetensors, or its JSON header), or a folder with one subfolder of images
/// per class. Throws DataError naming the path and what was looked for when nothing fits.
DataKind detectDatasetKind(const std::string& path);

/// Reads the dataset `spec` names (all of it, every byte checked as a run would) and describes
/// it. Slow for big data sets: call it off the GUI thread. Throws DataError naming the file and
/// the problem, PlanError for a bad dataset key; Cancelled when `control` (not owned, may be
/// null) is cancelled. An image folder, the one kind that can take minutes, checks `control`
/// before each image (holding while it is paused) and tells `observer` (may be null) of each.
DataProbe probeDataset(const DatasetSpec& spec, const RunControl* control = nullptr, DataReadObserver* observer = nullptr);

/// Why `model` cannot train on samples of `shape` with `classes` outputs, or "" when it can:
/// the model is built and run forward once on a batch of two zero samples (so a TorchScript
/// model is checked too: its output must be [2, classes]). Never throws.
std::string modelFitProblem(const std::string& model, const InputShape& shape, int classes,
                            double widthMultiplier = 1.0);

} // namespace dpu
