#include "app/gui/export/save_dialog.hpp"

#include <imgui.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <filesystem>

#include "app/gui/export/save_command.hpp"
#include "app/gui/lessons/lesson_player.hpp"
#include "app/gui/look/theme.hpp"
#include "app/gui/look/wrap.hpp"
#include "app/gui/panels/job_status.hpp"
#include "app/gui/panels/panels.hpp"
#include "app/gui/panels/text_field.hpp"

namespace attnlab::gui {

namespace {

struct SizeChoice {
  const char* label;
  int width, height;
};
constexpr std::array<SizeChoice, 5> kSizes = {{{"1920 x 1080 (16:9)", 1920, 1080},
                                               {"1280 x 720 (16:9)", 1280, 720},
                                               {"1024 x 768 (4:3 projector)", 1024, 768},
                                               {"3840 x 2160 (4K)", 3840, 2160},
                                               {"Other size", 0, 0}}};

// The option a parser message names, as the dialog's field.
std::string field_of(const std::string& reason) {
  for (const auto& [option, field] :
       std::array<std::pair<const char*, const char*>, 5>{{{"--width", "size"},
                                                           {"--height", "size"},
                                                           {"--font-scale", "font"},
                                                           {"--fps", "fps"},
                                                           {"--seconds-per-stage", "seconds"}}})
    if (reason.find(option) != std::string::npos) return field;
  return "";
}

void problem_line(const AppState& state, const SaveProblem& problem, const char* field) {
  if (problem.field != field || problem.text.empty()) return;
  error_text(state, problem.text);
  note_item(field);
}

void size_fields(SaveDialog& save) {
  SaveChoices& c = save.choices;
  const int other = int(kSizes.size()) - 1;
  int shown = other;
  for (int i = 0; i < other && !save.other_size; ++i)
    if (kSizes[size_t(i)].width == c.width && kSizes[size_t(i)].height == c.height) shown = i;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 13);
  if (ImGui::BeginCombo("size", kSizes[size_t(shown)].label)) {
    for (size_t i = 0; i < kSizes.size(); ++i) {
      if (!ImGui::Selectable(kSizes[i].label, int(i) == shown)) continue;
      save.other_size = int(i) == other;  // then the fields below, from the size shown
      if (!save.other_size) {
        c.width = kSizes[i].width;
        c.height = kSizes[i].height;
      }
    }
    ImGui::EndCombo();
  }
  tooltip("The picture's size in pixels: the projector's, or any other.");
  if (shown == other) {
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
    ImGui::InputInt("width", &c.width, 0);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
    ImGui::InputInt("height", &c.height, 0);
  }
}

void look_fields(SaveChoices& c) {
  int theme = c.theme == Theme::Light ? 0 : 1;
  ImGui::RadioButton("light", &theme, 0);
  ImGui::SameLine();
  ImGui::RadioButton("dark", &theme, 1);
  c.theme = theme == 0 ? Theme::Light : Theme::Dark;
  tooltip("Light suits projectors; dark suits dark slides.");
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
  ImGui::SliderFloat("font scale", &c.font_scale, kMinFontScale, kMaxFontScale, "%.2f");
  tooltip("The text's size in the picture (1 = 20 px): 1.5 reads from the back of a hall.");
}

void animation_fields(AppState& state, SaveChoices& c, const SaveProblem& problem) {
  int format = c.mp4 ? 1 : 0;
  ImGui::RadioButton("GIF", &format, 0);
  ImGui::SameLine();
  ImGui::RadioButton("MP4", &format, 1);
  c.mp4 = format == 1;
  tooltip("A GIF plays everywhere (slides, web pages); an MP4 is smaller and needs ffmpeg.");
  if (c.mp4 && !state.save.has_ffmpeg) {
    error_text(
        state,
        "An MP4 needs ffmpeg, which is not installed: apt-get install ffmpeg, or save a GIF.");
  }
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
  ImGui::InputInt("frames per second", &c.fps);
  problem_line(state, problem, "fps");
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
  ImGui::SliderFloat("seconds per stage", &c.seconds_per_stage, 0.1f, 30.0f, "%.1f s",
                     ImGuiSliderFlags_Logarithmic);
  problem_line(state, problem, "seconds");
  if (lesson_open(state)) {
    ImGui::Checkbox("the lesson's scenes, one after another", &c.whole_lesson);
    tooltip("Record every slide of the lesson instead of the six stages of the scene shown.");
  }
}

void folder_field(AppState& state, const SaveProblem& problem) {
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 16);
  text_field(state, "folder", "the folder the app started in", state.save.choices.folder);
  tooltip("Where the file goes; it is written whole or not at all.");
  problem_line(state, problem, "folder");
}

// While the export runs: its progress and Cancel; after: what it wrote, or why not.
void outcome_lines(AppState& state) {
  SaveDialog& save = state.save;
  draw_task_status(save.writing, "save_writing", palette(state.ui.theme).error, "writing", nullptr);
  if (save.writing.busy()) {
    text_wrapped("Writing " + save.writing_path);
    return;
  }
  if (save.writing.cancelled()) text_wrapped("Nothing was written.");
  if (save.writing.result()) text_wrapped(*save.writing.result());
}

