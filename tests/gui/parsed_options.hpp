// The app's start options as `attnlab ARGS...` gives them, for tests: a parse that fails is a test
// failure naming its message.
#pragma once

#include <gtest/gtest.h>

#include <vector>

#include "app/gui/state/options.hpp"

namespace attnlab::gui {

inline StartOptions parsed(std::vector<const char*> args) {
  args.insert(args.begin(), "attnlab");
  StartOptions options;
  const ParseOutcome outcome = parse_options(int(args.size()), args.data(), options);
  EXPECT_EQ(outcome.exit_code, -1) << outcome.message;
  return options;
}

}  // namespace attnlab::gui
