# SPDX-License-Identifier: MIT
# Sourced by the GPU scripts: the Debian packages unpacked under PREFIX ($1) on the library,
# plugin and font paths, and the engine's thread settings. Usage: source bench/gpu/gpu-env.sh PREFIX
gpu_prefix="${1:?usage: source gpu-env.sh PREFIX}"
export DPU_GPU_DEPS="$gpu_prefix"
export LD_LIBRARY_PATH="$gpu_prefix/usr/lib/x86_64-linux-gnu:$gpu_prefix/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# Programs unpacked there (pdftotext of poppler-utils, for the report's test) come after the machine's own.
export PATH="$PATH:$gpu_prefix/usr/bin"
# Qt looks for its platform plugins (offscreen) where Debian installs them, not in the prefix.
export QT_PLUGIN_PATH="$gpu_prefix/usr/lib/x86_64-linux-gnu/qt6/plugins"
export OMP_WAIT_POLICY=passive
# A machine without fontconfig's configuration (a CUDA image) gets one naming the unpacked
# DejaVu fonts, so the window and the charts draw their text. Sourced before the packages are
# unpacked, too: the file names the folder, which need not exist yet. (Without it, Qt drew every
# character as a box, and the UI tests that measure text failed.)
if [[ ! -e /etc/fonts/fonts.conf ]]; then
  mkdir -p "$gpu_prefix/etc/fonts"
  printf '<?xml version="1.0"?>\n<fontconfig><dir>%s/usr/share/fonts</dir><cachedir>/tmp/dpu-fontconfig</cachedir></fontconfig>\n' \
    "$gpu_prefix" > "$gpu_prefix/etc/fonts/dpu-fonts.conf"
  export FONTCONFIG_FILE="$gpu_prefix/etc/fonts/dpu-fonts.conf"
fi
