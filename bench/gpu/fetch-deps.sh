#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# On a Debian 12 machine: downloads what a GPU machine without Debian's archive needs for
# bench/gpu/check.sh into .gpu-deps/ of this checkout: the packages (.gpu-deps/debs) and
# Fashion-MNIST recompressed with xz (.gpu-deps/datasets), 58 MB in all, under the 64 MiB that a
# lent machine takes with the checkout. WITH_POPPLER=1 adds pdftotext for test_ui_reopen (4.9 MB).
# Usage: bench/gpu/fetch-deps.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
debs="$root/.gpu-deps/debs"
data="$root/.gpu-deps/datasets/fashion-mnist"
mkdir -p "$debs" "$data"
# The build: JSON, zlib, libsodium, pkg-config, the image readers, Qt's development files, OpenGL's
# headers (Qt6Gui's CMake files look for them).
packages=(nlohmann-json3-dev zlib1g-dev libsodium-dev libsodium23 pkgconf-bin libpkgconf3
  libpng-dev libpng16-16 libturbojpeg0-dev libturbojpeg0 libstb-dev libstb0
  qt6-base-dev qt6-base-dev-tools qt6-charts-dev qt6-svg-dev libqt6opengl6-dev
  libgl-dev libglx-dev libopengl-dev libegl-dev)
# Qt's libraries, the offscreen platform, fonts, and the libraries they need that an Ubuntu 24.04
# CUDA image lacks (its libsystemd0, libzstd1, zlib1g, libexpat1, ... serve as they are).
packages+=(libqt6core6 libqt6gui6 libqt6widgets6 libqt6charts6 libqt6svg6 libqt6svgwidgets6
  libqt6opengl6 libqt6openglwidgets6 libqt6test6 libqt6dbus6 libdbus-1-3 qt6-qpa-plugins
  libicu72 libdouble-conversion3 libpcre2-16-0 libb2-1 libmd4c0 libglib2.0-0 libharfbuzz0b
  libgraphite2-3 libfreetype6 libbrotli1 libfontconfig1 fontconfig-config fonts-dejavu-core
  libxkbcommon0 libx11-6 libxcb1 libxau6 libxdmcp6 libegl1 libglx0 libopengl0 libglvnd0)
if [[ -n "${WITH_POPPLER:-}" ]]; then
  packages+=(poppler-utils libpoppler126 libdeflate0 libjbig0 libjpeg62-turbo liblcms2-2 liblerc4
    libnspr4 libnss3 libopenjp2-7 libtiff6 libwebp7)
fi
(cd "$debs" && apt-get download "${packages[@]}")
# xz -9 makes the training images 22.6 MB instead of 26.4 (setup-data.sh restores the .gz files).
for f in train-images-idx3-ubyte train-labels-idx1-ubyte t10k-images-idx3-ubyte t10k-labels-idx1-ubyte; do
  [[ -s "$data/$f.xz" ]] || zcat "/usr/share/datasets/fashion-mnist/$f.gz" | xz -9 -T0 > "$data/$f.xz"
done
du -sh "$root/.gpu-deps"
