#include "app/gui/state/options.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <vector>

#include "app/gui/state/app_state.hpp"
#include "app/lessons/lesson_files.hpp"
#include "core/flash/tile_plan.hpp"
#include "core/model/errors.hpp"

namespace attnlab::gui {

namespace {

// "attend" or "attend:softmax": the stage part must name a stage.
std::string check_stage(const std::string& text) {
  Stage stage;
  if (parse_stage(text.substr(0, text.find(':')), stage)) return "";
  return "unknown stage \"" + text +
         "\": use input, project, split, transpose, attend, concat or output-project "
         "(optionally with a sub-step, e.g. attend:softmax)";
}

std::string check_colour_scale(const std::string& text) {
  ColourScale scale;
  if (parse_colour_scale(text, scale)) return "";
  return "unknown colour scale \"" + text + "\": use " + colour_scale_names();
}

// "" when `text` is BR:BC with usable tile sizes; else why not.
std::string check_tiles(const std::string& text) {
  try {
    parse_tile_sizes(text);
    return "";
  } catch (const UserError& e) {
    return e.what();
  }
}

std::string check_tab(const std::string& text) {
  if (is_tab_name(text)) return "";
  return "unknown tab \"" + text + "\": use one of " + tab_names();
}

}  // namespace

ParseOutcome parse_options(int argc, const char* const* argv, StartOptions& o) {
  CLI::App app{"Attention Lab: multi-head attention, stage by stage, one heatmap per head.",
               "attnlab"};
  app.add_option("--preset", o.preset,
                 "start on this preset (attnlab-cli --list-presets); without it and without "
                 "config flags, the last session comes back");
  app.add_option("--stage", o.stage, "start on this stage, e.g. attend or attend:softmax")
      ->check(CLI::Validator(check_stage, "STAGE"));
  app.add_option("--screenshot", o.screenshot, "render --frames frames, save a PNG and exit");
  app.add_option("--frames", o.frames, "frames to render before the screenshot")
      ->check(CLI::Range(1, 100000));
  app.add_option("--panel", o.panel, "with --screenshot: save only this panel")
      ->check(CLI::IsMember({"controls", "pipeline", "tensors", "heads", "info"}));
  app.add_option("--dump-layout", o.dump_layout,
                 "with --screenshot: write each heatmap's rectangle and cell count as JSON");
  app.add_option("--bench-frames", o.bench_frames,
                 "render N frames without vsync and print the median and p95 frame time")
      ->check(CLI::Range(1, 1000000));
  app.add_option("--bench-drag", o.bench_drag,
                 "with --bench-frames: drag n_heads (8, 4, 2, ...) every N frames, as a slider")
      ->check(CLI::Range(1, 1000000));
  app.add_option("--bench-model", o.bench_model,
                 "with --bench-frames and --model: switch a head off or on every N frames and "
                 "generate 16 tokens whenever none are being generated (the Model tab's jobs)")
      ->check(CLI::Range(1, 1000000));
  app.add_option("--transition", o.transition,
                 "show the stage's animation held at this point, 0 (start) to 1 (end)")
      ->check(CLI::Range(0.0, 1.0));
  app.add_option("--font-scale", o.font_scale, "text size (1 = 20 px)")
      ->check(CLI::Range(double(kMinFontScale), double(kMaxFontScale)));
  app.add_option("--theme", o.theme, "light (projectors) or dark")
      ->check(CLI::IsMember({"light", "dark"}));
  app.add_option("--heatmaps", o.heatmap_view, "what the heatmaps show")
      ->check(CLI::IsMember({"weights", "scores", "scaled", "masked"}));
  // The default stated is the one a first start uses (UiSettings); later starts keep the last.
  app.add_option("--colour-scale", o.colour_scale,
                 "weight colours: " + colour_scale_names() + " (default " +
                     colour_scale_name(UiSettings{}.colour_scale) + ", or the last session's)")
      ->check(CLI::Validator(check_colour_scale, "NAME"));
  app.add_option("--tab", o.tab, "open this tab: " + tab_names())
      ->check(CLI::Validator(check_tab, "NAME"));
  // Heads panel focus mode.
  app.add_option("--focus-head", o.focus_head, "open this head large in the heads panel")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--compare-head", o.compare_head, "with --focus-head: this head beside it")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--zoom", o.zoom, "with --focus-head: magnify the maps about their centre")
      ->check(CLI::Range(1.0, 4096.0));
  app.add_option("--model", o.model,
                 "open a Hugging Face model folder (GPT-2, Llama, Mistral, Qwen2, BERT): its layer "
                 "--layer on --sentence is the trace");
  app.add_option("--layer", o.layer, "with --model: the layer shown (default 0)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--model-page", o.model_page, "the Model tab's right side: finder or next")
      ->check(CLI::IsMember({"finder", "next"}));
  app.add_option("--flash", o.flash,
                 "open the Flash tab (FlashAttention's tiled softmax) with tiles of BR query rows "
                 "by BC keys, e.g. 4:4")
      ->check(CLI::Validator(check_tiles, "BR:BC"));
  app.add_option("--flash-step", o.flash_step, "with --flash: show the sweep at this step (from 1)")
      ->check(CLI::PositiveNumber);
  app.add_option("--check", o.check,
                 "open the Check tab on an exercise folder (attnlab-cli exercise DIR) or an answer "
                 ".npz: the student's answer graded stage by stage, again whenever it changes");
  add_config_flags(app, o.config);
  app.add_option("--width", o.width, "window width (default: the last one, or 1600)")
      ->check(CLI::Range(kMinWindowWidth, kMaxWindowSide));
  app.add_option("--height", o.height, "window height (default: the last one, or 1000)")
      ->check(CLI::Range(kMinWindowHeight, kMaxWindowSide));
  app.add_flag("--fullscreen", o.fullscreen, "start fullscreen (F11 toggles)");
  app.add_flag("--present", o.present, "start in presenter mode (P toggles)");
  app.add_option("--lesson", o.lesson,
                 "play a lesson: a Markdown file of scenes (docs/lessons.md) or a built-in one's "
                 "name; PageDown / PageUp go through its scenes");
  bool list = false;
  app.add_flag("--list-lessons", list, "list the built-in lessons and exit");
  app.add_option("--export-slides", o.export_slides,
                 "with --lesson: render every slide off screen as DIR/NN-scene.png and a handout "
                 "DIR/lesson.pdf, then exit");
  app.add_option("--export-png", o.export_png,
                 "write the picture alone (the stage view, the heads, the caption; no controls) "
                 "at --width x --height as a PNG, off screen, and exit");
  app.add_flag("--transparent", o.transparent, "with --export-png: a transparent background");
  app.add_option("--export-animation", o.export_animation,
                 "write the six stages and their transitions (or with --lesson, its scenes) as "
                 "FILE.gif, or FILE.mp4 (needs ffmpeg), off screen, and exit");
  app.add_option("--export-svg", o.export_svg,
                 "write the heads' maps (one cell per weight, the tokens as text), the shape "
                 "journey and the focused head as an SVG, without a window, and exit");
  app.add_option("--export-pdf", o.export_pdf,
                 "write the same picture as --export-svg as a one-page PDF (vector cells, the "
                 "tokens as text), without a window, and exit");
  app.add_option("--export-page", o.export_page,
                 "with --lesson: write the page as one file (./setup.sh web --single-file builds "
                 "it) with the lesson inside, to open by double-click with no server, and exit");
  app.add_option("--fps", o.fps, "with --export-animation: frames per second (default 10)")
      ->check(CLI::Range(1, 60));
  app.add_option("--seconds-per-stage", o.seconds_per_stage,
                 "with --export-animation: how long each stage (or scene) is shown (default 1)")
      ->check(CLI::Range(0.1, 30.0));
  app.add_flag("--audience", o.audience,
               "with --lesson: a second window for the projector (the picture, caption and "
               "question only)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    return {0, app.help()};
  } catch (const CLI::ParseError& error) {
    return {2, std::string("attnlab: ") + error.what() + " (see attnlab --help)"};
  }
  if (list) return {0, lessons::list_lessons()};
  if (o.transparent && o.export_png.empty())
    return {2, "attnlab: --transparent needs --export-png FILE.png"};
  if ((app.count("--fps") > 0 || app.count("--seconds-per-stage") > 0) &&
      o.export_animation.empty())
    return {2, "attnlab: --fps and --seconds-per-stage need --export-animation FILE"};
  if (int(!o.screenshot.empty()) + int(!o.export_png.empty()) + int(!o.export_animation.empty()) +
          int(!o.export_slides.empty()) + int(!o.export_svg.empty()) + int(!o.export_pdf.empty()) +
          int(!o.export_page.empty()) >
      1)
    return {2,
            "attnlab: give one of --screenshot, --export-png, --export-animation, --export-svg, "
            "--export-pdf, --export-slides and --export-page at a time"};
  if ((!o.export_slides.empty() || !o.export_page.empty() || o.audience) && o.lesson.empty())
    return {2, "attnlab: --export-slides, --export-page and --audience need --lesson FILE"};
  o.config_flags_given = o.config.any_given();
  o.size_given = app.count("--width") > 0 || app.count("--height") > 0;
  if (!o.panel.empty() && o.screenshot.empty())
    return {2, "attnlab: --panel needs --screenshot FILE.png"};
  if (!o.dump_layout.empty() && o.screenshot.empty() && o.export_png.empty())
    return {2, "attnlab: --dump-layout needs --screenshot or --export-png FILE.png"};
  if ((o.compare_head >= 0 || o.zoom != 1) && o.focus_head < 0)
    return {2, "attnlab: --compare-head and --zoom need --focus-head N"};
  if (app.count("--layer") > 0 && o.model.empty()) return {2, "attnlab: --layer needs --model DIR"};
  if (app.count("--flash-step") > 0 && !o.flash)
    return {2, "attnlab: --flash-step needs --flash BR:BC"};
  if (o.bench_drag > 0 && o.bench_frames == 0)
    return {2, "attnlab: --bench-drag needs --bench-frames N"};
  if (o.bench_model > 0 && (o.bench_frames == 0 || o.model.empty()))
    return {2, "attnlab: --bench-model needs --bench-frames N and --model DIR"};
  return {};
}

}  // namespace attnlab::gui
