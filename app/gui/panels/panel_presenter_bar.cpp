// Presenter mode's bar: the few controls a lecturer changes live (preset, n_heads, d_model, T,
// causal) on one line across the top, so the stage view and the heads can take the screen. P
// (or the button at its end) brings the full controls back.
#include <imgui.h>

#include <algorithm>

#include "app/gui/panels/config_widgets.hpp"
#include "app/gui/panels/panels.hpp"

namespace attnlab::gui {

void draw_presenter_bar(AppState& state) {
  const ImGuiWindowFlags flags =
      ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoNavInputs;
  if (begin_panel(state, PanelId::Controls, "Presenter bar", flags)) {
    const float font = ImGui::GetFontSize();
    const float spacing = ImGui::GetStyle().ItemSpacing.x;
    // Five fields and the exit button share the width; labels sit inside the fields' formats.
    const float exit_w =
        ImGui::CalcTextSize("controls (P)").x + 2 * ImGui::GetStyle().FramePadding.x;
    const float causal_w = ImGui::GetFrameHeight() + spacing + ImGui::CalcTextSize("causal").x;
    // h's − and + buttons take their width; preset, h's slider, d_model and T take 1 + 0.8 +
    // 0.9 + 0.8 shares of what is left.
    const float buttons_w = 2 * (ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x);
    const float field_w = std::max(
        2.0f * font,
        (ImGui::GetContentRegionAvail().x - exit_w - causal_w - buttons_w - 6 * spacing) / 3.5f);
    Config config = state.session.config;
    bool changed = false;
    ImGui::SetNextItemWidth(field_w);
    preset_picker(state, "##bar_preset");
    ImGui::SameLine();
    changed |= head_count_stepper(state, config, field_w * 0.8f + buttons_w);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(field_w * 0.9f);
    changed |= slider(state, "d_model", "##bar_d_model", config.d_model, 1, 1024, "d_model = %d",
                      "Model width: the output width and, by default, h times d_k.",
                      ImGuiSliderFlags_Logarithmic);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(field_w * 0.8f);
    changed |= slider(state, "seq_len", "##bar_T", config.seq_len, 0, 256,
                      config.seq_len == 0 ? "T = sentence" : "T = %d",
                      "Sequence length T: 0 takes as many tokens as the sentence has.");
    ImGui::SameLine();
    changed |= ImGui::Checkbox("causal", &config.mask.causal);
    tooltip("Each token sees only itself and the tokens before it, as in GPT.");
    ImGui::SameLine(
        std::max(ImGui::GetCursorPosX(), ImGui::GetWindowContentRegionMax().x - exit_w));
    if (ImGui::Button("controls (P)", ImVec2(exit_w, 0))) state.ui.presenter = false;
    tooltip("Leave presenter mode: the full controls come back, as they were.");
    if (changed) {
      state.session.preset_name.clear();
      set_config(state, config);
    }
  }
  ImGui::End();
}

}  // namespace attnlab::gui
