// One short fixed-seed training run per task, within a stated step budget: the accuracy on a fresh
// batch and the head pattern the task should produce (issue 12, "Done when").
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include "core/training/trainer.hpp"

namespace attnlab::training {
namespace {

TrainSettings base(Task task, int64_t heads, int64_t steps) {
  TrainSettings s;
  s.task = task;
  s.layers = 1;
  s.heads = heads;
  s.d_model = 32;
  s.seq_len = 12;
  s.vocab = 16;
  s.steps = steps;
  s.batch_size = 64;
  s.lr = 3e-3;
  s.seed = 1;
  s.log_every = 100;
  return s;
}

// Trains, then measures on a batch never trained on.
HistoryEntry train_and_evaluate(const TrainSettings& s) {
  Trainer trainer(s);
  const auto start = std::chrono::steady_clock::now();
  for (int64_t i = 0; i < s.steps; ++i) trainer.step();
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  HistoryEntry e = trainer.evaluate(trainer.batch(1000000));
  std::printf("  %s: %lld steps in %.0f ms, loss %.4f, accuracy", task_info(s.task).name,
              (long long)s.steps, ms, e.report.loss);
  for (double a : e.report.accuracy) std::printf(" %.3f", a);
  std::printf("\n");
  for (const HeadScores& h : e.heads) {
    std::printf(
        "    L%lld H%lld previous %.2f first %.2f same %.2f mirror %.2f prefix %.2f "
        "entropy %.2f\n",
        (long long)h.layer, (long long)h.head, h.previous, h.first, h.same, h.mirror, h.prefix,
        h.entropy);
  }
  return e;
}

double best(const std::vector<HeadScores>& heads, int64_t layer, double HeadScores::*score) {
  double b = 0;
  for (const HeadScores& h : heads)
    if (h.layer == layer) b = std::max(b, h.*score);
  return b;
}

TEST(TaskTraining, PreviousTokenMakesAPreviousTokenHead) {
  const HistoryEntry e = train_and_evaluate(base(Task::PreviousToken, 1, 300));
  EXPECT_GE(e.report.accuracy[0], 0.99);
  EXPECT_GE(best(e.heads, 0, &HeadScores::previous), 0.8);
}

TEST(TaskTraining, FirstTokenMakesAFirstTokenHead) {
  const HistoryEntry e = train_and_evaluate(base(Task::FirstToken, 1, 300));
  EXPECT_GE(e.report.accuracy[0], 0.99);
  EXPECT_GE(best(e.heads, 0, &HeadScores::first), 0.9);
}

// With 2 heads, one head per relation.
TEST(TaskTraining, PreviousAndFirstSplitsTheTwoHeads) {
  const HistoryEntry e = train_and_evaluate(base(Task::PreviousAndFirst, 2, 400));
  EXPECT_GE(e.report.accuracy[0], 0.99);
  EXPECT_GE(e.report.accuracy[1], 0.99);
  const HeadScores &h0 = e.heads[0], &h1 = e.heads[1];
  const bool h0_first = h0.first >= h1.first;
  const HeadScores& first = h0_first ? h0 : h1;
  const HeadScores& previous = h0_first ? h1 : h0;
  EXPECT_GE(first.first, 0.9);
  EXPECT_GE(previous.previous, 0.8);
}

// With 1 head, the two relations share the head: neither gets it all.
TEST(TaskTraining, PreviousAndFirstWithOneHeadBlends) {
  const HistoryEntry e = train_and_evaluate(base(Task::PreviousAndFirst, 1, 400));
  const HeadScores& h = e.heads[0];
  EXPECT_LT(std::max(h.first, h.previous), 0.9);
  EXPECT_GT(h.first + h.previous, 0.6);
}

// Heads vs one head at equal parameter count (d_k = D/h, so W_q, W_k, W_v, W_o have the same
// shapes), the figures docs/training.md quotes: on previous-and-first, 1500 steps, seeds 1-3, h=2
// and h=4 end with loss below 1e-3 and every target right on a fresh batch; h=1 ends with a loss
// between 0.05 and 0.5 (at least 100x that of h=2), previous-token accuracy below 99.5 %, and its
// one head split between the previous and the first token (each 0.3 to 0.7).
TEST(TaskTraining, OneHeadEndsWorseThanTwoOverThreeSeeds) {
  for (uint64_t seed : {1, 2, 3}) {
    const std::vector<int64_t> head_counts{1, 2, 4};
    std::vector<HistoryEntry> ends;  // one per head count
    for (int64_t heads : head_counts) {
      TrainSettings s = base(Task::PreviousAndFirst, heads, 1500);
      s.seed = seed;
      EXPECT_EQ(Trainer(s).parameters().count(),
                Trainer(base(Task::PreviousAndFirst, 1, 1500)).parameters().count());
      ends.push_back(train_and_evaluate(s));
    }
    const HistoryEntry& one = ends[0];
    for (size_t i = 1; i < ends.size(); ++i) {
      EXPECT_LT(ends[i].report.loss, 1e-3) << "seed " << seed << ", h=" << head_counts[i];
      EXPECT_EQ(ends[i].report.accuracy[0], 1.0) << "seed " << seed << ", h=" << head_counts[i];
      EXPECT_EQ(ends[i].report.accuracy[1], 1.0) << "seed " << seed << ", h=" << head_counts[i];
    }
    EXPECT_GT(one.report.loss, 0.05) << "seed " << seed;
    EXPECT_LT(one.report.loss, 0.5) << "seed " << seed;
    EXPECT_GT(one.report.loss, 100 * ends[1].report.loss) << "seed " << seed;
    EXPECT_LT(one.report.accuracy[0], 0.995) << "seed " << seed;  // output 0: the previous token
    EXPECT_GE(one.heads[0].previous, 0.3) << "seed " << seed;
    EXPECT_LE(one.heads[0].previous, 0.7) << "seed " << seed;
    EXPECT_GE(one.heads[0].first, 0.3) << "seed " << seed;
    EXPECT_LE(one.heads[0].first, 0.7) << "seed " << seed;
  }
}

// 2 layers: a previous-token head in layer 0, an induction head in layer 1.
TEST(TaskTraining, InductionMakesAnInductionHead) {
  TrainSettings s = base(Task::Induction, 2, 600);
  s.layers = 2;
  s.seq_len = 16;
  s.vocab = 24;
  s.batch_size = 32;
  const HistoryEntry e = train_and_evaluate(s);
  EXPECT_GE(e.report.accuracy[0], 0.9);
  EXPECT_GE(best(e.heads, 1, &HeadScores::prefix), 0.4);
  EXPECT_GE(best(e.heads, 0, &HeadScores::previous), 0.5);
}

// Bidirectional: an anti-diagonal head.
TEST(TaskTraining, ReverseMakesAnAntiDiagonalHead) {
  const HistoryEntry e = train_and_evaluate(base(Task::Reverse, 2, 300));
  EXPECT_GE(e.report.accuracy[0], 0.99);
  EXPECT_GE(best(e.heads, 0, &HeadScores::mirror), 0.8);
}

}  // namespace
}  // namespace attnlab::training
