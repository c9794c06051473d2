// The colour maps as their authors published them, typed here from the sources (not from the
// app's tables), so a test can say whether the app draws viridis and RdBu rather than whatever its
// own colour function returns.
//   viridis: matplotlib's lib/matplotlib/_cm_listed.py, _viridis_data (256 entries, CC0; Smith,
//     van der Walt and Firing), as matplotlib's ListedColormap returns it at t = k/32: entries
//     0, 8, ..., 248 and 255, rounded to 8 bits. viridis(0) = #440154, viridis(0.5) = #21918c,
//     viridis(1) = #fde725. Between these stops the published map departs from a straight line by
//     under 3/255.
//   RdBu: ColorBrewer's 9-class RdBu (colorbrewer2.org, Cynthia Brewer), reversed so negative is
//     blue: #2166ac ... #f7f7f7 (0, the middle) ... #b2182b.
// Between stops: linear in sRGB, as a GPU's linear texture filter mixes them.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

namespace attnlab::testing {

inline constexpr std::array<uint32_t, 33> kPublishedViridis = {
    0x440154, 0x470d60, 0x48186a, 0x482374, 0x472d7b, 0x453781, 0x424086, 0x3e4989, 0x3b528b,
    0x375b8d, 0x33638d, 0x2f6b8e, 0x2c728e, 0x297a8e, 0x26828e, 0x23898e, 0x21918c, 0x1f988b,
    0x1fa088, 0x22a785, 0x28ae80, 0x32b67a, 0x3fbc73, 0x4ec36b, 0x5ec962, 0x70cf57, 0x84d44b,
    0x98d83e, 0xaddc30, 0xc2df23, 0xd8e219, 0xece51b, 0xfde725};

inline constexpr std::array<uint32_t, 9> kPublishedRdBuReversed = {
    0x2166ac, 0x4393c3, 0x92c5de, 0xd1e5f0, 0xf7f7f7, 0xfddbc7, 0xf4a582, 0xd6604d, 0xb2182b};

struct Rgb255 {
  double r, g, b;  // 0 .. 255
};

// The colour at t in [0, 1] (clamped) of evenly spaced stops, mixed linearly.
template <size_t N>
Rgb255 published_colour(const std::array<uint32_t, N>& stops, double t) {
  t = std::clamp(t, 0.0, 1.0);
  const double position = t * double(N - 1);
  const size_t low = std::min(size_t(position), N - 2);
  const double f = position - double(low);
  const auto channel = [&](int shift) {
    const double a = double((stops[low] >> shift) & 0xFF),
                 b = double((stops[low + 1] >> shift) & 0xFF);
    return a + (b - a) * f;
  };
  return {channel(16), channel(8), channel(0)};
}

}  // namespace attnlab::testing
