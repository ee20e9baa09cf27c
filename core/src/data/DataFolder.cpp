// SPDX-License-Identifier: MIT
// Locating dataset files inside a folder.
#include "data/DataFolder.h"
#include "data/FileReader.h"
#include "dpu/Error.h"
#include <filesystem>
#include <system_error>

namespace dpu::data {

namespace fs = std::filesystem;

void requireFolder(const std::string& folder)
{
    std::error_code ec;
    const auto status = fs::status(folder, ec);
    if (ec || !fs::exists(status))
        throw DataError("dataset folder " + folder + " does not exist");
    if (!fs::is_directory(status))
        throw DataError("dataset folder " + folder + " is not a folder");
}

std::string findFile(const std::string& folder, const std::vector<std::string>& names, bool allowGz)
{
    std::vector<std::string> tried;
    for (const auto& name : names) {
        tried.push_back(name);
        if (allowGz)
            tried.push_back(name + ".gz");
    }
    for (const auto& name : tried) {
        const auto path = (fs::path(folder) / name).string();
        std::error_code ec;
        // Anything present under the name counts as found: FileReader then reports a
        // directory or an unreadable file as such instead of calling it missing.
        if (fs::exists(fs::symlink_status(path, ec)))
            return path;
    }
    std::string also;
    for (size_t i = 1; i < tried.size(); ++i)
        also += (i > 1 ? ", " : "") + tried[i];
    failFile((fs::path(folder) / tried.front()).string(),
             "missing file" + (also.empty() ? std::string() : " (also tried " + also + ")"));
}

std::string descendIfPresent(const std::string& folder, const std::string& subfolder,
                             const std::string& probeName)
{
    std::error_code ec;
    if (fs::exists(fs::path(folder) / probeName, ec))
        return folder;
    const auto nested = fs::path(folder) / subfolder;
    if (fs::is_directory(nested, ec))
        return nested.string();
    return folder;
}

} // namespace dpu::data
