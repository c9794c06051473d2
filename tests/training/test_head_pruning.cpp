// Head pruning measured as a loss on real batches: on previous-and-first with two heads, switching
// off the previous-token head ruins the previous-token output and spares the first-token one, and
// the other way round; switching a head off is its W_o rows zeroed, so its context adds nothing.
#include <gtest/gtest.h>

#include "core/training/head_pruning.hpp"
#include "core/training/head_scores.hpp"
#include "core/training/tasks.hpp"
#include "core/training/trainer.hpp"

namespace attnlab::training {
namespace {

TEST(HeadPruning, EachSpecialisedHeadCarriesItsOwnOutput) {
  TrainSettings settings;
  settings.task = Task::PreviousAndFirst;
  settings.heads = 2;
  settings.steps = 400;
  Trainer trainer(settings);
  for (int64_t i = 0; i < settings.steps; ++i) trainer.step();
  const Batch batch = make_batch(settings.task, 256, settings.seq_len, settings.vocab,
                                 settings.seed + 1, 0);  // never trained on
  const HistoryEntry eval = trainer.evaluate(batch);
  ASSERT_EQ(eval.heads.size(), 2u);
  // Which head is which, from its pattern.
  const int64_t previous_head = eval.heads[0].previous > eval.heads[1].previous ? 0 : 1;
  const SavedModel model{settings, trainer.shape(), trainer.parameters()};
  const HeadPruning pruning = prune_heads(model, batch);
  ASSERT_EQ(pruning.loss_increase.size(), 2u);
  for (const double increase : pruning.loss_increase) EXPECT_GT(increase, 0.5);  // both needed
  // Output 0 is the previous token, output 1 the first token (tasks.cpp).
  const auto without = [&](int64_t head) {
    Parameters<float> pruned = model.parameters;
    switch_head_off(model.shape, pruned, 0, head);
    ForwardCache<float> cache;
    return forward_loss(model.shape, pruned, batch, cache);
  };
  const LossReport no_previous = without(previous_head);
  const LossReport no_first = without(1 - previous_head);
  EXPECT_LT(no_previous.accuracy[0], 0.5);
  EXPECT_GT(no_previous.accuracy[1], 0.9);
  EXPECT_GT(no_first.accuracy[0], 0.9);
  EXPECT_LT(no_first.accuracy[1], 0.5);
  // The loss increases are those losses, and removing all heads leaves the least.
  EXPECT_NEAR(pruning.loss_increase[size_t(previous_head)], no_previous.loss - pruning.intact.loss,
              1e-9);
  ASSERT_EQ(pruning.without_least.size(), 3u);
  EXPECT_GT(pruning.without_least[2].loss, pruning.without_least[1].loss);
  EXPECT_LT(pruning.loss_increase[size_t(pruning.least_important[0])],
            pruning.loss_increase[size_t(pruning.least_important[1])] + 1e-12);
}

}  // namespace
}  // namespace attnlab::training
