// SPDX-License-Identifier: MIT
// Datasets kept as arrays: NumPy .npy pairs, .npz archives and safetensors files, as RawData.
#pragma once
#include "data/NumArray.h"
#include "data/RawData.h"
#include "dpu/Plan.h"
#include <string>

namespace dpu::data {

/// x and y of one split as found in the files, with the names errors give for them.
struct ArrayPair {
    NumArray x, y;
    std::string xWhere, yWhere; ///< e.g. "/d/x.npy" or "/d/data.npz:x_test.npy"
};

/// The training arrays and, when the files hold them, the test arrays.
struct ArraySource {
    ArrayPair train;
    bool hasTest = false;
    ArrayPair test;
};

/// Reads the arrays `spec` names (kind "npy", "npz" or "safetensors"): x as spec.x, else "x", else
/// "x_train"; y likewise; the test pair as spec.x_test / spec.y_test, else "x_test" / "y_test" when
/// present. Throws DataError naming the file and what is missing or malformed.
ArraySource readArraySource(const DatasetSpec& spec);

/// pixels [N, C, H, W] (uint8 kept, any other dtype as float32) and int64 labels from x and y.
/// x: [N, F] -> [N, 1, 1, F]; [N, A, B] -> images [N, 1, A, B] or windows [N, A, 1, B];
/// [N, A, B, C] -> [N, A, B, C] (nchw) or permuted from channels-last (nhwc); docs/plan-format.md
/// says how Auto chooses. Throws DataError naming the file for a shape or count mismatch,
/// non-integer or negative labels.
RawSplit arraysToSplit(const ArrayPair& pair, ArrayLayout layout);

/// How an array's axes are read: the plan's layout resolved against x's shape (Nf: 2-D tables).
enum class Axes { Nf, Nchw, Nhwc, Nhw, Ncl };

/// The axes Auto picks for x's shape, or the ones the plan gives.
Axes resolveAxes(const std::vector<int64_t>& xShape, ArrayLayout layout);

/// The resolved layout as the data's description names it: "nf", "nchw", "nhwc", "nhw", "ncl".
std::string resolveLayout(const std::vector<int64_t>& xShape, ArrayLayout layout);

/// Train and test splits from `spec`: the file's test arrays, or else a seeded hold-out of
/// spec.test_fraction of the samples (the same for every plan seed; `heldOut` says which).
/// Throws DataError.
RawData readArrayData(const DatasetSpec& spec, bool* heldOut = nullptr, std::string* layout = nullptr);

/// Splits `all` into train and test: round(n * fraction) samples (at least 1, leaving at least 1)
/// picked by a fixed seeded permutation, both parts in file order.
RawData holdOut(const RawSplit& all, double fraction, const std::string& where);

} // namespace dpu::data

namespace dpu::data {

/// The class count of labels read from arrays: `given` (every label must be below it), or else
/// the largest label + 1, every class in between holding at least one sample. Throws DataError
/// "<where>: ..." for a label out of range or a class without samples.
int countClasses(const RawData& raw, int given, const std::string& where);

} // namespace dpu::data
