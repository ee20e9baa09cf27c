// SPDX-License-Identifier: MIT
// Keeps dpu_core non-empty while its modules land.
namespace dpu { int corePlaceholder() { return 0; } }
