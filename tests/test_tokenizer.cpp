#include <gtest/gtest.h>

#include "core/model/tokenizer.hpp"

namespace attnlab {
namespace {

using Tokens = std::vector<std::string>;

TEST(Tokenizer, Seed003SentenceHasElevenTokens) {
  EXPECT_EQ(tokenize("The artist painted the portrait of a woman with a brush").size(), 11u);
}

TEST(Tokenizer, PunctuationIsItsOwnToken) {
  EXPECT_EQ(tokenize("Hello, world!"), (Tokens{"Hello", ",", "world", "!"}));
  EXPECT_EQ(tokenize("don't stop."), (Tokens{"don't", "stop", "."}));
}

TEST(Tokenizer, Utf8StaysInsideWordsAndControlsSeparate) {
  EXPECT_EQ(tokenize("café\tnaïve\x01x"), (Tokens{"café", "naïve", "x"}));
  EXPECT_EQ(tokenize("猫が座った"), (Tokens{"猫が座った"}));
}

// A sentence in Latin-1 (issue 43): each byte that is not UTF-8 is U+FFFD in its token, so the
// labels, the PDF, the SVG and the screen never see it; the count is the same.
TEST(Tokenizer, BytesThatAreNotUtf8BecomeReplacementCharacters) {
  EXPECT_EQ(tokenize("caf\xe9 au lait"), (Tokens{"caf\uFFFD", "au", "lait"}));
  EXPECT_EQ(tokenize("\xff\xfe, \xC3"), (Tokens{"\uFFFD\uFFFD", ",", "\uFFFD"}));
}

TEST(Tokenizer, EmptyAndBlankGiveNoTokens) {
  EXPECT_TRUE(tokenize("").empty());
  EXPECT_TRUE(tokenize(" \n\t ").empty());
}

TEST(Tokenizer, TokensForCyclesOrTruncates) {
  EXPECT_EQ(tokens_for("a b c", 5), (Tokens{"a", "b", "c", "a", "b"}));
  EXPECT_EQ(tokens_for("a b c", 2), (Tokens{"a", "b"}));
  EXPECT_EQ(tokens_for("", 2), (Tokens{"The", "artist"}));  // the sample text
}

TEST(Tokenizer, SampleTextNoticeNamesWhyAndWhatIsUsed) {
  // The sample text has 35 tokens: 11 + 9 + 7 + 8, counted by hand (seed sentences + full stops).
  EXPECT_EQ(tokenize(kSampleText).size(), 35u);
  EXPECT_EQ(sample_text_notice("--sentence", ""),
            "--sentence is empty: using the built-in sample text (35 tokens: \"The artist "
            "painted the portrait \u2026\")");
  EXPECT_EQ(
      sample_text_notice("the sentence", "   ").rfind("the sentence has only spaces: using", 0),
      0u);
  EXPECT_EQ(sample_text_notice("x", "\t\x01").rfind("x has no words or punctuation: using", 0), 0u);
  EXPECT_EQ(sample_text_notice("x", " cat "), "");
}

}  // namespace
}  // namespace attnlab
