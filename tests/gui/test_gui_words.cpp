// Errors in the app's words (issues 21 and 28): the core's messages name settings by field, and
// the app shows their controls' wording; presenter mode says the reason on the picture, where the
// lecturer looks, with the value just chosen.
#include <stdexcept>

#include "app/gui/panels/stale_banner.hpp"
#include "app/gui/state/gui_words.hpp"
#include "core/model/errors.hpp"
#include "headless_imgui.hpp"

namespace attnlab::gui {
namespace {

TEST(GuiWords, ACoreErrorIsShownInTheControlsWords) {
  EXPECT_EQ(in_gui_words(UserError("MLA is simulated for self-attention: {{drop cross}}")),
            "MLA is simulated for self-attention: turn off cross-attention");
  EXPECT_EQ(in_gui_words(UserError("needs 12 tokens, or raise T{{(seq_len)}}")),
            "needs 12 tokens, or raise T");
  EXPECT_EQ(in_gui_words(std::runtime_error("out of memory")), "out of memory");
}

class GuiErrors : public HeadlessImGui {};

TEST_F(GuiErrors, NoMessageTheAppShowsNamesAFlag) {
  start_on("seed003");
  Config config = state.session.config;
  config.sentence_kv = "le chat dort";
  config.kv_latent = 4;  // MLA with cross-attention: refused
  set_config(state, config);
  ASSERT_FALSE(state.session.issues.empty());
  for (const ConfigIssue& issue : state.session.issues)
    EXPECT_EQ(issue.in_controls.find("--"), std::string::npos) << issue.in_controls;
}

TEST_F(GuiErrors, PresenterModeSaysTheReasonAndTheValueOnThePicture) {
  start_on("seed003");  // d_model 4
  state.ui.presenter = true;
  Config config = state.session.config;
  config.n_heads = 3;
  set_config(state, config);
  frame();
  const std::string message = stale_message(state);
  EXPECT_EQ(message.find("see Controls"), std::string::npos) << message;
  EXPECT_NE(message.find("n_heads = 3 is invalid: "), std::string::npos) << message;
  EXPECT_NE(message.find(state.session.issues.front().in_controls), std::string::npos) << message;
  EXPECT_EQ(message.find("--"), std::string::npos) << message;
  state.ui.presenter = false;  // the controls are on screen: the banner points to them
  EXPECT_NE(stale_message(state).find("see Controls"), std::string::npos);
}

}  // namespace
}  // namespace attnlab::gui
