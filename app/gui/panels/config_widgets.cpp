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

std::vector<int64_t> valid_head_counts(const Config& config, int64_t most) {
  std::vector<int64_t> counts;
  const auto about_heads = [](const ConfigIssue& issue) {
    return issue.field == "n_heads" || issue.field == "n_kv_heads" || issue.field == "d_model" ||
           issue.field == "d_k";
  };
  for (int64_t h = 1; h <= most; ++h) {
    Config candidate = config;
    candidate.n_heads = h;
    const std::vector<ConfigIssue> issues = validate(candidate);
    if (std::none_of(issues.begin(), issues.end(), about_heads)) counts.push_back(h);
  }
  return counts;
}

bool head_count_stepper(AppState& state, Config& config, float width) {
  const std::vector<int64_t> counts = valid_head_counts(config);
  const int last = int(counts.size()) - 1;
  // Where the current count stands among the valid ones (the nearest below when it is invalid).
  int at = 0;
  for (int i = 0; i <= last; ++i)
    if (counts[size_t(i)] <= config.n_heads) at = i;
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
  if (ImGui::BeginCombo(field_label(state, label).c_str(), current)) {
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
