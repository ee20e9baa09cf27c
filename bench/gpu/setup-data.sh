#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs Fashion-MNIST where Debian's dataset-fashion-mnist puts it (/usr/share/datasets), on a
# GPU machine without Debian's archive: from DATA_DIR/fashion-mnist/*.xz (the package's four files,
# recompressed with xz -9 so that the checkout, the packages and the data travel under 64 MiB).
# Usage: bench/gpu/setup-data.sh DATA_DIR PREFIX
set -euo pipefail
data="${1:?usage: setup-data.sh DATA_DIR PREFIX}"
prefix="${2:?usage: setup-data.sh DATA_DIR PREFIX}"
target=/usr/share/datasets/fashion-mnist
if [[ -e "$target/train-images-idx3-ubyte.gz" ]]; then
  echo "Fashion-MNIST already in $target"
  exit 0
fi
if [[ ! -d "$data/fashion-mnist" && -d "$prefix$target" ]]; then
  data=""  # unpacked from the .deb by setup-deps.sh
else
  mkdir -p "$prefix$target"
  # gzip level 1: the reader takes gzip-compressed IDX files, and the level does not change the data.
  python3 - "$data/fashion-mnist" "$prefix$target" <<'PY'
import gzip, lzma, pathlib, sys
src, dst = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
for f in sorted(src.glob("*.xz")):
    (dst / (f.stem + ".gz")).write_bytes(gzip.compress(lzma.decompress(f.read_bytes()), compresslevel=1))
PY
fi
mkdir -p /usr/share/datasets
ln -sfn "$prefix$target" "$target"
ls -l "$target/"
