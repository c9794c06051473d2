#include "core/teaching/model_table.hpp"

#include "core/model/preset.hpp"
#include "core/trace/mha.hpp"

namespace attnlab {

std::vector<ModelRow> model_table() {
  const std::pair<const char*, const char*> models[] = {
      {"tiny", "Tiny transformer"}, {"base", "Transformer base"},  {"bert-base", "BERT-base"},
      {"bert-large", "BERT-large"}, {"gpt2-small", "GPT-2 small"}, {"gpt3", "GPT-3 175B"}};
  std::vector<ModelRow> rows;
  for (const auto& [preset, model] : models) {
    Config c = find_preset(preset).config;
    c.batch = 1;
    c.shape_only = true;
    const Trace t = run(c);
    ModelRow row;
    row.preset = preset;
    row.model = model;
    row.d_model = c.d_model;
    row.n_heads = c.n_heads;
    row.d_k = c.head_dim_k();
    row.context = c.tokens();
    row.parameters = t.counters.parameters();
    row.attention_bytes = t.counters.attention_elements * int64_t(sizeof(Scalar));
    row.flops = t.counters.flops;
    rows.push_back(row);
  }
  return rows;
}

}  // namespace attnlab
