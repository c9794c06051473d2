// The KV cache tab: what sharing keys and values saves. This config's K/V counters; the same layer
// as MHA, GQA, MQA (and MLA); DeepSeek-V2's layer each way; MLA's absorbed form checked against
// the trace's output; and the cache's memory against T for real models.
#include <imgui.h>

#include <algorithm>
#include <string>
#include <vector>

#include "app/gui/look/theme.hpp"
#include "app/gui/look/wrap.hpp"
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

// One row per way of sharing: numbers cached per token per layer (a bar against multi-head
// attention's), their bytes in fp16 over `layers` layers, and the share of MHA's. `id`: each
// table its own (two tables of one ID in a window share their columns' widths, each cutting the
// other's wider cells).
void comparison_rows(const char* id, const std::vector<CacheRow>& rows, int64_t layers) {
  const ImGuiTableFlags flags =
      ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit;
  if (!begin_whole_table(id, 6, int(rows.size()), true, flags)) return;
  const std::string bytes_title =
      layers > 1 ? "fp16, " + std::to_string(layers) + " layers" : "fp16";
  ImGui::TableSetupColumn("variant");
  ImGui::TableSetupColumn("K/V from");
  ImGui::TableSetupColumn("K/V params");
  ImGui::TableSetupColumn("cached per token");
  ImGui::TableSetupColumn(bytes_title.c_str());
  ImGui::TableSetupColumn("of MHA");
  ImGui::TableHeadersRow();
  for (size_t i = 0; i < rows.size(); ++i) {
    const CacheRow& r = rows[i];
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(r.variant.c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(r.sharing.c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(count_text(double(r.kv_parameters), "").c_str());
    ImGui::TableNextColumn();
    const std::string numbers = std::to_string(r.kv_cache_numbers);
    const float bar_w = ImGui::GetFontSize() * 8;  // the bars' scale: MHA's is this long
    value_bar(float(std::max(r.share_of_multi_head, 0.004)), bar_w, head_colour(int(i)),
              numbers.c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(
        format_bytes(double(r.kv_cache_numbers) * 2 * double(std::max<int64_t>(layers, 1)))
            .c_str());
    ImGui::TableNextColumn();
    ImGui::Text("%.1f%%", 100 * r.share_of_multi_head);
  }
  ImGui::EndTable();
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
  // The same layer shared each way, counted by the core in shape-only mode (once per trace).
  const std::vector<CacheRow>& rows =
      state.kv_cache.rows.get(state.session.generation, WholeTrace{}, [&] {
        try {
          return cache_comparison(c, gqa_example(c));
        } catch (const UserError&) {
          return std::vector<CacheRow>{};  // a sharing this config cannot take
        }
      });
  if (!rows.empty()) comparison_rows("sharing", rows, 1);
}

void latent_section(AppState& state) {
  const Trace& trace = *state.session.trace;
  heading(state, "DeepSeek-V2's layer: 128 heads of 128, d_c 512, d_rope 64");
  static const std::vector<CacheRow> deepseek = deepseek_v2_cache_rows();  // never changes
  comparison_rows("deepseek_sharing", deepseek, kDeepSeekV2Layers);
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

void draw_kv_cache_tab(AppState& state) {
  begin_fitted_region(state, "kv_cache", ImVec2(0, 0));
  this_config(state);
  latent_section(state);
  heading(state, "Cache memory against T");
  cache_memory_table(state, state.session.trace->config.tokens());
  end_fitted_region(state);
}

}  // namespace attnlab::gui
