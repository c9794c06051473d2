#include "app/gui/gl/audience_window.hpp"

#include "app/gui/platform/gl_api.hpp"
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <memory>
#include <utility>

#include "app/gui/gl/heatmap_renderer.hpp"
#include "app/gui/look/theme.hpp"
#include "app/gui/panels/frame.hpp"
#include "app/gui/platform/platform.hpp"

namespace attnlab::gui {

namespace {

// Makes the audience's contexts current for a scope and restores the lecturer's.
class InWindow {
 public:
  InWindow(GLFWwindow* window, ImGuiContext* context)
      : gl_(glfwGetCurrentContext()), imgui_(ImGui::GetCurrentContext()) {
    glfwMakeContextCurrent(window);
    ImGui::SetCurrentContext(context);
  }
  ~InWindow() {
    glfwMakeContextCurrent(gl_);
    ImGui::SetCurrentContext(imgui_);
  }
  InWindow(const InWindow&) = delete;
  InWindow& operator=(const InWindow&) = delete;

 private:
  GLFWwindow* gl_;
  ImGuiContext* imgui_;
};

}  // namespace

// The window, its contexts and what its frames keep between them.
struct AudienceWindow::Parts {
  GLFWwindow* window = nullptr;
  ImGuiContext* context = nullptr;
  std::unique_ptr<GlHeatmapRenderer> renderer;
  ImFont* mono = nullptr;
  MeasuredLayout measured;  // its panels' own sizes
  float font_scale = 0;     // the fonts were built for this scale and text
  std::string font_text;
  bool lost = false;  // destroyed by another client: its GL context can no longer be made current

  ~Parts() {
    {
      // A lost window's objects (textures, buffers, programs: none of them is per-context) are
      // shared with the lecturer's context, and deleted there.
      InWindow in(lost ? glfwGetCurrentContext() : window, context);
      renderer.reset();
      ImGui_ImplOpenGL3_Shutdown();
    }
    ImGui::DestroyContext(context);
    glfwDestroyWindow(window);
  }

  void build_fonts(const AppState& state) {
    const Fonts fonts =
        load_fonts(state.ui.font_scale, state.window.font_text, state.typed.stand_ins);
    mono = fonts.mono;
    apply_theme(state.ui.theme, state.ui.font_scale);
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    ImGui_ImplOpenGL3_CreateFontsTexture();
    font_scale = state.ui.font_scale;
    font_text = state.window.font_text;
  }
};

AudienceWindow::AudienceWindow() = default;
AudienceWindow::~AudienceWindow() = default;

bool AudienceWindow::is_open() const {
  return parts_ != nullptr;
}

std::string AudienceWindow::open(GLFWwindow* lecturer, AppState& state) {
  if (parts_) return "";
  // A second monitor: the whole of it; else a window beside the lecturer's of the same size.
  int count = 0;
  GLFWmonitor** monitors = glfwGetMonitors(&count);
  int x = 0, y = 0, width = 1280, height = 720;
  if (count > 1) {
    glfwGetMonitorWorkarea(monitors[1], &x, &y, &width, &height);
  } else {
    glfwGetWindowPos(lecturer, &x, &y);
    glfwGetWindowSize(lecturer, &width, &height);
    x += width;
  }
  glfwWindowHint(GLFW_VISIBLE, GLFW_TRUE);
  glfwWindowHint(GLFW_FOCUS_ON_SHOW, GLFW_FALSE);  // the lecturer's keys stay in their window
  GLFWwindow* window =
      glfwCreateWindow(width, height, "Attention Lab: audience", nullptr, lecturer);
  glfwWindowHint(GLFW_FOCUS_ON_SHOW, GLFW_TRUE);
  if (!window) return "could not open the audience's window";
  glfwSetWindowPos(window, x, y);
  ImGuiContext* lecturer_context = ImGui::GetCurrentContext();
  auto parts = std::make_unique<Parts>();
  parts->window = window;
  parts->context = ImGui::CreateContext();
  ImGui::SetCurrentContext(lecturer_context);
  {
    InWindow in(parts->window, parts->context);
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.ConfigFlags |= ImGuiConfigFlags_NoMouse;  // a picture: the lecturer's window takes input
    ImGui_ImplOpenGL3_Init(kGlslVersion);
    parts->renderer = std::make_unique<GlHeatmapRenderer>();
    glfwSwapInterval(0);  // the lecturer's window keeps the pace
  }
  parts_ = std::move(parts);
  state.lesson.audience_window = true;
  return "";
}

void AudienceWindow::close(AppState& state) {
  parts_.reset();
  state.lesson.audience_window = false;
}

void AudienceWindow::draw(AppState& state) {
  if (!parts_) return;
  Parts& p = *parts_;
  // Closed by its close button (WM_DELETE_WINDOW), or destroyed from outside: the lecturer's
  // window goes on without it.
  p.lost = platform::window_lost(p.window);
  if (p.lost) state.status = "The audience's window was closed from outside: key A opens it again.";
  if (p.lost || glfwWindowShouldClose(p.window)) {
    close(state);
    return;
  }
  InWindow in(p.window, p.context);
  if (p.font_scale != state.ui.font_scale || p.font_text != state.window.font_text)
    p.build_fonts(state);
  ImGuiIO& io = ImGui::GetIO();
  int w = 0, h = 0, fb_w = 0, fb_h = 0;
  glfwGetWindowSize(p.window, &w, &h);
  glfwGetFramebufferSize(p.window, &fb_w, &fb_h);
  if (w <= 0 || h <= 0) return;  // minimised
  io.DisplaySize = ImVec2(float(w), float(h));
  io.DisplayFramebufferScale = ImVec2(float(fb_w) / float(w), float(fb_h) / float(h));
  io.DeltaTime = 1.0f / 60.0f;
  ImGui_ImplOpenGL3_NewFrame();
  ImGui::NewFrame();
  const Palette& colours = palette(state.ui.theme);
  p.renderer->set_masked_colours(colours.masked_a, colours.masked_b);
  ImFont* lecturer_mono = std::exchange(state.window.mono_font, p.mono);
  draw_audience_frame(state, p.renderer.get(), p.measured);
  state.window.mono_font = lecturer_mono;
  ImGui::Render();
  glViewport(0, 0, fb_w, fb_h);
  const ImVec4 clear = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  glClearColor(clear.x, clear.y, clear.z, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  glfwSwapBuffers(p.window);
}

}  // namespace attnlab::gui
