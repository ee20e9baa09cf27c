#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Measures core/patch on Cortex-M (docs/benchmarks.md section 17): code size, RAM, and QEMU-counted instructions per apply.
# Usage: bench/mcu/measure.sh [BUILD_DIR]   (default build/; DPU_CLI overrides BUILD_DIR/app/cli/dpu-cli)
# Needs the packages of scripts/deps (gcc-arm-none-eabi, libnewlib-arm-none-eabi, qemu-system-arm)
# and Fashion-MNIST. Makes two real runs per coding (k 0.02 and 0.1, the fixtures' plan otherwise),
# applies each chain (round 1: a re-initialising delta from no file; round 2: a delta over it) in
# QEMU with -icount shift=0 on four images (M4F and M0, -Os and -O2), checks every device file
# against dpu-apply's, and fits per coding: instructions = a x device-file bytes + b x bundle bytes
# from the two round-2 deltas (same file, different bundle sizes).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="$(cd "${1:-$root/build}" && pwd)"
cli="${DPU_CLI:-$build/app/cli/dpu-cli}"
cmake --build "$build" -j "${DPU_JOBS:-2}" --target dpu_mcu_images dpu_mcu_images_o2 dpu-apply >/dev/null
apply="$build/app/apply/dpu-apply"
images="$build/tests/mcu"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "## Code size of core/patch alone (arm-none-eabi-size, the library's objects)"
printf '%-6s %-4s %8s %6s %6s\n' core opt text data bss
for img in m4-Os m4-O2 m0-Os m0-O2; do
  read -r text data bss _ < <(arm-none-eabi-size -t "$images/$img"/lib/*.o | awk '/TOTALS/ {print $1, $2, $3}')
  printf '%-6s %-4s %8s %6s %6s\n' "${img%-*}" "${img#*-}" "$text" "$data" "$bss"
done
echo "## Whole harness image (library, harness, newlib-nano's memcpy/memset/strcmp, libgcc)"
for img in m4-Os m0-Os; do
  arm-none-eabi-size "$images/$img.elf" | tail -1
done

machine_of() { case "$1" in m4-*) echo mps2-an386 ;; m0-*) echo microbit ;; esac; }
qemu_apply() { # image bundle base target -> the harness's report line
  (cd "$work" && qemu-system-arm -M "$(machine_of "$1")" -nographic -monitor none -serial none -icount shift=0 \
    -semihosting-config "enable=on,target=native,arg=mcu-apply,arg=$2,arg=$3,arg=$4" \
    -kernel "$images/$1.elf" 2>&1) | grep '^mcu-apply ok'
}
field() { sed -n "s/.* $1 \([0-9]*\) .*/\1/p" <<<"$2"; }

echo "## Instructions per apply (QEMU -icount shift=0; the harness's SysTick against the virtual clock)"
printf '%-6s %-4s %-8s %-5s %-5s %8s %12s %12s %12s %9s %9s\n' core opt coding k round bundle verify apply total \
  per-B-byte per-F-byte
results="$work/results.txt"
: >"$results"
for coding in fp32 fp16 q8 q8c q4 ternary; do
  for k in 0.02 0.1; do
    cat >"$work/plan.json" <<PLAN
{"name": "mcu-$coding", "dataset": {"train_limit": 1200, "test_limit": 400},
 "split": {"initial": 300, "per_round": 200, "rounds": 2, "validation": 200},
 "strategies": ["dpu"], "k": $k, "train": {"epochs": 1}, "seeds": [4], "bundle": {"values": "$coding"}}
PLAN
    "$cli" run "$work/plan.json" --out "$work/run" --quiet
    for r in 001 002; do cp "$work/run/bundles/seed-4/dpu/round-$r.dpub" "$work/r$r.dpub"; done
    rm -rf "$work/run" "$work/host.st"
    "$apply" "$work/r001.dpub" "$work/host.st" >/dev/null
    cp "$work/host.st" "$work/host1.st"
    "$apply" "$work/r002.dpub" "$work/host.st" >/dev/null
    for img in m4-Os m4-O2 m0-Os m0-O2; do
      for r in 001 002; do
        base=-
        [[ $r == 002 ]] && base=out001.st
        line="$(qemu_apply "$img" "r$r.dpub" "$base" "out$r.st")"
        want="$work/host1.st"
        [[ $r == 002 ]] && want="$work/host.st"
        cmp -s "$want" "$work/out$r.st" || { echo "error: $img $coding k=$k round $r differs from dpu-apply" >&2; exit 1; }
        b=$(field bundle "$line"); f=$(field target "$line")
        v=$(field verify_ns "$line"); a=$(field apply_ns "$line")
        echo "${img%-*} ${img#*-} $coding $k $r $b $f $v $a $(field sha_ns_per_mib "$line") $(field stack "$line")" >>"$results"
        awk -v c="${img%-*}" -v o="${img#*-}" -v cod="$coding" -v k="$k" -v r="$r" -v b="$b" -v f="$f" -v v="$v" -v a="$a" \
          'BEGIN { printf "%-6s %-4s %-8s %-5s %-5s %8d %12d %12d %12d %9.0f %9.1f\n", c, o, cod, k, r, b, v, a, v + a, (v + a) / b, (v + a) / f }'
      done
    done
  done
done

echo "## SHA-256 and stack"
awk '{ sha[$1" "$2] = $10; if ($11 > st[$1" "$2]) st[$1" "$2] = $11 }
     END { for (x in sha) printf "%s: SHA-256 %.1f instructions per byte, deepest stack %d bytes\n", x, sha[x] / 1048576, st[x] }' \
  "$results" | sort

echo "## Fit per coding on the round-2 deltas: instructions = a x file bytes + b x bundle bytes"
printf '%-6s %-4s %-8s %10s %10s\n' core opt coding a b
awk '$5 == "002" { key = $1" "$2" "$3; t = $8 + $9
       if ($4 == "0.02") { b1[key] = $6; t1[key] = t; f[key] = $7 } else { b2[key] = $6; t2[key] = t } }
     END { for (key in b1) { b = (t2[key] - t1[key]) / (b2[key] - b1[key]); a = (t1[key] - b * b1[key]) / f[key]
             split(key, p, " "); printf "%-6s %-4s %-8s %10.1f %10.1f\n", p[1], p[2], p[3], a, b } }' "$results" | sort
