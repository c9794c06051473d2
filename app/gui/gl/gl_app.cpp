#include "app/gui/gl/gl_app.hpp"

#include "app/gui/panels/first_start_card.hpp"

// The GL header before GLFW: GLFW must not pull in one of its own.
#include "app/gui/platform/gl_api.hpp"
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
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/gui/export/one_page.hpp"
#include "app/gui/gl/heatmap_renderer.hpp"
#include "app/gui/gl/modes/frame_mode.hpp"
#include "app/gui/gl/modes/window_exports.hpp"
#include "app/gui/gl/save_window.hpp"
#include "app/gui/lessons/lesson_player.hpp"
#include "app/gui/look/theme.hpp"
#include "app/gui/panels/frame.hpp"
#include "app/gui/panels/frame_guard.hpp"
#include "app/gui/panels/keyboard.hpp"
#include "app/gui/panels/layout_dump.hpp"
#include "app/gui/panels/text_field.hpp"
#include "app/gui/platform/platform.hpp"
#include "app/gui/state/atlas_text.hpp"
#include "app/gui/state/redraw.hpp"
#include "app/gui/state/settings.hpp"
#include "app/gui/state/startup.hpp"

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

// [SECTION] input events

// What the window's callbacks write to: a count of its events, so the main loop knows whether a
// wait ended on one (a key, a click, the pointer moving, a resize, the window exposed), and the
// key presses and wide characters for the next frame.
struct WindowEvents {
  uint64_t count = 0;
  TypedInput* typed = nullptr;
};

WindowEvents& events_of(GLFWwindow* window) {
  return *static_cast<WindowEvents*>(glfwGetWindowUserPointer(window));
}

void count_event(GLFWwindow* window) {
  ++events_of(window).count;
}

// Installed before ImGui's callbacks, which call these before their own (Emscripten's GLFW calls
// them from the page's key events the same way).
void watch_input(GLFWwindow* window, WindowEvents* events) {
  glfwSetWindowUserPointer(window, events);
  events->typed->window_queues_keys = true;
  glfwSetKeyCallback(window, [](GLFWwindow* w, int key, int, int action, int mods) {
    count_event(w);
    if (action == GLFW_PRESS || action == GLFW_REPEAT)
      note_key_press(*events_of(w).typed,
                     {key, (mods & GLFW_MOD_SHIFT) != 0, (mods & GLFW_MOD_CONTROL) != 0,
                      (mods & GLFW_MOD_ALT) != 0, action == GLFW_REPEAT});
  });
  glfwSetCharCallback(window, [](GLFWwindow* w, unsigned codepoint) {
    count_event(w);
    note_typed_char(*events_of(w).typed, codepoint);
  });
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
  // The sentences' characters and the lesson's (atlas_text.hpp).
  state.window.font_text = atlas_text(state);
  const float scale = state.ui.font_scale * platform::pixel_ratio();  // sharp on a HiDPI page
  const Fonts fonts = load_fonts(scale, state.window.font_text, state.typed.stand_ins);
  state.window.font_stand_ins = state.typed.stand_ins.size();
  if (!fonts.from_files)
    state.status = "DejaVu Sans not found (install fonts-dejavu-core): using ImGui's own font.";
  state.window.mono_font = fonts.mono;
  apply_theme(state.ui.theme, scale);
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
  state.window.fonts_dirty = false;
}

// [SECTION] start-up

