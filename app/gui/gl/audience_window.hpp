// The audience's window (--audience, or key A): a second window for the projector showing the
// lesson's picture, caption and question in presenter mode's sizes, while the lecturer's window
// keeps the controls, the notes and the clock. One state drawn twice: the audience's window has
// its own GL context, ImGui context, fonts and heatmap textures, and takes no input.
#pragma once

#include <memory>
#include <string>

#include "app/gui/panels/frame.hpp"
#include "app/gui/state/app_state.hpp"

struct GLFWwindow;
struct ImGuiContext;
struct ImFont;

namespace attnlab::gui {

class GlHeatmapRenderer;

class AudienceWindow {
 public:
  AudienceWindow() = default;
  ~AudienceWindow();
  AudienceWindow(const AudienceWindow&) = delete;
  AudienceWindow& operator=(const AudienceWindow&) = delete;

  // Opens it beside `lecturer` (on a second monitor when there is one, filling it); "" or why not.
  std::string open(GLFWwindow* lecturer, AppState& state);
  void close(AppState& state);
  bool is_open() const { return window_ != nullptr; }

  // One frame of the audience's view; closes the window when its user closed it. Leaves the
  // lecturer's GL and ImGui contexts current.
  void draw(AppState& state);

 private:
  void build_fonts(const AppState& state);

  GLFWwindow* window_ = nullptr;
  ImGuiContext* context_ = nullptr;
  std::unique_ptr<GlHeatmapRenderer> renderer_;
  ImFont* mono_ = nullptr;
  MeasuredLayout measured_;  // its panels' own sizes
  float font_scale_ = 0;
  std::string font_text_;
};

}  // namespace attnlab::gui
