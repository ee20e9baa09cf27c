// SPDX-License-Identifier: MIT
// WriteTarget: follows a writer's path through symbolic links and refuses what no file may replace.
#include "util/WriteTarget.h"
#include "dpu/Error.h"
#include <cerrno>
#include <climits>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

namespace dpu {

long longestNameIn(const std::string& dir)
{
    const long n = ::pathconf(dir.c_str(), _PC_NAME_MAX);
    return n > 0 ? n : 255; // a folder that does not exist yet: the common limit
}

namespace {

std::string folderOf(const std::string& path)
{
    const auto slash = path.rfind('/');
    if (slash == std::string::npos)
        return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

std::string linkText(const std::string& link)
{
    std::string buf(PATH_MAX, '\0');
    const ssize_t n = ::readlink(link.c_str(), buf.data(), buf.size());
    if (n < 0 || static_cast<size_t>(n) >= buf.size())
        throw Error(link + ": cannot read the symbolic link (" + std::strerror(n < 0 ? errno : ENAMETOOLONG) + ")");
    buf.resize(static_cast<size_t>(n));
    return buf;
}

// What a user meets as the reason a name cannot be written, with the fix where there is one.
[[noreturn]] void refuse(const std::string& path, const std::string& target, const std::string& what)
{
    throw Error(path + (target == path ? "" : " (-> " + target + ")") + ": " + what + "; nothing was written");
}

// Which part is too long: the file's own name (the usual case: a generated name) or the whole path.
std::string tooLong(const std::string& file)
{
    const auto slash = file.rfind('/');
    const std::string name = slash == std::string::npos ? file : file.substr(slash + 1);
    const long longest = longestNameIn(folderOf(file));
    if (static_cast<long>(name.size()) > longest)
        return "the file name is " + std::to_string(name.size()) + " bytes long; this file system takes at most "
               + std::to_string(longest);
    return "the path is " + std::to_string(file.size()) + " bytes long, more than the system takes";
}

WriteTarget targetOf(const std::string& path, const std::string& file, const struct stat& st)
{
    WriteTarget t;
    t.file = file;
    t.viaLink = file != path;
    if (S_ISREG(st.st_mode)) {
        t.kind = WriteTarget::Kind::Regular;
        t.mode = st.st_mode & 07777;
        t.owner = st.st_uid;
        t.group = st.st_gid;
        t.links = st.st_nlink;
    } else if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
        t.kind = WriteTarget::Kind::WriteThrough;
    } else if (S_ISDIR(st.st_mode)) {
        refuse(path, file, "is a folder; give the name of a file to write");
    } else if (S_ISBLK(st.st_mode)) {
        refuse(path, file, "is a block device (a disk or partition); refusing to write over it");
    } else {
        refuse(path, file, "is a socket or other special file, not a file to write");
    }
    return t;
}

} // namespace

WriteTarget resolveWriteTarget(const std::string& path)
{
    if (path.empty())
        throw Error("no file name given to write");
    std::string file = path;
    for (int hops = 0; hops <= 40; ++hops) {
        struct stat st {};
        if (::lstat(file.c_str(), &st) != 0) {
            const int err = errno;
            if (err == ENOENT) { // a new file, or the target a dangling link names: created there
                WriteTarget t;
                t.file = file;
                t.viaLink = file != path;
                return t;
            }
            if (err == ENOTDIR)
                refuse(path, file, "a part of the path is a file, not a folder");
            if (err == ENAMETOOLONG)
                refuse(path, file, tooLong(file));
            refuse(path, file, std::string("cannot be examined (") + std::strerror(err) + ")");
        }
        if (!S_ISLNK(st.st_mode))
            return targetOf(path, file, st);
        // A link is kept and what it points at is written: a user's `--out latest.pdf` that
        // links to a dated report updates that report, and an A/B layout keeps its link.
        const std::string to = linkText(file);
        file = !to.empty() && to[0] == '/' ? to : folderOf(file) + "/" + to;
    }
    refuse(path, file, "too many levels of symbolic links (a loop?)");
}

} // namespace dpu
