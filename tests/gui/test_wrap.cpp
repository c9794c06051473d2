// Messages wrap at spaces only: ImGui's own wrapping broke "1.33333" after its '.'.
#include <gtest/gtest.h>

#include "app/gui/look/wrap.hpp"

namespace attnlab::gui {
namespace {

// One unit per character: widths are easy to reason about.
float chars(const std::string& s) {
  return float(s.size());
}

TEST(Wrap, NumbersStayWholeAndLinesFitTheWidth) {
  const std::string message =
      "d_model=4 is not divisible by n_heads=3 (each head would get 1.33333 dimensions)";
  for (float width : {10.0f, 14.0f, 20.0f, 33.0f, 200.0f}) {
    const std::vector<std::string> lines = wrap_at_spaces(message, width, chars);
    std::string joined;
    for (const std::string& line : lines) {
      joined += (joined.empty() ? "" : " ") + line;
      EXPECT_TRUE(line.size() <= size_t(width) || line.find(' ') == std::string::npos)
          << "a line of several words is wider than " << width << ": " << line;
      EXPECT_NE(line.back(), '.') << "a number was split after its point: " << line;
    }
    EXPECT_EQ(joined, message) << "every word kept, in order, at width " << width;
  }
  EXPECT_EQ(wrap_at_spaces("one\ntwo three", 100, chars),
            (std::vector<std::string>{"one", "two three"}));
}

}  // namespace
}  // namespace attnlab::gui
