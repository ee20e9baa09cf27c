// SPDX-License-Identifier: MIT
// Image folders as torchvision's ImageFolder lays them out: one subfolder of PNG/JPEG images per class.
#pragma once
#include "data/RawData.h"
#include "dpu/DataReadObserver.h"
#include "dpu/Plan.h"
#include "dpu/RunControl.h"
#include <string>
#include <vector>

namespace dpu::data {

/// An image folder read into memory.
struct ImageFolderData {
    RawData raw;
    std::vector<std::string> classes; ///< subfolder names, sorted: label i is classes[i]
    bool heldOut = false;             ///< no test/ folder: the test split is a seeded hold-out
};

/// Reads `spec.path`: each subfolder (sorted by name, "test" excepted) is a class; its .png, .jpg
/// and .jpeg files (any case, sorted by name; other files ignored) its samples. A test/ subfolder
/// with the same class folders is the test split, else spec.test_fraction is held out. A root
/// holding only train/ (and test/) folders is read as train/ with that test/. Images decode to
/// spec.channels (0: as the first image) and must all have the first image's size unless
/// spec.image_size resizes them. Throws DataError naming the folder or file: no class folders, a
/// class without images, an image that does not decode or has another size, a test class that
/// the training split lacks. Before each image `control` (not owned, may be null) is checked: the
/// read holds while it is paused (telling `observer`) and throws Cancelled when it is cancelled
/// (the runner's Stop, a superseded probe); `observer` (may be null) hears each image read.
ImageFolderData readImageFolder(const DatasetSpec& spec, const RunControl* control = nullptr,
                                DataReadObserver* observer = nullptr);

/// True when `folder` has a subfolder holding at least one .png/.jpg/.jpeg file (a cheap check for
/// kind detection; reading may still fail).
bool looksLikeImageFolder(const std::string& folder);

/// Image files a class folder holds (sorted), and the class folders of a root (sorted, "test"
/// excepted): what readImageFolder reads, without decoding (for counting samples).
std::vector<std::string> imageFiles(const std::string& classFolder);
std::vector<std::string> classFolders(const std::string& root);

} // namespace dpu::data
