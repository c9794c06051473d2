// The shuffle demonstration: the shown run and the same tokens in a shuffled order (run in the
// background), each head's weights side by side with the permutation drawn between them as lines
// from a token's old position to its new one, and the core's check in words: with --pos none (and
// no mask) the shuffled map is the old one with rows and columns permuted, to float rounding.
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "app/gui/look/theme.hpp"
#include "app/gui/look/token_text.hpp"
#include "app/gui/look/wrap.hpp"
#include "app/gui/panels/job_status.hpp"
#include "app/gui/panels/panels.hpp"
#include "app/gui/positions/positions_panels.hpp"
#include "app/gui/positions/value_grid.hpp"
#include "app/gui/state/trace_jobs.hpp"

namespace attnlab::gui {

namespace {

void shuffle_controls(AppState& state, int64_t heads) {
  WordOrderTab& tab = state.word_order;
  if (ImGui::Button("Shuffle")) ++tab.shuffle_seed;
  tooltip("Reorder the sentence's tokens with the next seed (positions stay where they are).");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5);
  ImGui::InputScalar("seed##shuffle", ImGuiDataType_U64, &tab.shuffle_seed);
  tooltip("The shuffle's seed, as attnlab-cli --shuffle SEED.");
  if (heads > 1) {
    const float font = ImGui::GetFontSize();
    same_line_if_fits(
        font * 6 + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize("head").x, font);
    ImGui::SetNextItemWidth(font * 6);
    ImGui::SliderInt("head##shuffle", &tab.head, 0, int(heads - 1));
    tooltip("The head whose maps are compared.");
  }
  tab.head = std::clamp(tab.head, 0, int(std::max<int64_t>(heads - 1, 0)));
}

// The verdict of the core's check, in green when the maps are the old ones permuted.
void verdict(const AppState& state, const ShuffleResult& result) {
  const Config& c = state.session.config;
  const PermutationCheck& check = result.check;
  const bool same = check.equivariant();
  ImGui::PushStyleColor(ImGuiCol_Text,
                        same ? IM_COL32(0, 130, 60, 255) : palette(state.ui.theme).accent);
  if (same) {
    text_wrapped_format(
        "--pos %s: each map is the old one with rows and columns permuted, outputs too (max "
        "difference %.0e): no order was seen.",
        std::string(position_encoding_name(c.pos)).c_str(),
        std::max(check.largest_map_difference(), check.out_difference));
  } else {
    const char* why = c.pos != PositionEncoding::None ? "the positions told attention the order"
                      : c.mask.any()                  ? "the mask is positional too"
                                                      : "something positional";
    text_wrapped_format("--pos %s: the maps changed (max %.2f from the old one permuted): %s.",
                        std::string(position_encoding_name(c.pos)).c_str(),
                        check.largest_map_difference(), why);
  }
  ImGui::PopStyleColor();
}

// One map (T x T) of head `head` of a (B, h, T, T) record, batch 0, on the colour scale 0..top.
ValueGrid head_map(const Tensor& weights, int64_t head, double top) {
  ValueGrid grid;
  grid.rows = weights.size(2);
  grid.cols = weights.size(3);
  grid.value = [&weights, head](int64_t r, int64_t c) {
    return double(weights.at({0, head, r, c}));
  };
  grid.high = top;
  return grid;
}

void draw_pair(AppState& state, const Trace& original, const ShuffleResult& result) {
  const Palette& colours = palette(state.ui.theme);
  const Tensor& before = original.weights()->tensor;
  const Tensor& after = result.shuffled.weights()->tensor;
  const int64_t T = before.size(2), head = state.word_order.head;
  double top = 1e-12;
  for (int64_t i = 0; i < T; ++i)
    for (int64_t j = 0; j < T; ++j)
      top = std::max({top, double(before.at({0, head, i, j})), double(after.at({0, head, i, j}))});
  const ImFont& font = *ImGui::GetFont();
  float label_w = 0;
  for (const std::string& token : original.tokens)
    label_w = std::max(label_w, ImGui::CalcTextSize(display_text(token, font).c_str()).x);
  const float font_size = ImGui::GetFontSize();
  label_w = std::min(label_w + font_size * 0.3f, font_size * 6);
  const float lines_w = font_size * 3;
  const float title_h = ImGui::GetTextLineHeightWithSpacing();
  const float width = ImGui::GetContentRegionAvail().x - font_size * 0.5f;
  const float side = std::min(room_below(0.5f) - title_h, (width - 2 * label_w - lines_w) / 2);
  if (side < font_size * 2) {
    ImGui::TextWrapped("Too little room to draw the maps: enlarge the window.");
    return;
  }
  ImDrawList* list = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float cell = side / float(T);
  const float top_y = origin.y + title_h;
  // [map before][tokens before] lines [tokens after][map after]
  const float x_map_before = origin.x, x_labels_before = x_map_before + side;
  const float x_lines = x_labels_before + label_w, x_labels_after = x_lines + lines_w;
  const float x_map_after = x_labels_after + label_w;
  list->AddText(ImVec2(x_map_before, origin.y), colours.text, "original order");
  list->AddText(ImVec2(x_map_after, origin.y), colours.text, "shuffled");
  draw_value_grid(list, ImVec2(x_map_before, top_y), side, side, head_map(before, head, top),
                  colours.grid);
  draw_value_grid(list, ImVec2(x_map_after, top_y), side, side, head_map(after, head, top),
                  colours.grid);
  const auto token = [&](const std::vector<std::string>& tokens) {
    return [&tokens, &font](int64_t r) { return display_text(tokens[size_t(r)], font); };
  };
  draw_row_labels(list, ImVec2(x_labels_before + font_size * 0.15f, top_y), label_w, cell, T,
                  token(original.tokens), colours.text, false);
  draw_row_labels(list, ImVec2(x_labels_after, top_y), label_w - font_size * 0.15f, cell, T,
                  token(result.shuffled.tokens), colours.text, true);
  // Token p(i), at position p(i) before, sits at position i after.
  for (int64_t i = 0; i < T; ++i) {
    const int64_t from = result.permutation[size_t(i)];
    const ImVec2 a(x_lines + 2, top_y + (float(from) + 0.5f) * cell);
    const ImVec2 b(x_lines + lines_w - 2, top_y + (float(i) + 0.5f) * cell);
    list->AddLine(a, b, head_colour(int(from % 8), 0.85f), std::max(1.0f, font_size / 12));
  }
  ImGui::Dummy(ImVec2(width, title_h + side));
}

}  // namespace

void draw_shuffle_view(AppState& state) {
  const Trace& trace = *state.session.trace;
  shuffle_controls(state, trace.config.n_heads);
  const TensorRecord* weights = trace.weights();
  if (trace.config.cross() || !weights || weights->tensor.dim() != 4 ||
      weights->tensor.size(2) != weights->tensor.size(3)) {
    ImGui::TextWrapped(
        "Shuffling compares (T, T) maps of one sentence attending to itself: this run has none "
        "(cross-attention, or a mistake that changed the maps' shape).");
    return;
  }
  start_shuffle(state);
  if (draw_task_status(state.word_order.shuffle, "shuffle", palette(state.ui.theme).error)) return;
  const ShuffleResult* result =
      state.word_order.shuffle.result_for(shown_key(state, state.word_order.shuffle_seed));
  if (!result || !result->shuffled.weights()) return;
  verdict(state, *result);
  draw_pair(state, trace, *result);
}

}  // namespace attnlab::gui
