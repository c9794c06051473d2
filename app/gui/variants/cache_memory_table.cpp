#include "app/gui/variants/cache_memory_table.hpp"

#include <imgui.h>

#include <string>
#include <utility>
#include <vector>

#include "app/gui/look/wrap.hpp"
#include "app/gui/panels/measured_table.hpp"
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

namespace {

constexpr ImGuiTableFlags kCacheFlags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg;

// The lengths shown, each with its header: T now, then the longer ones (a length T now already
// is shown once).
std::vector<std::pair<int64_t, std::string>> cache_lengths(int64_t now, CacheLengths lengths) {
  std::vector<std::pair<int64_t, std::string>> shown{{now, "T = " + std::to_string(now)}};
  const std::pair<int64_t, std::string> longer[] = {
      {4096, "T = 4K"}, {32768, "T = 32K"}, {131072, "T = 128K"}};
  for (const auto& length : longer)
    if (length.first != now && (lengths == CacheLengths::Every || length.first == 131072))
      shown.push_back(length);
  return shown;
}

// The table as text: each row's name, bytes per token and bytes at each length shown.
std::vector<std::vector<std::string>> cache_cells(const AppState& state, int64_t now,
                                                  CacheLengths lengths) {
  std::vector<std::vector<std::string>> cells;
  for (const CacheGrowth& row : cache_growth(state)) {
    std::vector<std::string> line{row.name, format_bytes(row.bytes_per_token)};
    for (const auto& length : cache_lengths(now, lengths))
      line.push_back(format_bytes(row.bytes_per_token * double(length.first)));
    cells.push_back(line);
  }
  return cells;
}

MeasuredColumns cache_columns(const std::vector<std::vector<std::string>>& cells, int64_t now,
                              CacheLengths lengths) {
  std::vector<std::string> headers{"KV cache", "per token"};
  for (const auto& length : cache_lengths(now, lengths)) headers.push_back(length.second);
  return measure_columns(headers, cells);
}

}  // namespace

float cache_memory_table_width(const AppState& state, int64_t now, CacheLengths lengths) {
  return measured_table_width(cache_columns(cache_cells(state, now, lengths), now, lengths),
                              kCacheFlags);
}

void cache_memory_table(const AppState& state, int64_t now, CacheLengths lengths) {
  const std::vector<std::vector<std::string>> cells = cache_cells(state, now, lengths);
  if (!begin_measured_table("cache_vs_T", cache_columns(cells, now, lengths), int(cells.size()),
                            kCacheFlags))
    return;
  for (const auto& row : cells) {
    ImGui::TableNextRow();
    for (const std::string& text : row) {
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(text.c_str());
    }
  }
  ImGui::EndTable();
  tooltip(
      "The cache grows by the same bytes with every token: per token = numbers per token per "
      "layer x layers x bytes per number (2 n_kv d_k; MLA: d_c + d_rope).");
}

}  // namespace attnlab::gui
