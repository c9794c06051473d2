// The desktop: a plain loop, files stay where they were written, settings are saved at exit.
#include <unistd.h>

#include <algorithm>
#include <cstdlib>

#include "app/gui/platform/platform.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
// Xlib after every other header, for its macros (None, Bool, Status, ...).
#include <X11/Xlib.h>

// GLFW's X11 accessors, as glfw3native.h declares them (it would also need Xrandr's headers).
extern "C" Display* glfwGetX11Display(void);
extern "C" Window glfwGetX11Window(GLFWwindow* window);

namespace attnlab::gui::platform {

namespace {

// An X error is about a request that failed, most often on a window another client destroyed: the
// request's window is checked by window_lost; the error itself ends nothing.
int on_x_error(Display*, XErrorEvent*) {
  return 0;
}

void keep_x_errors_non_fatal() {
  if (glfwGetX11Display()) XSetErrorHandler(on_x_error);
}

}  // namespace

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
  keep_x_errors_non_fatal();
  if (seconds > 0)
    glfwWaitEventsTimeout(seconds);
  else
    glfwPollEvents();
  return true;
}

std::function<void()> main_loop_wake() {
  return [] { glfwPostEmptyEvent(); };
}

bool window_lost(GLFWwindow* window) {
  Display* display = glfwGetX11Display();
  if (!display) return false;
  keep_x_errors_non_fatal();
  XWindowAttributes attributes;
  return XGetWindowAttributes(display, glfwGetX11Window(window), &attributes) == 0;
}

std::string deliver_file(const std::string& path) {
  return "Saved " + path;
}

std::string program_on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "";
  size_t start = 0;
  while (start <= dirs.size()) {
    const size_t end = std::min(dirs.find(':', start), dirs.size());
    const std::string candidate = dirs.substr(start, end - start) + "/" + name;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return "";
}

std::string copy_png_to_clipboard(const std::string& path) {
  // xclip stays behind to answer the paste; it is given the file, not the app's window.
  const bool wayland = std::getenv("WAYLAND_DISPLAY") != nullptr;
  const std::string tool = program_on_path(wayland ? "wl-copy" : "xclip");
  if (tool.empty())
    return std::string("Copying a picture needs ") +
           (wayland ? "wl-copy (apt-get install wl-clipboard)" : "xclip (apt-get install xclip)") +
           "; saved as " + path + " instead.";
  const std::string command =
      wayland ? "'" + tool + "' --type image/png < '" + path + "'"
              : "'" + tool + "' -selection clipboard -t image/png -i '" + path + "'";
  if (path.find('\'') != std::string::npos || std::system(command.c_str()) != 0)
    return "The picture could not be put on the clipboard; saved as " + path + " instead.";
  return "The picture is on the clipboard: paste it into a slide.";
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