void desktop_dialog(AppState& state) {
  SaveDialog& save = state.save;
  SaveChoices& c = save.choices;
  int kind = c.kind == SaveKind::Still ? 0 : 1;
  ImGui::RadioButton("still (PNG)", &kind, 0);
  ImGui::SameLine();
  ImGui::RadioButton("the stages animated", &kind, 1);
  c.kind = kind == 0 ? SaveKind::Still : SaveKind::Animation;
  tooltip(
      "The picture alone (the stage view, the heads, the caption; no controls) as a still, or "
      "the six stages and their transitions as the app animates them.");
  const std::string path = save_file_name(state, c, file_time_stamp());
  const SaveProblem problem = checked_save_problem(state);
  size_fields(save);
  problem_line(state, problem, "size");
  look_fields(c);
  problem_line(state, problem, "font");
  if (c.kind == SaveKind::Still) {
    ImGui::Checkbox("transparent background", &c.transparent);
    tooltip("Only the drawing is opaque: the picture sits on a slide's own background.");
  } else {
    animation_fields(state, c, problem);
  }
  folder_field(state, problem);
  problem_line(state, problem, "");
  text_wrapped("Writes " + path);
  const bool busy = save.writing.busy();
  const bool can_save = !busy && problem.text.empty() &&
                        !(c.kind == SaveKind::Animation && c.mp4 && !save.has_ffmpeg);
  // Enter saves, as the button does, while the dialog has the keyboard and no field is typed in.
  const bool enter = ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows) &&
                     !ImGui::GetIO().WantTextInput &&
                     (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter), false) ||
                      ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_KeyPadEnter), false));
  ImGui::BeginDisabled(!can_save);
  if (ImGui::Button("Save (Enter)") || (enter && can_save)) {
    save.requests.push_back({save_arguments(state, c, path), path});
  }
  ImGui::EndDisabled();
  tooltip("Draws it off screen: keep working while it is written (Esc cancels it).");
  ImGui::SameLine();
  ImGui::BeginDisabled(busy);
  if (ImGui::Button(save.recording.on ? "Stop recording" : "Record while you step"))
    save.toggle_recording = true;
  ImGui::EndDisabled();
  tooltip(
      "Keeps what the window shows (the picture alone) while you step with the keys, at the "
      "frame rate above, and writes it as a GIF or MP4 when you stop (Ctrl+Shift+R).");
  outcome_lines(state);
}

// A page: the picture alone at the page's size, theme and font scale; it records with its own
// Record button.
void page_dialog(AppState& state) {
  text_wrapped(
      "In the page a still is the picture alone at the page's own size, theme and font "
      "scale, and the page's Record button records it as a WebM. The desktop app saves "
      "any size, transparent backgrounds and GIF or MP4 animations.");
  if (ImGui::Button("Save PNG"))
    state.window.export_request = ExportRequest{std::nullopt, "", false, false, true};
  tooltip("The picture alone at the page's size, as a download.");
  outcome_lines(state);
}

}  // namespace

SaveProblem save_problem(const AppState& state, const std::string& path) {
  const std::string& folder = state.save.choices.folder;
  if (!folder.empty()) {
    std::error_code error;
    if (!std::filesystem::is_directory(folder, error))
      return {"folder", "There is no folder " + folder + ": make it, or pick another."};
    if (access(folder.c_str(), W_OK) != 0)
      return {"folder", "The folder " + folder + " is not writable: pick another."};
  }
  std::string reason = check_save_arguments(save_arguments(state, state.save.choices, path));
  if (reason.empty()) return {};
  const std::string field = field_of(reason);
  return {field, reason};
}

const SaveProblem& checked_save_problem(AppState& state) {
  SaveDialog& save = state.save;
  // The name without its time stamp: what is checked does not change every second.
  const std::string path = save_file_name(state, save.choices, "");
  std::vector<std::string> arguments = save_arguments(state, save.choices, path);
  SaveCheck& check = save.check;
  if (!check.valid || arguments != check.arguments || save.choices.folder != check.folder) {
    check.problem = save_problem(state, path);
    check.arguments = std::move(arguments);
    check.folder = save.choices.folder;
    check.valid = true;
    ++check.count;
  }
  return check.problem;
}

void draw_save_dialog(AppState& state) {
  SaveDialog& save = state.save;
  if (!save.open) return;
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  // Centred as it grows and shrinks, so it never leaves the window; a fixed width the text wraps
  // in, the height its content's (0: fitted) up to the window's, then it scrolls.
  ImGui::SetNextWindowPos(ImVec2(display.x * 0.5f, display.y * 0.5f), ImGuiCond_Always,
                          ImVec2(0.5f, 0.5f));
  const float width = std::min(ImGui::GetFontSize() * 26, display.x * 0.95f);
  ImGui::SetNextWindowSize(ImVec2(width, 0));
  ImGui::SetNextWindowSizeConstraints(ImVec2(width, 0), ImVec2(width, display.y * 0.95f));
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings;
  if (ImGui::Begin("Save picture", &save.open, flags)) {
    if (ImGui::IsWindowAppearing()) {
      ImGui::SetWindowFocus();   // Enter saves, Esc closes
      save.check.valid = false;  // a folder made meanwhile is seen
    }
    if (save.runs_app_copies)
      desktop_dialog(state);
    else
      page_dialog(state);
  }
  ImGui::End();
}

}  // namespace attnlab::gui
