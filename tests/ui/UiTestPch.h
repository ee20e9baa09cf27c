// SPDX-License-Identifier: MIT
// Precompiled header of the UI tests: Qt Test, Widgets and Charts, and no LibTorch (they use none).
#pragma once
#include <QtCharts/QtCharts>
#include <QtTest/QtTest>
#include <QtWidgets/QtWidgets>
#include <QTemporaryDir>
// The standard headers the shared test PCH used to bring in through LibTorch.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>
