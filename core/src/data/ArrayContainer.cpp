// SPDX-License-Identifier: MIT
// The three array containers: .npy files in a folder, members of an .npz archive, tensors of a safetensors file.
#include "data/ArrayContainer.h"
#include "data/DataFolder.h"
#include "data/FileReader.h"
#include "data/NpyFormat.h"
#include "data/SafetensorsArrays.h"
#include "data/ZipArchive.h"
#include <algorithm>
#include <filesystem>

namespace dpu::data {

namespace fs = std::filesystem;

namespace {

class NpyFolder : public ArrayContainer {
public:
    explicit NpyFolder(std::string folder) : folder_(std::move(folder)) { requireFolder(folder_); }
    std::string where(const std::string& name) const override
    {
        std::string file = name;
        if (file.size() < 4 || file.compare(file.size() - 4, 4, ".npy") != 0)
            file += ".npy";
        const fs::path p(file);
        return p.is_absolute() ? p.string() : (fs::path(folder_) / p).string();
    }
    bool has(const std::string& name) const override
    {
        std::error_code ec;
        return fs::exists(fs::symlink_status(where(name), ec));
    }
    NumArray get(const std::string& name) const override { return readNpyFile(where(name)); }
    std::string listing() const override
    {
        std::vector<std::string> names;
        std::error_code ec;
        for (const auto& e : fs::directory_iterator(folder_, ec))
            if (e.path().extension() == ".npy")
                names.push_back(e.path().filename().string());
        std::sort(names.begin(), names.end());
        std::string out;
        for (const auto& n : names)
            out += (out.empty() ? "" : ", ") + n;
        return out.empty() ? std::string("no .npy files") : out;
    }

private:
    std::string folder_;
};

class NpzArchive : public ArrayContainer {
public:
    explicit NpzArchive(std::string path) : path_(std::move(path)), bytes_(readArrayFileBytes(path_))
    {
        entries_ = listZip(bytes_.data(), bytes_.size(), path_);
    }
    const ZipEntry* find(const std::string& name) const
    {
        for (const auto& e : entries_)
            if (e.name == name + ".npy" || e.name == name)
                return &e;
        return nullptr;
    }
    bool has(const std::string& name) const override { return find(name) != nullptr; }
    std::string where(const std::string& name) const override
    {
        const ZipEntry* e = find(name);
        return path_ + ":" + (e ? e->name : name + ".npy");
    }
    NumArray get(const std::string& name) const override
    {
        const ZipEntry* e = find(name);
        if (!e)
            failFile(path_, "missing array \"" + name + "\" (the archive holds: " + listing() + ")");
        const auto member = extractZip(bytes_.data(), bytes_.size(), *e, path_, kMaxArrayBytes + (1u << 20));
        return parseNpy(member.data(), member.size(), where(name));
    }
    std::string listing() const override
    {
        std::string out;
        for (const auto& e : entries_)
            out += (out.empty() ? "" : ", ") + e.name;
        return out.empty() ? std::string("nothing") : out;
    }

private:
    std::string path_;
    std::vector<uint8_t> bytes_;
    std::vector<ZipEntry> entries_;
};

class SafetensorsContainer : public ArrayContainer {
public:
    explicit SafetensorsContainer(std::string path) : path_(std::move(path)), bytes_(readArrayFileBytes(path_))
    {
        index_ = parseSafetensorsHeader(bytes_.data(), bytes_.size(), path_);
        checkSafetensorsExtent(index_, bytes_.size(), path_);
    }
    bool has(const std::string& name) const override { return index_.tensors.count(name) == 1; }
    std::string where(const std::string& name) const override { return path_ + ":" + name; }
    NumArray get(const std::string& name) const override
    {
        return safetensorsArray(bytes_.data(), bytes_.size(), index_, name, path_);
    }
    std::string listing() const override { return safetensorsNames(index_); }

private:
    std::string path_;
    std::vector<uint8_t> bytes_;
    SafetensorsIndex index_;
};

} // namespace

std::unique_ptr<ArrayContainer> openArrayContainer(const DatasetSpec& spec)
{
    if (spec.kind == DataKind::Npy)
        return std::make_unique<NpyFolder>(spec.path);
    if (spec.kind == DataKind::Npz)
        return std::make_unique<NpzArchive>(spec.path);
    return std::make_unique<SafetensorsContainer>(spec.path);
}

} // namespace dpu::data
