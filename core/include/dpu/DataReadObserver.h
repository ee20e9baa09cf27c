// SPDX-License-Identifier: MIT
// What a long dataset read reports while it runs (it is stopped through its RunControl token, not here).
#pragma once

namespace dpu {

/// Told of a dataset read's progress on the reading thread. Observers only observe: a read is
/// paused or stopped through its dpu::RunControl token (dpu/RunControl.h).
class DataReadObserver {
public:
    virtual ~DataReadObserver() = default;
    /// One more image of an image folder was decoded (the token is checked before each image;
    /// the other kinds are a few files read in seconds and report nothing).
    virtual void imageRead() {}
    /// The read holds before its next image because the token is paused (true), or goes on (false).
    virtual void readPaused(bool paused) {}
};

} // namespace dpu
