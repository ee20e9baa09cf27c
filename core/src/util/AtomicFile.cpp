// SPDX-License-Identifier: MIT
// Atomic file replacement with fsync, so a crash never leaves a half-written result.
#include "util/AtomicFile.h"
#include "util/RegularFile.h"
#include "util/WriteTarget.h"
#include "dpu/Error.h"
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
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
            throw Error(path + ": write failed (" + why + "); the old file, if any, is unchanged");
        }
        done += static_cast<size_t>(n);
    }
    if (::fsync(fd) != 0 || ::close(fd) != 0) {
        const std::string why = systemError();
        ::unlink(tmp.c_str());
        throw Error(path + ": flush failed (" + why + "); the old file, if any, is unchanged");
    }
}

std::string folderOf(const std::filesystem::path& file)
{
    return file.has_parent_path() ? file.parent_path().string() : ".";
}

// The temporary beside `file`: "<name>.tmp-<pid>", the name shortened where the folder's limit
// leaves no room for the suffix (removeStaleTemporaries still recognises it).
std::string temporaryName(const std::string& path, const std::filesystem::path& file)
{
    const std::string dir = folderOf(file);
    if (file.has_parent_path()) {
        std::error_code ec;
        std::filesystem::create_directories(file.parent_path(), ec);
        if (ec)
            throw Error(path + ": cannot create the folder " + dir + " (" + ec.message() + "); nothing was written");
    }
    const std::string name = file.filename().string(), suffix = ".tmp-" + std::to_string(::getpid());
    const size_t longest = static_cast<size_t>(longestNameIn(dir));
    if (name.size() > longest)
        throw Error(path + ": the file name is " + std::to_string(name.size()) + " bytes long; this file system takes at most "
                    + std::to_string(longest) + "; nothing was written");
    const size_t keep = std::min(name.size(), longest - suffix.size());
    return (file.parent_path() / (name.substr(0, keep) + suffix)).string();
}

// Creates the temporary exclusively and without following a link planted at its name; a stale
// one (a killed writer whose pid came round again, or such a link) is removed once and retried.
int createTemporary(const std::string& path, const std::string& tmp, const WriteTarget& target)
{
    for (int attempt = 0; attempt < 2; ++attempt) {
        const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd >= 0) {
            if (target.kind == WriteTarget::Kind::Regular) { // the replacement keeps the file's mode and owner
                ::fchmod(fd, target.mode);
                if (::geteuid() == 0 && ::fchown(fd, target.owner, target.group) != 0)
                    (void)0; // best effort: the contents matter, the owner is a courtesy
            }
            return fd;
        }
        if (errno != EEXIST || attempt > 0)
            break;
        ::unlink(tmp.c_str());
    }
    throw Error(path + ": cannot create a file in the folder " + folderOf(std::filesystem::path(tmp)) + " (" + systemError()
                + "); the old file, if any, is unchanged");
}

// A character device or a FIFO is written through: `--out /dev/null` means "discard", and a pipe
// means "hand it to the reader"; renaming over either would replace the node itself.
void writeThrough(const std::string& path, const WriteTarget& target, const std::string& content)
{
    // Opening a FIFO for writing waits for a reader; non-blocking, it fails at once without one.
    const int fd = ::open(target.file.c_str(), O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENXIO)
            throw Error(path + ": a FIFO that no process is reading; start its reader first; nothing was written");
        throw Error(path + ": cannot open for writing (" + systemError() + "); nothing was written");
    }
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags >= 0)
        ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    size_t done = 0;
    while (done < content.size()) {
        const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            const std::string why = n < 0 ? systemError() : std::string("nothing accepted");
            ::close(fd);
            throw Error(path + ": write failed (" + why + ")");
        }
        done += static_cast<size_t>(n);
    }
    ::close(fd);
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
    const WriteTarget target = resolveWriteTarget(path);
    if (target.kind == WriteTarget::Kind::WriteThrough) {
        crashPoint(path);
        writeThrough(path, target, content);
        return;
    }
    // A link's target is replaced, never the link; a hard-linked file's other names keep the
    // old contents (rename gives this name a new file), as with any atomic replacement.
    const std::filesystem::path file(target.file);
    const std::string tmp = temporaryName(path, file);
    crashPoint(path);
    const int fd = createTemporary(path, tmp, target);
    writeAndSync(fd, tmp, path, content);
    crashPoint(path); // the temporary is whole, the target still old
    if (::rename(tmp.c_str(), target.file.c_str()) != 0) {
        const std::string why = systemError();
        ::unlink(tmp.c_str());
        throw Error(path + ": rename failed (" + why + "); the old file is unchanged");
    }
    crashPoint(path); // renamed, the directory not yet synced
    syncPath(folderOf(file), true);
}

void writeNewPrivateFile(const std::string& path, const std::string& content)
{
    const std::filesystem::path target(path);
    const std::string tmp = temporaryName(path, target);
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

std::vector<uint8_t> readSecretKeyFile(const std::string& path, const std::string& what)
{
    const std::string expected = ": expected a 64-byte Ed25519 secret key (" + what + ", from dpu-cli bundle keygen)";
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        throw Error(path + ": cannot open (" + systemError() + ")");
    if (!S_ISREG(st.st_mode))
        throw Error(path + expected + ", found " + (S_ISDIR(st.st_mode) ? "a folder" : "no regular file (a device, FIFO or socket)"));
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        throw Error(path + ": cannot open (" + systemError() + ")");
    std::vector<uint8_t> key(65);
    size_t got = 0;
    for (ssize_t n; got < key.size() && (n = ::read(fd, key.data() + got, key.size() - got)) != 0;) {
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            const std::string why = systemError();
            ::close(fd);
            throw Error(path + ": cannot read (" + why + ")");
        }
        got += static_cast<size_t>(n);
    }
    ::close(fd);
    if (got != 64)
        throw Error(path + expected + ", found " + (got > 64 ? std::string("more than 64") : std::to_string(got)) + " bytes");
    key.resize(64);
    return key;
}

std::string readWholeFile(const std::string& path)
{
    if (const uint64_t size = regularFileSize(path); size > kMaxWholeFileBytes)
        throw Error(path + ": expected at most " + std::to_string(kMaxWholeFileBytes >> 30) + " GiB, found " + std::to_string(size)
                    + " bytes");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw Error(path + ": cannot open (" + systemError() + ")");
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace dpu
