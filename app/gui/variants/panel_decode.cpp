// The Decode tab: the prompt is processed once (prefill), then each later token alone: its q, k, v
// are computed, k and v appended to the cache, and its query attends over the whole cache. Drawn:
// the K cache growing row by row, and each head's map gaining its new row under the earlier ones.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app/gui/look/colormap.hpp"
#include "app/gui/look/theme.hpp"
#include "app/gui/look/wrap.hpp"
#include "app/gui/model/model_panels.hpp"
#include "app/gui/panels/panels.hpp"
#include "app/gui/panels/tensor_drawing.hpp"
#include "app/gui/variants/cache_memory_table.hpp"
#include "app/gui/variants/variant_panels.hpp"
#include "core/trace/trace.hpp"

namespace attnlab::gui {

namespace {

// Decode step `step`'s record of `op` (and projection `which`): its token is P + step.
const TensorRecord& step_record(const Trace& trace, int64_t step, Op op, char which = 0) {
  return *trace.find(Pass::Decode, op, which, trace.decode.prompt_tokens + step);
}

// No decoding in this trace: what it is, and a button that turns it on.
void offer_decoding(AppState& state) {
  const Config& c = state.session.config;
  empty_tab_note(
      "Nothing decoded yet: press the Decode button below, or set decode steps in the "
      "controls' Next lessons.");
  text_wrapped(
      "Decoding generates one token at a time. Without a cache, every new token would recompute "
      "K and V of the whole sequence; with one, the prompt runs once (prefill) and each new "
      "token computes only its own q, k and v, appends k and v to the cache (B, n_kv, t, d_k) "
      "and attends over it: a 1 x t row of scores per head.");
  const int64_t T = c.tokens();
  const int64_t n = std::min<int64_t>(4, T - 1);
  if (n < 1) {
    text_wrapped("Decoding needs at least two tokens: raise T.");
    return;
  }
  const std::string label = "Decode the last " + std::to_string(n) + " tokens";
  if (ImGui::Button(label.c_str())) {
    Config next = c;
    next.decode_steps = n;
    next.mask.causal = true;
    next.mask.window = next.mask.global_tokens = 0;
    state.requests.later([next](AppState& s) {
      s.controls.last_edited_field = "decode";
      set_config(s, next);
    });
  }
  tooltip("Turns on KV-cache decoding (Controls, Next lessons: decode) with a causal mask.");
  issue_text(state, "decode");
}

// The K cache after this step, (B, n_kv, t + 1, d_k) of at most T rows: the rows held so far with
// their values, the room still empty outlined, and the row just appended marked.
void draw_cache(AppState& state, const TensorRecord& cache, int64_t capacity, ImVec2 room) {
  const Palette& colours = palette(state.ui.theme);
  const float font = ImGui::GetFontSize();
  const BlockGeometry g = geometry_of(cache, cache.tensor.size(1), false);
  const float gap = std::round(font * 0.5f);
  const float label_w = font * 4;
  const float cell_w = std::clamp((room.x - label_w - gap * float(g.parts)) /
                                      float(std::max<int64_t>(g.parts * g.part_cols, 1)),
                                  2.0f, font * 2.6f);
  const float cell_h =
      std::clamp((room.y - font * 3) / float(std::max<int64_t>(capacity, 1)), 2.0f, font * 1.2f);
  ImDrawList* list = ImGui::GetWindowDrawList();
  const ImVec2 top = ImGui::GetCursorScreenPos();
  const ImVec2 origin(top.x + label_w, top.y);
  // The room the cache grows into: every part's full T rows, outlined.
  for (int64_t k = 0; k < g.parts; ++k) {
    const float x = origin.x + float(k) * (float(g.part_cols) * cell_w + gap);
    list->AddRect(ImVec2(x, origin.y),
                  ImVec2(x + float(g.part_cols) * cell_w, origin.y + float(capacity) * cell_h),
                  colours.grid);
  }
  float magnitude = 0;
  for (Scalar v : cache.tensor.to_vector()) magnitude = std::max(magnitude, std::abs(v));
  DrawContext context;
  context.colours = &colours;
  context.value_font_size = std::round(font * 0.7f);
  context.value_scale = magnitude > 0 ? magnitude : 1;
  context.value_min_cell_width = font * 2.4f;
  BlockStyle style;
  style.band_gap = gap;
  style.band_tint = 1;
  style.values = state.ui.show_values;
  draw_block(list, origin, cache, state.walk.batch_shown, g, CellSize{cell_w, cell_h}, style,
             context);
  // The row appended this step, across every K/V head.
  const float row_y = origin.y + float(g.rows - 1) * cell_h;
  const float width = float(g.parts) * (float(g.part_cols) * cell_w + gap) - gap;
  list->AddRect(ImVec2(origin.x - 2, row_y - 2), ImVec2(origin.x + width + 2, row_y + cell_h + 2),
                colours.accent, 0, 0, 3.0f);
  const std::vector<std::string>& tokens = state.session.trace->tokens;
  const float label_size = std::min(font, cell_h * 0.95f);
  if (cell_h >= 8) {
    for (int64_t i = 0; i < g.rows && i < int64_t(tokens.size()); ++i)
      list->AddText(ImGui::GetFont(), label_size,
                    ImVec2(top.x, origin.y + float(i) * cell_h + (cell_h - label_size) * 0.5f),
                    i == g.rows - 1 ? colours.accent : colours.text_dim, tokens[size_t(i)].c_str());
  }
  for (int64_t k = 0; k < g.parts; ++k) {
    std::string name = "K/V head " + std::to_string(k);
    if (ImGui::CalcTextSize(name.c_str()).x > float(g.part_cols) * cell_w + gap * 0.8f)
      name = "kv" + std::to_string(k);
    list->AddText(ImVec2(origin.x + float(k) * (float(g.part_cols) * cell_w + gap),
                         origin.y + float(capacity) * cell_h + font * 0.3f),
                  head_colour(int(k)), name.c_str());
  }
  ImGui::Dummy(ImVec2(label_w + width, float(capacity) * cell_h + font * 1.6f));
}

// Each head's map, row by row as decoding made it: the prompt's rows from prefill, then one new
// row per decoded token (its weights over every cached key), the newest marked.
void draw_growing_maps(AppState& state, int64_t shown_step, ImVec2 room) {
  const Trace& trace = *state.session.trace;
  const Palette& colours = palette(state.ui.theme);
  const float font = ImGui::GetFontSize();
  const Tensor& full = trace.weights()->tensor;  // (B, h, T, T): the prompt's rows
  const int64_t h = full.size(1), T = full.size(2), P = trace.decode.prompt_tokens;
  const int64_t b = std::clamp<int64_t>(state.walk.batch_shown, 0, full.size(0) - 1);
  const int64_t last = P + shown_step;  // the newest row
  const float gap = font * 0.6f, title_h = font * 1.4f;
  // The number of columns that makes the maps largest in the room.
  auto side_for = [&](int columns) {
    const int rows = int((h + columns - 1) / columns);
    return std::min((room.x - gap * float(columns)) / float(columns),
                    (room.y - float(rows) * (title_h + gap)) / float(rows));
  };
  int columns = 1;
  for (int c = 2; c <= int(h); ++c)
    if (side_for(c) > side_for(columns)) columns = c;
  const int rows = int((h + columns - 1) / columns);
  const float side = std::max(8.0f, side_for(columns));
  const float cell = side / float(T);
  ImDrawList* list = ImGui::GetWindowDrawList();
  const ImVec2 top = ImGui::GetCursorScreenPos();
  for (int64_t hd = 0; hd < h; ++hd) {
    const int col = int(hd) % columns, row = int(hd) / columns;
    const ImVec2 title(top.x + float(col) * (side + gap),
                       top.y + float(row) * (side + title_h + gap));
    std::string name = "head " + std::to_string(hd);
    if (ImGui::CalcTextSize(name.c_str()).x + font * 0.7f > side) name = "h" + std::to_string(hd);
    list->AddRectFilled(ImVec2(title.x, title.y + font * 0.25f),
                        ImVec2(title.x + font * 0.5f, title.y + font * 0.95f),
                        head_colour(int(hd)));
    list->AddText(ImVec2(title.x + font * 0.7f, title.y), colours.text, name.c_str());
    const ImVec2 at(title.x, title.y + title_h);
    list->AddRect(at, ImVec2(at.x + side, at.y + side), colours.block_border);
    for (int64_t i = 0; i <= last; ++i) {
      // Row i: the prompt's from the full run, a decoded token's from its own step.
      const TensorRecord* decoded =
          i >= P ? &step_record(trace, i - P, Op::DecodeSoftmax) : nullptr;
      auto weight = [&](int64_t j) {
        return decoded ? decoded->tensor.at({b, hd, 0, j}) : full.at({b, hd, i, j});
      };
      // Per-row colours over the keys row i sees (0..i); an even row grey (colormap.hpp).
      std::vector<float> seen(size_t(i + 1));
      for (int64_t j = 0; j <= i; ++j) seen[size_t(j)] = weight(j);
      const RowColours row_scale = row_colours(seen);
      for (int64_t j = 0; j <= i; ++j)
        list->AddRectFilled(
            ImVec2(at.x + float(j) * cell, at.y + float(i) * cell),
            ImVec2(at.x + float(j + 1) * cell, at.y + float(i + 1) * cell),
            colour_at_packed(ColormapKind::Sequential, row_scale.position(seen[size_t(j)])));
    }
    list->AddRect(ImVec2(at.x - 1, at.y + float(last) * cell - 1),
                  ImVec2(at.x + float(last + 1) * cell + 1, at.y + float(last + 1) * cell + 1),
                  colours.accent, 0, 0, 2.5f);
  }
  ImGui::Dummy(ImVec2(float(columns) * (side + gap), float(rows) * (side + title_h + gap)));
}

}  // namespace

void step_decode(AppState& state, int delta) {
  const Trace* trace = state.session.trace.get();
  if (!trace || trace->decode.steps.empty()) return;
  const int last = int(trace->decode.steps.size()) - 1;
  state.decode.step = std::clamp(state.decode.step + delta, 0, last);
}

void draw_decode_tab(AppState& state) {
  const Trace& trace = *state.session.trace;
  const DecodeTrace& decode = trace.decode;
  model_decode_note(state);
  if (decode.steps.empty()) {
    offer_decoding(state);
    return;
  }
  const int last = int(decode.steps.size()) - 1;
  state.decode.step = std::clamp(state.decode.step, 0, last);
  const DecodeStep& step = decode.steps[size_t(state.decode.step)];
  const int64_t t = step.position;
  const std::string token = t < int64_t(trace.tokens.size()) ? trace.tokens[size_t(t)] : "?";
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14);
  const std::string format = "step %d of " + std::to_string(last + 1);
  ImGui::SliderInt("##decode_step", &state.decode.step, 0, last, format.c_str());
  tooltip("The decode step shown: \u2190/\u2192 (and Home/End) step while this tab is open.");
  ImGui::SameLine();
  const TensorRecord* q = &step_record(trace, state.decode.step, Op::DecodeProject, 'q');
  const TensorRecord* cache = &step_record(trace, state.decode.step, Op::CacheAppend, 'k');
  const TensorRecord* scores = &step_record(trace, state.decode.step, Op::DecodeScores);
  const std::string shapes = "token " + std::to_string(t) + " \"" + token + "\": q " +
                             shape_to_string(q->tensor.shape()) + " attends over the cache " +
                             shape_to_string(cache->tensor.shape()) + ", a score row " +
                             shape_to_string(scores->tensor.shape());
  char costs[320];
  std::snprintf(costs, sizeof costs,
                "prefill: %lld prompt tokens once (%s). This step: %s; recomputing all %lld tokens "
                "without a cache: %s (%.1fx). Cache now %s = B\u00B7n_kv\u00B7(t+1)\u00B7(d_k+d_v)"
                "\u00B74 bytes.",
                (long long)decode.prompt_tokens, count_text(decode.prefill_flops, "FLOP").c_str(),
                count_text(step.flops, "FLOP").c_str(), (long long)(t + 1),
                count_text(step.recompute_flops, "FLOP").c_str(),
                step.recompute_flops / std::max(step.flops, 1.0),
                format_bytes(double(step.cache_bytes)).c_str());
  // A short panel (a projector's large font) keeps the pictures: one line, the rest on hover.
  const bool compact = ImGui::GetContentRegionAvail().y < ImGui::GetFontSize() * 22;
  if (compact) {
    ImGui::NewLine();
    text_wrapped_format("token %lld: cache %s, %s vs %s recomputing, %s", (long long)t,
                        shape_to_string(cache->tensor.shape()).c_str(),
                        count_text(step.flops, "FLOP").c_str(),
                        count_text(step.recompute_flops, "FLOP").c_str(),
                        format_bytes(double(step.cache_bytes)).c_str());
    tooltip((shapes + ".\n" + costs).c_str());
  } else {
    text_wrapped(shapes);
    text_wrapped(costs);
    cache_memory_line(state, t + 1);
  }
  const ImVec2 room = ImGui::GetContentRegionAvail();
  const float left_w = std::floor(room.x * 0.42f);
  const ImVec2 area(room.x, std::max(room.y, ImGui::GetFontSize() * 8));
  ImGui::BeginChild("decode_cache", ImVec2(left_w, area.y), false, ImGuiWindowFlags_NoBackground);
  ImGui::TextUnformatted("K cache");
  draw_cache(state, *cache, trace.config.tokens(), ImGui::GetContentRegionAvail());
  ImGui::EndChild();
  ImGui::SameLine();
  ImGui::BeginChild("decode_maps", ImVec2(0, area.y), false, ImGuiWindowFlags_NoBackground);
  ImGui::TextUnformatted("Each head's weights, one new row per step");
  draw_growing_maps(state, state.decode.step, ImGui::GetContentRegionAvail());
  ImGui::EndChild();
}

}  // namespace attnlab::gui
