# SPDX-License-Identifier: MIT
# What the GPU sweep scripts share: NVIDIA MPS for the script's lifetime, and a base plan moved to DEVICE.
# Usage: source bench/gpu/sweep-common.sh

# The unpacked Debian packages (check.sh's deps step) on the library paths, so that a script run on
# its own (not from check.sh, which sources gpu-env.sh) finds Qt and the rest that dpu-cli links.
if [[ -d "${DPU_GPU_DEPS:-/tmp/dpu-deps}/usr/lib" ]]; then
  source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh" "${DPU_GPU_DEPS:-/tmp/dpu-deps}"
fi

# mps_unless_off NAME: start_mps NAME when MPS is 1, or unset and nvidia-cuda-mps-control is there.
mps_unless_off() {
  if [[ "${MPS:-$(command -v nvidia-cuda-mps-control > /dev/null && echo 1 || echo 0)}" == 1 ]]; then
    start_mps "$1"
  fi
}

# start_mps NAME: starts the MPS control daemon (cells' kernels then run side by side on the GPU
# instead of in turns; docs/gpu.md "Several runs on one GPU") and stops it when the script exits.
start_mps() {
  export CUDA_MPS_PIPE_DIRECTORY="${CUDA_MPS_PIPE_DIRECTORY:-/tmp/dpu-mps-pipe}" CUDA_MPS_LOG_DIRECTORY="${CUDA_MPS_LOG_DIRECTORY:-/tmp/dpu-mps-log}"
  mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
  nvidia-cuda-mps-control -d || { echo "$1: nvidia-cuda-mps-control -d failed" >&2; exit 1; }
  trap 'echo quit | nvidia-cuda-mps-control' EXIT
  echo "MPS: on"
}

# run_sweeps DIR CLI NAME...: each DIR/NAME.json as a local sweep into DIR/NAME with one job per
# cell (at most JOBS per sweep when set: cells share the GPU's memory, and six VGGNet cells ran an
# 80 GB H100 out), all side by side (each under `timeout LIMIT`, default 540 s), then merged;
# prints the wall time, and for a sweep with a cell not done the end of its log. Returns 1 when
# one did not finish.
run_sweeps() {
  local dir="$1" cli="$2" s jobs failed=0 start
  shift 2
  start=$(date +%s)
  for s in "$@"; do
    jobs=$(python3 -c "import json, math; a = json.load(open('$dir/$s.json'))['axes']; print(math.prod(len(v) for v in a.values()))")
    jobs=$(( ${JOBS:-$jobs} < jobs ? ${JOBS:-$jobs} : jobs ))
    timeout "${LIMIT:-540}" "$cli" sweep run "$dir/$s.json" --out "$dir/$s" --backend local --jobs "$jobs" > "$dir/$s.log" 2>&1 &
  done
  wait
  echo "$(basename "$dir"): $(( $(date +%s) - start )) s for $* side by side"
  for s in "$@"; do
    # merge keeps what finished either way (its records are worth reading); `sweep status` says
    # whether every cell did, in its last line: "N cells: N done, ...".
    "$cli" sweep merge "$dir/$s" > /dev/null 2>&1
    if ! "$cli" sweep status "$dir/$s" 2>&1 | grep -Eq '^([0-9]+) cells: \1 done,'; then
      echo "$(basename "$dir"): $s did not finish; the end of $dir/$s.log:"
      tail -n 3 "$dir/$s.log"
      failed=1
    fi
  done
  return "$failed"
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
