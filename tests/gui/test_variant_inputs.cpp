// The variants and the inputs a trace was made from (issue 21): the measurements on a
// cross-attention trace read its key/value sentence, and a preset's (or a trained model's) own
// tensors are kept only while they fit the K/V heads, MLA's widths and cross-attention's sizes.
#include <memory>

#include "app/gui/panels/panels.hpp"
#include "app/gui/train/train_run.hpp"
#include "core/model/tokenizer.hpp"
#include "core/teaching/ablation.hpp"
#include "core/teaching/comparisons.hpp"
#include "core/trace/mha.hpp"
#include "headless_imgui.hpp"

namespace attnlab::gui {
namespace {

class VariantInputs : public HeadlessImGui {
 protected:
  // The shown config changed by `change`, computed at once (small configs are synchronous).
  template <typename Change>
  void change_config(Change change) {
    Config config = state.session.config;
    change(config);
    set_config(state, config);
    state.session.worker->wait_idle();
    poll_trace(state);
    ASSERT_TRUE(state.session.trace);
    ASSERT_EQ(state.session.trace->config, config) << state.session.run_error;
  }
  // The inputs the core makes for this config from nothing given: the reference.
  static Inputs generated(const Config& c) {
    return complete_inputs(c, tokens_for(c.sentence, c.tokens()), {},
                           tokens_for(c.sentence_kv, c.key_tokens()));
  }
};

// [SECTION] measurements on a cross-attention trace

TEST_F(VariantInputs, MeasurementsOnACrossAttentionTraceReadItsKeyValueSentence) {
  start_on("cat");
  change_config([](Config& c) {
    c.sentence = "the cat sat";
    c.seq_len = 0;
    c.sentence_kv = "le chat est assis";
    c.mask = MaskSpec{};
  });
  const Config config = state.session.trace->config;
  ASSERT_EQ(state.session.trace->tokens_kv.size(), 4u);
  const Inputs inputs = shown_trace_inputs(state);
  ASSERT_EQ(inputs.x_kv.shape(), (Shape{1, 4, config.kv_input_dim()}));
  // X_kv is the key/value sentence's embedding, as the trace's own x_kv record holds it.
  EXPECT_EQ(inputs.x_kv.to_vector(), state.session.trace->find("x_kv")->tensor.to_vector());

  start_importance(state);
  start_path_timing(state);
  start_head_count_comparison(state);
  wait_for_measurements(state);
  poll_measurements(state);
  ASSERT_TRUE(state.head_tools.importance.error().empty()) << state.head_tools.importance.error();
  ASSERT_TRUE(state.paths.comparison.error().empty()) << state.paths.comparison.error();
  ASSERT_TRUE(state.head_tools.head_counts.error().empty()) << state.head_tools.head_counts.error();
  // The core's numbers on the same inputs.
  const Inputs reference = generated(config);
  const std::vector<double> importance = head_importance(config, reference);
  ASSERT_EQ(importance.size(), size_t(config.n_heads));
  EXPECT_EQ(*state.head_tools.importance.result(), importance);
  for (double value : importance) EXPECT_GT(value, 0.0);
  EXPECT_LT(state.paths.comparison.result()->max_abs_difference, 1e-5);
  const HeadCountComparison& counts = *state.head_tools.head_counts.result();
  EXPECT_EQ(counts.multi.find("out")->tensor.to_vector(),
            run(config, reference).find("out")->tensor.to_vector());
  EXPECT_EQ(counts.single.counters.attention_elements, config.tokens() * config.key_tokens());
}

// [SECTION] a preset's own tensors against the variants' sizes

struct PresetChange {
  const char* name;
  void (*change)(Config&);
};

const PresetChange kVariantChanges[] = {
    {"one K/V head", [](Config& c) { c.n_kv_heads = 1; }},
    {"MLA latent", [](Config& c) { c.kv_latent = 2; }},
    {"cross-attention with its own width",
     [](Config& c) {
       c.sentence_kv = "le chat est assis";
       c.d_in_kv = 6;
       c.mask = MaskSpec{};
     }},
};

TEST_F(VariantInputs, APresetsTensorsAreDroppedWhenTheVariantChangesTheirShapes) {
  for (const char* preset : {"seed002", "crafted"}) {
    for (const PresetChange& change : kVariantChanges) {
      SCOPED_TRACE(std::string(preset) + ", " + change.name);
      start_on(preset);
      ASSERT_TRUE(state.session.preset_inputs.w_k.has_values());
      change_config(change.change);
      EXPECT_TRUE(state.session.run_error.empty()) << state.session.run_error;
      EXPECT_NE(state.status.find("using generated ones"), std::string::npos) << state.status;
      // Every tensor the trace used is the generated one (none of the preset's).
      const Config& c = state.session.trace->config;
      const Inputs reference = generated(c);
      EXPECT_EQ(state.session.trace->find("w_k")->tensor.to_vector(), reference.w_k.to_vector());
      EXPECT_EQ(state.session.trace->find("w_k")->tensor.shape(), reference.w_k.shape());
      EXPECT_EQ(state.session.trace->find("out")->tensor.to_vector(),
                run(c, reference).find("out")->tensor.to_vector());
    }
  }
}

TEST_F(VariantInputs, APresetsTensorsStayWhileTheyStillFit) {
  start_on("seed002");
  // Cross-attention with the same width: X, W_q, W_k, W_v and W_o all keep their shapes.
  change_config([](Config& c) { c.sentence_kv = "le chat"; });
  EXPECT_EQ(state.status.find("using generated ones"), std::string::npos) << state.status;
  EXPECT_EQ(state.session.trace->find("w_k")->tensor.to_vector(),
            state.session.preset_inputs.w_k.to_vector());
  EXPECT_EQ(state.session.trace->find("x")->tensor.to_vector(),
            state.session.preset_inputs.x.to_vector());
  // K/V heads = n_heads is multi-head attention: the notebook's weights still fit.
  change_config([](Config& c) {
    c.sentence_kv.clear();
    c.n_kv_heads = 2;
  });
  EXPECT_EQ(state.session.trace->find("w_k")->tensor.to_vector(),
            state.session.preset_inputs.w_k.to_vector());
}

TEST_F(VariantInputs, ATrainedModelsWeightsAreDroppedForOneKeyValueHead) {
  start_on("seed003");
  training::TrainSettings settings;
  settings.task = training::Task::PreviousAndFirst;
  settings.heads = 2;
  settings.steps = 1;
  state.train.run = std::make_unique<TrainRun>();
  ASSERT_EQ(state.train.run->reset(settings), "");
  open_trained_model(state);
  state.session.worker->wait_idle();
  poll_trace(state);
  ASSERT_TRUE(state.session.trace);
  ASSERT_TRUE(state.session.preset_inputs.w_k.has_values());
  change_config([](Config& c) { c.n_kv_heads = 1; });
  EXPECT_TRUE(state.session.run_error.empty()) << state.session.run_error;
  const Config& c = state.session.trace->config;
  EXPECT_EQ(state.session.trace->find("w_k")->tensor.shape(),
            (Shape{c.input_dim(), c.head_dim_k()}));
}

}  // namespace
}  // namespace attnlab::gui
