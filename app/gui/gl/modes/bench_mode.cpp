// --bench-frames N [--bench-drag EVERY] [--bench-model EVERY] as a mode of the frame loop: N
// frames drawn as fast as they can (the slider dragged every EVERY frames; or with a model open, a
// head switched off or on every EVERY frames and generation kept running, so the Model tab's jobs
// run all along), each frame's time taken after it is shown, and the figures printed when the
// loop ends: frames, median, p95 and max in ms (with a drag, how many new traces reached the
// screen; with the model, how many heads were switched and generations finished).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <utility>
#include <vector>

#include "app/gui/gl/modes/frame_mode.hpp"
#include "app/gui/model/model_state.hpp"
#include "app/gui/panels/bench_drag.hpp"

namespace attnlab::gui {

namespace {

constexpr int kBenchTokens = 16;  // each generation of --bench-model

// `traces_shown` >= 0 (a drag): how many new traces reached the screen during the run.
void report_frame_times(std::vector<double> ms, int traces_shown) {
  if (ms.empty()) return;
  std::sort(ms.begin(), ms.end());
  const auto at = [&](double q) {
    return ms[std::min(ms.size() - 1, size_t(q * double(ms.size())))];
  };
  std::printf("frames=%zu median_ms=%.2f p95_ms=%.2f max_ms=%.2f", ms.size(), at(0.5), at(0.95),
              ms.back());
  if (traces_shown >= 0) std::printf(" traces_shown=%d", traces_shown);
}

class BenchMode final : public FrameMode {
 public:
  void before_frame(FrameLoop& loop) override {
    drag_heads_for_bench(loop.state, loop.frame, loop.options.bench_drag);
    if (loop.options.bench_model > 0) work_the_model(loop);
    shown_before_ = loop.state.session.trace.get();
  }
  void frame(FrameLoop& loop) override {
    traces_shown_ += loop.state.session.trace.get() != shown_before_;
  }
  void after_swap(FrameLoop& loop) override {
    const auto drawn = std::chrono::steady_clock::now();
    frame_ms_.push_back(std::chrono::duration<double, std::milli>(drawn - last_frame_).count());
    last_frame_ = drawn;
    over_ = loop.frame >= loop.options.bench_frames + 1;
  }
  bool done() const override { return over_; }
  void finish(FrameLoop& loop) override {
    if (frame_ms_.empty()) return;
    report_frame_times(std::vector<double>(frame_ms_.begin() + 1, frame_ms_.end()),  // 1st: setup
                       loop.options.bench_drag > 0 ? traces_shown_ : -1);
    if (loop.options.bench_model > 0)
      std::printf(" heads_switched=%d generations=%d", switched_, generations_);
    std::printf("\n");
  }

 private:
  // Every `bench_model` frames a head of the shown layer off (or on again); a generation of
  // kBenchTokens started whenever none runs. Between frames, as a click would ask for them.
  void work_the_model(FrameLoop& loop) {
    AppState& state = loop.state;
    if (!model_is_current(state)) return;
    ModelTab& tab = state.model;
    if (loop.frame % loop.options.bench_model == 0) {
      const int64_t heads = state.session.config.n_heads;
      toggle_head_ablation(state, (loop.frame / loop.options.bench_model / 2) % heads);
      ++switched_;
    }
    if (tab.generating.busy()) return;
    if (std::exchange(generating_, false) && tab.generating.result()) ++generations_;
    tab.generate_count = kBenchTokens;
    start_generation(state);
    generating_ = tab.generating.pending();
  }

  int switched_ = 0, generations_ = 0;
  bool generating_ = false;  // a generation was started and has not been counted
  const Trace* shown_before_ = nullptr;
  int traces_shown_ = 0;
  std::vector<double> frame_ms_;
  std::chrono::steady_clock::time_point last_frame_ = std::chrono::steady_clock::now();
  bool over_ = false;
};

}  // namespace

std::unique_ptr<FrameMode> bench_mode() {
  return std::make_unique<BenchMode>();
}

}  // namespace attnlab::gui
