// Controls over the config shared by the controls panel and presenter mode's bar.
#pragma once

#include <imgui.h>
#include <imgui_internal.h>  // TempInputIsActive: is a number being typed into a slider

#include <cstdint>
#include <string>
#include <vector>

#include "app/gui/state/app_state.hpp"
#include "app/gui/state/valid_values.hpp"

namespace attnlab::gui {

// Dragged, a value applies live; typed (Ctrl+click or double-click on a slider, or an input
// box) it applies on Enter or when the field loses focus, so typing 4096 never computes T = 4,
// 40 and 409 on the way. Call right after the widget; `value` is what the widget wrote.
template <typename T>
bool commit(AppState& state, const char* field, bool edited, T& value, T before, bool text_box) {
  ControlsPanel& controls = state.controls;
  const ImGuiID id = ImGui::GetItemID();
  if (ImGui::TempInputIsActive(id) || (text_box && ImGui::IsItemActive())) {
    if (edited) controls.typed_values[id] = value;  // held until the field is left
    value = before;
    return false;
  }
  if (const auto typed = controls.typed_values.find(id); typed != controls.typed_values.end()) {
    // Left by Enter: this frame's value is final. Left by a click elsewhere: the held one.
    if (!edited && ImGui::IsItemDeactivatedAfterEdit()) {
      value = std::get<T>(typed->second);
      edited = value != before;
    }
    controls.typed_values.erase(typed);
  }
  if (edited) controls.last_edited_field = field;
  return edited;
}

// The label argument for a control: itself (ImGui draws it to the right) when the panel is wide
// enough, else "##label" after drawing the label on its own line above a full-width field.
std::string field_label(const AppState& state, const char* label);

// An int64 slider over a config field (validate()'s name for it), with its tooltip.
bool slider(AppState& state, const char* field, const char* label, int64_t& value, int64_t low,
            int64_t high, const char* format, const char* help, ImGuiSliderFlags flags = 0);

// A slider over a config field (validate()'s name `field`) that stops only on `values`
// (valid_values(), ascending; `value` may be none of them, as typed). Ctrl+click or double-click
// types any number instead, applied on Enter: an invalid one is explained in red under the
// control by issue_text (the tooltip then goes above the control). `shown` is the text on the
// slider ("" = the value).
bool valid_value_slider(AppState& state, const char* field, const char* label, int64_t& value,
                        const std::vector<int64_t>& values, const char* help,
                        const std::string& shown = "", ImGuiSliderFlags flags = 0);

// n_heads as − / + buttons around a slider that stops only on valid_head_counts() (the presenter
// bar: a short drag never jumps past a valid count). `width` covers all three.
bool head_count_stepper(AppState& state, Config& config, float width);

// The preset combo; picking one applies it. ("##..." hides the label, as in presenter mode.)
void preset_picker(AppState& state, const char* label = "preset");

}  // namespace attnlab::gui
