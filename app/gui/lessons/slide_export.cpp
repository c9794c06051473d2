#include "app/gui/lessons/slide_export.hpp"

#include <cstdio>
#include <filesystem>

#include "app/gui/export/picture_export.hpp"
#include "app/gui/gl/screenshot.hpp"
#include "app/gui/lessons/lesson_panels.hpp"
#include "app/gui/state/redraw.hpp"

namespace attnlab::gui {

namespace {

// Frames a slide is drawn before it is saved: the layout measures its text, then places it.
constexpr int kSlideFrames = 4;

}  // namespace

std::string start_slide_export(AppState& state, const std::string& dir, SlideExport& run) {
  if (state.lesson.lesson.scenes.empty())
    return "the lesson " + state.lesson.lesson.source +
           " has no scene, so there are no slides to write: a scene starts with \"## Title\" "
           "and its ```attnlab block (docs/lessons.md)";
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error || !std::filesystem::is_directory(dir))
    return "cannot make the folder " + dir +
           " for the slides: " + (error ? error.message() : "a file of that name is there");
  run.dir = dir;
  run.slides = lesson_slides(state.lesson.lesson);
  state.lesson.slide = true;
  state.ui.presenter = true;
  return "";
}

void before_slide_frame(AppState& state, SlideExport& run) {
  while (run.frames == 0 && run.index < run.slides.size()) {
    const Slide& slide = run.slides[run.index];
    const bool same_scene = slide.scene == state.lesson.scene && run.index > 0;
    // A scene with a problem (show_scene printed each) is left out whole: its answer slide too.
    if (same_scene ? !state.lesson.scene_error.empty() : !show_scene(state, slide.scene)) {
      if (!same_scene)
        std::fprintf(stderr, "attnlab: %s: scene %d's slides are left out (the problem above)\n",
                     state.lesson.lesson.source.c_str(), slide.scene + 1);
      ++run.unbuilt;
      ++run.index;
      continue;
    }
    state.lesson.slide = true;
    state.lesson.revealed = slide.answer;
    break;
  }
  if (run.frames == 0 || run.frames == kSlideFrames - 2) {
    const std::string model_error = settle_for_export(state);
    if (!model_error.empty() && run.model_error.empty()) {  // said once
      run.model_error = model_error;
      std::fprintf(stderr, "attnlab: %s\n", model_error.c_str());
    }
  }
  ++run.frames;
}

bool after_slide_frame(AppState& state, SlideExport& run, ImVec2 framebuffer_scale,
                       int& exit_code) {
  // Drawn kSlideFrames, and the layout done fitting its type and standing still (bounded).
  run.motion.note_frame();
  const bool settled =
      run.frames >= kSlideFrames &&
      (!picture_settling(state, run.motion) || run.frames >= kSlideFrames + kMostFittingFrames);
  if (!settled && run.frames >= kSlideFrames) settle_for_export(state);  // a tab's measurement
  if (run.index < run.slides.size() && settled) {
    const Slide& slide = run.slides[run.index];
    const lessons::Scene& scene = state.lesson.lesson.scenes[size_t(slide.scene)];
    const std::string name = lessons::slide_name(run.written + 1, scene.title) +
                             (slide.answer ? "-answer" : "") + ".png";
    const std::string path = (std::filesystem::path(run.dir) / name).string();
    try {
      save_frame_png(path, framebuffer_scale, std::nullopt);
    } catch (const std::exception& error) {
      std::fprintf(stderr, "attnlab: %s\n", error.what());
      exit_code = 2;
      return false;
    }
    ++run.written;
    // A question's answer joins its question's page (the slide just before it, same scene).
    if (slide.answer && !run.pages.empty())
      run.pages.back() =
          handout_page(state.lesson.lesson, slide.scene, true, run.pages.back().picture, path);
    else
      run.pages.push_back(handout_page(state.lesson.lesson, slide.scene, false, path));
    ++run.index;
    run.frames = 0;
  }
  if (run.index < run.slides.size()) return true;
  if (run.pages.empty()) {  // every scene failed, each said on stderr: no empty handout
    std::fprintf(stderr, "attnlab: no slide could be built, so %s/lesson.pdf is not written\n",
                 run.dir.c_str());
    exit_code = 2;
    return false;
  }
  try {
    write_handout_pdf((std::filesystem::path(run.dir) / "lesson.pdf").string(),
                      state.lesson.lesson.title, run.pages);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "attnlab: %s\n", error.what());
    exit_code = 2;
    return false;
  }
  std::printf("Wrote %d slides and lesson.pdf to %s\n", run.written, run.dir.c_str());
  const bool failed =
      run.unbuilt > 0 || !run.model_error.empty() || !state.lesson.lesson.problems.empty();
  exit_code = failed ? 2 : 0;
  return false;
}

}  // namespace attnlab::gui
