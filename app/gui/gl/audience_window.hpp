// The audience's window (--audience, or key A): a second window for the projector showing the
// lesson's picture, caption and question in presenter mode's sizes, while the lecturer's window
// keeps the controls, the notes and the clock. One state drawn twice: the audience's window has
// its own GL context, ImGui context, fonts, heatmap textures and measured layout, and takes no
// input. (A page has one canvas: there the page itself becomes the audience's view.)
#pragma once

#include <memory>
#include <string>

#include "app/gui/state/app_state.hpp"

struct GLFWwindow;

namespace attnlab::gui {

class AudienceWindow {
 public:
  AudienceWindow();
  ~AudienceWindow();
  AudienceWindow(const AudienceWindow&) = delete;
  AudienceWindow& operator=(const AudienceWindow&) = delete;

  // Opens it beside `lecturer` (on a second monitor when there is one, filling it); "" or why not.
  std::string open(GLFWwindow* lecturer, AppState& state);
  void close(AppState& state);
  bool is_open() const;

  // One frame of the audience's view; closes the window when its user closed it. Leaves the
  // lecturer's GL and ImGui contexts current.
  void draw(AppState& state);

 private:
  struct Parts;  // the window and what it draws with (audience_window.cpp)
  std::unique_ptr<Parts> parts_;
};

}  // namespace attnlab::gui
