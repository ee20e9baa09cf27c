// SPDX-License-Identifier: MIT
// Per-channel int8 quantisation of partial tensors and the straight-through view (Int8Quantiser.h).
#include "train/Int8Quantiser.h"

namespace dpu {

namespace {

/// `scale` shaped to broadcast over dimension 0 of a tensor of `dims` dimensions.
torch::Tensor channelView(const torch::Tensor& scale, int64_t dims)
{
    std::vector<int64_t> shape(static_cast<size_t>(dims), 1);
    shape[0] = scale.size(0);
    return scale.view(shape);
}

} // namespace

bool int8Coded(const torch::Tensor& param, bool biases)
{
    return param.dim() > 1 || (biases && param.dim() == 1 && param.numel() > 0);
}

torch::Tensor int8ScaleOf(const torch::Tensor& w)
{
    torch::NoGradGuard guard;
    // A 1-D tensor's values share one scale: a bias's "channel" would be each value alone.
    const torch::Tensor rows = w.dim() > 1 ? w.detach().flatten(1) : w.detach().reshape({1, -1});
    torch::Tensor s = std::get<0>(rows.abs().max(1)).to(torch::kFloat) / float(kInt8MaxCode);
    return torch::where(s > 0, s, torch::ones_like(s)).contiguous();
}

std::vector<torch::Tensor> int8Scales(const std::vector<torch::Tensor>& params, bool biases)
{
    std::vector<torch::Tensor> scales(params.size());
    for (size_t i = 0; i < params.size(); ++i)
        if (int8Coded(params[i], biases))
            scales[i] = int8ScaleOf(params[i]);
    return scales;
}

torch::Tensor int8Codes(const torch::Tensor& w, const torch::Tensor& scale)
{
    torch::NoGradGuard guard;
    return torch::round(w.detach() / channelView(scale, w.dim()))
        .clamp(-kInt8MaxCode, kInt8MaxCode)
        .to(torch::kChar)
        .contiguous();
}

torch::Tensor int8Dequantised(const torch::Tensor& codes, const torch::Tensor& scale)
{
    torch::NoGradGuard guard;
    return (codes.to(torch::kFloat) * channelView(scale, codes.dim())).contiguous();
}

torch::Tensor int8Unclamped(const torch::Tensor& w, const torch::Tensor& scale)
{
    torch::NoGradGuard guard;
    const torch::Tensor s = channelView(scale, w.dim());
    return (torch::round(w.detach() / s) * s).contiguous();
}

torch::Tensor grownScale(const torch::Tensor& w, const torch::Tensor& scale)
{
    torch::NoGradGuard guard;
    const torch::Tensor largest = std::get<0>(w.detach().abs().flatten(1).max(1)).to(torch::kFloat);
    // A code clips where round(|w| / s) > 127: a weight at 127.5 steps or more (half to even).
    const torch::Tensor clips = largest / scale >= float(kInt8MaxCode) + 0.5f;
    return torch::where(clips, largest / float(kInt8MaxCode), scale).contiguous();
}

void quantiseInPlace(Weights& w)
{
    torch::NoGradGuard guard;
    for (size_t i = 0; i < w.params.size() && i < w.scales.size(); ++i)
        if (w.scales[i].defined())
            w.params[i].copy_(int8Dequantised(int8Codes(w.params[i], w.scales[i]), w.scales[i]));
}

QuantisedView::QuantisedView(const std::vector<torch::Tensor>& params, const Int8Grid* grid)
{
    if (!grid || (!grid->scales && !grid->ownScales))
        return;
    torch::NoGradGuard guard;
    std::vector<torch::Tensor> scales = grid->scales ? *grid->scales : int8Scales(params, grid->biases);
    scales.resize(params.size());
    params_ = params;
    shadows_.resize(params.size());
    for (size_t i = 0; i < params.size(); ++i) {
        if (params[i].dim() == 1 && int8Coded(params[i], grid->biases))
            scales[i] = int8ScaleOf(params[i]); // a bias's scale follows its values (Int8Grid::biases)
        if (!scales[i].defined())
            continue;
        shadows_[i] = params[i].detach().clone();
        params[i].detach().copy_(grid->isUnclamped(i) ? int8Unclamped(params[i], scales[i])
                                                      : int8Dequantised(int8Codes(params[i], scales[i]), scales[i]));
    }
}

QuantisedView::~QuantisedView()
{
    torch::NoGradGuard guard;
    for (size_t i = 0; i < shadows_.size(); ++i)
        if (shadows_[i].defined())
            params_[i].detach().copy_(shadows_[i]);
}

} // namespace dpu
