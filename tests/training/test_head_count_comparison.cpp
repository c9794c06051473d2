// Heads vs one head at equal parameter count: on previous-and-first, two heads reach 99 % and one
// head does not (it has to blend the two relations), and cancelling stops the runs.
#include <gtest/gtest.h>

#include <atomic>

#include "core/training/head_count_comparison.hpp"

namespace attnlab::training {
namespace {

TEST(HeadCountComparison, TwoHeadsReach99PercentAndOneHeadDoesNot) {
  TrainSettings settings;
  settings.task = Task::PreviousAndFirst;
  settings.steps = 400;
  settings.seed = 1;
  const std::vector<HeadCountCurve> curves = compare_head_counts(settings, {1, 2, 3});
  ASSERT_EQ(curves.size(), 2u);  // 3 does not divide d_model 32: skipped
  EXPECT_EQ(curves[0].heads, 1);
  EXPECT_EQ(curves[1].heads, 2);
  for (const HeadCountCurve& curve : curves) {
    ASSERT_FALSE(curve.steps.empty());
    EXPECT_EQ(curve.steps.size(), curve.loss.size());
    EXPECT_LT(curve.loss.back(), curve.loss.front());  // both learn something
  }
  EXPECT_GE(curves[1].steps_to_99, 0);
  EXPECT_LT(curves[0].loss.back(), 3.0);
  EXPECT_GT(curves[0].loss.back(), 10 * curves[1].loss.back());
  EXPECT_EQ(curves[0].steps_to_99, -1);
}

TEST(HeadCountComparison, CancelStopsTheRuns) {
  TrainSettings settings;
  settings.steps = 100000;
  std::atomic<bool> cancel{true};
  RunControl control;
  control.cancel = &cancel;
  EXPECT_THROW(compare_head_counts(settings, {1, 2}, control), Cancelled);
}

}  // namespace
}  // namespace attnlab::training
