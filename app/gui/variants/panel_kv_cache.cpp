// The KV cache tab: what sharing keys and values saves. This config's K/V counters; the same layer
// as MHA, GQA, MQA (and MLA); DeepSeek-V2's layer each way; MLA's absorbed form checked against
// the trace's output; and the cache's memory against T for real models.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app/gui/look/theme.hpp"
#include "app/gui/look/wrap.hpp"
#include "app/gui/panels/fitted_type.hpp"
#include "app/gui/panels/measured_table.hpp"
#include "app/gui/panels/panels.hpp"
#include "app/gui/variants/cache_memory_table.hpp"
#include "app/gui/variants/variant_panels.hpp"
#include "core/model/errors.hpp"
#include "core/teaching/model_table.hpp"
#include "core/variants/latent_attention.hpp"

namespace attnlab::gui {

namespace {

// The K/V heads GQA is shown with for this config: the config's own when grouped, else the
// largest divisor of h below h / 2 (none for h < 4).
int64_t gqa_example(const Config& c) {
  if (c.grouped() && c.kv_heads() > 1) return c.kv_heads();
  for (int64_t d = c.n_heads / 2; d > 1; --d)
    if (c.n_heads % d == 0 && d < c.n_heads) return d;
  return 0;
}

constexpr ImGuiTableFlags kSharingFlags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg;

// The bars' scale: multi-head attention's is this long.
float sharing_bar_width() {
  return ImGui::GetFontSize() * 4;
}

// The table's text, row by row: variant, K/V from, K/V params, numbers cached per token, their
// bytes in fp16 over `layers` layers, the share of MHA's.
std::vector<std::vector<std::string>> sharing_cells(const std::vector<CacheRow>& rows,
                                                    int64_t layers) {
  std::vector<std::vector<std::string>> cells;
  for (const CacheRow& r : rows) {
    char share[32];
    std::snprintf(share, sizeof share, "%.1f%%", 100 * r.share_of_multi_head);
    cells.push_back(
        {r.variant, r.sharing, count_text(double(r.kv_parameters), ""),
         std::to_string(r.kv_cache_numbers),
         format_bytes(double(r.kv_cache_numbers) * 2 * double(std::max<int64_t>(layers, 1))),
         share});
  }
  return cells;
}

MeasuredColumns sharing_columns(const std::vector<std::vector<std::string>>& cells,
                                int64_t layers) {
  const std::string bytes_title =
      layers > 1 ? "fp16,\n" + std::to_string(layers) + " layers" : "fp16";
  const float beside = sharing_bar_width() + ImGui::GetStyle().ItemSpacing.x;  // the bar
  return measure_columns(
      {"variant", "K/V from", "K/V\nparams", "cached per token", bytes_title, "of MHA"}, cells,
      {0, 0, 0, beside});
}

// One row per way of sharing: numbers cached per token per layer (a bar against multi-head
// attention's), their bytes in fp16 over `layers` layers, and the share of MHA's. `id`: each
// table its own (two tables of one ID in a window share their columns' widths, each cutting the
// other's wider cells).
void comparison_rows(const char* id, const std::vector<CacheRow>& rows, int64_t layers) {
  const std::vector<std::vector<std::string>> cells = sharing_cells(rows, layers);
  if (!begin_measured_table(id, sharing_columns(cells, layers), int(rows.size()), kSharingFlags))
    return;
  for (size_t i = 0; i < rows.size(); ++i) {
    ImGui::TableNextRow();
    for (size_t c = 0; c < cells[i].size(); ++c) {
      ImGui::TableNextColumn();
      if (c == 3)
        value_bar(float(std::max(rows[i].share_of_multi_head, 0.004)), sharing_bar_width(),
                  head_colour(int(i)), cells[i][c].c_str());
      else
        ImGui::TextUnformatted(cells[i][c].c_str());
    }
  }
  ImGui::EndTable();
}

// This config's way of sharing each way, counted by the core in shape-only mode (once per trace).
const std::vector<CacheRow>& config_rows(AppState& state) {
  const Config& c = state.session.trace->config;
  return state.kv_cache.rows.get(state.session.generation, WholeTrace{}, [&] {
    try {
      return cache_comparison(c, gqa_example(c));
    } catch (const UserError&) {
      return std::vector<CacheRow>{};  // a sharing this config cannot take
    }
  });
}

const std::vector<CacheRow>& deepseek_rows() {
  static const std::vector<CacheRow> deepseek = deepseek_v2_cache_rows();  // never changes
  return deepseek;
}

void this_config(AppState& state) {
  const Trace& trace = *state.session.trace;
  const Config& c = trace.config;
  const Counters& n = trace.counters;
  heading(state, "This config");
  if (c.latent()) {
    text_wrapped_format(
        "Latent attention: K and V per head come from one %lld-wide latent c_kv (and a %lld-wide "
        "rotary key shared by every head): the cache holds %lld numbers per token per layer, "
        "against 2\u00B7h\u00B7d_k = %lld for multi-head attention.",
        (long long)c.kv_latent, (long long)c.rope_dim, (long long)n.kv_cache_numbers,
        (long long)(2 * c.n_heads * c.head_dim_k()));
  } else {
    text_wrapped_format(
        "%lld K/V head%s for %lld query heads%s: the cache holds n_kv\u00B7(d_k+d_v) = "
        "%lld\u00B7(%lld+%lld) = %lld numbers per token per layer (%s as float32); K/V "
        "parameters %s.",
        (long long)c.kv_heads(), c.kv_heads() == 1 ? "" : "s", (long long)c.n_heads,
        c.grouped() ? (", each shared by g = " + std::to_string(c.group_size())).c_str() : "",
        (long long)c.kv_heads(), (long long)c.head_dim_k(), (long long)c.head_dim_v(),
        (long long)n.kv_cache_numbers, format_bytes(double(n.kv_cache_numbers) * 4).c_str(),
        count_text(double(n.kv_parameters), "").c_str());
  }
  const std::vector<CacheRow>& rows = config_rows(state);
  if (!rows.empty()) comparison_rows("sharing", rows, 1);
}

void latent_section(AppState& state) {
  const Trace& trace = *state.session.trace;
  heading(state, "DeepSeek-V2's layer: 128 heads of 128, d_c 512, d_rope 64");
  comparison_rows("deepseek_sharing", deepseek_rows(), kDeepSeekV2Layers);
  if (!trace.pass_records(Pass::Absorbed).empty()) {
    text_wrapped_format(
        "Absorbed form (W_UK folded into the queries, W_UV after the weights): out_absorbed "
        "differs from out by at most %.2g.",
        trace.absorbed.max_abs_difference);
    text_wrapped(std::string("Why it matters for decoding: ") + kAbsorbedWhy + ".");
  } else {
    ImGui::PushStyleColor(ImGuiCol_Text, palette(state.ui.theme).text_dim);
    text_wrapped(
        "Turn on latent K/V (MLA) in Controls, Next lessons, to check the absorbed form against "
        "this trace's output.");
    ImGui::PopStyleColor();
  }
}

}  // namespace

// This config and DeepSeek-V2's layer beside the cache's memory against T where their tables fit
// side by side at the least type (the memory at every length, else at T now and 128K only), each
// given room in proportion to its widest table; else all three one under another. Chosen from the
// widths at the least type, so fitting the type never changes the layout.
void draw_kv_cache_tab(AppState& state) {
  const int64_t now = state.session.trace->config.tokens();
  const float avail = ImGui::GetContentRegionAvail().x;
  const float pad = 2 * std::floor(ImGui::GetStyle().WindowPadding.x * 0.5f);  // a region's sides
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  const float left = at_least_type([&] {
    const std::vector<CacheRow>& mine = config_rows(state);
    return std::max(measured_table_width(sharing_columns(sharing_cells(mine, 1), 1), kSharingFlags),
                    measured_table_width(
                        sharing_columns(sharing_cells(deepseek_rows(), kDeepSeekV2Layers),
                                        kDeepSeekV2Layers),
                        kSharingFlags)) +
           pad;
  });
  const auto right = [&](CacheLengths lengths) {
    return at_least_type([&] { return cache_memory_table_width(state, now, lengths) + pad; });
  };
  CacheLengths lengths = CacheLengths::Every;
  float right_w = right(lengths);
  if (left + right_w + gap > avail) right_w = right(lengths = CacheLengths::NowAndLongest);
  const bool side_by_side = left + right_w + gap <= avail;
  if (!side_by_side) lengths = CacheLengths::Every;
  begin_fitted_region(
      state, "kv_cache",
      ImVec2(side_by_side ? std::floor((avail - gap) * left / (left + right_w)) : 0, 0));
  this_config(state);
  latent_section(state);
  if (side_by_side) {
    end_fitted_region(state);
    ImGui::SameLine(0, gap);
    begin_fitted_region(state, "kv_cache_memory", ImVec2(0, 0));
  }
  heading(state, "Cache memory against T");
  cache_memory_table(state, now, lengths);
  end_fitted_region(state);
}

}  // namespace attnlab::gui
