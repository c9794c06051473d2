// Animated GIF through giflib, written as its frames are made (an AnimationSink): each frame with
// its own palette, looping.
#pragma once

#include <string>
#include <vector>

#include "app/gui/export/animation_sink.hpp"
#include "core/model/run_control.hpp"

namespace attnlab::gui {

// A GIF written frame by frame into a temporary file beside `path`: each frame with its own
// palette (the 256 colours it uses most, so a heatmap's colours stay the colour map's), looping.
// Throws UserError naming the file when it cannot be written.
class GifStream final : public AnimationSink {
 public:
  GifStream(const std::string& path, int width, int height);
  ~GifStream() override;
  GifStream(const GifStream&) = delete;
  GifStream& operator=(const GifStream&) = delete;
  void add(const AnimationFrame& frame) override;
  void finish() override;

 private:
  void fail(int code);
  std::string path_, temporary_;
  int width_ = 0, height_ = 0;
  void* gif_ = nullptr;  // GifFileType, open until finished
  size_t frames_ = 0;
};

// Writes `path` whole or not at all, through a GifStream; throws UserError naming the file when it
// cannot be written. `control` follows the frames encoded and can stop it (Cancelled, nothing
// written).
void write_gif(const std::string& path, int width, int height,
               const std::vector<AnimationFrame>& frames, const RunControl& control = {});

// A frame's palette: at most 256 colours, each the mean of a 5-bit-per-channel bin of its pixels,
// the most used first; and for every bin (r >> 3, g >> 3, b >> 3) the frame uses, the nearest.
struct Palette256 {
  std::vector<unsigned char> colours;  // r, g, b of each entry
  std::vector<unsigned char> of_bin;   // 32768 entries
};
Palette256 frame_palette(const std::vector<unsigned char>& rgb);

}  // namespace attnlab::gui
