// SPDX-License-Identifier: MIT
// dpu-apply's update sequence on a simulated disk that keeps only what was made durable: a power
// cut at every write, sync and rename of a VGG-sized update leaves the old file or the new one.
#include "BundleTestUtil.h"
#include "TestSupport.h"
#include "dpu_apply_file.h"
#include <QtTest/QtTest>
#include <cerrno>
#include <cstring>
#include <functional>
#include <map>
#include <tuple>
#include <memory>

using namespace dpu::bundle;
using namespace dpu::test;

namespace {

/// One folder of a disk with a volatile cache, as MCUboot's simulator models flash: file data is
/// durable only after sync(fd), names only after sync_dir. A cut may keep either the durable
/// names or the newer ones (a journal may have committed the rename on its own), so both count.
struct SimDisk {
    struct Inode {
        std::vector<uint8_t> data, durable;
    };
    std::vector<std::shared_ptr<Inode>> inodes;
    std::map<std::string, size_t> names, durableNames;
    std::map<int, size_t> fds;
    int nextFd = 3;
    int syncs = 0; // durable contents changed this many times
    std::function<void()> onPoint; // called before every write, sync, rename and folder sync

    void add(const std::string& path, const std::vector<uint8_t>& bytes)
    {
        inodes.push_back(std::make_shared<Inode>(Inode{bytes, bytes}));
        names[path] = durableNames[path] = inodes.size() - 1;
    }
    static SimDisk& of(void* user) { return *static_cast<SimDisk*>(user); }

    static int openRead(void* u, const char* path)
    {
        SimDisk& d = of(u);
        const auto it = d.names.find(path);
        if (it == d.names.end()) {
            errno = ENOENT;
            return -1;
        }
        d.fds[d.nextFd] = it->second;
        return d.nextFd++;
    }
    static int create(void* u, const char* path)
    {
        SimDisk& d = of(u);
        d.inodes.push_back(std::make_shared<Inode>());
        d.names[path] = d.inodes.size() - 1;
        d.fds[d.nextFd] = d.inodes.size() - 1;
        return d.nextFd++;
    }
    static int size(void* u, int fd, uint64_t* out)
    {
        *out = of(u).inodes[of(u).fds.at(fd)]->data.size();
        return 0;
    }
    static int readAt(void* u, int fd, uint64_t off, uint8_t* buf, size_t len)
    {
        const auto& data = of(u).inodes[of(u).fds.at(fd)]->data;
        if (off > data.size() || len > data.size() - off)
            return -1;
        std::memcpy(buf, data.data() + off, len);
        return 0;
    }
    static int write(void* u, int fd, const uint8_t* buf, size_t len)
    {
        of(u).onPoint();
        auto& data = of(u).inodes[of(u).fds.at(fd)]->data;
        data.insert(data.end(), buf, buf + len);
        return 0;
    }
    static int sync(void* u, int fd)
    {
        of(u).onPoint();
        auto& inode = *of(u).inodes[of(u).fds.at(fd)];
        inode.durable = inode.data;
        ++of(u).syncs;
        return 0;
    }
    static int close(void* u, int fd) { return of(u).fds.erase(fd) == 1 ? 0 : -1; }
    static int rename(void* u, const char* from, const char* to)
    {
        SimDisk& d = of(u);
        d.onPoint();
        const auto it = d.names.find(from);
        if (it == d.names.end())
            return -1;
        d.names[to] = it->second;
        d.names.erase(from);
        return 0;
    }
    static int remove(void* u, const char* path) { return of(u).names.erase(path) == 1 ? 0 : -1; }
    static int syncDir(void* u, const char*)
    {
        of(u).onPoint();
        of(u).durableNames = of(u).names;
        return 0;
    }
    dpu_fs fs()
    {
        return {this, openRead, create, size, readAt, write, sync, close, rename, remove, syncDir};
    }
};

/// VGG's layers (the zoo's vgg: 14.0 M partial weights, 56 MB) with BatchNorm-like vectors.
std::vector<TensorData> vggState(uint32_t seed)
{
    std::vector<TensorData> t{{"c1.weight", {128, 3, 3, 3}, {}},    {"c2.weight", {128, 128, 3, 3}, {}},
                              {"c3.weight", {256, 128, 3, 3}, {}},  {"c4.weight", {256, 256, 3, 3}, {}},
                              {"c5.weight", {512, 256, 3, 3}, {}},  {"c6.weight", {512, 512, 3, 3}, {}},
                              {"f1.weight", {1024, 8192}, {}},      {"f2.weight", {1024, 1024}, {}},
                              {"f3.weight", {10, 1024}, {}},        {"f3.bias", {10}, {}}};
    for (int c : {128, 128, 256, 256, 512, 512, 1024, 1024})
        t.push_back({"bn" + std::to_string(t.size()) + ".weight", {c}, {}});
    std::mt19937 rng(seed);
    fillNormal(t, rng, 0.05f);
    return t;
}

} // namespace

