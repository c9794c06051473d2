// One way to write large counts, shared by attnlab-cli and the app (app/common/format.hpp).
#include <gtest/gtest.h>

#include "app/common/format.hpp"

namespace attnlab {
namespace {

TEST(CountText, ExactBelowTenThousandThenKMG) {
  EXPECT_EQ(count_text(0, "FLOP"), "0 FLOP");
  EXPECT_EQ(count_text(9999, "FLOP"), "9999 FLOP");
  EXPECT_EQ(count_text(98304, "FLOP"), "98.3 kFLOP");
  EXPECT_EQ(count_text(2.5e6, "FLOP"), "2.50 MFLOP");
  EXPECT_EQ(count_text(9.7e9, "FLOP"), "9.70 GFLOP");
  EXPECT_EQ(count_text(1234, ""), "1234");  // parameters: no unit, no space
  EXPECT_EQ(count_text(175e9, ""), "175.00 G");
}

}  // namespace
}  // namespace attnlab
