// Presenter mode's bar: the few controls a lecturer changes live (preset, n_heads, d_model, T,
// causal) across the top, so the stage view and the heads can take the screen. P (or the button
// at its end) brings the full controls back.
#include <imgui.h>

#include <algorithm>
#include <string>
#include <vector>

#include "app/gui/panels/config_widgets.hpp"
#include "app/gui/panels/panels.hpp"
#include "app/gui/state/valid_values.hpp"

namespace attnlab::gui {

namespace {

// The bar's fields, in order: preset, n_heads, d_model, T, causal; then the step counter with
// the play button (where the bar takes two rows and the last has room for them, the strip
// keeps a row less) and the exit button at the end.
constexpr int kFields = 5, kPlayback = kFields, kExit = kFields + 1;

struct BarFields {
  float widths[kFields] = {};
  float preset_widest = 0;  // the preset field at the widest preset's name
  float playback_w = 0;     // the step counter and play button, when the bar has them
  float exit_w = 0;
  const char* exit_label = "";
  std::string T_text;
};

// Each field at the width its longest text needs ("h = 16", "d_model = 1024", "T = 256"; the
// preset's, the name shown now, widened to the widest preset's where the row has room): fields
// keep their texts whole and wrap onto a second row where one row is short of room (font scale
// 2 on 1024 columns).
BarFields bar_fields(const AppState& state, float room) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float pad = 2 * style.FramePadding.x, frame = ImGui::GetFrameHeight();
  const auto text_w = [](const char* text) { return ImGui::CalcTextSize(text).x; };
  BarFields f;
  // Where the full label would take a row's room, the exit button is just "P" (its tooltip
  // says the rest).
  f.exit_label = room < 40 * ImGui::GetFontSize() ? "P" : "controls (P)";
  f.exit_w = text_w(f.exit_label) + pad;
  const Config& config = state.session.config;
  f.T_text = config.seq_len == 0 && state.session.trace
                 ? "T = " + std::to_string(state.session.trace->tokens.size())
                 : std::string("T = %d");
  // The name shown now counts too: a real model's "gpt2, layer 11" is no preset's.
  const float preset_need = std::max(text_w("(custom)"), text_w(state.session.preset_name.c_str()));
  float widest = preset_need;
  for (const Preset& preset : state.session.presets)
    widest = std::max(widest, text_w(preset.name.c_str()));
  const float stepper_buttons = 2 * (frame + style.ItemInnerSpacing.x);
  f.widths[0] = preset_need + frame + pad;
  f.preset_widest = widest + frame + pad;
  // The widest of the slider's own range and the value shown now (T = 4096 on a long preset);
  // h's the largest valid count, so the field keeps its width while h is dragged.
  const auto field_w = [&](const std::string& typical, const std::string& now) {
    return std::max(text_w(typical.c_str()), text_w(now.c_str())) + pad;
  };
  const int64_t shown_T = state.session.trace ? int64_t(state.session.trace->tokens.size()) : 0;
  const std::vector<int64_t> counts = valid_head_counts(config);
  const int64_t most_heads = counts.empty() ? config.n_heads : counts.back();
  f.widths[1] = field_w("h = 16", "h = " + std::to_string(std::max(most_heads, config.n_heads))) +
                stepper_buttons;
  f.widths[2] = field_w("d_model = 1024", "d_model = " + std::to_string(config.d_model));
  f.widths[3] = field_w("T = 256", "T = " + std::to_string(std::max(config.seq_len, shown_T)));
  f.widths[4] = frame + style.ItemInnerSpacing.x + text_w("causal");
  return f;
}

// For each item (the fields, the step counter, the exit button), whether it starts a new row.
std::vector<bool> rows_of(const BarFields& f, float room) {
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  std::vector<bool> starts;
  float x = 0;
  for (int i = 0; i <= kExit; ++i) {
    const float w = i < kFields ? f.widths[i] : i == kPlayback ? f.playback_w : f.exit_w;
    const bool new_row = i > 0 && w > 0 && x + spacing + w > room;
    starts.push_back(new_row);
    if (w > 0) x = (new_row || i == 0 ? 0 : x + spacing) + w;
  }
  return starts;
}

int count_rows(const std::vector<bool>& starts) {
  return 1 + int(std::count(starts.begin(), starts.end(), true));
}

// Where each item starts a new row. On one row, the preset field takes what the row leaves, up
// to the widest preset's name; on two, the step counter joins the last row where it fits there.
std::vector<bool> row_starts(BarFields& f, float room) {
  std::vector<bool> starts = rows_of(f, room);
  if (count_rows(starts) == 1) {
    float used = ImGui::GetStyle().ItemSpacing.x * kFields + f.exit_w;
    for (const float w : f.widths) used += w;
    f.widths[0] = std::min(f.preset_widest, f.widths[0] + room - used);
    return starts;
  }
  BarFields with = f;
  with.playback_w = step_and_play_width(false);
  const std::vector<bool> with_starts = rows_of(with, room);
  if (count_rows(with_starts) > count_rows(starts)) return starts;
  f = with;
  return with_starts;
}

float bar_room(float width) {
  return width - 2 * ImGui::GetStyle().WindowPadding.x;
}

}  // namespace

