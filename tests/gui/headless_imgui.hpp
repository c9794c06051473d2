// A Dear ImGui context with no window and no renderer: frames run, nothing is drawn. Keys are
// mapped to GLFW's codes, as the GLFW backend maps them in the app.
#pragma once

#include <gtest/gtest.h>
#include <imgui.h>

#include <string>

#include "app/gui/look/theme.hpp"
#include "app/gui/panels/frame.hpp"
#include "app/gui/panels/keyboard.hpp"
#include "app/gui/state/app_state.hpp"

namespace attnlab::gui {

// GLFW key codes (GLFW/glfw3.h).
constexpr int kGlfwSpace = 32, kGlfwEscape = 256, kGlfwRight = 262, kGlfwLeft = 263;
constexpr int kGlfwPageUp = 266, kGlfwPageDown = 267, kGlfwHome = 268, kGlfwEnd = 269;
constexpr int kGlfwTab = 258, kGlfwEnter = 257, kGlfwUp = 265, kGlfwDown = 264;

class HeadlessImGui : public ::testing::Test {
 protected:
  void SetUp() override {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(1600, 1000);
    io.DeltaTime = 1.0f / 60.0f;
    configure_keyboard(io);
    // As the app's OpenGL 3.3 renderer declares: draw lists may pass 64k vertices (a tensor deck
    // of 12 slices of 48x48 tiles does).
    io.BackendFlags |= ImGuiBackendFlags_RendererHasVtxOffset;
    const std::pair<ImGuiKey, int> keys[] = {
        {ImGuiKey_Space, kGlfwSpace},      {ImGuiKey_Escape, kGlfwEscape},
        {ImGuiKey_RightArrow, kGlfwRight}, {ImGuiKey_LeftArrow, kGlfwLeft},
        {ImGuiKey_PageUp, kGlfwPageUp},    {ImGuiKey_PageDown, kGlfwPageDown},
        {ImGuiKey_Home, kGlfwHome},        {ImGuiKey_End, kGlfwEnd},
        {ImGuiKey_Tab, kGlfwTab},          {ImGuiKey_Enter, kGlfwEnter},
        {ImGuiKey_UpArrow, kGlfwUp},       {ImGuiKey_DownArrow, kGlfwDown},
    };
    for (const auto& [key, code] : keys) io.KeyMap[key] = code;
    const Fonts fonts = load_fonts(1.0f);  // the app's fonts, so layouts match
    unsigned char* pixels = nullptr;
    int width = 0, height = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &width, &height);
    state.window.mono_font = fonts.mono;
    apply_theme(state.ui.theme, 1.0f);
  }
  void TearDown() override { ImGui::DestroyContext(); }
  // The app's fonts and theme at `scale`, as the window sets them for --font-scale.
  void use_font_scale(float scale) {
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Clear();
    const Fonts fonts = load_fonts(scale);
    unsigned char* pixels = nullptr;
    int width = 0, height = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &width, &height);
    state.window.mono_font = fonts.mono;
    state.ui.font_scale = scale;
    apply_theme(state.ui.theme, scale);
  }
  // The control whose tooltip starts with `tip`, as drawn last frame.
  PlacedItem item(const std::string& tip) {
    for (const PlacedItem& i : state.frame.items)
      if (i.label.rfind(tip, 0) == 0) return i;
    ADD_FAILURE() << "no control with the tooltip \"" << tip << "\"";
    return {};
  }

  // One frame of the app, as the window runs it (minus the renderer).
  void frame() {
    ImGui::NewFrame();
    draw_frame(state, nullptr);
    ImGui::Render();
  }
  // Holds the key for one frame, then releases it for one.
  void press(int key) {
    ImGuiIO& io = ImGui::GetIO();
    io.KeysDown[key] = true;
    frame();
    io.KeysDown[key] = false;
    frame();
  }
  void start_on(const std::string& preset) {
    load_presets(state);
    ASSERT_TRUE(apply_preset(state, preset)) << preset;
    state.session.worker->wait_idle();
    poll_trace(state);
    ASSERT_TRUE(state.session.trace) << state.session.run_error;
    frame();
  }

  // One frame whose only window, "probe" at (10, 10) and of `size`, holds what `draw` draws: the
  // layout checks' own tests draw a known fault into it.
  template <typename Draw>
  void probe_frame(ImVec2 size, Draw&& draw) {
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(10, 10));
    ImGui::SetNextWindowSize(size);
    ImGui::Begin("probe", nullptr, ImGuiWindowFlags_NoScrollbar);
    draw();
    ImGui::End();
    ImGui::Render();
  }

  AppState state;
};

}  // namespace attnlab::gui
