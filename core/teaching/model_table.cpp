#include "core/teaching/model_table.hpp"

#include "core/model/preset.hpp"
#include "core/trace/plan_sizes.hpp"

namespace attnlab {

const int64_t kDeepSeekV2Layers = 60;

std::vector<ModelRow> model_table() {
  struct Model {
    const char* preset;
    const char* name;
    int64_t layers;
  };
  const Model models[] = {{"tiny", "Tiny transformer", 4},
                          {"base", "Transformer base", 6},
                          {"bert-base", "BERT-base", 12},
                          {"bert-large", "BERT-large", 24},
                          {"gpt2-small", "GPT-2 small", 12},
                          {"gpt3", "GPT-3 175B", 96},
                          {"llama2-70b", "Llama 2 70B", 80},
                          {"mistral-7b", "Mistral 7B", 32},
                          {"deepseek-v2", "DeepSeek-V2", kDeepSeekV2Layers}};
  std::vector<ModelRow> rows;
  for (const auto& [preset, model, layers] : models) {
    Config c = find_preset(preset).config;
    c.batch = 1;
    const Counters n = planned_counters(c);  // from the plan's sizes: nothing runs
    ModelRow row;
    row.preset = preset;
    row.model = model;
    row.d_model = c.d_model;
    row.n_heads = c.n_heads;
    row.d_k = c.head_dim_k();
    row.context = c.tokens();
    row.parameters = n.parameters();
    row.attention_bytes = n.attention_elements * int64_t(sizeof(Scalar));
    row.flops = n.flops;
    row.n_kv_heads = c.kv_heads();
    row.layers = layers;
    row.kv_parameters = n.kv_parameters;
    row.kv_cache_numbers = n.kv_cache_numbers;
    rows.push_back(row);
  }
  return rows;
}

std::vector<CacheRow> deepseek_v2_cache_rows() {
  return cache_comparison(find_preset("deepseek-v2").config, 8);
}

}  // namespace attnlab
