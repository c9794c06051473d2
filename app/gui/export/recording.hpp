// Record while you step: the frames a recording sends to its encoder, and how long each is shown.
#pragma once

#include <memory>
#include <vector>

#include "app/gui/export/save_state.hpp"

namespace attnlab::gui {

// Starts sending frames of `width` x `height` at `fps` to `sink`, from `seconds` (a steady
// clock's).
void start_recording(Recording& recording, int fps, int width, int height, double seconds,
                     std::unique_ptr<AnimationSink> sink);

// True when the frame drawn at `seconds` is to be kept: 1 / fps after the last one kept.
bool recording_wants_frame(const Recording& recording, double seconds);

// Takes the frame's rgb (width * height * 3) drawn at `seconds`; the one before is shown until
// then (and sent to the encoder once a different picture arrives), and a picture equal to it only
// makes it longer. False (nothing kept) when the size changed: the recording should stop. Throws
// the encoder's UserError when the file cannot be written.
bool keep_frame(Recording& recording, std::vector<unsigned char> rgb, int width, int height,
                double seconds);

// Ends the recording at `seconds` (the last frame shown until then) and finishes its file; returns
// how many distinct frames it holds (0: nothing was recorded, and no file is left).
size_t stop_recording(Recording& recording, double seconds);

}  // namespace attnlab::gui
