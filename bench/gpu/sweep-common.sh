# SPDX-License-Identifier: MIT
# What the GPU sweep scripts share: NVIDIA MPS for the script's lifetime, and a base plan moved to DEVICE.
# Usage: source bench/gpu/sweep-common.sh

# The unpacked Debian packages (check.sh's deps step) on the library paths, so that a script run on
# its own (not from check.sh, which sources gpu-env.sh) finds Qt and the rest that dpu-cli links.
if [[ -d "${DPU_GPU_DEPS:-/tmp/dpu-deps}/usr/lib" ]]; then
  source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh" "${DPU_GPU_DEPS:-/tmp/dpu-deps}"
fi

# start_mps NAME: starts the MPS control daemon (cells' kernels then run side by side on the GPU
# instead of in turns; docs/gpu.md "Several runs on one GPU") and stops it when the script exits.
start_mps() {
  export CUDA_MPS_PIPE_DIRECTORY="${CUDA_MPS_PIPE_DIRECTORY:-/tmp/dpu-mps-pipe}" CUDA_MPS_LOG_DIRECTORY="${CUDA_MPS_LOG_DIRECTORY:-/tmp/dpu-mps-log}"
  mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
  nvidia-cuda-mps-control -d || { echo "$1: nvidia-cuda-mps-control -d failed" >&2; exit 1; }
  trap 'echo quit | nvidia-cuda-mps-control' EXIT
  echo "MPS: on"
}

# device_plan SRC DST: SRC with "device" set to DEVICE (default cuda); ROUNDS, EPOCHS, INITIAL and
# PER_ROUND (samples), when set, shorten it for a smoke test on a CPU.
device_plan() {
  python3 - "$1" "$2" "${DEVICE:-cuda}" "${ROUNDS:-}" "${EPOCHS:-}" "${INITIAL:-}" "${PER_ROUND:-}" <<'PY'
import json, sys
plan = json.load(open(sys.argv[1]))
plan["device"] = sys.argv[3]
if sys.argv[4]: plan["split"]["rounds"] = int(sys.argv[4])
if sys.argv[5]: plan["train"]["epochs"] = int(sys.argv[5])
if sys.argv[6]: plan["split"]["initial"] = int(sys.argv[6])
if sys.argv[7]: plan["split"]["per_round"] = int(sys.argv[7])
json.dump(plan, open(sys.argv[2], "w"), indent=1)
PY
}
