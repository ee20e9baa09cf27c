// SPDX-License-Identifier: MIT
// dpu-cli: headless command line (placeholder until the runner lands).
#include "dpu/Version.h"
#include <cstdio>
int main() { std::printf("dpu-cli %s\n", DPU_VERSION_STRING); return 0; }
