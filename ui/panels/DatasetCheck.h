// SPDX-License-Identifier: MIT
// Checks a dataset folder for the files its kind needs, as the user types its path.
#pragma once
#include <QString>
#include <QStringList>

namespace dpu::ui {

/// Mirrors the engine's readers' file names (core/src/data: IDX with either spelling, CIFAR
/// binary batches, optionally gzipped, optionally inside the archive's own subfolder) without
/// reading a byte: cheap enough to run on every keystroke. The engine still has the last word.
class DatasetCheck {
public:
    /// Empty when the folder holds every file of `kind` ("idx", "cifar10", "cifar100");
    /// otherwise the reason ("folder not found", "not a folder" or which files are missing)
    /// followed by where to get the data and which layout the folder needs. For the other kinds
    /// only whether the path is there as a folder (npy, images) or a file (npz, safetensors):
    /// what is in them takes reading (ProbeWorker).
    static QString problem(const QString& kind, const QString& folder);
    /// Where the data of a kind comes from and what its folder holds.
    static QString whereToGet(const QString& kind);
    /// npz and safetensors: one file, not a folder.
    static bool isFileKind(const QString& kind);
    /// The files a kind needs (names without the optional ".gz"; none for npy and images).
    static QStringList expectedFiles(const QString& kind);

private:
    /// problem() without the advice.
    static QString missingData(const QString& kind, const QString& folder);
};

} // namespace dpu::ui
