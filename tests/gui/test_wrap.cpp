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
    std::string joined;  // the lines without their spaces: a word broken in two joins up again
    for (const std::string& line : lines) {
      for (char c : line)
        if (c != ' ') joined += c;
      EXPECT_LE(line.size(), size_t(width)) << "a line is wider than " << width << ": " << line;
      EXPECT_NE(line.back(), '.') << "a number was split after its point: " << line;
    }
    std::string letters;
    for (char c : message)
      if (c != ' ') letters += c;
    EXPECT_EQ(joined, letters) << "every word kept, in order, at width " << width;
  }
  // A word wider than the room is broken after a '-', '_', '/' or ',' where it has one, else
  // between characters (a folder's name in a narrow panel), never drawn past the room.
  EXPECT_EQ(wrap_at_spaces("open gpt2-f32-tied now", 10, chars),
            (std::vector<std::string>{"open", "gpt2-f32-", "tied now"}));
  EXPECT_EQ(wrap_at_spaces("abcdefghij", 4, chars),
            (std::vector<std::string>{"abcd", "efgh", "ij"}));
  EXPECT_EQ(wrap_at_spaces("one\ntwo three", 100, chars),
            (std::vector<std::string>{"one", "two three"}));
}

// Code wraps between its units: a call's arguments stay together ("k.transpose(-2, -1)" was drawn
// as "k.transpose(-2," and "-1)" on two lines of the presenter headline).
TEST(Wrap, CodeBreaksOutsideBracketsOnly) {
  const std::string code = "scores = q @ k.transpose(-2, -1) / math.sqrt(d_k)";
  EXPECT_EQ(code_units(code, 0, chars),
            (std::vector<std::string>{"scores", "=", "q", "@", "k.transpose(-2, -1)", "/",
                                      "math.sqrt(d_k)"}));
  for (float width : {19.0f, 22.0f, 30.0f, 60.0f}) {
    std::string joined;
    for (const std::string& line : wrap_code(code, width, chars)) {
      joined += (joined.empty() ? "" : " ") + line;
      EXPECT_LE(line.size(), size_t(width)) << line;
      int depth = 0;
      for (char c : line) depth += (c == '(') - (c == ')');
      EXPECT_EQ(depth, 0) << "a line ends inside a call at width " << width << ": " << line;
    }
    EXPECT_EQ(joined, code) << "every unit kept, in order, at width " << width;
  }
  // A chain wider than the room breaks between its calls.
  EXPECT_EQ(wrap_code("q = q.view(B, T, h, d_k).transpose(1, 2)", 24, chars),
            (std::vector<std::string>{"q = q.view(B, T, h, d_k)", ".transpose(1, 2)"}));
  // A call wider than the room is split at its own spaces rather than overflow.
  EXPECT_EQ(wrap_code("x.view(B, T, h, d_k)", 12, chars),
            (std::vector<std::string>{"x.view(B, T,", "h, d_k)"}));
}

}  // namespace
}  // namespace attnlab::gui
