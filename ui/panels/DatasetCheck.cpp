// SPDX-License-Identifier: MIT
// DatasetCheck: file names of the IDX and CIFAR readers, looked up without opening them.
#include "panels/DatasetCheck.h"
#include <QDir>
#include <QFileInfo>

namespace dpu::ui {
namespace {
bool present(const QDir& dir, const QString& name)
{
    // Anything under the name counts (as in the engine): the reader then says what is wrong with it.
    return QFileInfo::exists(dir.filePath(name)) || QFileInfo::exists(dir.filePath(name + QStringLiteral(".gz")));
}

/// The IDX reader also accepts "train-images.idx3-ubyte" for "train-images-idx3-ubyte".
QString otherIdxSpelling(const QString& name)
{
    const int pos = name.lastIndexOf(QStringLiteral("-idx"));
    return pos < 0 ? QString() : name.left(pos) + QLatin1Char('.') + name.mid(pos + 1);
}
} // namespace

QStringList DatasetCheck::expectedFiles(const QString& kind)
{
    if (kind == QLatin1String("idx"))
        return {QStringLiteral("train-images-idx3-ubyte"), QStringLiteral("train-labels-idx1-ubyte"),
                QStringLiteral("t10k-images-idx3-ubyte"), QStringLiteral("t10k-labels-idx1-ubyte")};
    if (kind == QLatin1String("cifar10")) {
        QStringList names;
        for (int b = 1; b <= 5; ++b)
            names << QStringLiteral("data_batch_%1.bin").arg(b);
        return names << QStringLiteral("test_batch.bin");
    }
    if (kind == QLatin1String("cifar100"))
        return {QStringLiteral("train.bin"), QStringLiteral("test.bin")};
    return {};
}

bool DatasetCheck::isFileKind(const QString& kind)
{
    return kind == QLatin1String("npz") || kind == QLatin1String("safetensors");
}

QString DatasetCheck::whereToGet(const QString& kind)
{
    if (kind == QLatin1String("npy"))
        return QObject::tr("A .npy folder holds x.npy and y.npy (or x_train.npy and y_train.npy), and x_test.npy and "
                           "y_test.npy when it has a test split (docs/own-data.md).");
    if (kind == QLatin1String("npz"))
        return QObject::tr("An .npz archive (numpy.savez or savez_compressed) with x and y (or x_train and y_train), "
                           "and x_test and y_test when it has a test split (docs/own-data.md).");
    if (kind == QLatin1String("safetensors"))
        return QObject::tr("A .safetensors file with x and y tensors (the plan may name others) (docs/own-data.md).");
    if (kind == QLatin1String("images"))
        return QObject::tr("An image folder holds one subfolder of PNG or JPEG images per class, and optionally test/ "
                           "with the same subfolders (docs/own-data.md).");
    if (kind == QLatin1String("cifar10"))
        return QObject::tr("Get the CIFAR-10 binary version (cifar-10-binary.tar.gz, "
                           "https://www.cs.toronto.edu/~kriz/cifar.html) and unpack it: the folder is the one "
                           "holding data_batch_1.bin … data_batch_5.bin and test_batch.bin, or its parent "
                           "with cifar-10-batches-bin/ in it.");
    if (kind == QLatin1String("cifar100"))
        return QObject::tr("Get the CIFAR-100 binary version (cifar-100-binary.tar.gz, "
                           "https://www.cs.toronto.edu/~kriz/cifar.html) and unpack it: the folder is the one "
                           "holding train.bin and test.bin, or its parent with cifar-100-binary/ in it.");
    return QObject::tr("An MNIST-format folder holds train-images-idx3-ubyte, train-labels-idx1-ubyte, "
                       "t10k-images-idx3-ubyte and t10k-labels-idx1-ubyte (each may be .gz). "
                       "Fashion-MNIST: Debian's dataset-fashion-mnist package installs it in "
                       "/usr/share/datasets/fashion-mnist.");
}

QString DatasetCheck::problem(const QString& kind, const QString& folder)
{
    const QString found = missingData(kind, folder);
    // The IDX message already lists the files it misses; CIFAR users mostly lack the download.
    const bool advise = !found.isEmpty() && (kind != QLatin1String("idx") || !QFileInfo(folder).isDir());
    return advise ? found + QStringLiteral(". ") + whereToGet(kind) : found;
}

QString DatasetCheck::missingData(const QString& kind, const QString& folder)
{
    const QFileInfo info(folder);
    if (isFileKind(kind)) {
        // The rest (magic, arrays, labels) is the probe's to say: it reads every byte.
        if (!info.exists())
            return QObject::tr("file not found");
        return info.isDir() ? QObject::tr("a folder: this kind is one file") : QString();
    }
    if (!info.exists())
        return QObject::tr("folder not found");
    if (!info.isDir())
        return QObject::tr("not a folder");
    if (expectedFiles(kind).isEmpty())
        return {}; // npy and images: the probe reads what is there
    QDir dir(folder);
    // The CIFAR archives unpack into a subfolder; the readers descend into it (as here).
    const QString nested = kind == QLatin1String("cifar10") ? QStringLiteral("cifar-10-batches-bin")
                           : kind == QLatin1String("cifar100") ? QStringLiteral("cifar-100-binary")
                                                                : QString();
    const QStringList expected = expectedFiles(kind);
    if (!nested.isEmpty() && !QFileInfo::exists(dir.filePath(expected.first())) && QFileInfo(dir.filePath(nested)).isDir())
        dir.setPath(dir.filePath(nested));
    QStringList missing;
    for (const QString& name : expected) {
        const QString other = kind == QLatin1String("idx") ? otherIdxSpelling(name) : QString();
        if (!present(dir, name) && (other.isEmpty() || !present(dir, other)))
            missing << name;
    }
    if (missing.isEmpty())
        return {};
    const QString what = kind == QLatin1String("idx") ? QObject::tr("MNIST-format (IDX)")
                         : kind == QLatin1String("cifar10") ? QObject::tr("CIFAR-10 binary")
                                                            : QObject::tr("CIFAR-100 binary");
    return QObject::tr("no %1 data here: missing %2 (.gz also accepted)").arg(what, missing.join(QStringLiteral(", ")));
}

} // namespace dpu::ui
