#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 26's two GPU lines on one GPU, as sweeps side by side (under NVIDIA MPS when it is there):
#   table3  the paper's Table 3 with ResNet20 on Fashion-MNIST (bench/table3/base.json with
#           "model": "resnet20"): deployed fp32 | sparse | int8 x seeds 1-3, FU and DPU (9 cells)
#   vgg     the VGGNet line (bench/gpu/vgg-line.json: {1000, 1000} x 10 rounds, 15 epochs, Adam
#           0.005 x0.2 every 5 epochs): FU, q4 at k = 0.004 and ternary at k = 0.005, both with
#           coded biases and the quantisation-aware fine-tune (about 0.002 of FU's bits), per seed
# then prints bench/table3/summarise.py and bench/ablations/summarise.py --to-fu.
# Usage: bench/gpu/paper-lines.sh [BUILD_DIR]     (default build-cuda)
# Environment: OUT (default out/gpu), LIMIT (s for all, default 540), JOBS (cells at a time per
# sweep, default all), LINES (default "table3 vgg"),
# VGG_SEEDS (default "1 2 3"), VGG_FAMILIES (default "q4 ternary"), MPS (default: 1 when nvidia-cuda-mps-control is there), DEVICE
# (cuda), ROUNDS/EPOCHS/INITIAL/PER_ROUND (a short smoke test on a CPU).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${1:-$root/build-cuda}"
out="${OUT:-$root/out/gpu}/paper-lines"
cli="$build/app/cli/dpu-cli"
lines=" ${LINES:-table3 vgg} "
rm -rf "$out"
mkdir -p "$out"
export OMP_WAIT_POLICY=passive
source "$root/bench/gpu/sweep-common.sh"
mps_unless_off paper-lines

families="${VGG_FAMILIES:-q4 ternary}"
seeds=$(python3 -c "import sys; print(', '.join('[%s]' % s for s in sys.argv[1:]))" ${VGG_SEEDS:-1 2 3})
sweeps=()
if [[ "$lines" == *" table3 "* ]]; then
  python3 -c "import json; p = json.load(open('$root/bench/table3/base.json')); p.update(model='resnet20', threads=1); p['name'] = 'table3-fashion-resnet20'; json.dump(p, open('$out/table3-cpu.json', 'w'))"
  device_plan "$out/table3-cpu.json" "$out/table3-base.json"
  echo '{"base": "table3-base.json", "axes": {"deployed": ["fp32", "sparse", "int8"], "seeds": [[1], [2], [3]]}}' > "$out/table3.json"
  sweeps+=(table3)
fi
if [[ "$lines" == *" vgg "* ]]; then
  device_plan "$root/bench/gpu/vgg-line.json" "$out/vgg-base.json"
  echo "{\"base\": \"vgg-base.json\", \"axes\": {\"seeds\": [$seeds], \"strategies\": [[\"fu\"]]}}" > "$out/vgg-fu.json"
  sweeps+=(vgg-fu)
  # Each family's k puts it at about 0.002 of FU's bits (dpu-cli cost --model vgg --values F --dense coded).
  declare -A vgg_k=([q4]=0.004 [ternary]=0.005)
  for f in $families; do
    echo "{\"base\": \"vgg-base.json\", \"axes\": {\"seeds\": [$seeds], \"strategies\": [[\"dpu\"]], \"k\": [${vgg_k[$f]}],
      \"bundle.values\": [\"$f\"], \"bundle.dense_tensors\": [\"coded\"], \"bundle.quant_aware\": [true]}}" > "$out/vgg-$f.json"
    sweeps+=("vgg-$f")
  done
fi

run_sweeps "$out" "$cli" "${sweeps[@]}"
failed=$?
[[ -s "$out/table3/results.jsonl" ]] && python3 "$root/bench/table3/summarise.py" "$out/table3"
[[ -s "$out/vgg-fu/results.jsonl" ]] && python3 "$root/bench/ablations/summarise.py" --to-fu --fu "$out/vgg-fu/results.jsonl" \
  $(for f in $families; do echo "$out/vgg-$f"; done)
exit "$failed"
