#include "app/gui/export/recording.hpp"

#include <algorithm>
#include <cmath>

namespace attnlab::gui {

namespace {

// The last frame is shown from when it was kept until `seconds`.
void close_last_frame(Recording& recording, double seconds) {
  if (recording.frames.empty()) return;
  const int shown = int(std::lround((seconds - recording.last_frame) * 100));
  recording.frames.back().centiseconds += std::max(0, shown);
  recording.last_frame = seconds;
}

}  // namespace

void start_recording(Recording& recording, int fps, int width, int height, double seconds) {
  recording = Recording{};
  recording.on = true;
  recording.fps = std::max(1, fps);
  recording.width = width;
  recording.height = height;
  recording.last_frame = seconds;
}

bool recording_wants_frame(const Recording& recording, double seconds) {
  // A little early counts: frames come at the display's refresh, not exactly at 1 / fps.
  return recording.on &&
         (recording.frames.empty() || seconds - recording.last_frame >= 0.9 / recording.fps);
}

bool keep_frame(Recording& recording, std::vector<unsigned char> rgb, int width, int height,
                double seconds) {
  if (width != recording.width || height != recording.height) return false;
  close_last_frame(recording, seconds);
  if (!recording.frames.empty() && recording.frames.back().rgb == rgb) return true;
  if (recording.bytes + rgb.size() > kMaxRecordingBytes) return false;
  recording.bytes += rgb.size();
  recording.frames.push_back({std::move(rgb), 0});
  recording.last_frame = seconds;
  return true;
}

std::vector<AnimationFrame> stop_recording(Recording& recording, double seconds) {
  close_last_frame(recording, seconds);
  std::vector<AnimationFrame> frames = std::move(recording.frames);
  for (AnimationFrame& frame : frames) frame.centiseconds = std::max(1, frame.centiseconds);
  recording = Recording{};
  return frames;
}

}  // namespace attnlab::gui
