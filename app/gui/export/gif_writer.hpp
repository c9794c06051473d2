// Animated GIF through giflib: one palette for the whole animation (the 256 colours its frames use
// most, so a heatmap's colours stay the colour map's), frames that repeat merged into one longer
// frame, looping.
#pragma once

#include <string>
#include <vector>

#include "core/model/run_control.hpp"

namespace attnlab::gui {

struct AnimationFrame {
  std::vector<unsigned char> rgb;  // width * height * 3, top row first
  int centiseconds = 10;           // how long it is shown
};

// Writes `path` whole or not at all (a temporary file, then renamed); throws UserError naming the
// file when it cannot be written. `control` follows the frames encoded and can stop it (Cancelled,
// nothing written).
void write_gif(const std::string& path, int width, int height,
               const std::vector<AnimationFrame>& frames, const RunControl& control = {});

// The animation's palette: at most 256 colours, each the mean of a 5-bit-per-channel bin of the
// frames' pixels, the most used first; and for every bin (r >> 3, g >> 3, b >> 3) the nearest.
struct Palette256 {
  std::vector<unsigned char> colours;  // r, g, b of each entry
  std::vector<unsigned char> of_bin;   // 32768 entries
};
Palette256 animation_palette(const std::vector<AnimationFrame>& frames);

}  // namespace attnlab::gui
