#include "app/gui/gl/gl_app.hpp"

// glad before GLFW: GLFW must not pull in a GL header of its own.
#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <optional>
#include <string>
#include <vector>

#include "app/gui/gl/heatmap_renderer.hpp"
#include "app/gui/gl/screenshot.hpp"
#include "app/gui/look/theme.hpp"
#include "app/gui/panels/bench_drag.hpp"
#include "app/gui/panels/frame.hpp"
#include "app/gui/panels/layout_dump.hpp"
#include "app/gui/state/redraw.hpp"
#include "app/gui/state/settings.hpp"
#include "app/gui/state/startup.hpp"
#include "core/tensor/npy.hpp"

namespace attnlab::gui {

namespace {

// [SECTION] platform

// GLFW reports errors through a callback without a user pointer, and signals have none either:
// these two are the only process-wide state.
std::string last_glfw_error;
volatile std::sig_atomic_t stop_requested = 0;  // Ctrl+C / SIGTERM: close as the window does

void request_stop(int) {
  stop_requested = 1;
}

constexpr const char* kNoDisplay =
    "attnlab: no display found (DISPLAY is not set); run it on a desktop, under a virtual "
    "display with `xvfb-run -a attnlab ...`, or use `attnlab-cli` for the same trace as text";

bool display_available() {
  for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY"}) {
    const char* value = std::getenv(name);
    if (value && *value) return true;
  }
  return false;
}

// Owns GLFW, the window and the ImGui context; tears them down in the right order.
struct Platform {
  bool glfw = false;
  GLFWwindow* window = nullptr;
  bool imgui = false;
  ~Platform() {
    if (imgui) {
      ImGui_ImplOpenGL3_Shutdown();
      ImGui_ImplGlfw_Shutdown();
      ImGui::DestroyContext();
    }
    if (window) glfwDestroyWindow(window);
    if (glfw) glfwTerminate();
  }
};

struct WindowedRect {
  int x = 0, y = 0, w = 0, h = 0;
};

void toggle_fullscreen(GLFWwindow* window, WindowedRect& saved) {
  if (glfwGetWindowMonitor(window)) {
    glfwSetWindowMonitor(window, nullptr, saved.x, saved.y, saved.w, saved.h, 0);
    return;
  }
  glfwGetWindowPos(window, &saved.x, &saved.y);
  glfwGetWindowSize(window, &saved.w, &saved.h);
  GLFWmonitor* monitor = glfwGetPrimaryMonitor();
  if (const GLFWvidmode* mode = monitor ? glfwGetVideoMode(monitor) : nullptr)
    glfwSetWindowMonitor(window, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
}

// [SECTION] input events

// Counts the window's events, so the main loop knows whether a wait ended on one: a key, a click,
// the pointer moving, a resize, the window exposed. Installed before ImGui's callbacks, which
// call these after their own.
void count_event(GLFWwindow* window) {
  ++*static_cast<uint64_t*>(glfwGetWindowUserPointer(window));
}

void watch_input(GLFWwindow* window, uint64_t* events) {
  glfwSetWindowUserPointer(window, events);
  glfwSetKeyCallback(window, [](GLFWwindow* w, int, int, int, int) { count_event(w); });
  glfwSetCharCallback(window, [](GLFWwindow* w, unsigned) { count_event(w); });
  glfwSetMouseButtonCallback(window, [](GLFWwindow* w, int, int, int) { count_event(w); });
  glfwSetScrollCallback(window, [](GLFWwindow* w, double, double) { count_event(w); });
  glfwSetCursorPosCallback(window, [](GLFWwindow* w, double, double) { count_event(w); });
  glfwSetCursorEnterCallback(window, [](GLFWwindow* w, int) { count_event(w); });
  glfwSetWindowFocusCallback(window, [](GLFWwindow* w, int) { count_event(w); });
  glfwSetFramebufferSizeCallback(window, [](GLFWwindow* w, int, int) { count_event(w); });
  glfwSetWindowRefreshCallback(window, [](GLFWwindow* w) { count_event(w); });
}

// [SECTION] looks

void rebuild_fonts(AppState& state) {
  state.window.font_text = state.session.config.sentence;
  const Fonts fonts = load_fonts(state.ui.font_scale, state.window.font_text);
  if (!fonts.from_files)
    state.status = "DejaVu Sans not found (install fonts-dejavu-core): using ImGui's own font.";
  state.window.mono_font = fonts.mono;
  apply_theme(state.ui.theme, state.ui.font_scale);
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
  state.window.fonts_dirty = false;
}

// [SECTION] export

std::string default_png_name(const std::optional<PanelId>& panel) {
  char stamp[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
  return std::string("attnlab-") + (panel ? panel_name(*panel) : "window") + "-" + stamp + ".png";
}

// Writes the PNG the state asks for; says where (or why not) beside the Save buttons and in the
// status line.
void export_png(AppState& state, const ExportRequest& request) {
  const std::string path = request.path.empty() ? default_png_name(request.panel) : request.path;
  std::optional<ImVec4> crop;
  if (request.panel) crop = state.frame.panel_rects[int(*request.panel)];
  try {
    save_frame_png(path, ImGui::GetIO().DisplayFramebufferScale, crop);
    state.window.export_message = "Saved " + path;
    state.window.export_failed = false;
  } catch (const std::exception& error) {
    state.window.export_message = error.what();
    state.window.export_failed = true;
  }
  state.status = state.window.export_message;
}

// [SECTION] frame timing for --bench-frames

// `traces_shown` >= 0 (a drag): how many new traces reached the screen during the run.
void report_frame_times(std::vector<double> ms, int traces_shown) {
  if (ms.empty()) return;
  std::sort(ms.begin(), ms.end());
  const auto at = [&](double q) {
    return ms[std::min(ms.size() - 1, size_t(q * double(ms.size())))];
  };
  std::printf("frames=%zu median_ms=%.2f p95_ms=%.2f max_ms=%.2f", ms.size(), at(0.5), at(0.95),
              ms.back());
  if (traces_shown >= 0) std::printf(" traces_shown=%d", traces_shown);
  std::printf("\n");
}

// [SECTION] start-up

// Opens the GL 3.3 core window (on the monitor with --fullscreen); prints why not and returns
// the exit code otherwise (-1 = opened).
int open_window(const StartOptions& options, Platform& platform) {
  if (!display_available()) {
    std::fprintf(stderr, "%s\n", kNoDisplay);
    return 2;
  }
  glfwSetErrorCallback([](int, const char* text) { last_glfw_error = text; });
  if (!glfwInit()) {
    std::fprintf(stderr, "%s (GLFW: %s)\n", kNoDisplay, last_glfw_error.c_str());
    return 2;
  }
  platform.glfw = true;
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  GLFWmonitor* monitor = options.fullscreen ? glfwGetPrimaryMonitor() : nullptr;
  platform.window =
      glfwCreateWindow(options.width, options.height, "Attention Lab", monitor, nullptr);
  if (!platform.window) {
    std::fprintf(stderr, "attnlab: could not open an OpenGL 3.3 core window (GLFW: %s)\n",
                 last_glfw_error.c_str());
    return 1;
  }
  glfwMakeContextCurrent(platform.window);
  if (!gladLoadGL(glfwGetProcAddress)) {
    std::fprintf(stderr, "attnlab: could not load the OpenGL 3.3 functions\n");
    return 1;
  }
  // Scripted runs go as fast as they can; the bench measures frames, not the display's refresh.
  glfwSwapInterval(options.scripted() ? 0 : 1);
  return -1;
}

void start_imgui(const StartOptions& options, const std::optional<LoadedSettings>& restored,
                 Platform& platform) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  platform.imgui = true;
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // 1.86 rewrites imgui.ini in place; it is saved atomically instead
  io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
  // A scripted run must not depend on where the (virtual) pointer happens to be: no hover.
  if (options.scripted()) io.ConfigFlags |= ImGuiConfigFlags_NoMouse;
  if (restored && !restored->settings.imgui_ini.empty())
    ImGui::LoadIniSettingsFromMemory(restored->settings.imgui_ini.c_str(),
                                     restored->settings.imgui_ini.size());
  ImGui_ImplGlfw_InitForOpenGL(platform.window, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");
}

// [SECTION] one frame

// Builds and draws one frame of the app into the back buffer.
void render_frame(AppState& state, GlHeatmapRenderer& renderer, GLFWwindow* window) {
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  // After a sleep the backend's frame time spans the whole wait; capped, animations resume where
  // they paused instead of jumping to their end.
  ImGuiIO& io = ImGui::GetIO();
  io.DeltaTime = float(capped_frame_seconds(io.DeltaTime));
  ImGui::NewFrame();
  const Palette& colours = palette(state.ui.theme);
  renderer.set_masked_colours(colours.masked_a, colours.masked_b);
  draw_frame(state, &renderer);
  ImGui::Render();
  int fb_w = 0, fb_h = 0;
  glfwGetFramebufferSize(window, &fb_w, &fb_h);
  glViewport(0, 0, fb_w, fb_h);
  const ImVec4 clear = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  glClearColor(clear.x, clear.y, clear.z, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

// --screenshot: the PNG (and with --dump-layout the layout JSON) of the frame just drawn; returns
// the exit code (2 when a file cannot be written: the user's to fix, as a bad option).
int save_screenshot(AppState& state, const StartOptions& options) {
  std::optional<PanelId> panel;
  if (PanelId id; parse_panel(options.panel, id)) panel = id;
  export_png(state, ExportRequest{panel, options.screenshot});
  if (state.status != "Saved " + options.screenshot) {
    std::fprintf(stderr, "attnlab: %s\n", state.status.c_str());
    return 2;
  }
  if (options.dump_layout.empty()) return 0;
  const ImGuiIO& io = ImGui::GetIO();
  try {
    write_file_atomically(options.dump_layout,
                          layout_json(state, io.DisplaySize, io.DisplayFramebufferScale));
  } catch (const std::exception& error) {
    std::fprintf(stderr, "attnlab: %s\n", error.what());
    return 2;
  }
  return 0;
}

}  // namespace

int run_gui(const StartOptions& options) {
  // From the start, so an early Ctrl+C still ends through the normal exit (settings saved).
  std::signal(SIGINT, request_stop);
  std::signal(SIGTERM, request_stop);
  uint64_t input_events = 0;  // counted by watch_input; outlives the window
  Platform platform;
  if (const int failed = open_window(options, platform); failed >= 0) return failed;
  GLFWwindow* window = platform.window;
  watch_input(window, &input_events);  // before ImGui's callbacks, which chain to these
  const std::string dir = settings_dir();
  std::optional<LoadedSettings> restored;
  if (!options.scripted()) restored = load_settings(dir);
  start_imgui(options, restored, platform);

  AppState state;
  const std::string start_error = start_state(state, options, restored ? &*restored : nullptr);
  if (!start_error.empty()) {
    if (options.scripted()) {
      std::fprintf(stderr, "%s\n", start_error.c_str());
      return 2;
    }
    state.status = start_error;
  }
  rebuild_fonts(state);
  GlHeatmapRenderer renderer;

  // [SECTION] the main loop
  WindowedRect windowed{0, 0, options.width, options.height};
  std::vector<double> frame_ms;
  int traces_shown = 0;  // new traces that arrived during the run (--bench-drag)
  auto last_frame = std::chrono::steady_clock::now();
  int exit_code = 0;
  // Idle, the loop sleeps until an event (or the wait's end, to see the stop flag); scripted runs
  // draw every frame.
  InputActivity input;  // frames_since_change = 0: the first frames settle as after input
  int frame = 0;
  while (!glfwWindowShouldClose(window) && !stop_requested) {
    const NextFrame next = options.scripted() ? NextFrame{} : next_frame(state, input);
    const uint64_t events_before = input_events;
    if (next.wait_seconds > 0)
      glfwWaitEventsTimeout(next.wait_seconds);
    else
      glfwPollEvents();
    const bool new_input = input_events != events_before;
    if (!new_input && !next.draw_on_timeout) continue;  // nothing happened: nothing to draw
    if (new_input) input.frames_since_change = 0;
    ++frame;
    if (state.window.fonts_dirty) rebuild_fonts(state);
    if (state.window.toggle_fullscreen) {
      toggle_fullscreen(window, windowed);
      state.window.toggle_fullscreen = false;
    }
    drag_heads_for_bench(state, frame, options.bench_drag);
    const Trace* shown_before = state.session.trace.get();
    render_frame(state, renderer, window);
    traces_shown += state.session.trace.get() != shown_before;
    if (!options.screenshot.empty() && frame >= options.frames) {
      exit_code = save_screenshot(state, options);
      break;
    }
    if (state.window.export_request) {
      export_png(state, *state.window.export_request);
      state.window.export_request.reset();
    }
    glfwSwapBuffers(window);
    if (options.bench_frames > 0) {  // only then: a lecture left running all day keeps no list
      const auto now = std::chrono::steady_clock::now();
      frame_ms.push_back(std::chrono::duration<double, std::milli>(now - last_frame).count());
      last_frame = now;
      if (frame >= options.bench_frames + 1) break;
    }
    note_frame_drawn(input, state, ImGui::GetIO());
  }

  // Closing the window, Ctrl+C and SIGTERM all end here: stop every job first (each checks its
  // cancel flag every few milliseconds), so the threads are joined within a second.
  cancel_all_jobs(state);
  if (options.bench_frames > 0)
    report_frame_times(std::vector<double>(frame_ms.begin() + 1, frame_ms.end()),  // 1st: setup
                       options.bench_drag > 0 ? traces_shown : -1);
  if (!options.scripted()) {
    try {
      save_settings(dir, current_settings(state, ImGui::SaveIniSettingsToMemory()));
    } catch (const std::exception& error) {
      std::fprintf(stderr, "attnlab: settings not saved: %s\n", error.what());
    }
  }
  return exit_code;
}

}  // namespace attnlab::gui
