#include "app/gui/panels/config_widgets.hpp"

#include <algorithm>
#include <cfloat>
#include <limits>

#include "app/gui/look/wrap.hpp"
#include "app/gui/panels/panels.hpp"

namespace attnlab::gui {

std::string field_label(const AppState& state, const char* label) {
  if (!state.controls.stacked_labels || label[0] == '#') return label;
  ImGui::TextUnformatted(label);
  ImGui::SetNextItemWidth(-FLT_MIN);
  return std::string("##") + label;
}

bool slider(AppState& state, const char* field, const char* label, int64_t& value, int64_t low,
            int64_t high, const char* format, const char* help, ImGuiSliderFlags flags) {
  // ImGui asserts that an int64 slider's range stays within +-2^62; T may be typed in far larger
  // and ranges follow it (decode's last T - 1 tokens).
  constexpr int64_t kLimit = std::numeric_limits<int64_t>::max() / 2;
  low = std::clamp(low, -kLimit, kLimit);
  high = std::clamp(high, -kLimit, kLimit);
  const int64_t before = value;
  const bool edited = ImGui::SliderScalar(field_label(state, label).c_str(), ImGuiDataType_S64,
                                          &value, &low, &high, format, flags);
  tooltip(help);
  return commit(state, field, edited, value, before, false);
}

namespace {

// The number box of a valid-value slider being typed in: true when Enter (or a click elsewhere
// after an edit) gives `value` a new number.
bool typed_number(AppState& state, const std::string& label, ImGuiID id, int64_t& value) {
  ControlsPanel& controls = state.controls;
  const auto held = controls.typed_values.find(id);
  int64_t typed = held == controls.typed_values.end() ? value : std::get<int64_t>(held->second);
  if (controls.typing_focus) ImGui::SetKeyboardFocusHere();
  ImGui::InputScalar(
      (label + (label.find("##") == std::string::npos ? "##typed" : "_typed")).c_str(),
      ImGuiDataType_S64, &typed);
  controls.typed_values[id] = typed;
  if (ImGui::IsItemActive()) controls.typing_focus = false;
  const bool done =
      ImGui::IsItemDeactivated() || (!controls.typing_focus && !ImGui::IsItemActive());
  if (!done) return false;
  const bool taken = ImGui::IsItemDeactivatedAfterEdit() && typed != value;
  controls.typing_slider = 0;
  controls.typed_values.erase(id);
  if (taken) value = typed;
  return taken;
}

}  // namespace

bool valid_value_slider(AppState& state, const char* field, const char* label, int64_t& value,
                        const std::vector<int64_t>& values, const char* help,
                        const std::string& shown, ImGuiSliderFlags flags) {
  const std::string name = field_label(state, label);
  const ImGuiID id = ImGui::GetID(name.c_str());
  const bool explained = !issue_for(state, field).empty();
  ControlsPanel& controls = state.controls;
  bool changed = false;
  if (controls.typing_slider == id) {
    changed = typed_number(state, name, id, value);
    tooltip(help, explained);
  } else {
    const int last = int(values.size()) - 1;
    int at = position_among(values, value);
    const std::string text = shown.empty() ? std::to_string(value) : shown;
    const bool moved =
        ImGui::SliderInt(name.c_str(), &at, 0, std::max(last, 0), text.c_str(),
                         flags | ImGuiSliderFlags_NoInput | ImGuiSliderFlags_AlwaysClamp);
    tooltip(help, explained);
    const bool asks_to_type =
        ImGui::IsItemHovered() &&
        (ImGui::IsMouseDoubleClicked(0) || (ImGui::GetIO().KeyCtrl && ImGui::IsMouseClicked(0)));
    if (asks_to_type) {
      controls.typing_slider = id;
      controls.typing_focus = true;
      ImGui::ClearActiveID();  // the click types; it does not move the slider
    } else if (moved && last >= 0) {
      const int64_t chosen = values[size_t(std::clamp(at, 0, last))];
      changed = chosen != value;
      value = chosen;
    }
  }
  if (changed) controls.last_edited_field = field;
  return changed;
}

bool head_count_stepper(AppState& state, Config& config, float width) {
  const std::vector<int64_t> counts = valid_head_counts(config);
  const int last = int(counts.size()) - 1;
  // Where the current count stands among the valid ones (the nearest below when it is invalid).
  int at = position_among(counts, config.n_heads);
  const int before = at;
  const float button = ImGui::GetFrameHeight();
  const float spacing = ImGui::GetStyle().ItemInnerSpacing.x;
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(spacing, ImGui::GetStyle().ItemSpacing.y));
  ImGui::BeginDisabled(last < 0 || at == 0);
  if (ImGui::Button("\u2212##heads_less", ImVec2(button, 0))) --at;
  ImGui::EndDisabled();
  tooltip("Fewer heads: the next smaller count that divides the width.");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(std::max(button, width - 2 * (button + spacing)));
  const std::string shown = "h = " + std::to_string(config.n_heads);
  ImGui::SliderInt("##heads_valid", &at, 0, std::max(last, 0), shown.c_str(),
                   ImGuiSliderFlags_NoInput | ImGuiSliderFlags_AlwaysClamp);
  tooltip(
      "Number of heads h: each gets its own Q, K, V slice and its own map. The slider and "
      "\u2212 / + stop only on counts that divide the width.");
  ImGui::SameLine();
  ImGui::BeginDisabled(last < 0 || at >= last);
  if (ImGui::Button("+##heads_more", ImVec2(button, 0))) ++at;
  ImGui::EndDisabled();
  tooltip("More heads: the next larger count that divides the width.");
  ImGui::PopStyleVar();
  if (at == before || last < 0) return false;
  config.n_heads = counts[size_t(std::clamp(at, 0, last))];
  state.controls.last_edited_field = "n_heads";
  return true;
}

void preset_picker(AppState& state, const char* label) {
  const char* current =
      state.session.preset_name.empty() ? "(custom)" : state.session.preset_name.c_str();
  // ImGui clips a combo's preview at its arrow: a name too long for the field ends in an
  // ellipsis (the tooltip names it whole).
  const ImGuiStyle& style = ImGui::GetStyle();
  const std::string preview = cut_to_width(
      current, ImGui::CalcItemWidth() - ImGui::GetFrameHeight() - 2 * style.FramePadding.x);
  if (ImGui::BeginCombo(field_label(state, label).c_str(), preview.c_str())) {
    for (const Preset& preset : state.session.presets) {
      const bool selected = preset.name == state.session.preset_name;
      if (ImGui::Selectable(preset.name.c_str(), selected))
        state.requests.later([name = preset.name](AppState& s) { apply_preset(s, name); });
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", preset.title.c_str());
      if (selected) ImGui::SetItemDefaultFocus();
    }
    ImGui::EndCombo();
  }
  tooltip(("Now: " + std::string(current) +
           ".\nLoad a ready-made configuration: the seeds' examples and real model sizes.")
              .c_str());
}

}  // namespace attnlab::gui
