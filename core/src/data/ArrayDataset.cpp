// SPDX-License-Identifier: MIT
// Arrays to RawData: finding x/y (and x_test/y_test) in npy folders, npz archives and safetensors files, layouts, hold-out.
#include "data/ArrayDataset.h"
#include "data/ArrayContainer.h"
#include "data/FileReader.h"
#include "util/Rng.h"
#include <algorithm>
#include <cmath>

namespace dpu::data {

namespace {

/// The given name, or the first default the container holds.
std::string pickName(const ArrayContainer& c, const std::string& given, std::initializer_list<const char*> defaults,
                     const char* key, const std::string& container)
{
    if (!given.empty())
        return given;
    std::string tried;
    for (const char* d : defaults) {
        if (c.has(d))
            return d;
        tried += (tried.empty() ? "\"" : " or \"") + std::string(d) + "\"";
    }
    failFile(container, std::string("no array named ") + tried + " (found: " + c.listing() + "); name it with dataset." + key);
}

ArrayPair readPair(const ArrayContainer& c, const std::string& x, const std::string& y)
{
    ArrayPair p;
    p.xWhere = c.where(x);
    p.yWhere = c.where(y);
    p.x = c.get(x);
    p.y = c.get(y);
    return p;
}

} // namespace

ArraySource readArraySource(const DatasetSpec& spec)
{
    const auto c = openArrayContainer(spec);
    ArraySource out;
    const std::string x = pickName(*c, spec.x, {"x", "x_train"}, "x", spec.path);
    const std::string y = pickName(*c, spec.y, {"y", "y_train"}, "y", spec.path);
    out.train = readPair(*c, x, y);
    const std::string xTest = spec.xTest.empty() ? "x_test" : spec.xTest;
    const std::string yTest = spec.yTest.empty() ? "y_test" : spec.yTest;
    const bool hx = c->has(xTest), hy = c->has(yTest);
    if (!spec.xTest.empty() && !hx)
        failFile(c->where(xTest), "missing (dataset.x_test names it; found: " + c->listing() + ")");
    if (!spec.yTest.empty() && !hy)
        failFile(c->where(yTest), "missing (dataset.y_test names it; found: " + c->listing() + ")");
    if (hx != hy)
        failFile(c->where(hx ? yTest : xTest), std::string("missing: ") + (hx ? xTest : yTest) +
                                                   " is present, a test split needs both x and y");
    if (hx) {
        out.hasTest = true;
        out.test = readPair(*c, xTest, yTest);
    }
    return out;
}

Axes resolveAxes(const std::vector<int64_t>& s, ArrayLayout layout)
{
    if (s.size() == 2)
        return Axes::Nf;
    if (s.size() == 3 && layout == ArrayLayout::Auto)
        return s[1] == s[2] ? Axes::Nhw : Axes::Ncl;
    if (s.size() == 4 && layout == ArrayLayout::Auto) {
        const bool lastIsChannels = s[3] == 1 || s[3] == 3, secondIsChannels = s[1] == 1 || s[1] == 3;
        return lastIsChannels && !secondIsChannels ? Axes::Nhwc : Axes::Nchw;
    }
    switch (layout) {
    case ArrayLayout::Nhwc: return Axes::Nhwc;
    case ArrayLayout::Nhw: return Axes::Nhw;
    case ArrayLayout::Ncl: return Axes::Ncl;
    default: return Axes::Nchw; // Nchw, and Auto on shapes the caller refuses anyway
    }
}

std::string resolveLayout(const std::vector<int64_t>& s, ArrayLayout layout)
{
    switch (resolveAxes(s, layout)) {
    case Axes::Nf: return "nf";
    case Axes::Nhwc: return "nhwc";
    case Axes::Nhw: return "nhw";
    case Axes::Ncl: return "ncl";
    case Axes::Nchw: break;
    }
    return "nchw";
}

RawSplit arraysToSplit(const ArrayPair& p, ArrayLayout layout)
{
    const auto& s = p.x.shape;
    if (s.size() < 2 || s.size() > 4)
        failFile(p.xWhere, "shape " + shapeText(s) + ": expected 2 to 4 dimensions (N,F; N,C,L or N,H,W; N,C,H,W or N,H,W,C)");
    if (s[0] == 0)
        failFile(p.xWhere, "no samples: shape " + shapeText(s));
    for (size_t d = 1; d < s.size(); ++d)
        if (s[d] == 0)
            failFile(p.xWhere, "shape " + shapeText(s) + ": a sample has no values");
    const Axes l = resolveAxes(s, layout);
    const bool ok = (s.size() == 2) || (s.size() == 3 && (l == Axes::Nhw || l == Axes::Ncl)) ||
                    (s.size() == 4 && (l == Axes::Nchw || l == Axes::Nhwc));
    if (!ok)
        failFile(p.xWhere, "shape " + shapeText(s) + " does not fit dataset.layout \"" + nameOf(layout) +
                               "\" (3-D arrays: nhw or ncl; 4-D arrays: nchw or nhwc)");
    const auto& ys = p.y.shape;
    if (!(ys.size() == 1 || (ys.size() == 2 && ys[1] == 1)))
        failFile(p.yWhere, "labels of shape " + shapeText(ys) + ": expected one integer per sample, (N,) or (N, 1)");
    if (ys[0] != s[0])
        failFile(p.yWhere, "wrong count: " + std::to_string(ys[0]) + " labels, but " + p.xWhere + " holds " +
                               std::to_string(s[0]) + " samples");
    std::vector<int64_t> labels = p.y.toInt64(p.yWhere);
    for (size_t i = 0; i < labels.size(); ++i)
        if (labels[i] < 0)
            failFile(p.yWhere, "label out of range: " + std::to_string(labels[i]) + " at sample " + std::to_string(i) +
                                   " (counting from 0), expected 0 or more");

    std::vector<int64_t> dims;
    if (l == Axes::Nf)
        dims = {s[0], 1, 1, s[1]};
    else if (l == Axes::Nhw)
        dims = {s[0], 1, s[1], s[2]};
    else if (l == Axes::Ncl)
        dims = {s[0], s[1], 1, s[2]};
    else
        dims = s;
    torch::Tensor x;
    if (p.x.dtype == Dtype::U8) {
        x = torch::from_blob(const_cast<uint8_t*>(p.x.bytes.data()), dims, torch::kUInt8).clone();
    } else {
        std::vector<float> values = p.x.toFloat();
        for (size_t i = 0; i < values.size(); ++i)
            if (!std::isfinite(values[i]))
                failFile(p.xWhere, "value " + std::to_string(values[i]) + " at element " + std::to_string(i) +
                                       " is not finite (NaN or infinity)");
        x = torch::from_blob(values.data(), dims, torch::kFloat32).clone();
    }
    if (l == Axes::Nhwc)
        x = x.permute({0, 3, 1, 2}).contiguous();
    RawSplit out;
    out.pixels = x;
    out.labels = torch::from_blob(labels.data(), {static_cast<int64_t>(labels.size())}, torch::kInt64).clone();
    return out;
}

RawData holdOut(const RawSplit& all, double fraction, const std::string& where)
{
    const int64_t n = all.size();
    int64_t testCount = std::llround(static_cast<double>(n) * fraction);
    testCount = std::max<int64_t>(testCount, 1);
    if (testCount >= n)
        failFile(where, "too few samples for a hold-out: " + std::to_string(n) + " samples, test_fraction " +
                            std::to_string(fraction) + " leaves no training sample");
    // A fixed stream, independent of the plan's seeds: the test set must not change between runs.
    const auto perm = Rng(deriveSeed(0x686f6c646f7574ULL, static_cast<uint64_t>(n))).permutation(n);
    std::vector<int64_t> test(perm.begin(), perm.begin() + testCount), train(perm.begin() + testCount, perm.end());
    std::sort(test.begin(), test.end());
    std::sort(train.begin(), train.end());
    const auto pick = [&](std::vector<int64_t>& idx) {
        const auto t = torch::from_blob(idx.data(), {static_cast<int64_t>(idx.size())}, torch::kInt64).clone();
        return RawSplit{all.pixels.index_select(0, t).contiguous(), all.labels.index_select(0, t).contiguous()};
    };
    return {pick(train), pick(test)};
}

RawData readArrayData(const DatasetSpec& spec, bool* heldOut, std::string* layout)
{
    ArraySource src = readArraySource(spec);
    if (layout)
        *layout = resolveLayout(src.train.x.shape, spec.layout);
    if (heldOut)
        *heldOut = !src.hasTest;
    RawSplit train = arraysToSplit(src.train, spec.layout);
    const std::string trainWhere = src.train.xWhere;
    src.train = {}; // the arrays' bytes are copied into the tensors: free them early
    if (!src.hasTest)
        return holdOut(train, spec.testFraction, spec.path);
    RawSplit test = arraysToSplit(src.test, spec.layout);
    const auto a = train.pixels.sizes(), b = test.pixels.sizes();
    if (a.slice(1) != b.slice(1))
        failFile(src.test.xWhere, "shape mismatch: test samples of shape " + shapeText(b.slice(1).vec()) + " but " +
                                      trainWhere + " has " + shapeText(a.slice(1).vec()) + " (after the layout)");
    if (train.pixels.scalar_type() != test.pixels.scalar_type()) { // e.g. uint8 train, float test: both as values
        train.pixels = train.pixels.to(torch::kFloat32);
        test.pixels = test.pixels.to(torch::kFloat32);
    }
    return {std::move(train), std::move(test)};
}

} // namespace dpu::data

namespace dpu::data {

int countClasses(const RawData& raw, int given, const std::string& where)
{
    constexpr int64_t kMaxClasses = 100000;
    const int64_t top = std::max(raw.train.labels.max().item<int64_t>(), raw.test.labels.max().item<int64_t>());
    if (given > 0) {
        if (top >= given)
            failFile(where, "label out of range: " + std::to_string(top) + ", expected 0.." + std::to_string(given - 1) +
                                " (dataset.classes is " + std::to_string(given) + ")");
        return given;
    }
    if (top >= kMaxClasses)
        failFile(where, "label out of range: " + std::to_string(top) + ", expected below " + std::to_string(kMaxClasses) +
                            " (labels must be class indices 0..K-1)");
    const auto counts = torch::bincount(torch::cat({raw.train.labels, raw.test.labels}), {}, top + 1);
    for (int64_t c = 0; c <= top; ++c)
        if (counts[c].item<int64_t>() == 0)
            failFile(where, "class " + std::to_string(c) + " has no samples (labels run up to " + std::to_string(top) +
                                "; expected every class 0.." + std::to_string(top) +
                                " present, or set dataset.classes to allow empty ones)");
    return static_cast<int>(top + 1);
}

} // namespace dpu::data
