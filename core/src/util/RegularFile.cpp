// SPDX-License-Identifier: MIT
// regularFileSize: stat() of a path to read, and the words for what it is when it is no regular file.
#include "util/RegularFile.h"
#include "dpu/Error.h"
#include <cerrno>
#include <cstring>
#include <sys/stat.h>

namespace dpu {

uint64_t regularFileSize(const std::string& path)
{
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        throw Error(path + ": cannot open (" + std::strerror(errno) + ")");
    if (!S_ISREG(st.st_mode))
        throw Error(path + ": expected a regular file, found " + (S_ISDIR(st.st_mode) ? "a folder" : S_ISFIFO(st.st_mode) ? "a FIFO"
                                                                 : S_ISSOCK(st.st_mode) ? "a socket" : "a device node"));
    return static_cast<uint64_t>(st.st_size);
}

} // namespace dpu
