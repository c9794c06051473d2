// Issue 6: the GUI cannot be driven into a crash or a NaN on screen from its controls. Thousands of
// seeded random control changes, a headless frame after each; every frame shows a valid trace of
// the current settings or explains (in red, beside the control) why it does not. The next lessons'
// variants (GQA, decode, MLA, cross-attention) are driven too, with their values computed.
#include <cstdio>
#include <limits>
#include <map>
#include <string>

#include "control_driver.hpp"
#include "headless_imgui.hpp"

namespace attnlab::gui {
namespace {

constexpr uint64_t kSeed = 20240601;
constexpr int kChanges = 3000;

class ControlFuzz : public HeadlessImGui {};

TEST_F(ControlFuzz, EveryFrameShowsAValidTraceOrAnExplanation) {
  start_on("seed003");
  ControlDriver driver(kSeed, [this] { frame(); });
  int applied = 0, refused = 0, worker_runs = 0;
  // Frames that showed values of each of the next lessons' variants (not only their shapes).
  std::map<std::string, int> variant_frames;
  for (int i = 0; i < kChanges; ++i) {
    const std::shared_ptr<const Trace> before = state.session.trace;
    const uint64_t requests_before = state.session.last_request;
    const ControlChange change = driver.apply(state);
    applied += change.applied;
    worker_runs += state.session.computing && state.session.last_request != requests_before;
    // Most runs finish before the next change; every third change arrives while one is in flight.
    if (i % 3 != 0) state.session.worker->wait_idle();
    frame();
    const std::string context = "change " + std::to_string(i) + " (" + change.what + "), config " +
                                config_text(state.session.config);
    if (change.oversize) {
      ++refused;
      ASSERT_FALSE(state.session.issues.empty()) << "computed an oversize config: " << context;
      ASSERT_FALSE(state.session.computing) << context;
      ASSERT_EQ(state.session.trace, before) << context;
    }
    ASSERT_EQ(frame_problem(state), "") << context;
    if (state.session.trace && !state.session.trace->shape_only) {
      const Config& shown = state.session.trace->config;
      variant_frames["GQA / MQA"] += shown.grouped();
      variant_frames["decode"] += !state.session.trace->decode.steps.empty();
      variant_frames["MLA"] += shown.latent();
      variant_frames["MLA with d_c'"] += shown.latent() && shown.q_latent > 0;
      variant_frames["cross-attention"] += shown.cross();
    }
  }
  for (const char* variant : {"GQA / MQA", "decode", "MLA", "MLA with d_c'", "cross-attention"})
    EXPECT_GT(variant_frames[variant], 20) << variant << " was hardly driven";
  state.session.worker->wait_idle();
  frame();
  EXPECT_EQ(frame_problem(state), "");
  EXPECT_GT(applied, kChanges * 3 / 4);
  EXPECT_GT(refused, 20);
  EXPECT_GT(worker_runs, 20) << "the worker path must be exercised too";
  std::printf("gui fuzz: %d changes (%d applied), %d oversize refused, %d worker runs\n", kChanges,
              applied, refused, worker_runs);
  for (const auto& [variant, frames] : variant_frames)
    std::printf("  frames with %s values: %d\n", variant.c_str(), frames);
}

// Found by the fuzz test: the window and global-token sliders take T as their maximum, and ImGui
// aborts on an int64 slider range beyond +-2^62.
TEST_F(ControlFuzz, ATypedInHugeTKeepsTheMaskSlidersDrawable) {
  start_on("seed003");
  Config config = state.session.config;
  config.seq_len = std::numeric_limits<int64_t>::max();
  set_config(state, config);
  frame();
  EXPECT_NE(issue_for(state, "seq_len"), "");
  EXPECT_EQ(frame_problem(state), "");
}

// Found by the soak: Shift+1 grew ablated_heads to a typed-in n_heads of 2^63 - 1 (bad_alloc).
TEST_F(ControlFuzz, AblatingAHeadWithAHugeTypedInHeadCountAllocatesNothing) {
  start_on("seed003");
  Config config = state.session.config;
  config.n_heads = std::numeric_limits<int64_t>::max();
  set_config(state, config);
  toggle_head_ablation(state, 1);
  frame();
  EXPECT_EQ(state.session.config.ablated_heads.size(), 2u);
  EXPECT_NE(issue_for(state, "n_heads"), "");
  EXPECT_EQ(frame_problem(state), "");
}

// Found by the fuzz driving the K/V heads control: it listed the divisors of a typed-in n_heads of
// 2^40 one by one, every frame (a frozen window).
TEST_F(ControlFuzz, AHugeTypedInHeadCountLeavesTheKVHeadsControlQuick) {
  start_on("seed003");
  Config config = state.session.config;
  config.n_heads = int64_t{1} << 40;
  set_config(state, config);
  frame();
  EXPECT_NE(issue_for(state, "n_heads"), "");
  EXPECT_EQ(frame_problem(state), "");
}

// Found by the fuzz driving decode: its slider's range is the last T - 1 tokens, and ImGui aborts
// on an int64 slider range beyond +-2^62 (T typed in as 2^63 - 1).
TEST_F(ControlFuzz, ATypedInHugeTKeepsTheDecodeSliderDrawable) {
  start_on("seed003");
  Config config = state.session.config;
  config.decode_steps = 2;  // the next lessons' section opens
  set_config(state, config);
  frame();
  config.seq_len = std::numeric_limits<int64_t>::max();
  set_config(state, config);
  frame();
  EXPECT_NE(issue_for(state, "seq_len"), "");
  EXPECT_EQ(frame_problem(state), "");
}

}  // namespace
}  // namespace attnlab::gui
