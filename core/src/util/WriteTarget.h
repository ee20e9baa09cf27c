// SPDX-License-Identifier: MIT
// WriteTarget: what a name a writer is given stands for (a file, a link to one, a device, a FIFO, a folder).
#pragma once
#include <string>
#include <sys/types.h>

namespace dpu {

/// What stands at a path a file is to be written to, after following symbolic links.
struct WriteTarget {
    enum class Kind {
        Absent,      ///< nothing there yet (or a dangling link's target): a new regular file
        Regular,     ///< a regular file: replaced atomically (temporary, flush, rename)
        WriteThrough, ///< a character device or a FIFO (/dev/null, a pipe): written through, never replaced
    };
    Kind kind = Kind::Absent;
    std::string file;       ///< the path to write: `path` itself, or where its links end
    bool viaLink = false;   ///< `path` is a symbolic link (the link stays, its target changes)
    mode_t mode = 0644;     ///< the permission bits a replacement keeps (a new file: 0644)
    uid_t owner = 0;        ///< the replaced file's owner and group (kept where the writer may)
    gid_t group = 0;
    nlink_t links = 0;      ///< the replaced file's hard links (more than 1: the others keep the old contents)
};

/// Follows `path` through symbolic links (at most 40, relative ones against their own folder) and
/// says what is there. Throws Error naming `path` and what was found for what no file may be
/// written over: a folder, a block device (a disk), a socket, a link loop or an unreadable name;
/// nothing is created or changed.
WriteTarget resolveWriteTarget(const std::string& path);

/// The longest file name the folder `dir` accepts (NAME_MAX, 255 on most file systems).
long longestNameIn(const std::string& dir);

} // namespace dpu
