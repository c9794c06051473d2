#include "app/gui/state/options.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>
#include <map>
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

// The app's options, each marked with how far it reaches (Reach): a lesson's scene gives the same
// options as the command line, except those that make the run (its window, its frames) and those
// that write a file.
class OptionParser {
 public:
  explicit OptionParser(StartOptions& o);

  CLI::App app{"Attention Lab: multi-head attention, stage by stage, one heatmap per head.",
               "attnlab"};
  bool list_lessons = false;

  enum class Reach { Anywhere, CommandLineOnly, WritesFile };
  Reach reach(const CLI::Option* option) const {
    const auto found = reach_.find(option);
    return found == reach_.end() ? Reach::Anywhere : found->second;
  }
  // The options whose value is a path, and where each is held.
  const std::vector<std::pair<const CLI::Option*, std::string*>>& paths() const { return paths_; }

  // What CLI11 says, and for an unknown option the nearest known one ("did you mean --heads?").
  std::string parse_error(const CLI::ParseError& error) const;
  std::string unknown_option(const std::string& word) const;

 private:
  CLI::Option* writes(CLI::Option* option) {
    reach_[option] = Reach::WritesFile;
    return option;
  }
  CLI::Option* command_line_only(CLI::Option* option) {
    reach_[option] = Reach::CommandLineOnly;
    return option;
  }
  CLI::Option* path(std::string& held, CLI::Option* option) {
    paths_.emplace_back(option, &held);
    return option;
  }

  std::map<const CLI::Option*, Reach> reach_;
  std::vector<std::pair<const CLI::Option*, std::string*>> paths_;
};

OptionParser::OptionParser(StartOptions& o) {
  app.add_option("--preset", o.preset,
                 "start on this preset (attnlab-cli --list-presets); without it and without "
                 "config flags, the last session comes back");
  app.add_option("--stage", o.stage, "start on this stage, e.g. attend or attend:softmax")
      ->check(CLI::Validator(check_stage, "STAGE"));
  writes(app.add_option("--screenshot", o.screenshot,
                        "render --frames frames and what the picture shows (a trace, a model, a "
                        "measurement), save a PNG and exit"));
  command_line_only(app.add_option("--frames", o.frames, "frames to render before the screenshot")
                        ->check(CLI::Range(1, 100000)));
  command_line_only(
      app.add_option("--panel", o.panel, "with --screenshot: save only this panel")
          ->check(CLI::IsMember({"controls", "pipeline", "tensors", "heads", "info"})));
  writes(
      app.add_option("--dump-layout", o.dump_layout,
                     "with --screenshot: write each heatmap's rectangle and cell count as JSON"));
  command_line_only(
      app.add_option("--bench-frames", o.bench_frames,
                     "render N frames without vsync and print the median and p95 frame time")
          ->check(CLI::Range(1, 1000000)));
  command_line_only(
      app.add_option("--bench-drag", o.bench_drag,
                     "with --bench-frames: drag n_heads (8, 4, 2, ...) every N frames, as a slider")
          ->check(CLI::Range(1, 1000000)));
  command_line_only(
      app.add_option("--bench-model", o.bench_model,
                     "with --bench-frames and --model: switch a head off or on every N frames and "
                     "generate 16 tokens whenever none are being generated (the Model tab's jobs)")
          ->check(CLI::Range(1, 1000000)));
  command_line_only(
      app.add_option("--transition", o.transition,
                     "show the stage's animation held at this point, 0 (start) to 1 (end)")
          ->check(CLI::Range(0.0, 1.0)));
  command_line_only(app.add_option("--font-scale", o.font_scale, "text size (1 = 20 px)")
                        ->check(CLI::Range(double(kMinFontScale), double(kMaxFontScale))));
  command_line_only(app.add_option("--theme", o.theme, "light (projectors) or dark")
                        ->check(CLI::IsMember({"light", "dark"})));
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
  path(o.model,
       app.add_option(
           "--model", o.model,
           "open a Hugging Face model folder (GPT-2, Llama, Mistral, Qwen2, BERT): its layer "
           "--layer on --sentence is the trace"));
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
  path(o.check,
       app.add_option(
           "--check", o.check,
           "open the Check tab on an exercise folder (attnlab-cli exercise DIR) or an answer "
           ".npz: the student's answer graded stage by stage, again whenever it changes"));
  add_config_flags(app, o.config);
  command_line_only(
      app.add_option("--width", o.width, "window width (default: the last one, or 1600)")
          ->check(CLI::Range(kMinWindowWidth, kMaxWindowSide)));
  command_line_only(
      app.add_option("--height", o.height, "window height (default: the last one, or 1000)")
          ->check(CLI::Range(kMinWindowHeight, kMaxWindowSide)));
  command_line_only(app.add_flag("--fullscreen", o.fullscreen, "start fullscreen (F11 toggles)"));
  command_line_only(app.add_flag("--present", o.present, "start in presenter mode (P toggles)"));
  command_line_only(app.add_option(
      "--lesson", o.lesson,
      "play a lesson: a Markdown file of scenes (docs/lessons.md) or a built-in one's "
      "name; PageDown / PageUp go through its scenes"));
  command_line_only(app.add_option("--scene", o.scene,
                                   "with --lesson: open it at scene N (from 1), not where it was "
                                   "left")
                        ->check(CLI::PositiveNumber));
  command_line_only(
      app.add_flag("--list-lessons", list_lessons, "list the built-in lessons and exit"));
  writes(app.add_option(
      "--export-slides", o.export_slides,
      "with --lesson: render every slide off screen as DIR/NN-scene.png and a handout "
      "DIR/lesson.pdf, then exit"));
  writes(app.add_option(
      "--export-png", o.export_png,
      "write the picture alone (the stage view, the heads, the caption; no controls) "
      "at --width x --height as a PNG, off screen, and exit; with --lesson, the slide of "
      "its scene (--scene N)"));
  command_line_only(
      app.add_flag("--transparent", o.transparent, "with --export-png: a transparent background"));
  writes(
      app.add_option("--export-animation", o.export_animation,
                     "write the six stages and their transitions (or with --lesson, its scenes) as "
                     "FILE.gif, or FILE.mp4 (needs ffmpeg), off screen, and exit"));
  writes(
      app.add_option("--export-svg", o.export_svg,
                     "write the heads' maps (one cell per weight, the tokens as text), the shape "
                     "journey and the focused head as an SVG, without a window, and exit"));
  writes(
      app.add_option("--export-pdf", o.export_pdf,
                     "write the same picture as --export-svg as a one-page PDF (vector cells, the "
                     "tokens as text), without a window, and exit"));
  writes(app.add_option(
      "--export-page", o.export_page,
      "with --lesson: write the page as one file (./setup.sh web --single-file builds "
      "it) with the lesson inside, to open by double-click with no server, and exit"));
  command_line_only(
      app.add_option("--fps", o.fps, "with --export-animation: frames per second (default 10)")
          ->check(CLI::Range(1, 60)));
  command_line_only(
      app.add_option("--seconds-per-stage", o.seconds_per_stage,
                     "with --export-animation: how long each stage (or scene) is shown (default 1)")
          ->check(CLI::Range(0.1, 30.0)));
  command_line_only(
      app.add_flag("--audience", o.audience,
                   "with --lesson: a second window for the projector (the picture, caption and "
                   "question only)"));
}

