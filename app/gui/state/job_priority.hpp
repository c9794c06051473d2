// Work off the UI thread yields to the window: a job's thread (BackgroundTask, the trace worker)
// lowers its own scheduling priority when it starts, so on a machine of two cores a model pass
// or a trace computing takes the time the window's frame and the software renderer leave, and
// the frame is drawn on time (docs/performance.md, the Model tab's frame times).
#pragma once

namespace attnlab::gui {

// Lowers the calling thread's priority (Linux: its nice value to kJobNice); elsewhere nothing.
void lower_this_thread_priority();

constexpr int kJobNice = 10;

}  // namespace attnlab::gui
