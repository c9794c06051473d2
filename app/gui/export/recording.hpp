// Record while you step: the frames a recording keeps, and how long each is shown.
#pragma once

#include <vector>

#include "app/gui/export/save_state.hpp"

namespace attnlab::gui {

// Starts keeping frames of `width` x `height` at `fps`, from `seconds` (a steady clock's).
void start_recording(Recording& recording, int fps, int width, int height, double seconds);

// True when the frame drawn at `seconds` is to be kept: 1 / fps after the last one kept.
bool recording_wants_frame(const Recording& recording, double seconds);

// Keeps the frame's rgb (width * height * 3) drawn at `seconds`; the one before is shown until
// then, and a picture equal to it only makes it longer. False (nothing kept) when the frames'
// memory would pass kMaxRecordingBytes or the size changed: the recording should stop.
bool keep_frame(Recording& recording, std::vector<unsigned char> rgb, int width, int height,
                double seconds);

// Ends the recording at `seconds` and hands its frames over (the last shown until then).
std::vector<AnimationFrame> stop_recording(Recording& recording, double seconds);

}  // namespace attnlab::gui
