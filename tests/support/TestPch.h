// SPDX-License-Identifier: MIT
// Precompiled header of every test: LibTorch first, then Qt Test (QT_NO_KEYWORDS is set).
#pragma once
#include <torch/torch.h>
#include <QtTest/QtTest>
#include <QTemporaryDir>
#include <string>
#include <vector>
