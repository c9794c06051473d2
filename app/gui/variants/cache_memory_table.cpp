#include "app/gui/variants/cache_memory_table.hpp"

#include <imgui.h>

#include <string>
#include <vector>

#include "app/gui/look/wrap.hpp"
#include "app/gui/panels/panels.hpp"
#include "core/teaching/model_table.hpp"

namespace attnlab::gui {

namespace {

struct CacheGrowth {
  std::string name;
  double bytes_per_token = 0;
};

// This layer (B sequences, float32, as the trace computes it) and the decoders of the model
// table (all layers, fp16); BERT encodes a whole sentence at once and keeps no cache.
std::vector<CacheGrowth> cache_growth(const AppState& state) {
  static const std::vector<ModelRow> models = model_table();  // shape-only: never changes
  const Config& c = state.session.trace->config;
  const Counters& n = state.session.trace->counters;
  std::vector<CacheGrowth> rows{{"this config (B=" + std::to_string(c.batch) + ", 1 layer, fp32)",
                                 double(n.kv_cache_numbers) * double(c.batch) * 4}};
  const std::string decoders = " gpt2-small gpt3 llama2-70b mistral-7b deepseek-v2 ";
  for (const ModelRow& m : models) {
    if (decoders.find(" " + m.preset + " ") == std::string::npos) continue;
    rows.push_back({m.model + " (" + std::to_string(m.layers) + " layers, fp16)",
                    double(m.kv_cache_bytes_per_token())});
  }
  return rows;
}

}  // namespace

void cache_memory_line(const AppState& state, int64_t now) {
  std::string line = "KV cache at T = " + std::to_string(now) + ":";
  for (const CacheGrowth& row : cache_growth(state))
    line += (line.back() == ':' ? " " : " \u00B7 ") + row.name + " " +
            format_bytes(row.bytes_per_token * double(now));
  text_wrapped(line);
  tooltip("Every token adds the same bytes; the KV cache tab (key 9) tabulates it against T.");
}

void cache_memory_table(const AppState& state, int64_t now) {
  const int64_t lengths[] = {now, 4096, 32768, 131072};
  const ImGuiTableFlags flags =
      ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit;
  const std::vector<CacheGrowth> growth = cache_growth(state);
  if (!begin_whole_table("cache_vs_T", 6, int(growth.size()), true, flags)) return;
  const std::string now_label = "T = " + std::to_string(now);
  for (const char* name :
       {"KV cache", "per token", now_label.c_str(), "T = 4K", "T = 32K", "T = 128K"})
    ImGui::TableSetupColumn(name);
  ImGui::TableHeadersRow();
  for (const CacheGrowth& row : growth) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(row.name.c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(format_bytes(row.bytes_per_token).c_str());
    for (int64_t T : lengths) {
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(format_bytes(row.bytes_per_token * double(T)).c_str());
    }
  }
  ImGui::EndTable();
  tooltip(
      "The cache grows by the same bytes with every token: per token = numbers per token per "
      "layer x layers x bytes per number (2 n_kv d_k; MLA: d_c + d_rope).");
}

}  // namespace attnlab::gui