int presenter_bar_rows(const AppState& state, float width) {
  const float room = bar_room(width);
  BarFields fields = bar_fields(state, room);
  return count_rows(row_starts(fields, room));
}

void draw_presenter_bar(AppState& state) {
  const ImGuiWindowFlags flags =
      ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoNavInputs;
  const ImGuiStyle& outer = ImGui::GetStyle();
  const ImVec4 bar = state.frame.panel_rects[int(PanelId::Controls)];
  const float room = bar_room(bar.z - bar.x);
  BarFields fields = bar_fields(state, room);
  const std::vector<bool> starts = row_starts(fields, room);
  // The rows centred in the bar's height (the layout's presenter_bar_height).
  const float rows = float(count_rows(starts));
  const float rows_h = rows * ImGui::GetFrameHeight() + (rows - 1) * outer.ItemSpacing.y;
  const float pad_y = std::max(0.0f, std::floor((bar.w - bar.y - rows_h) * 0.5f));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(outer.WindowPadding.x, pad_y));
  const bool open = begin_panel(state, PanelId::Controls, "Presenter bar", flags);
  ImGui::PopStyleVar();
  if (open) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const auto next_field = [&](int i) {
      if (!starts[size_t(i)]) ImGui::SameLine();
    };
    Config config = state.session.config;
    bool changed = false;
    // The sliders' grabs are see-through: the value under them stays readable.
    const ImVec4 grab = style.Colors[ImGuiCol_SliderGrab];
    ImGui::PushStyleColor(ImGuiCol_SliderGrab, ImVec4(grab.x, grab.y, grab.z, 0.35f));
    ImGui::PushStyleColor(ImGuiCol_SliderGrabActive, ImVec4(grab.x, grab.y, grab.z, 0.55f));
    ImGui::SetNextItemWidth(fields.widths[0]);
    preset_picker(state, "##bar_preset");
    next_field(1);
    changed |= head_count_stepper(state, config, fields.widths[1]);
    next_field(2);
    ImGui::SetNextItemWidth(fields.widths[2]);
    changed |= slider(state, "d_model", "##bar_d_model", config.d_model, 1, 1024, "d_model = %d",
                      "Model width: the output width and, by default, h times d_k.",
                      ImGuiSliderFlags_Logarithmic);
    next_field(3);
    ImGui::SetNextItemWidth(fields.widths[3]);
    changed |= slider(state, "seq_len", "##bar_T", config.seq_len, 0, 256, fields.T_text.c_str(),
                      "Sequence length T: 0 takes as many tokens as the sentence has.");
    ImGui::PopStyleColor(2);
    next_field(4);
    changed |= ImGui::Checkbox("causal", &config.mask.causal);
    tooltip("Each token sees only itself and the tokens before it, as in GPT.");
    if (fields.playback_w > 0) {
      state.frame.playback_in_bar = true;
      next_field(kPlayback);
      draw_step_and_play(state, false);
    }
    // The exit button at the right end of the last row.
    const float exit_x = ImGui::GetWindowContentRegionMax().x - fields.exit_w;
    if (starts[kExit])
      ImGui::SetCursorPosX(exit_x);
    else
      ImGui::SameLine(exit_x);
    if (ImGui::Button(fields.exit_label, ImVec2(fields.exit_w, 0))) state.ui.presenter = false;
    tooltip("Leave presenter mode: the full controls come back, as they were.");
    if (changed) {
      state.requests.later([config](AppState& s) {
        s.session.preset_name.clear();
        set_config(s, config);
      });
    }
  }
  ImGui::End();
}

}  // namespace attnlab::gui
