// AdamW's update against its formula, and the tasks' batches against their definitions.
#include <gtest/gtest.h>

#include <cmath>

#include "core/model/errors.hpp"
#include "core/training/adamw.hpp"
#include "core/training/tasks.hpp"
#include "core/training/trainer.hpp"

namespace attnlab::training {
namespace {

TEST(TrainingAdamW, TwoStepsFollowTheFormula) {
  ModelShape shape;
  shape.d_model = 4;
  shape.heads = 2;
  shape.seq_len = 3;
  shape.vocab = 3;
  shape.output_vocab = {3};
  Parameters<float> p = initial_parameters(shape, 3), g = zero_parameters<float>(shape);
  const double lr = 0.01, wd = 0.1;
  AdamW adam(shape, {lr, 0.9, 0.999, 1e-8, wd, 0.0});
  const double p0 = p[0](0, 0), g1 = 0.5, g2 = -0.25;
  double m = 0, v = 0, expected = p0;
  int step = 0;
  for (double grad : {g1, g2}) {
    for (auto& gm : g.values) gm.setConstant(float(grad));
    adam.step(p, g);
    ++step;
    expected *= 1 - lr * wd;
    m = 0.9 * m + 0.1 * grad;
    v = 0.999 * v + 0.001 * grad * grad;
    const double m_hat = m / (1 - std::pow(0.9, step)), v_hat = v / (1 - std::pow(0.999, step));
    expected -= lr * m_hat / (std::sqrt(v_hat) + 1e-8);
    EXPECT_NEAR(p[0](0, 0), expected, 1e-6) << "step " << step;
  }
}

TEST(TrainingAdamW, ClippingScalesTheGlobalNorm) {
  ModelShape shape;
  shape.d_model = 4;
  shape.seq_len = 3;
  shape.vocab = 3;
  shape.output_vocab = {3};
  Parameters<float> p = initial_parameters(shape, 3), g = zero_parameters<float>(shape);
  for (auto& gm : g.values) gm.setConstant(2.0f);
  AdamW adam(shape, {0.01, 0.9, 0.999, 1e-8, 0.0, 1.0});
  const double norm = adam.step(p, g);
  EXPECT_NEAR(norm, 2.0 * std::sqrt(double(g.count())), 1e-3);
  double after = 0;
  for (auto& gm : g.values) after += double(gm.squaredNorm());
  EXPECT_NEAR(std::sqrt(after), 1.0, 1e-4);
}

TEST(TrainingTasks, TargetsFollowTheirDefinitions) {
  const int64_t B = 8, T = 10, V = 12;
  for (const TaskInfo& info : all_tasks()) {
    const Batch batch = make_batch(info.task, B, T, V, 5, 2);
    ASSERT_EQ(batch.targets.size(), size_t(info.outputs));
    const Batch again = make_batch(info.task, B, T, V, 5, 2);
    EXPECT_EQ(batch.tokens, again.tokens) << info.name;
    EXPECT_NE(batch.tokens, make_batch(info.task, B, T, V, 5, 3).tokens) << info.name;
    for (int64_t b = 0; b < B; ++b) {
      const int64_t* tok = batch.tokens.data() + b * T;
      const int64_t* y = batch.targets[0].data() + b * T;
      int64_t targeted = 0;
      for (int64_t t = 0; t < T; ++t) {
        ASSERT_GE(tok[t], 0);
        ASSERT_LT(tok[t], V);
        targeted += y[t] >= 0;
        if (y[t] < 0) continue;
        switch (info.task) {
          case Task::PreviousToken:
            EXPECT_EQ(y[t], tok[t - 1]);
            break;
          case Task::FirstToken:
            EXPECT_EQ(y[t], tok[0]);
            break;
          case Task::PreviousAndFirst:
            EXPECT_EQ(y[t], tok[t - 1]);
            EXPECT_EQ(batch.targets[1][size_t(b * T + t)], tok[0]);
            break;
          case Task::Induction: {
            // The target follows the earlier copy of the current token.
            int64_t earlier = -1;
            for (int64_t j = 0; j < t; ++j)
              if (tok[j] == tok[t]) earlier = j;
            ASSERT_GE(earlier, 0) << "position " << t << " has no earlier copy";
            EXPECT_EQ(y[t], tok[earlier + 1]);
            EXPECT_EQ(y[t], tok[t + 1]);
            break;
          }
          case Task::Reverse:
            EXPECT_EQ(y[t], tok[T - 1 - t]);
            break;
        }
      }
      EXPECT_GT(targeted, 0) << info.name;
    }
  }
}

TEST(TrainingTasks, BadSettingsSayWhatToChange) {
  TrainSettings s;
  s.vocab = 1;
  EXPECT_THROW(check_settings(s), UserError);
  s.vocab = 16;
  s.task = Task::Induction;
  s.seq_len = 4;
  try {
    check_settings(s);
    FAIL() << "T=4 is too short for induction";
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("--seq-len"), std::string::npos) << e.what();
  }
  EXPECT_THROW(task_from_name("copy"), UserError);
  EXPECT_EQ(task_from_name("reverse"), Task::Reverse);
}

}  // namespace
}  // namespace attnlab::training
