// SPDX-License-Identifier: MIT
// Locating dataset files inside a folder, with errors that name what was looked for.
#pragma once
#include <string>
#include <vector>

namespace dpu::data {

/// Throws DataError unless `folder` exists and is a directory.
void requireFolder(const std::string& folder);

/// The first of `names` (each also tried with ".gz" when `allowGz`) that exists in `folder`;
/// raw before gzip, since reading raw is faster. Throws DataError "<folder>/<names[0]>: missing
/// file (also tried ...)" when none exists.
std::string findFile(const std::string& folder, const std::vector<std::string>& names, bool allowGz);

/// `folder`, or its `subfolder` when the files are there instead (the layout the official
/// archives unpack to, e.g. cifar-10-batches-bin/).
std::string descendIfPresent(const std::string& folder, const std::string& subfolder,
                             const std::string& probeName);

} // namespace dpu::data
