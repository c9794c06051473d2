// Issue 23 in the trainer: each position encoding's forward pass against its formula written out
// here (or the core's traced pipeline), what "none" cannot see, and the longer-than-training
// evaluation (a learned table says n/a beyond its rows; the others are evaluated).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "core/model/errors.hpp"
#include "core/model/forward.hpp"
#include "core/training/length_experiment.hpp"
#include "core/training/to_trace.hpp"
#include "core/training/trainer.hpp"

namespace attnlab::training {
namespace {

TrainSettings tiny(Task task, PositionEncoding pos) {
  TrainSettings s;
  s.task = task;
  s.layers = 1;
  s.heads = 2;
  s.d_model = 8;
  s.seq_len = 6;
  s.vocab = 7;
  s.batch_size = 3;
  s.seed = 5;
  s.pos = pos;
  return s;
}

double max_abs_diff(const Matrix<float>& a, const Matrix<double>& b) {
  return (a.cast<double>() - b).cwiseAbs().maxCoeff();
}

// Cross-entropy and argmax at every targeted position of the evaluation's sequences at length T,
// counted here from the probabilities of each chunk's forward pass.
struct Counted {
  double nll = 0, correct = 0, positions = 0;
  int64_t sequences = 0, chunks = 0;
  double loss() const { return nll / positions; }
  double accuracy() const { return correct / positions; }
};

Counted count_targeted_positions(const Trainer& trainer, int64_t T, int64_t sequences) {
  const TrainSettings& s = trainer.settings();
  Counted counted;
  ForwardCache<float> cache;
  for (const Batch& b : length_eval_batches(trainer.shape(), s.task, s.seed, T, sequences)) {
    counted.sequences += b.batch;
    ++counted.chunks;
    forward_loss(trainer.shape(), trainer.parameters(), b, cache);
    const Matrix<float>& probs = cache.probs[0];  // (B*T, V)
    for (int64_t r = 0; r < probs.rows(); ++r) {
      const int64_t target = b.targets[0][size_t(r)];
      if (target < 0) continue;
      int64_t best = 0;
      for (int64_t v = 1; v < probs.cols(); ++v)
        if (probs(r, v) > probs(r, best)) best = v;
      counted.nll -= std::log(double(probs(r, target)));
      counted.correct += best == target;
      counted.positions += 1;
    }
  }
  return counted;
}

// x0 = E[tokens] + PE with PE[t, 2i] = sin(t / 10000^(2i/D)), PE[t, 2i+1] = cos(t / 10000^(2i/D)).
TEST(PositionTraining, SinusoidalInputIsTheVaswaniFormula) {
  Trainer trainer(tiny(Task::PreviousToken, PositionEncoding::Sinusoidal));
  EXPECT_EQ(trainer.parameters().layout.pos_emb, -1) << "a fixed table is not a parameter";
  const Batch batch = trainer.batch(0);
  ForwardCache<float> cache;
  forward_loss(trainer.shape(), trainer.parameters(), batch, cache);
  const int64_t T = batch.seq_len, D = 8;
  Matrix<double> expected(batch.batch * T, D);
  const Matrix<float>& E = trainer.parameters()[trainer.parameters().layout.tok_emb];
  for (int64_t n = 0; n < expected.rows(); ++n)
    for (int64_t c = 0; c < D; ++c) {
      const double t = double(n % T), two_i = double(c - c % 2);
      const double angle = t / std::pow(10000.0, two_i / double(D));
      expected(n, c) =
          double(E(batch.tokens[size_t(n)], c)) + (c % 2 == 0 ? std::sin(angle) : std::cos(angle));
    }
  const double diff = max_abs_diff(cache.layers[0].z_in, expected);
  std::printf("  max |x0 - (E + PE)| = %.2e\n", diff);
  EXPECT_LT(diff, 1e-5);
}

// With W_q = 0 every score is 0 but ALiBi's bias, so head h's weights on a causal row t are
// softmax over s <= t of -m_h (t - s), m_h = 2^(-8 (h+1) / H): a geometric decay written out here.
TEST(PositionTraining, AlibiWeightsWithZeroScoresAreTheBiasSoftmax) {
  TrainSettings s = tiny(Task::PreviousToken, PositionEncoding::Alibi);
  s.heads = 4;
  Trainer trainer(s);
  Parameters<float>& p = trainer.parameters();
  p[p.layout.layers[0].w_q].setZero();
  p[p.layout.layers[0].b_q].setZero();
  const Batch batch = trainer.batch(0);
  ForwardCache<float> cache;
  forward_loss(trainer.shape(), p, batch, cache);
  const int64_t T = s.seq_len;
  double worst = 0;
  for (int64_t head = 0; head < s.heads; ++head) {
    const double m = std::pow(2.0, -8.0 * double(head + 1) / double(s.heads));
    for (int64_t t = 0; t < T; ++t) {
      double sum = 0;
      for (int64_t u = 0; u <= t; ++u) sum += std::exp(-m * double(t - u));
      for (int64_t k = 0; k < T; ++k) {
        const double expected = k <= t ? std::exp(-m * double(t - k)) / sum : 0.0;
        worst =
            std::max(worst, std::abs(double(cache.layers[0].weights(head * T + t, k)) - expected));
      }
    }
  }
  std::printf("  max |weights - softmax(-m_h (t - s))| = %.2e\n", worst);
  EXPECT_LT(worst, 1e-6);
  // The steepest head looks nearer: its weight on the previous token exceeds the flattest head's.
  const int64_t last = T - 1;
  EXPECT_GT(cache.layers[0].weights(0 * T + last, last - 1),
            cache.layers[0].weights(3 * T + last, last - 1));
}

// The trainer's RoPE and ALiBi layers give the same attention as the core's traced pipeline
// (RoPE: --rope-theta 10000, core/variants/rotary's rotate-half; ALiBi: --pos alibi, the bias
// sub-step before the mask), through first_layer_trace.
TEST(PositionTraining, RopeAndAlibiLayersEqualThePipelines) {
  for (const PositionEncoding pos : {PositionEncoding::Rope, PositionEncoding::Alibi})
    for (const Task task : {Task::PreviousToken, Task::Reverse}) {
      TrainSettings s = tiny(task, pos);
      s.heads = 2;
      s.d_model = 12;
      s.d_k = 6;
      s.seq_len = 7;
      Trainer trainer(s);
      for (int i = 0; i < 5; ++i) trainer.step();
      const SavedModel model{s, trainer.shape(), trainer.parameters()};
      const TraceOfModel traced = first_layer_trace(model, 3, 2);
      if (pos == PositionEncoding::Rope) EXPECT_GT(traced.config.rope_theta, 0);
      if (pos == PositionEncoding::Alibi) EXPECT_EQ(traced.config.pos, PositionEncoding::Alibi);
      const Tensor out = forward(traced.config, traced.inputs);  // (B, T, D)
      ForwardCache<float> cache;
      forward_loss(trainer.shape(), trainer.parameters(), traced.batch, cache);
      const Matrix<float>& ours = cache.layers[0].attention;  // (B*T, D)
      ASSERT_EQ(out.numel(), ours.size());
      double diff = 0;
      for (int64_t e = 0; e < out.numel(); ++e)
        diff = std::max(diff, double(std::abs(out.data()[e] - ours.data()[e])));
      std::printf("  %s, %s: max |trainer - pipeline| = %.2e\n",
                  std::string(position_encoding_name(pos)).c_str(), task_info(task).name, diff);
      EXPECT_LT(diff, 1e-5);
    }
}

// The same model without RoPE differs: the rotation above is not a no-op.
TEST(PositionTraining, RopeChangesTheScores) {
  TrainSettings s = tiny(Task::PreviousToken, PositionEncoding::Rope);
  Trainer rope(s);
  s.pos = PositionEncoding::None;
  Trainer none(s);
  none.parameters().values = rope.parameters().values;  // same layout: no table in either
  const Batch batch = rope.batch(0);
  ForwardCache<float> a, b;
  forward_loss(rope.shape(), rope.parameters(), batch, a);
  forward_loss(none.shape(), none.parameters(), batch, b);
  EXPECT_GT((a.layers[0].weights - b.layers[0].weights).cwiseAbs().maxCoeff(), 1e-3);
}

// Without positions and without a mask (the bidirectional task), attention is permutation-
// equivariant: permuting the tokens permutes the rows of every layer's output the same way.
TEST(PositionTraining, NoneIsPermutationEquivariantWithoutAMask) {
  TrainSettings s = tiny(Task::Reverse, PositionEncoding::None);
  s.layers = 2;
  s.mlp = true;
  s.batch_size = 1;
  Trainer trainer(s);
  const Batch batch = trainer.batch(0);
  const std::vector<int64_t> perm{3, 0, 5, 1, 4, 2};  // new position t holds old token perm[t]
  Batch shuffled = batch;
  for (int64_t t = 0; t < s.seq_len; ++t)
    shuffled.tokens[size_t(t)] = batch.tokens[size_t(perm[size_t(t)])];
  ForwardCache<float> a, b;
  forward_loss(trainer.shape(), trainer.parameters(), batch, a);
  forward_loss(trainer.shape(), trainer.parameters(), shuffled, b);
  double diff = 0;
  for (int64_t t = 0; t < s.seq_len; ++t)
    diff = std::max(diff,
                    double((b.z_out.row(t) - a.z_out.row(perm[size_t(t)])).cwiseAbs().maxCoeff()));
  std::printf("  none: max |z(shuffled)[t] - z[perm[t]]| = %.2e\n", diff);
  EXPECT_LT(diff, 1e-5);
  // Every encoding breaks it.
  for (const PositionEncoding pos : {PositionEncoding::Sinusoidal, PositionEncoding::Learned,
                                     PositionEncoding::Rope, PositionEncoding::Alibi}) {
    s.pos = pos;
    Trainer other(s);
    forward_loss(other.shape(), other.parameters(), batch, a);
    forward_loss(other.shape(), other.parameters(), shuffled, b);
    double moved = 0;
    for (int64_t t = 0; t < s.seq_len; ++t)
      moved = std::max(
          moved, double((b.z_out.row(t) - a.z_out.row(perm[size_t(t)])).cwiseAbs().maxCoeff()));
    EXPECT_GT(moved, 1e-3) << position_encoding_name(pos);
  }
}

TEST(PositionTraining, SettingsRefusedInOneLine) {
  TrainSettings s = tiny(Task::PreviousToken, PositionEncoding::Rope);
  s.d_model = 12;
  s.heads = 4;  // d_k = 3
  try {
    check_settings(s);
    ADD_FAILURE() << "odd d_k with RoPE accepted";
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("RoPE (--pos rope) needs an even d_k"), std::string::npos)
        << e.what();
  }
  s.pos = PositionEncoding::Alibi;  // no pairs: any d_k
  EXPECT_NO_THROW(check_settings(s));
  s.eval_seq_lens = {kMaxEvalSeqLen + 1};
  EXPECT_THROW(check_settings(s), UserError);
  s.eval_seq_lens = {1};  // shorter than previous-token's 2
  EXPECT_THROW(check_settings(s), UserError);
}

// Longer than training: a learned table has T rows, so 2T is "n/a", never a number; the other
// encodings are evaluated at 2T on as many targeted positions as the sequences hold.
TEST(PositionTraining, LearnedTableIsNotAvailableBeyondItsRows) {
  for (const PositionEncoding pos : all_position_encodings()) {
    TrainSettings s = tiny(Task::PreviousToken, pos);
    s.eval_seq_lens = {12, 24};
    Trainer trainer(s);
    const std::vector<LengthEval>& evals = trainer.evaluate_lengths();
    ASSERT_EQ(evals.size(), 3u);
    EXPECT_EQ(evals[0].seq_len, 6);
    EXPECT_TRUE(evals[0].available);
    for (size_t i = 1; i < 3; ++i) {
      EXPECT_EQ(evals[i].available, pos != PositionEncoding::Learned)
          << position_encoding_name(pos);
      if (pos == PositionEncoding::Learned) {
        EXPECT_EQ(evals[i].not_available, "n/a: the learned table has 6 rows");
        EXPECT_TRUE(evals[i].report.accuracy.empty());
      } else {
        ASSERT_EQ(evals[i].report.accuracy.size(), 1u);
        EXPECT_TRUE(std::isfinite(evals[i].report.loss));
        // The accuracy of the sequences at 12 and 24, counted position by position here.
        const Counted counted = count_targeted_positions(trainer, evals[i].seq_len, kEvalSequences);
        EXPECT_NEAR(evals[i].lowest_accuracy(), counted.accuracy(), 1e-12)
            << position_encoding_name(pos) << " at " << evals[i].seq_len;
      }
    }
  }
}

// The evaluation over many sequences (in chunks of a few) pools them by targeted positions, not
// by chunk: its loss and accuracy equal those counted position by position here.
TEST(PositionTraining, ChunkedEvaluationPoolsEveryTargetedPosition) {
  TrainSettings s = tiny(Task::Induction, PositionEncoding::Alibi);
  s.heads = 8;  // d_k = 1: many weights, little arithmetic
  s.seq_len = 8;
  s.vocab = 40;
  Trainer trainer(s);
  for (int i = 0; i < 20; ++i) trainer.step();
  const int64_t T = 256, n = 9;  // more attention weights than one forward pass keeps
  const Counted counted = count_targeted_positions(trainer, T, n);
  ASSERT_GT(counted.chunks, 1) << "the test needs more than one chunk";
  EXPECT_EQ(counted.sequences, n);
  const std::vector<LengthEval> pooled =
      evaluate_lengths(trainer.shape(), trainer.parameters(), s.task, s.seed, {T}, n);
  std::printf("  %lld chunks, %.0f targeted positions: accuracy %.4f, loss %.4f\n",
              (long long)counted.chunks, counted.positions, counted.accuracy(), counted.loss());
  EXPECT_NEAR(pooled[0].report.loss, counted.loss(), 1e-4);
  EXPECT_NEAR(pooled[0].report.accuracy[0], counted.accuracy(), 1e-12);
}

// The experiment at a size that runs in well under a second: previous-token, T 6, 150 steps, one
// seed. RoPE sees q and k only through their distance, so the previous-token head it learned at T
// still works at 2T far better than the sinusoidal one, whose positions beyond T were never seen;
// "none" cannot tell the previous token from the others; learned is n/a beyond T.
TEST(PositionTraining, PreviousTokenExperimentRopeExtrapolatesLearnedIsNotAvailable) {
  TrainSettings s;
  s.task = Task::PreviousToken;
  s.heads = 1;
  s.d_model = 16;
  s.seq_len = 6;
  s.vocab = 8;
  s.steps = 150;
  s.batch_size = 32;
  s.lr = 1e-2;
  const LengthExperiment e = run_length_experiment(s, {0});
  ASSERT_EQ(e.lengths, (std::vector<int64_t>{6, 12, 24}));
  ASSERT_EQ(e.rows.size(), 5u);
  const auto row = [&](PositionEncoding pos) -> const std::vector<LengthCell>& {
    for (const LengthRow& r : e.rows)
      if (r.pos == pos) return r.cells;
    throw std::logic_error("no row");
  };
  for (const LengthRow& r : e.rows) {
    std::printf("  %-10s", std::string(position_encoding_name(r.pos)).c_str());
    for (const LengthCell& c : r.cells)
      std::printf("  %s", c.available ? std::to_string(c.mean()).c_str() : c.not_available.c_str());
    std::printf("\n");
  }
  const auto& rope = row(PositionEncoding::Rope);
  const auto& sinusoidal = row(PositionEncoding::Sinusoidal);
  const auto& learned = row(PositionEncoding::Learned);
  EXPECT_GT(rope[0].mean(), 0.95);
  EXPECT_GT(sinusoidal[0].mean(), 0.95);
  EXPECT_GT(learned[0].mean(), 0.95);
  EXPECT_GT(rope[1].mean(), sinusoidal[1].mean() + 0.1);
  EXPECT_LT(row(PositionEncoding::None)[0].mean(), 0.7);
  for (size_t i : {1, 2}) {
    EXPECT_FALSE(learned[i].available);
    EXPECT_TRUE(learned[i].accuracy.empty());
    EXPECT_EQ(learned[i].not_available, "n/a: the learned table has 6 rows");
  }
}

// Mean and sample standard deviation of the seeds, by hand.
TEST(PositionTraining, CellMeanAndSpread) {
  LengthCell c;
  c.accuracy = {0.5, 0.75, 1.0};
  EXPECT_DOUBLE_EQ(c.mean(), 0.75);
  EXPECT_DOUBLE_EQ(c.spread(), 0.25);  // sqrt((0.0625 + 0 + 0.0625) / 2)
  c.accuracy = {0.5};
  EXPECT_DOUBLE_EQ(c.spread(), 0.0);
}

}  // namespace
}  // namespace attnlab::training
