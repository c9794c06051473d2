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
  // The fields centred in the bar's height (the layout's presenter_bar_height).
  const ImGuiStyle& outer = ImGui::GetStyle();
  const ImVec4 bar = state.frame.panel_rects[int(PanelId::Controls)];
  const float pad_y = std::max(0.0f, std::floor((bar.w - bar.y - ImGui::GetFrameHeight()) * 0.5f));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(outer.WindowPadding.x, pad_y));
  const bool open = begin_panel(state, PanelId::Controls, "Presenter bar", flags);
  ImGui::PopStyleVar();
  if (open) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float spacing = style.ItemSpacing.x, pad = 2 * style.FramePadding.x;
    const auto text_w = [](const char* text) { return ImGui::CalcTextSize(text).x; };
    // Where the full label would squeeze the fields (font scale 2 on 1024 columns), the exit
    // button is just "P" (its tooltip says the rest).
    const bool short_exit = ImGui::GetContentRegionAvail().x < 40 * ImGui::GetFontSize();
    const char* exit_label = short_exit ? "P" : "controls (P)";
    const float exit_w = text_w(exit_label) + pad;
    const float causal_w = ImGui::GetFrameHeight() + spacing + text_w("causal");
    const float buttons_w = 2 * (ImGui::GetFrameHeight() + style.ItemInnerSpacing.x);
    Config config = state.session.config;
    const std::string T_text = config.seq_len == 0 && state.session.trace
                                   ? "T = " + std::to_string(state.session.trace->tokens.size())
                                   : std::string("T = %d");
    // Each field gets the width its longest text needs (the widest preset name, "h = 16",
    // "d_model = 1024", "T = 256"), all shrunk alike where the bar is short of room.
    // The name shown now counts too: a real model's "gpt2, layer 11" is no preset's.
    float preset_need = std::max(text_w("(custom)"), text_w(state.session.preset_name.c_str()));
    for (const Preset& preset : state.session.presets)
      preset_need = std::max(preset_need, text_w(preset.name.c_str()));
    const float needs[] = {preset_need + ImGui::GetFrameHeight() + pad, text_w("h = 16") + pad,
                           text_w("d_model = 1024") + pad, text_w("T = 256") + pad};
    float total = 0;
    for (const float need : needs) total += need;
    const float room =
        ImGui::GetContentRegionAvail().x - exit_w - causal_w - buttons_w - 6 * spacing;
    // The preset's name whole first where the others can still show "h = 16" at 60 %; then all
    // shrunk alike.
    const float others = total - needs[0];
    const bool preset_whole = room >= needs[0] + 0.6f * others;
    const float share = std::clamp(room / total, 0.3f, 1.0f);
    const float preset_w = preset_whole ? needs[0] : needs[0] * share;
    const float other_share =
        preset_whole ? std::clamp((room - needs[0]) / others, 0.3f, 1.0f) : share;
    bool changed = false;
    // The sliders' grabs are see-through: the value under them stays readable.
    const ImVec4 grab = style.Colors[ImGuiCol_SliderGrab];
    ImGui::PushStyleColor(ImGuiCol_SliderGrab, ImVec4(grab.x, grab.y, grab.z, 0.35f));
    ImGui::PushStyleColor(ImGuiCol_SliderGrabActive, ImVec4(grab.x, grab.y, grab.z, 0.55f));
    ImGui::SetNextItemWidth(preset_w);
    preset_picker(state, "##bar_preset");
    ImGui::SameLine();
    changed |= head_count_stepper(state, config, needs[1] * other_share + buttons_w);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(needs[2] * other_share);
    changed |= slider(state, "d_model", "##bar_d_model", config.d_model, 1, 1024, "d_model = %d",
                      "Model width: the output width and, by default, h times d_k.",
                      ImGuiSliderFlags_Logarithmic);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(needs[3] * other_share);
    changed |= slider(state, "seq_len", "##bar_T", config.seq_len, 0, 256, T_text.c_str(),
                      "Sequence length T: 0 takes as many tokens as the sentence has.");
    ImGui::PopStyleColor(2);
    ImGui::SameLine();
    changed |= ImGui::Checkbox("causal", &config.mask.causal);
    tooltip("Each token sees only itself and the tokens before it, as in GPT.");
    ImGui::SameLine(
        std::max(ImGui::GetCursorPosX(), ImGui::GetWindowContentRegionMax().x - exit_w));
    if (ImGui::Button(exit_label, ImVec2(exit_w, 0))) state.ui.presenter = false;
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
