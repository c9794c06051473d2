#include <gtest/gtest.h>

#include "core/model/masks.hpp"

namespace attnlab {
namespace {

// Visible keys of query i as a string of 0/1 over j.
std::string row(const MaskSpec& m, int64_t b, int64_t i, int64_t T) {
  std::string s;
  for (int64_t j = 0; j < T; ++j) s += key_visible(m, b, i, j) ? '1' : '0';
  return s;
}

TEST(Masks, NoneSeesEverything) {
  EXPECT_EQ(row(MaskSpec{}, 0, 2, 5), "11111");
}

TEST(Masks, CausalSeesThePastAndItself) {
  MaskSpec m;
  m.causal = true;
  EXPECT_EQ(row(m, 0, 0, 4), "1000");
  EXPECT_EQ(row(m, 0, 2, 4), "1110");
  EXPECT_EQ(row(m, 0, 3, 4), "1111");
}

TEST(Masks, PaddingHidesKeysPastEachSequencesLength) {
  MaskSpec m;
  m.padding_lengths = {3, 5};
  EXPECT_EQ(row(m, 0, 4, 5), "11100");
  EXPECT_EQ(row(m, 1, 0, 5), "11111");
  m.padding_lengths = {2};  // one length for every sequence
  EXPECT_EQ(row(m, 7, 1, 4), "1100");
}

TEST(Masks, WindowWithGlobalTokens) {
  MaskSpec m;
  m.window = 1;
  EXPECT_EQ(row(m, 0, 3, 7), "0011100");
  m.global_tokens = 1;  // token 0 sees all and is seen by all
  EXPECT_EQ(row(m, 0, 3, 7), "1011100");
  EXPECT_EQ(row(m, 0, 0, 7), "1111111");
}

TEST(Masks, MasksCombineByIntersection) {
  MaskSpec m;
  m.causal = true;
  m.window = 1;
  m.padding_lengths = {4};
  EXPECT_EQ(row(m, 0, 3, 6), "001100");
  EXPECT_EQ(row(m, 0, 5, 6), "000000");  // window 4..5 lies past the padding length
  const std::vector<uint8_t> v = visibility(m, 1, 6);
  EXPECT_EQ(v.size(), 36u);
  EXPECT_EQ(v[5 * 6 + 4], 0);
  EXPECT_EQ(v[3 * 6 + 2], 1);
}

TEST(Masks, Describe) {
  MaskSpec m;
  EXPECT_EQ(describe(m), "none");
  m.causal = true;
  m.padding_lengths = {3, 5};
  m.window = 2;
  m.global_tokens = 1;
  EXPECT_EQ(describe(m), "causal + padding:3,5 + window:2:1");
}

}  // namespace
}  // namespace attnlab
