// `attnlab --help` states the defaults the app really starts with (issue 21): the colour scale
// of a first start, the one a fresh AppState has.
#include <gtest/gtest.h>

#include <regex>

#include "app/gui/state/app_state.hpp"
#include "app/gui/state/options.hpp"

namespace attnlab::gui {
namespace {

TEST(HelpDefaults, TheColourScaleStatedIsTheOneAFirstStartUses) {
  StartOptions options;
  const char* argv[] = {"attnlab", "--help"};
  const ParseOutcome outcome = parse_options(2, argv, options);
  ASSERT_EQ(outcome.exit_code, 0);
  // "--colour-scale NAME  weight colours: per-map, per-row, log, fixed (default per-row, ...)"
  std::smatch stated;
  ASSERT_TRUE(std::regex_search(outcome.message, stated,
                                std::regex("--colour-scale[^\\n]*\\(default ([a-z-]+)")))
      << outcome.message;
  const AppState fresh;
  EXPECT_EQ(stated[1].str(), colour_scale_name(fresh.ui.colour_scale));
  EXPECT_EQ(stated[1].str(), "per-row");
}

}  // namespace
}  // namespace attnlab::gui
