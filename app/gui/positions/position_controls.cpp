// The Controls' choice of position encoding (the Next lessons section): none, sinusoidal, learned,
// RoPE or ALiBi, as attnlab-cli --pos. The Word order tab (key W) shows what each one does.
#include <imgui.h>

#include <string>

#include "app/gui/look/theme.hpp"
#include "app/gui/look/wrap.hpp"
#include "app/gui/panels/config_widgets.hpp"
#include "app/gui/panels/panels.hpp"
#include "app/gui/positions/positions_panels.hpp"

namespace attnlab::gui {

namespace {

const char* choice_label(PositionEncoding pos) {
  switch (pos) {
    case PositionEncoding::None:
      return "none";
    case PositionEncoding::Sinusoidal:
      return "sinusoidal";
    case PositionEncoding::Learned:
      return "learned (random)";
    case PositionEncoding::Rope:
      return "RoPE";
    case PositionEncoding::Alibi:
      return "ALiBi";
  }
  return "";
}

}  // namespace

bool position_control(AppState& state, Config& c) {
  bool changed = false;
  if (ImGui::BeginCombo(field_label(state, "positions").c_str(), choice_label(c.pos))) {
    for (PositionEncoding pos : all_position_encodings()) {
      if (ImGui::Selectable(choice_label(pos), pos == c.pos) && pos != c.pos) {
        c.pos = pos;
        state.controls.last_edited_field = "pos";
        changed = true;
      }
    }
    ImGui::EndCombo();
  }
  tooltip(
      "How attention learns word order (Word order tab, key W): none; sinusoidal or a learned "
      "table added to x; RoPE turning q and k; ALiBi's bias on the scores.");
  if (c.pos == PositionEncoding::Learned) {
    ImGui::PushStyleColor(ImGuiCol_Text, palette(state.ui.theme).text_dim);
    text_wrapped("learned: a seeded random table, as before training (the Train tab learns one).");
    ImGui::PopStyleColor();
  }
  issue_text(state, "pos");
  return changed;
}

}  // namespace attnlab::gui
