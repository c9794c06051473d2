// Seeded random changes to the app's controls, each made through the function the control itself
// calls (set_config with the edited config, apply_padding_text, apply_preset, set_mistake,
// toggle_head_ablation, the heatmap view) or as key presses in headless frames (stage steps, tabs,
// M, Shift+digit, Escape). The next lessons' controls too: K/V heads, the K/V sentence
// (cross-attention), decode (whose tab the arrows then step) and MLA's d_c, d_rope and d_c'.
// Values cover what a user can reach: slider ranges, and typed-in values beyond them (Ctrl+click),
// bad padding text, empty / UTF-8 / control-character / very long sentences.
//
// Sizes stay bounded so thousands of changes run in seconds: a valid config whose trace needs more
// than kMaxTraceBytes is not applied (the change is skipped), except the deliberate oversize
// changes beyond the memory cap, which the app must refuse with a message and never compute.
#pragma once

#include <cstdint>
#include <functional>
#include <random>
#include <string>

#include "app/gui/state/app_state.hpp"

namespace attnlab::gui {

struct ControlChange {
  std::string what;       // "n_heads=5", "key Right", "skipped: d_model=900 (too big)"
  bool applied = true;    // false: skipped as too big to compute quickly
  bool oversize = false;  // beyond the memory cap: must be refused, the shown trace unchanged
};

class ControlDriver {
 public:
  static constexpr int64_t kMaxTraceBytes = int64_t{8} << 20;

  // `run_frame` runs one headless frame; key presses hold the key for one frame.
  ControlDriver(uint64_t seed, std::function<void()> run_frame);

  ControlChange apply(AppState& state);

 private:
  int64_t pick(int64_t low, int64_t high);  // uniform in [low, high]
  bool chance(double p);
  template <typename T, size_t N>
  const T& one_of(const T (&choices)[N]) {
    return choices[size_t(pick(0, int64_t(N) - 1))];
  }

  // A slider's value: mostly inside its range, sometimes typed beyond it.
  int64_t slider_value(int64_t low, int64_t high);
  ControlChange edit_config(AppState& state);  // one config control, through set_config
  ControlChange edit_sizes(Config& c);
  ControlChange edit_mask(AppState& state, Config& c);
  ControlChange edit_model(AppState& state, Config& c);
  ControlChange edit_sentence(Config& c);
  ControlChange edit_variants(Config& c);
  ControlChange make_oversize(AppState& state);
  // T and B such that the run goes to the worker thread (above kSyncTraceBytes).
  ControlChange drag_to_worker_size(AppState& state);
  ControlChange switch_preset(AppState& state);
  ControlChange press_key(AppState& state);
  ControlChange edit_display(AppState& state);
  ControlChange press(int key, bool shift, const std::string& name);

  std::mt19937_64 rng_;
  std::function<void()> run_frame_;
};

// "" when the frame just drawn shows a valid trace of the current settings with no NaN/Inf (in the
// trace or its heatmaps), adopted between frames (never under a drawing panel), or explains why
// not: every config issue drawn beside its control, a failed run's message, a run in progress, or
// a cancelled one; else what is wrong.
std::string frame_problem(AppState& state);

// The config as one line of JSON, for failure messages (bytes that are not UTF-8 as U+FFFD).
std::string config_text(const Config& config);

// Bytes a config's run holds: its trace, and the correct twin's with a mistake (0: invalid, never
// run).
int64_t run_bytes(const Config& config);

}  // namespace attnlab::gui
