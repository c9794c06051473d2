// The browser page (Emscripten): frames come from the page's animation frames, a saved file
// becomes a download, settings live in IndexedDB (mounted at ATTNLAB_CONFIG_DIR by index.html
// before main runs), the canvas follows the page's size and pixel ratio, and a model folder the
// user picks or drops on the page (read by index.html into the page's memory, /models/<name>/)
// is opened as a folder dropped on the desktop's window is.
#include <GLFW/glfw3.h>
#include <emscripten.h>

#include "app/gui/platform/platform.hpp"
#include "core/model/errors.hpp"

namespace attnlab::gui::platform {

namespace {

std::function<bool()>* the_frame = nullptr;  // the page's loop outlives run_frames
std::string page_state = "{}";               // the last frame's state, for attnlab_page_state
std::function<void(const std::string&)>
    open_folder;                                    // watch_dropped_paths's, for attnlab_open_model
std::function<void(int, bool, int)> follow_lesson;  // watch_lesson_position's

void one_frame(void*) {
  if (!(*the_frame)()) emscripten_cancel_main_loop();
}

// clang-format off
EM_JS(void, offer_download, (const char* path_utf8), {
  const path = UTF8ToString(path_utf8);
  const bytes = FS.readFile(path);
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([bytes], {type: 'application/octet-stream'}));
  link.download = path.split('/').pop();
  document.body.appendChild(link);
  link.click();
  setTimeout(() => { URL.revokeObjectURL(link.href); link.remove(); }, 1000);
});

EM_JS(void, sync_storage, (), {
  FS.syncfs(false, (error) => { if (error) console.warn('attnlab: settings not stored', error); });
});

EM_JS(void, browser_fullscreen, (), {
  if (document.fullscreenElement) document.exitFullscreen();
  else document.documentElement.requestFullscreen().catch(() => {});
});

// Browser.setCanvasSize, not glfwSetWindowSize: Emscripten's GLFW takes a window the size of the
// screen for a request to go full screen, which a page may not make without a click. The canvas's
// box is the page's less the bar below it (index.html lays them out), never the whole window.
EM_JS(void, fit_canvas_to_page, (), {
  const ratio = window.devicePixelRatio || 1;
  const box = Module.canvas.getBoundingClientRect();
  const width = Math.round(box.width * ratio), height = Math.round(box.height * ratio);
  if (Module.canvas.width !== width || Module.canvas.height !== height)
    Browser.setCanvasSize(width, height);
});
EM_JS(double, device_pixel_ratio, (), { return window.devicePixelRatio || 1; });
// clang-format on

}  // namespace

bool display_available() {
  return true;
}

void run_frames(std::function<bool()> frame) {
  the_frame = new std::function<bool()>(std::move(frame));
  emscripten_set_main_loop_arg(one_frame, nullptr, 0, /*simulate_infinite_loop=*/1);
}

bool wait_for_events(double) {
  glfwPollEvents();
  return false;
}

std::function<void()> main_loop_wake() {
  return nullptr;
}

bool window_lost(GLFWwindow*) {
  return false;
}

std::string deliver_file(const std::string& path) {
  offer_download(path.c_str());
  return "Downloaded " + path.substr(path.find_last_of('/') + 1) + " (see the browser's downloads)";
}

void settings_written() {
  sync_storage();
}

bool saves_settings_while_running() {
  return true;
}

bool runs_app_copies() {
  return false;
}

std::string run_app_copy(const std::vector<std::string>&, const RunControl&) {
  throw UserError("a page cannot run the app off screen: it saves what it shows");
}

std::string limitations() {
  return "In the browser: fonts for scripts DejaVu lacks (Chinese, Japanese, ...) are not "
         "available, so such characters show as U+ codes; PNGs and tensors go to your downloads; "
         "the Train tab's Save and Load use the page's own memory, gone on reload; full screen "
         "is the browser's own (F11).";
}

void follow_page_size() {
  fit_canvas_to_page();
}

bool work_area(int&, int&, int&, int&) {
  return false;
}

float pixel_ratio() {
  return float(device_pixel_ratio());
}

void toggle_fullscreen(GLFWwindow*) {
  browser_fullscreen();
}

void watch_dropped_paths(GLFWwindow*, std::function<void(const std::string&)> on_path) {
  open_folder = std::move(on_path);
}

std::string program_on_path(const std::string&) {
  return "";
}

std::string copy_png_to_clipboard(const std::string& path) {
  return "The page cannot put a picture on the clipboard: " + deliver_file(path);
}

void watch_lesson_position(std::function<void(int, bool, int)> follow) {
  follow_lesson = std::move(follow);
}

void publish_state(const std::function<std::string()>& state_json) {
  page_state = state_json();
}

}  // namespace attnlab::gui::platform

// The page's JavaScript reads the last frame's state as JSON (the browser test asserts on it).
// The audience tab's page calls this with the lecturer tab's lesson position (a BroadcastChannel
// carries it between the tabs). Returns 0 when taken, 1 when the app is not running yet.
extern "C" EMSCRIPTEN_KEEPALIVE int attnlab_follow_lesson(int scene, int revealed, int step) {
  if (!attnlab::gui::platform::follow_lesson) return 1;
  attnlab::gui::platform::follow_lesson(scene, revealed != 0, step);
  return 0;
}

extern "C" EMSCRIPTEN_KEEPALIVE const char* attnlab_page_state() {
  return attnlab::gui::platform::page_state.c_str();
}

// index.html calls this once a picked or dropped folder's files are in the page's file system
// (MEMFS, /models/<name>/): the app opens it as the desktop opens a folder dropped on its window.
// Returns 0 when the request was taken, 1 when the app is not running yet.
extern "C" EMSCRIPTEN_KEEPALIVE int attnlab_open_model(const char* path) {
  if (!attnlab::gui::platform::open_folder || !path) return 1;
  attnlab::gui::platform::open_folder(path);
  return 0;
}
