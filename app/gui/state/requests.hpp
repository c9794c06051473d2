// The one way a panel changes what it is drawing. A click that would replace the trace, the config,
// the session or the model shown (a checkbox switching a head off, a slider, a preset, a layer of
// the Model tab) is asked for with `state.requests.later([…](AppState& s) { … })`; the frame loop
// runs every request after the last panel has drawn (draw_frame), so no panel ever reads a trace
// that a widget above it freed. ImHex's views do the same with TaskManager::doLater.
#pragma once

#include <functional>
#include <utility>
#include <vector>

namespace attnlab::gui {

struct AppState;

class Requests {
 public:
  using Change = std::function<void(AppState&)>;

  // Queues `change` for the end of this frame, after the one queued before it.
  void later(Change change) { queue_.push_back(std::move(change)); }
  bool empty() const { return queue_.empty(); }

  // Runs the queued changes in order; one that asks for another queues it for the next frame.
  void apply(AppState& state) {
    std::vector<Change> now;
    now.swap(queue_);
    for (Change& change : now) change(state);
  }

 private:
  std::vector<Change> queue_;
};

}  // namespace attnlab::gui