// Edits (insertions, deletions, substitutions) from `a` to `b`.
size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string OptionParser::unknown_option(const std::string& word) const {
  const std::string name = word.substr(0, word.find('='));
  std::string nearest;
  size_t best = std::string::npos;
  for (const CLI::Option* option : app.get_options()) {
    for (const std::string& long_name : option->get_lnames()) {
      const std::string candidate = "--" + long_name;
      const size_t distance = edit_distance(name, candidate);
      if (distance < best) best = distance, nearest = candidate;
    }
  }
  // Near enough to be a typo: at most a third of the name changed.
  if (!nearest.empty() && best * 3 <= nearest.size())
    return "unknown option " + name + ": did you mean " + nearest + "?";
  return "unknown option " + name;
}

std::string OptionParser::parse_error(const CLI::ParseError& error) const {
  if (dynamic_cast<const CLI::ExtrasError*>(&error)) {
    for (const std::string& word : app.remaining())
      if (word.size() > 1 && word[0] == '-') return unknown_option(word);
  }
  return error.what();
}

// The fields that follow from what was given (config_flags_given, size_given) set; "" or why the
// options given do not go together (each was read).
std::string finish_options(const CLI::App& app, StartOptions& o) {
  if (o.transparent && o.export_png.empty()) return "--transparent needs --export-png FILE.png";
  if ((app.count("--fps") > 0 || app.count("--seconds-per-stage") > 0) &&
      o.export_animation.empty())
    return "--fps and --seconds-per-stage need --export-animation FILE";
  if (int(!o.screenshot.empty()) + int(!o.export_png.empty()) + int(!o.export_animation.empty()) +
          int(!o.export_slides.empty()) + int(!o.export_svg.empty()) + int(!o.export_pdf.empty()) +
          int(!o.export_page.empty()) >
      1)
    return "give one of --screenshot, --export-png, --export-animation, --export-svg, "
           "--export-pdf, --export-slides and --export-page at a time";
  if ((!o.export_slides.empty() || !o.export_page.empty() || o.audience) && o.lesson.empty())
    return "--export-slides, --export-page and --audience need --lesson FILE";
  if (o.scene > 0 && o.lesson.empty()) return "--scene needs --lesson FILE";
  o.config_flags_given = o.config.any_given();
  o.size_given = app.count("--width") > 0 || app.count("--height") > 0;
  if (!o.panel.empty() && o.screenshot.empty()) return "--panel needs --screenshot FILE.png";
  if (!o.dump_layout.empty() && o.screenshot.empty() && o.export_png.empty())
    return "--dump-layout needs --screenshot or --export-png FILE.png";
  if ((o.compare_head >= 0 || o.zoom != 1) && o.focus_head < 0)
    return "--compare-head and --zoom need --focus-head N";
  if (app.count("--layer") > 0 && o.model.empty()) return "--layer needs --model DIR";
  if (app.count("--flash-step") > 0 && !o.flash) return "--flash-step needs --flash BR:BC";
  if (o.bench_drag > 0 && o.bench_frames == 0) return "--bench-drag needs --bench-frames N";
  if (o.bench_model > 0 && (o.bench_frames == 0 || o.model.empty()))
    return "--bench-model needs --bench-frames N and --model DIR";
  return "";
}

}  // namespace

