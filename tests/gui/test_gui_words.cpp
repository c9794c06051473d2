// Errors in the app's words (issue 21): the core's messages name flags; the app names controls,
// and presenter mode says the reason on the picture, where the lecturer looks, with the value
// just chosen.
#include "app/gui/panels/stale_banner.hpp"
#include "app/gui/state/gui_words.hpp"
#include "headless_imgui.hpp"

namespace attnlab::gui {
namespace {

TEST(GuiWords, FlagsBecomeTheControlsThatSetThem) {
  EXPECT_EQ(in_gui_words("MLA is simulated for self-attention: drop --sentence-kv / --x-kv"),
            "MLA is simulated for self-attention: turn off K/V sentence / the K/V inputs");
  EXPECT_EQ(in_gui_words("needs 12 tokens, or raise T (--seq-len)"), "needs 12 tokens, or raise T");
  EXPECT_EQ(in_gui_words("turn the causal mask on (--mask causal)"), "turn the causal mask on");
  EXPECT_EQ(in_gui_words("set its latent width too (--mla D_C[:D_ROPE])"),
            "set its latent width too");
  EXPECT_EQ(in_gui_words("drop --kv-heads, or drop --mla"), "turn off K/V heads, or turn off MLA");
  EXPECT_EQ(in_gui_words("no flags here: d_model=10"), "no flags here: d_model=10");
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
    EXPECT_EQ(issue.message.find("--"), std::string::npos) << issue.message;
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
  EXPECT_NE(message.find(state.session.issues.front().message), std::string::npos) << message;
  EXPECT_EQ(message.find("--"), std::string::npos) << message;
  state.ui.presenter = false;  // the controls are on screen: the banner points to them
  EXPECT_NE(stale_message(state).find("see Controls"), std::string::npos);
}

}  // namespace
}  // namespace attnlab::gui
