// Seed 002's notebook, reproduced: its inputs were written by NumPy (tests/data/seed002), its
// printed outputs are copied below from the notebook.
#include <gtest/gtest.h>

#include "core/trace/mha.hpp"
#include "core/model/mha_loop.hpp"
#include "core/tensor/npy.hpp"
#include "core/model/preset.hpp"
#include "reference_mha.hpp"

namespace attnlab {
namespace {

const std::string kData = std::string(ATTNLAB_TEST_DATA) + "/seed002/";

// "Head 0 output:", "Head 1 output:", "Multi-head combination:" as printed by the notebook.
const double kHead0[3][2] = {
    {-0.13502184, 0.16859793}, {-0.13458499, 0.16709715}, {-0.13486361, 0.16837749}};
const double kHead1[3][2] = {
    {0.41382381, 0.51585003}, {0.41388256, 0.51598671}, {0.41415734, 0.51665625}};
const double kOutput[3][4] = {{-0.11650333, -0.15291629, 0.05670701, -0.11995107},
                              {-0.11619959, -0.15312817, 0.05761014, -0.12044207},
                              {-0.1164723, -0.15317532, 0.05724618, -0.12031059}};

Config seed002_config() {
  Config c;
  c.d_model = 4;
  c.n_heads = 2;
  c.seq_len = 3;
  return c;
}

Inputs seed002_inputs() {
  Inputs in;
  in.x = load_npy(kData + "x.npy", "x").view({1, 3, 4});
  in.w_q = load_npy(kData + "w_q.npy", "w_q");
  in.w_k = load_npy(kData + "w_k.npy", "w_k");
  in.w_v = load_npy(kData + "w_v.npy", "w_v");
  in.w_o = load_npy(kData + "w_o.npy", "w_o");
  return in;
}

void expect_notebook_outputs(const Trace& trace) {
  const Tensor& context = trace.find("context")->tensor;  // (B, h, T, d_v) = (1, 2, 3, 2)
  const Tensor& out = trace.find("out")->tensor;          // (1, 3, 4)
  double worst = 0;
  for (int64_t t = 0; t < 3; ++t) {
    for (int64_t e = 0; e < 2; ++e) {
      worst = std::max(worst, std::abs(context.at({0, 0, t, e}) - kHead0[t][e]));
      worst = std::max(worst, std::abs(context.at({0, 1, t, e}) - kHead1[t][e]));
    }
    for (int64_t e = 0; e < 4; ++e)
      worst = std::max(worst, std::abs(out.at({0, t, e}) - kOutput[t][e]));
  }
  std::printf("seed 002: max |ours - notebook| = %.3g\n", worst);
  EXPECT_LT(worst, 1e-6);
}

TEST(Seed002, BatchedPathReproducesTheNotebook) {
  expect_notebook_outputs(run(seed002_config(), seed002_inputs()));
}

TEST(Seed002, PresetReproducesTheNotebook) {
  const Preset preset = find_preset("seed002");
  expect_notebook_outputs(run(preset.config, preset.inputs));
}

TEST(Seed002, PerHeadLoopReproducesTheNotebook) {
  const LoopResult loop = run_loop(seed002_config(), seed002_inputs());
  for (int64_t t = 0; t < 3; ++t) {
    for (int64_t e = 0; e < 2; ++e) {
      EXPECT_NEAR(loop.context[0].at({0, t, e}), kHead0[t][e], 1e-6);
      EXPECT_NEAR(loop.context[1].at({0, t, e}), kHead1[t][e], 1e-6);
    }
    for (int64_t e = 0; e < 4; ++e) EXPECT_NEAR(loop.out.at({0, t, e}), kOutput[t][e], 1e-6);
  }
}

}  // namespace
}  // namespace attnlab
