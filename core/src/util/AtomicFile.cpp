// SPDX-License-Identifier: MIT
// Atomic file replacement with fsync, so a crash never leaves a half-written result.
#include "util/AtomicFile.h"
#include "dpu/Error.h"
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace dpu {
namespace {

std::string systemError()
{
    return std::strerror(errno);
}

void syncPath(const std::string& path, bool directory)
{
    const int fd = ::open(path.c_str(), directory ? O_RDONLY | O_DIRECTORY : O_RDONLY);
    if (fd < 0)
        return; // best effort for the directory entry; the data was synced already
    ::fsync(fd);
    ::close(fd);
}

// Writes `content` to the open temporary file `fd` and flushes it to disk; on failure removes
// `tmp` and throws Error naming `path`.
void writeAndSync(int fd, const std::string& tmp, const std::string& path, const std::string& content)
{
    size_t done = 0;
    while (done < content.size()) {
        const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            const std::string why = systemError();
            ::close(fd);
            ::unlink(tmp.c_str());
            throw Error(path + ": write failed (" + why + ")");
        }
        done += static_cast<size_t>(n);
    }
    if (::fsync(fd) != 0 || ::close(fd) != 0) {
        const std::string why = systemError();
        ::unlink(tmp.c_str());
        throw Error(path + ": flush failed (" + why + ")");
    }
}

std::string temporaryName(const std::filesystem::path& target)
{
    if (target.has_parent_path())
        std::filesystem::create_directories(target.parent_path());
    return target.string() + ".tmp-" + std::to_string(::getpid());
}

} // namespace

void crashPoint(const std::string& path)
{
    auto fromEnv = [](const char* name) {
        const char* v = std::getenv(name);
        return v ? std::atol(v) : 0L;
    };
    static const long crashAt = fromEnv("DPU_CRASH_AT_WRITE"), failAt = fromEnv("DPU_FAIL_WRITE_AT");
    static long count = 0;
    ++count;
    if (count == crashAt)
        ::_exit(99);
    if (count == failAt)
        throw Error(path + ": write failed (No space left on device; simulated by DPU_FAIL_WRITE_AT)");
}

int removeStaleTemporaries(const std::string& dir)
{
    namespace fs = std::filesystem;
    int removed = 0;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        if (!it->is_regular_file(ec))
            continue;
        const std::string name = it->path().filename().string();
        const auto dot = name.rfind(".tmp");
        if (dot == std::string::npos || dot == 0)
            continue;
        const std::string tail = name.substr(dot + 4); // "" or "-<pid>"
        const bool pidTail = tail.size() > 1 && tail[0] == '-' &&
                             tail.find_first_not_of("0123456789", 1) == std::string::npos;
        if ((tail.empty() || pidTail) && fs::remove(it->path(), ec))
            ++removed;
    }
    return removed;
}

void writeFileAtomic(const std::string& path, const std::string& content)
{
    const std::filesystem::path target(path);
    const std::string tmp = temporaryName(target);
    crashPoint(path);
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        throw Error(path + ": cannot create temporary file (" + systemError() + ")");
    writeAndSync(fd, tmp, path, content);
    crashPoint(path); // the temporary is whole, the target still old
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        const std::string why = systemError();
        ::unlink(tmp.c_str());
        throw Error(path + ": rename failed (" + why + ")");
    }
    crashPoint(path); // renamed, the directory not yet synced
    syncPath(target.has_parent_path() ? target.parent_path().string() : ".", true);
}

void writeNewPrivateFile(const std::string& path, const std::string& content)
{
    const std::filesystem::path target(path);
    const std::string tmp = temporaryName(target);
    // O_EXCL: never an existing file or a planted link; 0600 from creation (a later chmod would
    // leave a window in which others could open the file).
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0)
        throw Error(path + ": cannot create temporary file " + tmp + " (" + systemError() + ")");
    writeAndSync(fd, tmp, path, content);
    // link(), unlike rename(), fails when the name exists: the file appears whole or not at all,
    // and never replaces anything.
    if (::link(tmp.c_str(), path.c_str()) != 0) {
        const int err = errno;
        ::unlink(tmp.c_str());
        throw Error(path + (err == EEXIST ? std::string(": exists already; refusing to overwrite it")
                                          : ": cannot create (" + std::string(std::strerror(err)) + ")"));
    }
    ::unlink(tmp.c_str());
    syncPath(target.has_parent_path() ? target.parent_path().string() : ".", true);
}

void commitFile(const std::string& from, const std::string& to)
{
    crashPoint(to); // the temporary written, not yet synced
    syncPath(from, false);
    crashPoint(to);
    if (::rename(from.c_str(), to.c_str()) != 0)
        throw Error(to + ": rename failed (" + systemError() + ")");
    const std::filesystem::path target(to);
    syncPath(target.has_parent_path() ? target.parent_path().string() : ".", true);
}

std::string readWholeFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw Error(path + ": cannot open (" + systemError() + ")");
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace dpu
