#include "app/gui/export/recording.hpp"

#include <algorithm>
#include <cmath>

namespace attnlab::gui {

namespace {

// The last frame is shown from when it was kept until `seconds`.
void close_last_frame(Recording& recording, double seconds) {
  if (recording.frames.empty()) return;
  recording.frames.lengthen(int(std::lround((seconds - recording.last_frame) * 100)));
  recording.last_frame = seconds;
}

}  // namespace

void start_recording(Recording& recording, int fps, int width, int height, double seconds,
                     std::unique_ptr<AnimationSink> sink) {
  recording = Recording{};
  recording.on = true;
  recording.fps = std::max(1, fps);
  recording.width = width;
  recording.height = height;
  recording.last_frame = seconds;
  recording.sink = std::move(sink);
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
  recording.frames.add(*recording.sink, std::move(rgb), 0);
  recording.last_frame = seconds;
  return true;
}

size_t stop_recording(Recording& recording, double seconds) {
  close_last_frame(recording, seconds);
  Recording done = std::move(recording);
  recording = Recording{};
  const size_t frames = done.frames.distinct();
  if (frames == 0) return 0;  // the encoder, dropped, leaves no file
  done.frames.finish(*done.sink);
  done.sink->finish();
  return frames;
}

}  // namespace attnlab::gui
