// The first start fits the screen and says where to begin (issue 29): the window takes the
// monitor's work area, a remembered size is cut to it; the first start's card takes the first key
// or click, which dismisses it for good (the settings remember it).
#include <vector>

#include "app/gui/panels/first_start_card.hpp"
#include "app/gui/state/options.hpp"
#include "app/gui/state/settings.hpp"
#include "app/gui/state/startup.hpp"
#include "headless_imgui.hpp"
#include "parsed_options.hpp"

namespace attnlab::gui {
namespace {

TEST(FirstStartWindow, TakesTheWorkAreaAndCutsARememberedSizeToIt) {
  StartOptions first;  // nothing remembered, nothing given: the whole work area
  fit_window_to_work_area(first, 1280, 690);
  EXPECT_EQ(first.width, 1280);
  EXPECT_EQ(first.height, 690);

  StartOptions remembered;
  LoadedSettings last;
  last.found = true;
  last.settings.window_width = 1600;
  last.settings.window_height = 600;
  restore_window_size(remembered, &last);
  fit_window_to_work_area(remembered, 1024, 740);
  EXPECT_EQ(remembered.width, 1024) << "never wider than the work area";
  EXPECT_EQ(remembered.height, 600) << "a remembered size that fits is kept";

  StartOptions given;  // --width / --height: as asked
  given.width = 1920;
  given.height = 1080;
  given.size_given = true;
  fit_window_to_work_area(given, 1024, 740);
  EXPECT_EQ(given.width, 1920);
  EXPECT_EQ(given.height, 1080);
}

TEST(FirstStartSettings, TheDismissedCardIsRememberedAndOlderFilesAreNoFirstStart) {
  Settings s;
  EXPECT_FALSE(s.ui.first_start_done);
  EXPECT_FALSE(settings_from_json(settings_to_json(s), "test").ui.first_start_done);
  s.ui.first_start_done = true;
  EXPECT_TRUE(settings_from_json(settings_to_json(s), "test").ui.first_start_done);
  EXPECT_TRUE(settings_from_json("{\"version\": 1}", "old").ui.first_start_done);
}

class FirstStartCard : public HeadlessImGui {};

TEST_F(FirstStartCard, TheFirstKeyDismissesItAndDoesNothingElse) {
  start_on("seed003");
  state.window.first_start_card = true;
  frame();
  frame();
  const int step = state.walk.step_index;
  press(kGlfwRight);
  EXPECT_FALSE(state.window.first_start_card);
  EXPECT_TRUE(state.ui.first_start_done);
  EXPECT_EQ(state.walk.step_index, step) << "the key that dismisses the card does not step";
  press(kGlfwRight);
  EXPECT_EQ(state.walk.step_index, step + 1) << "after it, the keys work";
}

TEST_F(FirstStartCard, AClickDismissesItWithoutReachingThePanelsUnderIt) {
  start_on("seed003");
  state.window.first_start_card = true;
  frame();
  const Config before = state.session.config;
  const PlacedItem heads = item("Number of heads h");
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos = ImVec2(heads.min.x + 4, (heads.min.y + heads.max.y) / 2);  // on the slider
  frame();
  io.MouseDown[0] = true;
  frame();
  io.MouseDown[0] = false;
  frame();
  EXPECT_FALSE(state.window.first_start_card);
  EXPECT_EQ(state.session.config, before) << "the click went to the card, not the slider";
}

// The card is for a person's first start, not for a class watching a lesson or a student's
// answer being checked (issue 38).
TEST(FirstStartChoice, ShowsOnAFirstPlainStartOnly) {
  EXPECT_TRUE(shows_first_start_card(parsed({}), false));
  EXPECT_TRUE(shows_first_start_card(parsed({"--preset", "seed003"}), false));
  EXPECT_FALSE(shows_first_start_card(parsed({}), true));
  EXPECT_FALSE(shows_first_start_card(parsed({"--lesson", "ten-minutes"}), false));
  EXPECT_FALSE(shows_first_start_card(parsed({"--check", "some/exercise"}), false));
  EXPECT_FALSE(shows_first_start_card(parsed({"--screenshot", "x.png"}), false));
}

}  // namespace
}  // namespace attnlab::gui