class TestApplyPowerCut : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void powerCutAtEveryPointLeavesOldOrNew()
    {
        const auto old = vggState(1);
        const std::vector<uint8_t> base = deviceFile(old, 1);
        QVERIFY(base.size() > 50'000'000);
        const auto target = perturbed(old, 2);
        const BundleOutput out = BundleWriter::write(deltaInput(base, target, randomMasks(old, 0.01, 3), ValueCoding::Q8, 2));
        const std::vector<uint8_t>& produced = out.targetFile;

        SimDisk disk;
        disk.add("dev/bundle.dpub", out.bytes);
        disk.add("dev/model.safetensors", base);
        // What a cut at this moment would leave at the weight file's name, for either set of
        // names; recomputed only when something durable changed (writes alone change nothing).
        int points = 0, sawOld = 0, sawNew = 0;
        bool wrong = false;
        auto verdict = [&](const std::map<std::string, size_t>& names) {
            const auto it = names.find("dev/model.safetensors");
            if (it == names.end())
                return 2; // no file at all: neither old nor new
            const auto& bytes = disk.inodes[it->second]->durable;
            return bytes == base ? 0 : bytes == produced ? 1 : 2;
        };
        // Evaluating every write against 56 MB would be slow and tells nothing new: between two
        // syncs or renames the durable state cannot change. Cache the verdict in between.
        std::tuple<size_t, size_t, int> lastKey{SIZE_MAX, SIZE_MAX, -1};
        std::pair<int, int> lastVerdict{-1, -1};
        disk.onPoint = [&] {
            const auto find = [&](const std::map<std::string, size_t>& m) {
                const auto it = m.find("dev/model.safetensors");
                return it == m.end() ? SIZE_MAX : it->second;
            };
            const std::tuple<size_t, size_t, int> key{find(disk.durableNames), find(disk.names), disk.syncs};
            ++points;
            if (key != lastKey || lastVerdict.first < 0) {
                lastVerdict = {verdict(disk.durableNames), verdict(disk.names)};
                lastKey = key;
            }
            for (int v : {lastVerdict.first, lastVerdict.second}) {
                sawOld += v == 0;
                sawNew += v == 1;
                wrong = wrong || v == 2;
            }
        };
        static dpu_apply_ctx ctx;
        const dpu_fs fs = disk.fs();
        dpu_apply_request req{};
        req.bundle = "dev/bundle.dpub";
        req.weights = "dev/model.safetensors";
        char message[4096];
        QCOMPARE(dpu_apply_file(&req, &fs, &ctx, message, sizeof message), int(DPU_APPLY_DONE));
        // After the apply returned, the new file is durable under its name.
        QCOMPARE(verdict(disk.durableNames), 1);
        QVERIFY(!wrong);
        qInfo("%d write, sync and rename points; old %d, new %d times", points, sawOld, sawNew);
        QVERIFY(points > 100);
        QVERIFY(sawOld > 0 && sawNew > 0);
    }
};

QTEST_GUILESS_MAIN(TestApplyPowerCut)
#include "test_apply_powercut.moc"
