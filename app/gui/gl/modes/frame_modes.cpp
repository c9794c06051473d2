#include "app/gui/gl/modes/frame_mode.hpp"

namespace attnlab::gui {

std::vector<std::unique_ptr<FrameMode>> frame_modes(const StartOptions& options) {
  std::vector<std::unique_ptr<FrameMode>> modes;
  // Only when asked: a lecture left running all day keeps no list of frame times.
  if (options.bench_frames > 0) modes.push_back(bench_mode());
  if (!options.export_slides.empty()) modes.push_back(slide_export_mode());
  if (!options.export_png.empty() || !options.export_animation.empty())
    modes.push_back(picture_export_mode());
  if (!options.screenshot.empty()) modes.push_back(screenshot_mode());
  modes.push_back(export_requests_mode());
  modes.push_back(recording_mode());
  modes.push_back(audience_mode());
  return modes;
}

}  // namespace attnlab::gui