// Opens the GL 3.3 core window (on the monitor with --fullscreen); prints why not and returns
// the exit code otherwise (-1 = opened).
int open_window(StartOptions& options, Platform& platform) {
  if (!platform::display_available()) {
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
  // Never larger than the screen less its panels: the first start fills it. (Scripted runs keep
  // their size, whatever the screen: reproducible.)
  int work_x = 0, work_y = 0, work_w = 0, work_h = 0;
  const bool fits = !monitor && !options.size_given && !options.scripted() &&
                    platform::work_area(work_x, work_y, work_w, work_h);
  if (fits) fit_window_to_work_area(options, work_w, work_h);
  // Shown once placed; slides are rendered off screen.
  const bool off_screen = !options.export_slides.empty() || !options.export_png.empty() ||
                          !options.export_animation.empty();
  glfwWindowHint(GLFW_VISIBLE, fits || off_screen ? GLFW_FALSE : GLFW_TRUE);
  platform.window =
      glfwCreateWindow(options.width, options.height, "Attention Lab", monitor, nullptr);
  if (!platform.window) {
    std::fprintf(stderr, "attnlab: could not open an OpenGL 3.3 core window (GLFW: %s)\n",
                 last_glfw_error.c_str());
    return 1;
  }
  if (fits) {
    // The title bar and borders count: the whole window, frame included, fits the work area.
    int left = 0, top = 0, right = 0, bottom = 0;
    glfwGetWindowFrameSize(platform.window, &left, &top, &right, &bottom);
    options.width = std::max(kMinWindowWidth, std::min(options.width, work_w - left - right));
    options.height = std::max(kMinWindowHeight, std::min(options.height, work_h - top - bottom));
    glfwSetWindowSize(platform.window, options.width, options.height);
    glfwSetWindowPos(platform.window, work_x + left, work_y + top);
    glfwShowWindow(platform.window);
  }
  glfwMakeContextCurrent(platform.window);
  if (!load_gl_functions(glfwGetProcAddress)) {
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
  configure_keyboard(io);
  // A scripted run must not depend on where the (virtual) pointer happens to be: no hover.
  if (options.scripted()) io.ConfigFlags |= ImGuiConfigFlags_NoMouse;
  if (restored && !restored->settings.imgui_ini.empty())
    ImGui::LoadIniSettingsFromMemory(restored->settings.imgui_ini.c_str(),
                                     restored->settings.imgui_ini.size());
  ImGui_ImplGlfw_InitForOpenGL(platform.window, true);
  ImGui_ImplOpenGL3_Init(kGlslVersion);
}

// [SECTION] one frame

// Builds and draws one frame of the app into the back buffer; `clear` (RGBA), when given, is the
// background instead of the windows' own (which are then see-through: a transparent picture).
void render_frame(AppState& state, GlHeatmapRenderer& renderer, GLFWwindow* window,
                  const float* clear_over = nullptr) {
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  // After a sleep the backend's frame time spans the whole wait; capped, animations resume where
  // they paused instead of jumping to their end. An animation's frames are evenly spaced.
  ImGuiIO& io = ImGui::GetIO();
  io.DeltaTime = state.window.fixed_frame_seconds > 0 ? float(state.window.fixed_frame_seconds)
                                                      : float(capped_frame_seconds(io.DeltaTime));
  ImGuiStyle& style = ImGui::GetStyle();
  const ImVec4 window_bg = style.Colors[ImGuiCol_WindowBg];
  const ImVec4 child_bg = style.Colors[ImGuiCol_ChildBg];
  if (clear_over) style.Colors[ImGuiCol_WindowBg].w = style.Colors[ImGuiCol_ChildBg].w = 0;
  ImGui::NewFrame();
  const Palette& colours = palette(state.ui.theme);
  renderer.set_masked_colours(colours.masked_a, colours.masked_b);
  draw_frame(state, &renderer);
  ImGui::Render();
  style.Colors[ImGuiCol_WindowBg] = window_bg;
  style.Colors[ImGuiCol_ChildBg] = child_bg;
  int fb_w = 0, fb_h = 0;
  glfwGetFramebufferSize(window, &fb_w, &fb_h);
  glViewport(0, 0, fb_w, fb_h);
  const ImVec4 clear =
      clear_over ? ImVec4(clear_over[0], clear_over[1], clear_over[2], 1) : window_bg;
  glClearColor(clear.x, clear.y, clear.z, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

// [SECTION] the app: everything the main loop keeps between frames (on the heap: in the browser
// the loop runs from the page's animation frames after run_gui has returned)

struct App {
  explicit App(const StartOptions& start) : options(start) {}
  bool open();    // the window, ImGui, the state; false: exit_code says why
  bool step();    // one pass of the main loop; false: the loop ends
  void finish();  // stops the jobs, reports, saves the settings
  void save_settings_now();

  StartOptions options;
  Platform platform;
  WindowEvents input_events;  // counted and queued by watch_input
  uint64_t events_seen = 0;   // input_events.count when the last frame was drawn (a page's
                              // events arrive between its frames, not inside glfwPollEvents)
  std::string dir;            // settings
  AppState state;
  std::unique_ptr<GlHeatmapRenderer> renderer;
  std::chrono::steady_clock::time_point last_draw = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_settings_check = last_draw;
  InputActivity input;         // frames_since_change = 0: the first frames settle as after input
  std::string saved_settings;  // what was last written, where settings are saved while running
  bool window_lost = false;    // destroyed by another client: ends the run as a close does
  float fonts_ratio = 1;       // the pixel ratio the fonts were built for
  // What every mode may use (the state, the window, the frame's number, the exit code), and the
  // modes the options ask for (after platform: the audience's window is closed before it).
  FrameLoop loop{state, options, nullptr, nullptr, 0, 0, nullptr};
  std::vector<std::unique_ptr<FrameMode>> modes;
  int& exit_code = loop.exit_code;

 private:
  bool draw_one_frame();  // step's frame, inside the frame boundary
};

bool App::open() {
  dir = settings_dir();
  std::optional<LoadedSettings> restored;
  if (!options.scripted()) restored = load_settings(dir);
  restore_window_size(options, restored ? &*restored : nullptr);
  if (const int failed = open_window(options, platform); failed >= 0) {
    exit_code = failed;
    return false;
  }
  input_events.typed = &state.typed;
  state.window.wake_loop = platform::main_loop_wake();  // a watched file changed (the Check tab)
  watch_input(platform.window, &input_events);  // before ImGui's callbacks, which chain to these
  // A model folder dropped on the window is opened (app/gui/model/).
  platform::watch_dropped_paths(platform.window, [this](const std::string& path) {
    ++input_events.count;
    state.window.dropped_paths.push_back(path);
  });
  // The page's audience tab follows the lecturer's tab (between frames).
  platform::watch_lesson_position([this](int scene, bool revealed, int step) {
    ++input_events.count;
    state.requests.later([=](AppState& s) { follow_lesson(s, scene, revealed, step); });
  });
  start_imgui(options, restored, platform);
  route_clipboard(ImGui::GetIO(), state.typed);  // pasted emoji keep their stand-ins
  const std::string start_error = start_state(state, options, restored ? &*restored : nullptr);
  if (!start_error.empty()) {
    if (options.scripted()) {
      std::fprintf(stderr, "%s\n", start_error.c_str());
      exit_code = 2;
      return false;
    }
    state.status = start_error;
  }
  configure_saving(state);
  loop.window = platform.window;
  loop.render = [this](const float* clear) {
    render_frame(state, *renderer, platform.window, clear);
  };
  modes = frame_modes(options);
  for (const std::unique_ptr<FrameMode>& mode : modes)
    if (const std::string error = mode->start(loop); !error.empty()) {
      std::fprintf(stderr, "attnlab: %s\n", error.c_str());
      exit_code = 2;
      return false;
    }
  state.window.platform_note = platform::limitations();
  state.window.first_start_card = shows_first_start_card(options, state.ui.first_start_done);
  rebuild_fonts(state);
  renderer = std::make_unique<GlHeatmapRenderer>();
  loop.renderer = renderer.get();
  return true;
}

void App::save_settings_now() {
  Settings settings = current_settings(state, ImGui::SaveIniSettingsToMemory());
  // Full screen, the size it was opened at (the windowed one) is what comes back.
  settings.window_width = options.width;
  settings.window_height = options.height;
  if (!window_lost && !glfwGetWindowMonitor(platform.window))
    glfwGetWindowSize(platform.window, &settings.window_width, &settings.window_height);
  const std::string text = settings_to_json(settings);
  if (text == saved_settings) return;
  try {
    save_settings(dir, settings);
    saved_settings = text;
    platform::settings_written();
  } catch (const std::exception& error) {
    std::fprintf(stderr, "attnlab: settings not saved: %s\n", error.what());
  }
}

// Idle, the loop sleeps until an event (or the wait's end, to see the stop flag); scripted runs
// draw every frame. A page cannot sleep: it skips the frames in which nothing is due.
bool App::step() {
  GLFWwindow* window = platform.window;
  if (glfwWindowShouldClose(window) || stop_requested) return false;
  platform::follow_page_size();
  if (const float ratio = platform::pixel_ratio(); ratio != fonts_ratio) {
    state.window.fonts_dirty = true;  // a page moved to a screen of another pixel ratio
    fonts_ratio = ratio;
  }
  const NextFrame next = options.scripted() ? NextFrame{} : next_frame(state, input);
  const auto now = std::chrono::steady_clock::now();
  const double since_draw = std::chrono::duration<double>(now - last_draw).count();
  // A page is closed, not quit: its settings are stored within a second of changing.
  if (platform::saves_settings_while_running() &&
      now - last_settings_check > std::chrono::seconds(1)) {
    last_settings_check = now;
    save_settings_now();
  }
  const bool waited = platform::wait_for_events(next.wait_seconds);
  // Destroyed by another client while the loop waited: its size is no longer known; a close.
  window_lost = platform::window_lost(window);
  if (window_lost) return false;
  // A page cannot sleep: without input, a frame waits until the wait it asked for has run out.
  const bool due = waited || next.wait_seconds <= 0 || since_draw >= next.wait_seconds;
  const bool new_input = input_events.count != events_seen;
  events_seen = input_events.count;
  if (!new_input && !(next.draw_on_timeout && due)) return true;  // nothing to draw yet
  if (new_input) input.frames_since_change = 0;
  last_draw = now;
  // The frame's boundary: whatever it throws ends this frame only (one line on stderr and in the
  // status line); the app stays up. A scripted run (an export, a screenshot) ends there, exit 2.
  bool failed = false;
  const bool goes_on = guard_frame(
      state, [this] { return draw_one_frame(); }, &failed);
  if (failed && options.scripted()) {
    exit_code = 2;
    return false;
  }
  return goes_on;
}

// One frame: the modes around it in the list's order (before it is drawn, once drawn, once
// shown); false when one of them has ended the run.
bool App::draw_one_frame() {
  GLFWwindow* window = platform.window;
  ++loop.frame;
  if (state.window.fonts_dirty) rebuild_fonts(state);
  if (state.window.toggle_fullscreen) {
    platform::toggle_fullscreen(window);
    state.window.toggle_fullscreen = false;
  }
  for (const std::unique_ptr<FrameMode>& mode : modes) mode->before_frame(loop);
  render_frame(state, *renderer, window);
  for (const std::unique_ptr<FrameMode>& mode : modes) {
    mode->frame(loop);
    if (mode->done()) return false;
  }
  glfwSwapBuffers(window);
  for (const std::unique_ptr<FrameMode>& mode : modes) {
    mode->after_swap(loop);
    if (mode->done()) return false;
  }
  note_frame_drawn(input, state, ImGui::GetIO());
  platform::publish_state([this] {
    const ImGuiIO& io = ImGui::GetIO();
    return layout_json(state, io.DisplaySize, io.DisplayFramebufferScale, loop.frame);
  });
  return true;
}

// Closing the window, Ctrl+C and SIGTERM all end here: stop every job first (each checks its
// cancel flag every few milliseconds); one that cannot stop is abandoned by run_gui.
void App::finish() {
  cancel_all_jobs(state);
  for (const std::unique_ptr<FrameMode>& mode : modes) mode->finish(loop);
  if (!options.scripted()) save_settings_now();
}

}  // namespace

// --export-svg, --export-pdf: no window; the state the options set, drawn as SVG or PDF.
int write_maps_only(const StartOptions& options) {
  AppState state;
  const std::string& path = options.export_svg.empty() ? options.export_pdf : options.export_svg;
  std::string error = start_state(state, options, nullptr);
  if (error.empty()) error = export_maps(state, path);
  cancel_all_jobs(state);
  if (!error.empty()) {
    std::fprintf(stderr, "%s%s\n",
                 error.rfind("attnlab: ", 0) == 0 ? "" : "attnlab: ", error.c_str());
    return 2;
  }
  std::printf("Wrote %s\n", path.c_str());
  return 0;
}

// --export-page: no window; the one-file page with the lesson inside.
int write_page_only(const StartOptions& options) {
  if (const std::string error = save_lesson_page(options.lesson, options.export_page);
      !error.empty()) {
    std::fprintf(stderr, "attnlab: %s\n", error.c_str());
    return 2;
  }
  std::printf("Wrote %s\n", options.export_page.c_str());
  return 0;
}

int run_gui(const StartOptions& options) {
  if (!options.export_svg.empty() || !options.export_pdf.empty()) return write_maps_only(options);
  if (!options.export_page.empty()) return write_page_only(options);
  // From the start, so an early Ctrl+C still ends through the normal exit (settings saved).
  std::signal(SIGINT, request_stop);
  std::signal(SIGTERM, request_stop);
  auto app = std::make_shared<App>(options);
  if (!app->open()) return app->exit_code;
  platform::run_frames([app] {
    if (app->step()) return true;
    app->finish();
    // Every job was asked to stop and checks for it; one that has not stopped within a second
    // (a computation that cannot be interrupted) is abandoned: the process ends here, without
    // destroying the state its thread may still read.
    if (!wait_for_jobs_to_stop(app->state, std::chrono::seconds(1))) {
      std::fflush(stdout);
      std::fflush(stderr);
      std::_Exit(app->exit_code);
    }
    return false;
  });
  return app->exit_code;
}

}  // namespace attnlab::gui
