// A new lesson starts clean (issue 21): config flags start from the preset (or seed003), not from
// the last session's leftovers; without them the last session comes back with its step and tab;
// the window's size comes back unless --width or --height is given.
#include <gtest/gtest.h>

#include <vector>

#include "app/gui/state/options.hpp"
#include "app/gui/state/startup.hpp"
#include "parsed_options.hpp"

namespace attnlab::gui {
namespace {

// The last session: a model trained on its own sentence, with d_k unlinked, biases, padding and
// dropout, shown at the softmax on the Decode tab, in a 1280 x 720 window.
LoadedSettings trained_session() {
  LoadedSettings loaded;
  loaded.found = true;
  Config& c = loaded.settings.config;
  c.sentence = "the trained sentence of last week";
  c.d_in = 8;
  c.d_model = 32;
  c.n_heads = 2;
  c.d_k = 16;
  c.bias = true;
  c.mask.causal = true;
  c.mask.padding_lengths = {3};
  c.dropout = 0.1;
  loaded.settings.stage = "attend:softmax";
  loaded.settings.tab = "decode";
  loaded.settings.window_width = 1280;
  loaded.settings.window_height = 720;
  return loaded;
}

TEST(NewLesson, ConfigFlagsStartFromSeed003NotTheLastSession) {
  const StartOptions o = parsed({"--seq-len", "8", "--d-model", "16", "--heads", "8", "--kv-heads",
                                 "2", "--screenshot", "a.png"});
  EXPECT_TRUE(o.config_flags_given);
  const LoadedSettings last = trained_session();
  EXPECT_FALSE(restores_session(o, &last));
  AppState state;
  ASSERT_EQ(start_state(state, o, &last), "");
  const Config& c = state.session.config;
  // seed003 (d_in 8, causal, no biases, no output projection) with the four flags.
  EXPECT_EQ(c.sentence, "The artist painted the portrait of a woman with a brush");
  EXPECT_EQ(c.seq_len, 8);
  EXPECT_EQ(c.d_in, 8);
  EXPECT_EQ(c.d_model, 16);
  EXPECT_EQ(c.n_heads, 8);
  EXPECT_EQ(c.n_kv_heads, 2);
  EXPECT_EQ(c.d_k, 0) << "d_k follows d_model / n_heads = 2, not last session's 16";
  EXPECT_EQ(c.head_dim_k(), 2);
  EXPECT_FALSE(c.bias);
  EXPECT_FALSE(c.output_proj);
  EXPECT_TRUE(c.mask.causal);
  EXPECT_TRUE(c.mask.padding_lengths.empty());
  EXPECT_EQ(c.dropout, 0.0);
  EXPECT_TRUE(state.ui.link_d_k);
  EXPECT_EQ(state.session.preset_name, "") << "the bar shows (custom), not seed003";
  // Nor the last session's step and tab.
  ASSERT_TRUE(state.session.trace) << state.session.run_error;
  EXPECT_EQ(state.walk.step_index, 0);
  EXPECT_FALSE(state.tabs.requested_tool.has_value());
}

TEST(NewLesson, DisplayFlagsAloneRestoreTheLastSessionWithItsStepAndTab) {
  const StartOptions o = parsed({"--theme", "dark", "--font-scale", "1.5"});
  EXPECT_FALSE(o.config_flags_given);
  const LoadedSettings last = trained_session();
  EXPECT_TRUE(restores_session(o, &last));
  AppState state;
  ASSERT_EQ(start_state(state, o, &last), "");
  state.session.worker->wait_idle();
  poll_trace(state);
  EXPECT_EQ(state.session.config, last.settings.config);
  EXPECT_EQ(state.ui.theme, Theme::Dark);
  ASSERT_TRUE(state.session.trace) << state.session.run_error;
  const PipelineStep* step = current_step(state);
  ASSERT_NE(step, nullptr);
  EXPECT_EQ(step->stage, Stage::Attend);
  EXPECT_EQ(step->substep, Substep::Softmax);
  EXPECT_EQ(state.tabs.requested_tool, ToolTab::Decode);
}

TEST(NewLesson, StageAndTabFlagsWinOverTheRestoredOnes) {
  const StartOptions o = parsed({"--stage", "split", "--tab", "memory"});
  const LoadedSettings last = trained_session();
  AppState state;
  ASSERT_EQ(start_state(state, o, &last), "");
  state.session.worker->wait_idle();
  poll_trace(state);
  ASSERT_NE(current_step(state), nullptr);
  EXPECT_EQ(current_step(state)->stage, Stage::Split);
  EXPECT_EQ(state.tabs.requested_tool, ToolTab::Memory);
}

TEST(NewLesson, APresetStartsCleanToo) {
  const StartOptions o = parsed({"--preset", "cat"});
  EXPECT_FALSE(o.config_flags_given);
  const LoadedSettings last = trained_session();
  EXPECT_FALSE(restores_session(o, &last));
  AppState state;
  ASSERT_EQ(start_state(state, o, &last), "");
  EXPECT_EQ(state.session.config.sentence, "The cat sat on the mat");
  EXPECT_EQ(state.walk.step_index, 0);
  EXPECT_EQ(state.session.preset_name, "cat");
}

TEST(NewLesson, ARestoredStepTheTraceLacksIsDroppedQuietly) {
  LoadedSettings last = trained_session();
  last.settings.stage = "attend:dropout";  // dropout 0: no such sub-step
  last.settings.config.dropout = 0;
  AppState state;
  ASSERT_EQ(start_state(state, parsed({}), &last), "");
  state.session.worker->wait_idle();
  poll_trace(state);
  EXPECT_EQ(state.walk.step_index, 0);
  EXPECT_TRUE(state.walk.pending_stage.empty());
}

TEST(NewLesson, TheStepAndTabShownAreSaved) {
  AppState state;
  ASSERT_EQ(start_state(state, parsed({"--preset", "seed003", "--screenshot", "a.png"}), nullptr),
            "");
  ASSERT_TRUE(go_to_named_step(state, "attend:softmax"));
  state.tabs.tool = ToolTab::KVCache;
  const Settings saved = current_settings(state, "");
  EXPECT_EQ(saved.stage, "attend:softmax");
  EXPECT_EQ(saved.tab, "kv-cache");
  const Settings loaded = settings_from_json(settings_to_json(saved), "test");
  EXPECT_EQ(loaded.stage, "attend:softmax");
  EXPECT_EQ(loaded.tab, "kv-cache");
  ASSERT_TRUE(go_to_named_step(state, "project"));
  EXPECT_EQ(current_settings(state, "").stage, "project");
}

TEST(NewLesson, TheWindowSizeComesBackUnlessGiven) {
  const LoadedSettings last = trained_session();
  StartOptions plain = parsed({"--heads", "1"});
  restore_window_size(plain, &last);
  EXPECT_EQ(plain.width, 1280);
  EXPECT_EQ(plain.height, 720);
  StartOptions sized = parsed({"--width", "1024"});
  restore_window_size(sized, &last);
  EXPECT_EQ(sized.width, 1024);
  EXPECT_EQ(sized.height, 1000);
  LoadedSettings odd = last;
  odd.settings.window_width = 100;  // below --width's range: a hand-edited file
  StartOptions fallback = parsed({});
  restore_window_size(fallback, &odd);
  EXPECT_EQ(fallback.width, 1600);
  EXPECT_EQ(fallback.height, 1000);
  const Settings loaded = settings_from_json(settings_to_json(last.settings), "test");
  EXPECT_EQ(loaded.window_width, 1280);
  EXPECT_EQ(loaded.window_height, 720);
}

}  // namespace
}  // namespace attnlab::gui
