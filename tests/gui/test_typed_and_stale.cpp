// Typed numbers, stale pictures and settings, as the lecturer's test run met them: typing 40 into
// T must not compute T = 4 on the way; while the picture is not of the controls' config it says
// so; an error sits under the control that caused it; an invalid config is never saved, and saved
// settings that can no longer be used are dropped one by one, each named.
#include <imgui_internal.h>

#include "app/gui/lessons/lesson_player.hpp"
#include "app/gui/panels/stale_banner.hpp"
#include "app/gui/state/config_fields.hpp"
#include "app/gui/state/startup.hpp"
#include "headless_imgui.hpp"

namespace attnlab::gui {
namespace {

class TypedAndStale : public HeadlessImGui {
 protected:
  // Tabs through the controls until keyboard focus is on the widget labelled `label` in the
  // Controls window; a slider reached by Tab opens for typing, as ImGui does for a user.
  void tab_to(const char* label) {
    ImGui::SetWindowFocus("Controls");
    frame();
    ImGuiWindow* controls = ImGui::FindWindowByName("Controls");
    ASSERT_NE(controls, nullptr);
    const ImGuiID id = controls->GetID(label);
    for (int i = 0; i < 60 && GImGui->ActiveId != id; ++i) press(kGlfwTab);
    ASSERT_EQ(GImGui->ActiveId, id) << "Tab never reached " << label;
    ASSERT_TRUE(ImGui::TempInputIsActive(id)) << label << " did not open for typing";
  }
  // Types `text` one character a frame (the field keeps its selection: the first replaces it).
  void type(const std::string& text) {
    for (char ch : text) {
      ImGui::GetIO().AddInputCharacter(static_cast<unsigned>(ch));
      frame();
    }
  }
  void select_all() {
    ImGuiIO& io = ImGui::GetIO();
    io.KeyCtrl = true;
    io.KeysDown['A'] = true;
    frame();
    io.KeysDown['A'] = false;
    io.KeyCtrl = false;
    frame();
  }
};

TEST_F(TypedAndStale, ATypedNumberAppliesOnEnterNotAtEveryKeystroke) {
  start_on("seed003");
  const int64_t before = state.session.config.seq_len;
  tab_to("T (tokens)");
  select_all();
  type("40");
  EXPECT_EQ(state.session.config.seq_len, before) << "T = 4 was applied while 40 was being typed";
  EXPECT_EQ(state.session.trace->config.seq_len, before);
  press(kGlfwEnter);
  EXPECT_EQ(state.session.config.seq_len, 40);
  EXPECT_EQ(state.session.trace->config.tokens(), 40);
}

TEST_F(TypedAndStale, ATypedNumberAppliesWhenTheFieldIsLeft) {
  start_on("seed003");
  tab_to("B (batch)");
  select_all();
  type("3");
  EXPECT_EQ(state.session.config.batch, 1);
  press(kGlfwTab);  // on to the next control: the typed value is kept
  EXPECT_EQ(state.session.config.batch, 3);
  EXPECT_TRUE(state.controls.typed_values.empty());
}

TEST_F(TypedAndStale, TheMemoryCapMessageSitsUnderTheControlThatCausedIt) {
  start_on("seed003");
  tab_to("T (tokens)");
  select_all();
  type("60000");
  press(kGlfwEnter);
  ASSERT_FALSE(state.session.issues.empty());
  EXPECT_NE(issue_for(state, "seq_len").find("above the cap"), std::string::npos)
      << "T changed: the message belongs under T";
  EXPECT_EQ(issue_for(state, "dropout"), "");
}

TEST_F(TypedAndStale, AnInvalidSettingSaysOnThePictureWhatItShows) {
  start_on("seed003");
  EXPECT_EQ(stale_message(state), "");
  Config config = state.session.config;
  config.n_heads = 3;
  set_config(state, config);
  frame();
  EXPECT_EQ(stale_message(state),
            "Out of date: showing n_heads = 2; n_heads = 3 is invalid, see Controls");
}

TEST_F(TypedAndStale, APendingTraceSaysWhatItComputesAndWhatItShows) {
  start_on("base");
  Config config = state.session.config;
  config.batch = 48;
  set_config(state, config);
  ASSERT_TRUE(state.session.computing);
  const std::string message = stale_message(state);
  EXPECT_EQ(message.rfind("Computing B = 48 (", 0), 0u) << message;
  EXPECT_NE(message.find("showing B = 32"), std::string::npos) << message;
  state.session.worker->wait_idle();
  frame();
  EXPECT_EQ(stale_message(state), "");
}

// A preset or a lesson's scene changes many settings at once: the picture is not covered by their
// list (a wall of amber over the maps while a scene computes); they are counted, or the scene
// named.
TEST_F(TypedAndStale, ManySettingsAtOnceAreCountedOrNamedByTheirScene) {
  start_on("seed003");
  ASSERT_TRUE(apply_preset(state, "base"));
  ASSERT_TRUE(state.session.computing);
  const size_t changed = differing_fields(state.session.config, state.session.trace->config).size();
  ASSERT_GT(changed, 3u);
  std::string message = stale_message(state);
  EXPECT_EQ(message.rfind("Computing " + std::to_string(changed) + " changed settings (", 0), 0u)
      << message;
  EXPECT_NE(message.find("showing the last valid trace"), std::string::npos) << message;
  state.session.worker->wait_idle();
  frame();

  ASSERT_EQ(open_lesson(state, "ten-minutes", ""), "");
  state.session.worker->wait_idle();
  frame();
  ASSERT_TRUE(show_scene(state, 6));  // "512 = 8 x 64": Transformer base after seed003's sizes
  ASSERT_TRUE(state.session.computing);
  message = stale_message(state);
  EXPECT_EQ(message.rfind("Computing scene 7 (", 0), 0u) << message;
  EXPECT_LT(message.size(), 70u) << message;
  state.session.worker->wait_idle();
}

TEST_F(TypedAndStale, AnInvalidConfigIsNeverSaved) {
  start_on("seed003");
  Config config = state.session.config;
  config.d_model = 10;
  config.n_heads = 4;
  set_config(state, config);
  const Settings saved = current_settings(state, "");
  EXPECT_TRUE(validate(saved.config).empty());
  EXPECT_EQ(saved.config, state.session.trace->config);
}

TEST_F(TypedAndStale, SavedSettingsKeepWhatStillWorksAndNameWhatWasDropped) {
  Config saved;  // the session a student left: B = 8, a window mask, dropout 0.9 ...
  saved.sentence = "the cat sat on the mat again and again";
  saved.batch = 8;
  saved.d_model = 4;
  saved.n_heads = 3;  // ... and one setting a newer version no longer accepts
  saved.mask.window = 2;
  saved.dropout = 0.9;
  LoadedSettings restored;
  restored.found = true;
  restored.settings.config = saved;
  load_presets(state);
  StartOptions options;
  start_state(state, options, &restored);
  EXPECT_EQ(state.session.config.batch, 8);
  EXPECT_EQ(state.session.config.mask.window, 2);
  EXPECT_DOUBLE_EQ(state.session.config.dropout, 0.9);
  EXPECT_EQ(state.session.config.sentence, saved.sentence);
  EXPECT_TRUE(state.session.issues.empty());
  EXPECT_NE(state.status.find("except n_heads = 3 ("), std::string::npos) << state.status;
  EXPECT_NE(state.status.find("not divisible"), std::string::npos) << state.status;
}

TEST_F(TypedAndStale, RestoringTakesTheLargestSizesBackFirstWhenOverTheCap) {
  Config saved;
  saved.batch = 64;
  saved.seq_len = 4096;
  saved.d_model = 64;
  const RestoredConfig kept = restore_valid(saved, Config{});
  EXPECT_TRUE(validate(kept.config).empty());
  EXPECT_EQ(kept.config.seq_len, 4096) << "B alone brings it under the cap? then T stays";
  ASSERT_FALSE(kept.dropped.empty());
  EXPECT_EQ(kept.dropped.front().rfind("B = 64 (computing this configuration needs", 0), 0u)
      << kept.dropped.front();
}

}  // namespace
}  // namespace attnlab::gui
