// What differs between the desktop app and the same app in a browser page (WebAssembly), behind
// one interface; platform_desktop.cpp and platform_web.cpp implement it, and CMake builds one.
// The GL header and GLSL version are in gl_api.hpp.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/model/run_control.hpp"

struct GLFWwindow;

namespace attnlab::gui::platform {

// False when there is no display to open a window on (a desktop without DISPLAY); a page always
// has its canvas.
bool display_available();

// Calls `frame` once per display frame until it returns false. The desktop loops here and
// returns; the browser hands `frame` to the page's animation frames and returns at once, so
// whatever `frame` uses must outlive this call.
void run_frames(std::function<bool()> frame);

// Takes the window's events: the desktop sleeps until one arrives or `seconds` pass (> 0), and
// returns true; a page cannot block, so it only takes what arrived and returns false.
bool wait_for_events(double seconds);

// What wakes the main loop from a thread watching a file (a student's answer rewritten while the
// loop sleeps): on the desktop glfwPostEmptyEvent, which ends wait_for_events at once. A page has
// none (empty): its files change only by the page's own hand (a drop: input), and its threads
// come from a fixed pool, so nothing is watched there.
std::function<void()> main_loop_wake();

// True once `window` is gone from under the app: destroyed by another client (`xdotool
// windowclose`), which no close button or WM_DELETE_WINDOW announces. The desktop asks the X server
// (one round trip); a page's canvas is never taken away. The window system's errors about such a
// window never end the app (Xlib's own handler would exit, losing the settings): the desktop
// records them instead, here and in wait_for_events (GLFW 3.3 puts Xlib's handler back after the
// requests it checks itself, so it is installed again before each wait).
bool window_lost(GLFWwindow* window);

// The user saved a file (a PNG): the browser offers it as a download; the desktop leaves it where
// it was written. Returns what to tell the user.
std::string deliver_file(const std::string& path);

// The path of the program `name` on PATH ("" when it is not installed, and in a page).
std::string program_on_path(const std::string& name);

// Puts the PNG at `path` on the system's clipboard (X11: xclip; Wayland: wl-copy), for pasting
// into slides. Returns what to tell the user: done, or what is missing.
std::string copy_png_to_clipboard(const std::string& path);

// The Save dialog's exports at any size, theme and font scale: the app run again off screen with
// `arguments` (its own --export-png / --export-animation), its progress reported through
// `control` and Cancel ending it. Returns its "Wrote ..." line; throws UserError with its reason,
// or Cancelled. True from runs_app_copies() on the desktop; a page has no processes and saves
// what it shows.
bool runs_app_copies();
std::string run_app_copy(const std::vector<std::string>& arguments, const RunControl& control);

// Settings were written to settings_dir(): the browser copies them into its storage (IndexedDB).
void settings_written();

// True where the app never exits through the end of its main loop (a page is closed, not quit):
// settings are then saved while it runs, whenever they change.
bool saves_settings_while_running();

// What this platform cannot do, for the page's own UI ("" on the desktop).
std::string limitations();

// A page: sizes the canvas (and so the GLFW window) to its box in the page (the page less the bar
// below it), in device pixels, when they differ. The desktop's window is the user's to size:
// nothing to do.
void follow_page_size();

// The primary monitor's work area (the screen less the desktop's panels), in screen coordinates;
// false where there is none to fit (a page's canvas follows the page instead).
bool work_area(int& x, int& y, int& width, int& height);

// Device pixels per CSS pixel (browser: window.devicePixelRatio; desktop: 1). The canvas is that
// many times the page's size and the font scale is multiplied by it, so text stays sharp.
float pixel_ratio();

// F11: the desktop puts the window on the monitor and back; a page asks the browser.
void toggle_fullscreen(GLFWwindow* window);

// Files or folders dropped on the window: `on_path` is called with each one's path (the desktop;
// a page's canvas takes no folders).
void watch_dropped_paths(GLFWwindow* window, std::function<void(const std::string&)> on_path);

// After each drawn frame: the browser keeps `state_json()` for the page's attnlab_page_state()
// (what the browser test asserts on); the desktop does not call it.
void publish_state(const std::function<std::string()>& state_json);

// A page that is a lesson's audience view (?lesson=...&audience) follows the lecturer's tab: the
// page calls `follow` with the scene, whether its answer is revealed, and the walk's step. The
// desktop's audience has its own window (nothing to follow).
void watch_lesson_position(std::function<void(int scene, bool revealed, int step)> follow);

}  // namespace attnlab::gui::platform
