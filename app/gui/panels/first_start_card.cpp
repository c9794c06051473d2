#include "app/gui/panels/first_start_card.hpp"

#include <imgui.h>

#include <algorithm>
#include <cfloat>

#include "app/gui/look/theme.hpp"

namespace attnlab::gui {

namespace {

struct CardLine {
  const char* keys;  // "" for a line of prose
  const char* what;
};

constexpr CardLine kLines[] = {
    {"P", "presenter mode: large type, the stage view and the heads fill the screen"},
    {"\u2192  PageDown", "the next step (\u2190 PageUp: back); a clicker sends these"},
    {"Space", "play the walk through the steps, or pause it"},
    {"1 \u2026 9, 0", "the lessons' tabs: 1 Tensors \u2026 9 KV cache, 0 a real model"},
    {"Shift+digit", "switch that head off and on"},
    {"", "The guide: docs/app.md (every key) and docs/variants.md (the next lessons)."},
};
constexpr const char* kTitle = "Attention Lab: where to begin";
constexpr const char* kDismiss = "Press any key or click to begin.";

}  // namespace

bool shows_first_start_card(const StartOptions& options, bool first_start_done) {
  return !first_start_done && !options.scripted() && options.lesson.empty() &&
         options.check.empty();
}

bool first_start_card_takes_input(AppState& state) {
  if (!state.window.first_start_card) return false;
  ImGuiIO& io = ImGui::GetIO();
  bool any = !state.typed.key_presses.empty() || !io.InputQueueCharacters.empty();
  for (int button = 0; button < IM_ARRAYSIZE(io.MouseDown); ++button)
    any |= ImGui::IsMouseClicked(button);
  for (int key = 0; key < IM_ARRAYSIZE(io.KeysDown); ++key)
    any |= io.KeysDownDuration[key] == 0.0f;  // went down this frame (frames without a window)
  state.typed.key_presses.clear();
  io.InputQueueCharacters.resize(0);
  if (any) {
    state.window.first_start_card = false;
    state.ui.first_start_done = true;
  }
  return true;
}

void draw_first_start_card(AppState& state) {
  if (!state.window.first_start_card) return;
  const ImGuiIO& io = ImGui::GetIO();
  const Palette& colours = palette(state.ui.theme);
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(io.DisplaySize);
  ImGui::SetNextWindowFocus();  // above the panels: a click lands on the card
  ImGui::Begin("##first start", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoNav);
  ImDrawList* list = ImGui::GetWindowDrawList();
  ImFont* font = ImGui::GetFont();
  const float body = ImGui::GetFontSize();
  // Large type that fits: the widest line at most 90% of the width, all lines within the height
  // (with a large font scale, the body size is large already: down to 0.7 of it).
  const float keys_w = [&] {
    float widest = 0;
    for (const CardLine& line : kLines)
      widest = std::max(widest, font->CalcTextSizeA(body, FLT_MAX, 0, line.keys).x);
    return widest + body * 1.5f;
  }();
  float widest = font->CalcTextSizeA(body * 1.3f, FLT_MAX, 0, kTitle).x;
  for (const CardLine& line : kLines)
    widest = std::max(
        widest, (*line.keys ? keys_w : 0) + font->CalcTextSizeA(body, FLT_MAX, 0, line.what).x);
  const int rows = IM_ARRAYSIZE(kLines) + 4;  // the title takes two, the dismissal line two
  const float scale = std::clamp(
      std::min(io.DisplaySize.x * 0.9f / widest, io.DisplaySize.y * 0.9f / (rows * body * 1.5f)),
      0.7f, 2.2f);
  const float size = body * scale, row = size * 1.5f;
  const float left = std::max(size, (io.DisplaySize.x - widest * scale) * 0.5f);
  float y = std::max(size, (io.DisplaySize.y - rows * row) * 0.5f);
  list->AddText(font, size * 1.3f, ImVec2(left, y), colours.accent, kTitle);
  y += 2 * row;
  for (const CardLine& line : kLines) {
    const bool prose = !*line.keys;
    if (prose) y += row * 0.5f;
    list->AddText(font, size, ImVec2(left, y), colours.accent, line.keys);
    list->AddText(font, size, ImVec2(left + (prose ? 0 : keys_w * scale), y),
                  prose ? colours.text_dim : colours.text, line.what);
    y += row;
  }
  y += row * 0.5f;
  list->AddText(font, size, ImVec2(left, y), colours.accent, kDismiss);
  ImGui::End();
}

}  // namespace attnlab::gui
