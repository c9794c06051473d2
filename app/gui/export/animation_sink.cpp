#include "app/gui/export/animation_sink.hpp"

#include <algorithm>
#include <utility>

namespace attnlab::gui {

void MergingFrames::add(AnimationSink& sink, std::vector<unsigned char> rgb, int centiseconds) {
  if (!kept_.rgb.empty() && kept_.rgb == rgb) {
    kept_.centiseconds += centiseconds;  // the picture holds: one longer frame
    return;
  }
  if (!kept_.rgb.empty()) {
    kept_.centiseconds = std::max(1, kept_.centiseconds);
    sink.add(kept_);
  }
  kept_ = {std::move(rgb), centiseconds};
  ++distinct_;
}

void MergingFrames::lengthen(int centiseconds) {
  if (!kept_.rgb.empty()) kept_.centiseconds += std::max(0, centiseconds);
}

void MergingFrames::finish(AnimationSink& sink) {
  if (kept_.rgb.empty()) return;
  kept_.centiseconds = std::max(1, kept_.centiseconds);
  sink.add(kept_);
  kept_ = {{}, 0};
}

}  // namespace attnlab::gui