ParseOutcome parse_options(int argc, const char* const* argv, StartOptions& o) {
  OptionParser parser(o);
  try {
    parser.app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    return {0, parser.app.help()};
  } catch (const CLI::ParseError& error) {
    return {2, "attnlab: " + parser.parse_error(error) + " (see attnlab --help)"};
  }
  if (parser.list_lessons) return {0, lessons::list_lessons()};
  if (const std::string error = finish_options(parser.app, o); !error.empty())
    return {2, "attnlab: " + error};
  return {};
}

namespace {

// A problem as one line of at most 300 bytes (a long value cut at a character's start).
std::string one_line(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  if (text.size() <= 300) return text;
  size_t end = 297;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return text.substr(0, end) + "...";
}

SceneOptions read_scene_options(const std::vector<std::string>& words, const std::string& folder,
                                const std::string& run_model, StartOptions& o) {
  SceneOptions scene;
  OptionParser parser(o);
  // The options a scene cannot give, in any spelling CLI11 reads (--opt VALUE, --opt=VALUE, -h),
  // named and left out with their value; the others still apply.
  std::vector<const char*> argv = {"attnlab"};
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& word = words[i];
    const bool long_name = word.rfind("--", 0) == 0;
    const CLI::Option* option =
        long_name ? parser.app.get_option_no_throw(word.substr(0, word.find('=')))
        : word.size() > 1 && word[0] == '-' ? parser.app.get_option_no_throw(word.substr(0, 2))
                                            : nullptr;
    const OptionParser::Reach reach = option ? parser.reach(option) : OptionParser::Reach::Anywhere;
    if (option && option == parser.app.get_help_ptr()) {
      scene.problems.push_back(option->get_name() +
                               " is for the command line, not a scene (attnlab --help lists the "
                               "options a scene can give)");
    } else if (reach == OptionParser::Reach::WritesFile) {
      scene.problems.push_back(option->get_name() +
                               " writes a file: a lesson's scene only shows, it never writes; give "
                               "it on the command line (attnlab --lesson FILE " +
                               option->get_name() + " ...)");
    } else if (reach == OptionParser::Reach::CommandLineOnly) {
      scene.problems.push_back(option->get_name() +
                               " is for the command line, not a scene: give it when starting the "
                               "lesson");
    } else {
      argv.push_back(word.c_str());
      continue;
    }
    const bool takes_value = option->get_items_expected_min() > 0;
    if (long_name && word.find('=') == std::string::npos && takes_value && i + 1 < words.size() &&
        words[i + 1].rfind("-", 0) != 0)
      ++i;  // its value goes with it
  }
  parser.app.allow_extras();
  try {
    parser.app.parse(int(argv.size()), argv.data());
  } catch (const CLI::ParseError& error) {
    scene.problems.push_back(parser.parse_error(error));
    return scene;
  }
  bool after_unknown = false;
  for (const std::string& word : parser.app.remaining()) {
    const bool is_option = word.size() > 1 && word[0] == '-';
    if (is_option)
      scene.problems.push_back(parser.unknown_option(word) + " (attnlab --help lists them)");
    else if (!after_unknown)
      scene.problems.push_back("\"" + word +
                               "\" is not an option: a scene's block holds options, "
                               "e.g. --heads 4");
    after_unknown = is_option;
  }
  // A path the scene gives is the lesson's: next to it, wherever the app was started.
  for (const auto& [option, held] : parser.paths())
    if (option->count() > 0 && !folder.empty() && !held->empty() &&
        std::filesystem::path(*held).is_relative())
      *held = (std::filesystem::path(folder) / *held).string();
  if (o.model.empty()) {
    if (run_model.empty() &&
        (parser.app.count("--layer") > 0 || parser.app.count("--model-page") > 0)) {
      scene.problems.push_back("this scene shows a real model: play the lesson with --model DIR");
      return scene;
    }
    o.model = run_model;
  }
  if (const std::string error = finish_options(parser.app, o); !error.empty()) {
    scene.problems.push_back(error);
    return scene;
  }
  scene.usable = true;
  return scene;
}

}  // namespace

SceneOptions parse_scene_options(const std::vector<std::string>& words, const std::string& folder,
                                 const std::string& run_model, StartOptions& o) {
  SceneOptions scene = read_scene_options(words, folder, run_model, o);
  for (std::string& problem : scene.problems) problem = one_line(std::move(problem));
  return scene;
}

}  // namespace attnlab::gui
