#include "app/gui/panels/config_widgets.hpp"

#include <algorithm>
#include <cfloat>
#include <limits>

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

void preset_picker(AppState& state, const char* label) {
  const char* current =
      state.session.preset_name.empty() ? "(custom)" : state.session.preset_name.c_str();
  if (ImGui::BeginCombo(field_label(state, label).c_str(), current)) {
    for (const Preset& preset : state.session.presets) {
      const bool selected = preset.name == state.session.preset_name;
      if (ImGui::Selectable(preset.name.c_str(), selected)) apply_preset(state, preset.name);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", preset.title.c_str());
      if (selected) ImGui::SetItemDefaultFocus();
    }
    ImGui::EndCombo();
  }
  tooltip("Load a ready-made configuration: the seeds' examples and real model sizes.");
}

}  // namespace attnlab::gui
