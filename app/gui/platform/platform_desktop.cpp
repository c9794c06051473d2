// The desktop: a plain loop, files stay where they were written, settings are saved at exit.
#include "app/gui/platform/platform.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <cstdlib>

namespace attnlab::gui::platform {

bool display_available() {
  for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY"}) {
    const char* value = std::getenv(name);
    if (value && *value) return true;
  }
  return false;
}

void run_frames(std::function<bool()> frame) {
  while (frame()) {
  }
}

bool wait_for_events(double seconds) {
  if (seconds > 0)
    glfwWaitEventsTimeout(seconds);
  else
    glfwPollEvents();
  return true;
}

std::string deliver_file(const std::string& path) {
  return "Saved " + path;
}

void settings_written() {}

bool saves_settings_while_running() {
  return false;
}

std::string limitations() {
  return "";
}

void follow_page_size() {}

bool work_area(int& x, int& y, int& width, int& height) {
  GLFWmonitor* monitor = glfwGetPrimaryMonitor();
  if (!monitor) return false;
  glfwGetMonitorWorkarea(monitor, &x, &y, &width, &height);
  return width > 0 && height > 0;
}

float pixel_ratio() {
  return 1.0f;
}

void toggle_fullscreen(GLFWwindow* window) {
  static int saved_x = 0, saved_y = 0, saved_w = 1280, saved_h = 720;  // the windowed place
  if (glfwGetWindowMonitor(window)) {
    glfwSetWindowMonitor(window, nullptr, saved_x, saved_y, saved_w, saved_h, 0);
    return;
  }
  glfwGetWindowPos(window, &saved_x, &saved_y);
  glfwGetWindowSize(window, &saved_w, &saved_h);
  GLFWmonitor* monitor = glfwGetPrimaryMonitor();
  if (const GLFWvidmode* mode = monitor ? glfwGetVideoMode(monitor) : nullptr)
    glfwSetWindowMonitor(window, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
}

void watch_dropped_paths(GLFWwindow* window, std::function<void(const std::string&)> on_path) {
  // GLFW's callback is a plain function: the one listener lives here.
  static std::function<void(const std::string&)> listener;
  listener = std::move(on_path);
  glfwSetDropCallback(window, [](GLFWwindow*, int count, const char** paths) {
    for (int i = 0; i < count; ++i)
      if (listener && paths[i]) listener(paths[i]);
  });
}

void publish_state(const std::function<std::string()>&) {}

void watch_lesson_position(std::function<void(int, bool, int)>) {}

}  // namespace attnlab::gui::platform
