// SPDX-License-Identifier: MIT
// Seeded, portable random numbers (SplitMix64): the engine never uses torch's global generator.
#pragma once
#include <cstdint>
#include <numeric>
#include <vector>

namespace dpu {

/// SplitMix64 finaliser: a bijective 64-bit mix (the same as dpu_mix64 in core/patch).
inline uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/// Derives an independent stream key from a seed and up to three labels.
inline uint64_t deriveSeed(uint64_t seed, uint64_t a, uint64_t b = 0, uint64_t c = 0)
{
    uint64_t h = mix64(seed + 0x9E3779B97F4A7C15ULL);
    h = mix64(h ^ (a + 0x632BE59BD9B4E019ULL));
    h = mix64(h ^ (b + 0x8CB92BA72F3D8DD7ULL));
    return mix64(h ^ (c + 0xD1B54A32D192ED03ULL));
}

class Rng {
public:
    explicit Rng(uint64_t seed) : state_(seed) {}
    uint64_t next()
    {
        state_ += 0x9E3779B97F4A7C15ULL;
        return mix64(state_);
    }
    /// Uniform integer in [0, n) without modulo bias (n > 0).
    uint64_t below(uint64_t n)
    {
        const uint64_t limit = UINT64_MAX - UINT64_MAX % n;
        uint64_t x;
        do {
            x = next();
        } while (x >= limit);
        return x % n;
    }
    /// Fisher-Yates permutation of 0..n-1.
    std::vector<int64_t> permutation(int64_t n)
    {
        std::vector<int64_t> p(static_cast<size_t>(n));
        std::iota(p.begin(), p.end(), int64_t{0});
        for (int64_t i = n - 1; i > 0; --i) {
            const auto j = static_cast<int64_t>(below(static_cast<uint64_t>(i) + 1));
            std::swap(p[static_cast<size_t>(i)], p[static_cast<size_t>(j)]);
        }
        return p;
    }

private:
    uint64_t state_;
};

} // namespace dpu
