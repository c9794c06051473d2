// The hand-written backward pass against central finite differences (in double), and the model's
// attention against the core's forward() for the same weights and inputs.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "core/model/forward.hpp"
#include "core/training/model.hpp"
#include "core/training/tasks.hpp"
#include "core/training/trainer.hpp"

namespace attnlab::training {
namespace {

// A tiny model with everything on: 2 layers, biases, MLP, d_k != D/h, two outputs.
TrainSettings tiny_settings(Task task) {
  TrainSettings s;
  s.task = task;
  s.layers = 2;
  s.heads = 2;
  s.d_model = 6;
  s.d_k = 4;  // h*d_k = 8 != D
  s.seq_len = 5;
  s.vocab = 5;
  s.mlp = true;
  s.bias = true;
  s.batch_size = 3;
  s.seed = 7;
  return s;
}

// b_k shifts every score of a query row by the same amount, which the softmax ignores: its exact
// gradient is 0, so it is checked for being ~0 instead of by a relative error. (Not with RoPE: each
// key's copy of b_k is turned by its own position, so the shift differs from key to key.)
bool is_key_bias(const std::string& name, PositionEncoding pos = PositionEncoding::Learned) {
  return pos != PositionEncoding::Rope && name.size() >= 3 &&
         name.compare(name.size() - 3, 3, "b_k") == 0;
}

// max |a - b| / max(max |a|, max |b|) over one parameter.
double relative_error(const Matrix<double>& a, const Matrix<double>& b) {
  const double scale = std::max({a.cwiseAbs().maxCoeff(), b.cwiseAbs().maxCoeff(), 1e-12});
  return (a - b).cwiseAbs().maxCoeff() / scale;
}

void check_gradients_against_finite_differences(Task task,
                                                PositionEncoding pos = PositionEncoding::Learned) {
  TrainSettings settings = tiny_settings(task);
  settings.pos = pos;
  Trainer trainer(settings);
  const ModelShape shape = trainer.shape();
  Parameters<double> params = cast_parameters<double>(trainer.parameters());
  const Batch batch = trainer.batch(0);
  ForwardCache<double> cache;
  forward_loss(shape, params, batch, cache);
  Parameters<double> grads = zero_parameters<double>(shape);
  backward(shape, params, batch, cache, grads);

  const double eps = 1e-6;
  for (size_t i = 0; i < params.values.size(); ++i) {
    Matrix<double> numeric = Matrix<double>::Zero(params.values[i].rows(), params.values[i].cols());
    for (int64_t e = 0; e < numeric.size(); ++e) {
      double& w = params.values[i].data()[e];
      const double saved = w;
      w = saved + eps;
      const double plus = forward_loss(shape, params, batch, cache).loss;
      w = saved - eps;
      const double minus = forward_loss(shape, params, batch, cache).loss;
      w = saved;
      numeric.data()[e] = (plus - minus) / (2 * eps);
    }
    if (is_key_bias(params.layout.names[i], pos)) {
      EXPECT_LT(grads.values[i].cwiseAbs().maxCoeff(), 1e-12) << params.layout.names[i];
      EXPECT_LT(numeric.cwiseAbs().maxCoeff(), 1e-8) << params.layout.names[i];
      continue;
    }
    const double error = relative_error(grads.values[i], numeric);
    std::printf("  %-16s max|g| %.3e  relative error %.2e\n", params.layout.names[i].c_str(),
                grads.values[i].cwiseAbs().maxCoeff(), error);
    EXPECT_LT(error, 1e-4) << params.layout.names[i];
    EXPECT_GT(grads.values[i].cwiseAbs().maxCoeff(), 0.0) << params.layout.names[i] << " is dead";
  }
}

TEST(TrainingGradients, EveryParameterMatchesFiniteDifferencesCausal) {
  check_gradients_against_finite_differences(Task::PreviousAndFirst);
}

TEST(TrainingGradients, EveryParameterMatchesFiniteDifferencesBidirectional) {
  check_gradients_against_finite_differences(Task::Reverse);
}

// Issue 23: every position encoding, in both layers (RoPE on q and k, ALiBi on the scores).
TEST(TrainingGradients, EveryParameterMatchesFiniteDifferencesRope) {
  check_gradients_against_finite_differences(Task::PreviousAndFirst, PositionEncoding::Rope);
}

TEST(TrainingGradients, EveryParameterMatchesFiniteDifferencesRopeBidirectional) {
  check_gradients_against_finite_differences(Task::Reverse, PositionEncoding::Rope);
}

TEST(TrainingGradients, EveryParameterMatchesFiniteDifferencesAlibi) {
  check_gradients_against_finite_differences(Task::PreviousAndFirst, PositionEncoding::Alibi);
}

TEST(TrainingGradients, EveryParameterMatchesFiniteDifferencesAlibiBidirectional) {
  check_gradients_against_finite_differences(Task::Reverse, PositionEncoding::Alibi);
}

TEST(TrainingGradients, EveryParameterMatchesFiniteDifferencesSinusoidal) {
  check_gradients_against_finite_differences(Task::PreviousAndFirst, PositionEncoding::Sinusoidal);
}

TEST(TrainingGradients, EveryParameterMatchesFiniteDifferencesNone) {
  check_gradients_against_finite_differences(Task::PreviousAndFirst, PositionEncoding::None);
}

// float32 RoPE and ALiBi gradients agree with the double ones.
TEST(TrainingGradients, FloatBackwardAgreesWithDoubleRopeAndAlibi) {
  for (const PositionEncoding pos : {PositionEncoding::Rope, PositionEncoding::Alibi}) {
    TrainSettings settings = tiny_settings(Task::Induction);
    settings.d_model = 16;
    settings.seq_len = 10;
    settings.vocab = 12;
    settings.batch_size = 8;
    settings.pos = pos;
    Trainer trainer(settings);
    const Batch batch = trainer.batch(0);
    Parameters<float> g32 = zero_parameters<float>(trainer.shape());
    trainer.gradients(batch, g32);
    const Parameters<double> p64 = cast_parameters<double>(trainer.parameters());
    ForwardCache<double> cache;
    forward_loss(trainer.shape(), p64, batch, cache);
    Parameters<double> g64 = zero_parameters<double>(trainer.shape());
    backward(trainer.shape(), p64, batch, cache, g64);
    for (size_t i = 0; i < g64.values.size(); ++i) {
      if (is_key_bias(g64.layout.names[i], pos)) continue;
      EXPECT_LT(relative_error(g32.values[i].cast<double>(), g64.values[i]), 1e-4)
          << position_encoding_name(pos) << " " << g64.layout.names[i];
    }
  }
}

// float32 training gradients agree with the double ones (the float path is the one that trains).
TEST(TrainingGradients, FloatBackwardAgreesWithDouble) {
  TrainSettings settings = tiny_settings(Task::PreviousAndFirst);
  settings.d_model = 16;
  settings.seq_len = 8;
  settings.vocab = 10;
  settings.batch_size = 8;
  Trainer trainer(settings);
  const Batch batch = trainer.batch(0);
  Parameters<float> g32 = zero_parameters<float>(trainer.shape());
  trainer.gradients(batch, g32);
  const Parameters<double> p64 = cast_parameters<double>(trainer.parameters());
  ForwardCache<double> cache;
  forward_loss(trainer.shape(), p64, batch, cache);
  Parameters<double> g64 = zero_parameters<double>(trainer.shape());
  backward(trainer.shape(), p64, batch, cache, g64);
  for (size_t i = 0; i < g64.values.size(); ++i) {
    if (is_key_bias(g64.layout.names[i])) {
      EXPECT_LT(g32.values[i].cwiseAbs().maxCoeff(), 1e-6) << g64.layout.names[i];
      continue;
    }
    const double error = relative_error(g32.values[i].cast<double>(), g64.values[i]);
    EXPECT_LT(error, 1e-4) << g64.layout.names[i];
  }
}

// Each layer's MHA(z) equals the core's forward() run on that layer's input with its weights.
TEST(TrainingModel, AttentionEqualsCoreForward) {
  for (const bool causal_task : {true, false}) {
    TrainSettings settings = tiny_settings(causal_task ? Task::PreviousAndFirst : Task::Reverse);
    settings.d_model = 12;
    settings.heads = 3;
    settings.d_k = 5;
    settings.seq_len = 7;
    settings.batch_size = 4;
    Trainer trainer(settings);
    const ModelShape shape = trainer.shape();
    const Batch batch = trainer.batch(3);
    ForwardCache<float> cache;
    forward_loss(shape, trainer.parameters(), batch, cache);
    const Parameters<float>& p = trainer.parameters();
    for (int64_t l = 0; l < shape.layers; ++l) {
      const LayerSlots& w = p.layout.layers[size_t(l)];
      Config c;
      c.batch = settings.batch_size;
      c.seq_len = settings.seq_len;
      c.d_model = settings.d_model;
      c.n_heads = settings.heads;
      c.d_k = settings.d_k;
      c.bias = true;
      c.mask.causal = shape.causal;
      const LayerCache<float>& layer = cache.layers[size_t(l)];
      auto tensor = [](const char* name, Shape s, const Matrix<float>& m) {
        return to_tensor(name, std::move(s), m);
      };
      const int64_t D = shape.d_model, H = shape.qkv_width();
      Inputs in;
      in.x = tensor("x", {c.batch, c.seq_len, D}, layer.z_in);
      in.w_q = tensor("w_q", {D, H}, p[w.w_q]);
      in.w_k = tensor("w_k", {D, H}, p[w.w_k]);
      in.w_v = tensor("w_v", {D, H}, p[w.w_v]);
      in.w_o = tensor("w_o", {H, D}, p[w.w_o]);
      in.b_q = tensor("b_q", {H}, p[w.b_q]);
      in.b_k = tensor("b_k", {H}, p[w.b_k]);
      in.b_v = tensor("b_v", {H}, p[w.b_v]);
      in.b_o = tensor("b_o", {D}, p[w.b_o]);
      const Tensor out = forward(c, in);
      ASSERT_EQ(out.numel(), layer.attention.size());
      double max_diff = 0;
      for (int64_t e = 0; e < out.numel(); ++e)
        max_diff = std::max(max_diff, double(std::abs(out.data()[e] - layer.attention.data()[e])));
      std::printf("  layer %lld (%s): max |model - forward()| = %.2e\n", (long long)l,
                  shape.causal ? "causal" : "bidirectional", max_diff);
      EXPECT_LT(max_diff, 1e-5);
    }
  }
}

// At the issue's size the backward pass's head loop runs on the thread pool: still the same bits.
TEST(TrainingModel, SameSeedGivesBitIdenticalWeightsAtTheIssueSize) {
  TrainSettings s;  // previous-and-first, d_model 32, T 12, batch 64, h 2
  auto train = [&] {
    Trainer t(s);
    for (int i = 0; i < 30; ++i) t.step();
    return t.parameters();
  };
  const Parameters<float> a = train(), b = train();
  for (size_t i = 0; i < a.values.size(); ++i) {
    EXPECT_EQ(0, std::memcmp(a.values[i].data(), b.values[i].data(),
                             sizeof(float) * size_t(a.values[i].size())))
        << a.layout.names[i];
  }
}

// Same seed: bit-identical weights after N steps; another seed: different weights.
TEST(TrainingModel, SameSeedGivesBitIdenticalWeights) {
  TrainSettings settings = tiny_settings(Task::PreviousAndFirst);
  settings.d_model = 16;
  settings.seq_len = 8;
  settings.batch_size = 16;
  auto train = [](const TrainSettings& s) {
    Trainer t(s);
    for (int i = 0; i < 40; ++i) t.step();
    return t.parameters();
  };
  const Parameters<float> a = train(settings), b = train(settings);
  TrainSettings other = settings;
  other.seed += 1;
  const Parameters<float> c = train(other);
  bool any_different = false;
  for (size_t i = 0; i < a.values.size(); ++i) {
    EXPECT_EQ(0, std::memcmp(a.values[i].data(), b.values[i].data(),
                             sizeof(float) * size_t(a.values[i].size())))
        << a.layout.names[i];
    any_different |= a.values[i] != c.values[i];
  }
  EXPECT_TRUE(any_different);
  // The weights moved from their initial values.
  const Trainer fresh(settings);
  EXPECT_NE(fresh.parameters().values[0], a.values[0]);
}

}  // namespace
}  // namespace attnlab::training
