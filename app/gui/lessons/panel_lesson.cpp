#include <imgui_internal.h>  // the band window's scrollbar

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "app/gui/export/one_page.hpp"
#include "app/gui/lessons/band_text.hpp"
#include "app/gui/lessons/lesson_panels.hpp"
#include "app/gui/lessons/lesson_player.hpp"
#include "app/gui/look/theme.hpp"
#include "app/gui/look/wrap.hpp"
#include "app/gui/panels/panels.hpp"

namespace attnlab::gui {

namespace {

using lessons::Scene;

constexpr double kTrailSeconds = 1.0;
// Frames the band may take to reach its height and drop its scrollbar once its type is fitted.
constexpr int kMostSettlingFrames = 3;
constexpr int kKeyX = 88;  // held: the pointer, as the right button
const ImU32 kRight = IM_COL32(20, 140, 60, 255);
const ImU32 kPointer = IM_COL32(255, 40, 40, 255);

// The scenes as numbered buttons ("4?" asks a question), the shown one lit; a click shows it.
void scene_strip(AppState& state, bool audience, float scale) {
  const LessonPlayer& player = state.lesson;
  const Palette& colours = palette(state.ui.theme);
  const ImGuiStyle& style = ImGui::GetStyle();
  const float small = ImGui::GetFontSize() * 0.7f;
  ImGui::SetWindowFontScale(0.7f * scale);
  for (int i = 0; i < int(player.lesson.scenes.size()); ++i) {
    const Scene& scene = player.lesson.scenes[size_t(i)];
    const std::string label = std::to_string(i + 1) + (scene.question ? "?" : "");
    const float width = ImGui::CalcTextSize(label.c_str()).x + 2 * style.FramePadding.x;
    if (i > 0) same_line_if_fits(width, small * 0.2f);
    const bool current = i == player.scene;
    if (current)
      ImGui::PushStyleColor(ImGuiCol_Button, ImGui::ColorConvertU32ToFloat4(colours.accent));
    if (current)
      ImGui::PushStyleColor(ImGuiCol_Text,
                            ImGui::ColorConvertU32ToFloat4(text_colour_on(colours.accent)));
    ImGui::PushID(i);
    if (ImGui::Button(label.c_str()) && !audience)
      state.requests.later([i](AppState& s) { show_scene(s, i); });
    ImGui::PopID();
    if (current) ImGui::PopStyleColor(2);
    // No tooltip over the band while the lesson plays: it would cover the caption.
    if (!audience && !player.playing && ImGui::IsItemHovered())
      ImGui::SetTooltip("%s", scene.title.c_str());
  }
  ImGui::SetWindowFontScale(scale);
}

// `prefix` + `text` wrapped (once per text, width and font size: band_text.hpp) and drawn, only
// the lines in view: a long caption scrolls in the band.
void draw_wrapped(WrappedText& cache, const std::string& prefix, const std::string& text) {
  const auto measure = [](const std::string& s) { return ImGui::CalcTextSize(s.c_str()).x; };
  const std::vector<std::string>& lines = wrapped_paragraphs(
      cache, prefix, text, ImGui::GetContentRegionAvail().x, ImGui::GetFontSize(), measure);
  ImGuiListClipper clipper;
  clipper.Begin(int(lines.size()));
  while (clipper.Step())
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i)
      ImGui::TextUnformatted(lines[size_t(i)].c_str());
}

// The band's texts as wrapped in the window drawing now: the lecturer's or the audience's (another
// width).
BandText& band_text(LessonPlayer& player) {
  return player.audience_view ? player.audience_band_text : player.band_text;
}

// The choices on one row, at their texts' widths; where the row is wider than the band it scrolls
// sideways inside it (the band's height stays). A click marks the class's answer. Returns the
// right choice's label.
std::string choices_row(AppState& state, const lessons::Question& question, bool audience) {
  LessonPlayer& player = state.lesson;
  const Palette& colours = palette(state.ui.theme);
  const ImGuiStyle& style = ImGui::GetStyle();
  std::vector<std::string> labels;
  float row_w = 0;
  for (const lessons::Choice& choice : question.choices) {
    labels.push_back(std::string(1, choice.letter) + ") " + choice.text);
    row_w += ImGui::CalcTextSize(labels.back().c_str()).x + 2 * style.FramePadding.x +
             (labels.size() > 1 ? ImGui::GetFontSize() * 0.6f : 0);
  }
  const bool scrolls = row_w > ImGui::GetContentRegionAvail().x;
  const float spacing = ImGui::GetFontSize() * 0.6f;
  std::string answer_text = question.answer;
  // As wide as the row where it fits, so a line can sit beside it.
  ImGui::BeginChild("##choices",
                    ImVec2(scrolls ? 0 : std::ceil(row_w) + 1,
                           ImGui::GetFrameHeight() + (scrolls ? style.ScrollbarSize : 0)),
                    false,
                    ImGuiWindowFlags_HorizontalScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  // No font scale of its own: a child's type is its parent's scale times its own (1), so the
  // band's `scale` set here again drew the choices at scale squared.
  for (int i = 0; i < int(question.choices.size()); ++i) {
    const lessons::Choice& choice = question.choices[size_t(i)];
    const std::string& label = labels[size_t(i)];
    const bool right = std::string(1, choice.letter) == question.answer;
    if (right) answer_text = label;
    int colours_pushed = 0;
    const auto fill = [&](ImU32 colour) {
      ImGui::PushStyleColor(ImGuiCol_Button, ImGui::ColorConvertU32ToFloat4(colour));
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(text_colour_on(colour)));
      colours_pushed = 2;
    };
    if (player.revealed && right)
      fill(kRight);
    else if (player.revealed && i == player.chosen)
      fill(colours.error);
    else if (i == player.chosen)
      fill(colours.accent);
    if (i > 0) ImGui::SameLine(0, spacing);
    ImGui::PushID(i);
    if (ImGui::Button(label.c_str()) && !audience && !player.revealed) player.chosen = i;
    ImGui::PopID();
    if (colours_pushed) ImGui::PopStyleColor(colours_pushed);
  }
  ImGui::EndChild();
  return answer_text;
}

// The question, its choices (a click marks the class's answer), and after the reveal the answer.
void question_block(AppState& state, const Scene& scene, bool audience) {
  LessonPlayer& player = state.lesson;
  const lessons::Question& question = *scene.question;
  const Palette& colours = palette(state.ui.theme);
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(colours.accent));
  draw_wrapped(band_text(player).question, "Question: ", question.text);
  ImGui::PopStyleColor();
  const std::string answer_text =
      question.choices.empty() ? question.answer : choices_row(state, question, audience);
  // Without choices: the class's words, typed in the lecturer's window, or a click on a map when
  // the answer is a head.
  std::string given = player.typed_answer;
  const int head = lessons::answer_head(question.answer);
  if (question.choices.empty() && given.empty() && head >= 0 && state.heads.focus.head >= 0)
    given = "head " + std::to_string(state.heads.focus.head);
  if (question.choices.empty() && !audience && !player.revealed) {
    char typed[128];
    std::snprintf(typed, sizeof typed, "%s", player.typed_answer.c_str());
    ImGui::SetNextItemWidth(std::min(ImGui::GetFontSize() * 12, ImGui::GetContentRegionAvail().x));
    const std::string hint =
        head >= 0 ? "the class's answer (or click its map)" : "the class's answer";
    if (ImGui::InputTextWithHint("##class_answer", field_hint(hint.c_str()).c_str(), typed,
                                 sizeof typed))
      player.typed_answer = typed;
  } else if (question.choices.empty() && !given.empty()) {
    text_wrapped("The class: " + given);
  }
  if (player.revealed) {
    const bool checked = question.choices.empty() && !given.empty();
    const bool right = checked && lessons::answers_match(given, question.answer);
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(kRight));
    const std::string line =
        "Answer: " + answer_text +
        (checked ? (right ? "  \u2713 the class had it" : "  \u2717 not the class's") : "");
    // Beside the choices where it fits (the right one is marked green there too).
    if (!question.choices.empty() &&
        same_line_if_fits(ImGui::CalcTextSize(line.c_str()).x, ImGui::GetFontSize()))
      ImGui::AlignTextToFramePadding();
    text_wrapped(line);
    ImGui::PopStyleColor();
  } else if (!audience) {
    // Beside the class's answer or the choices where it fits.
    const char* how = "The class answers first; the next click (PageDown) reveals the answer.";
    if (same_line_if_fits(ImGui::CalcTextSize(how).x, ImGui::GetFontSize()))
      ImGui::AlignTextToFramePadding();
    ImGui::TextDisabled("%s", how);
  }
}

// The lesson as one page, beside the Save dialog's files; what to tell the lecturer.
std::string save_lesson_page_here(const AppState& state) {
  const std::string name = std::filesystem::path(state.lesson.file).stem().string();
  const std::filesystem::path file = "attnlab-" + name + ".html";
  const std::string path = state.save.choices.folder.empty()
                               ? file.string()
                               : (std::filesystem::path(state.save.choices.folder) / file).string();
  const std::string error = save_lesson_page(state.lesson.file, path);
  return error.empty() ? "Wrote " + path + ": it opens by double-click, with the lesson inside."
                       : error;
}

// The presenter's side: notes, the next scene, the clock, capture and the lesson's problems.
void presenter_part(AppState& state) {
  LessonPlayer& player = state.lesson;
  const Scene& scene = player.lesson.scenes[size_t(player.scene)];
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
  std::vector<WrappedText>& notes = band_text(player).notes;
  notes.resize(scene.notes.size());
  for (size_t i = 0; i < scene.notes.size(); ++i) draw_wrapped(notes[i], "Note: ", scene.notes[i]);
  const int elapsed = int(std::max(0.0, state.walk.clock - player.started_at));
  char clock[32];
  std::snprintf(clock, sizeof clock, "%d:%02d", elapsed / 60, elapsed % 60);
  const bool last = player.scene + 1 >= int(player.lesson.scenes.size());
  text_wrapped(
      std::string(clock) + "  \u00B7  next: " +
      (last ? "the end of the lesson" : player.lesson.scenes[size_t(player.scene + 1)].title) +
      "  \u00B7  Esc: free play");
  ImGui::PopStyleColor();
  const float field_w = ImGui::GetFontSize() * 10;
  ImGui::SetNextItemWidth(std::min(field_w, ImGui::GetContentRegionAvail().x));
  char title[96];
  std::snprintf(title, sizeof title, "%s", player.capture_title.c_str());
  if (ImGui::InputTextWithHint("##capture_title", field_hint("the new scene's title").c_str(),
                               title, sizeof title))
    player.capture_title = title;
  same_line_if_fits(
      ImGui::CalcTextSize("capture as a scene").x + 2 * ImGui::GetStyle().FramePadding.x,
      ImGui::GetStyle().ItemSpacing.x);
  if (ImGui::Button("capture as a scene"))
    state.requests.later([](AppState& s) {
      s.status = capture_scene(s, s.lesson.capture_title);
      s.lesson.capture_title.clear();
    });
  tooltip(
      "Writes what is shown now (config, stage, tab, head) into the lesson file as a new scene "
      "after this one.");
  if (state.save.runs_app_copies) {  // the desktop's; a page saves itself (its own button)
    same_line_if_fits(
        ImGui::CalcTextSize("save as one page").x + 2 * ImGui::GetStyle().FramePadding.x,
        ImGui::GetStyle().ItemSpacing.x);
    if (ImGui::Button("save as one page"))
      state.requests.later([](AppState& s) { s.status = save_lesson_page_here(s); });
    tooltip(
        "Writes the page as one .html file with this lesson inside: students open it by "
        "double-click, with no server and no network.");
  }
  if (!player.notice.empty()) text_wrapped(player.notice);
  if (!player.errors.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text,
                          ImGui::ColorConvertU32ToFloat4(palette(state.ui.theme).error));
    for (const std::string& error : player.errors) text_wrapped(error);
    ImGui::PopStyleColor();
  }
}

}  // namespace

const BandText& band_layout(const AppState& state, bool audience) {
  return audience ? state.lesson.audience_band_text : state.lesson.band_text;
}

float band_least_font_scale(float font_pixels) {
  return std::min(1.0f, std::max(kBandLeastFontScale, kBandLeastFontPixels / font_pixels));
}

bool band_fitting(const AppState& state) {
  return state.lesson.band_fit.fitting || state.lesson.audience_band_fit.fitting;
}

bool lesson_picture(const AppState& state) {
  return state.ui.presenter && lesson_playing(state) && !state.lesson.controls_bar;
}

bool audience_picture(const AppState& state) {
  return state.lesson.audience_view || state.lesson.slide || state.window.picture_only;
}

bool notes_shown(const AppState& state) {
  const LessonPlayer& player = state.lesson;
  if (player.slide || player.audience_view) return false;
  return !state.ui.presenter || player.audience_window;
}

float lesson_band_height(const AppState& state, float display_h) {
  if (!lesson_open(state)) return 0;
  const LessonPlayer& player = state.lesson;
  const float drawn = player.audience_view ? player.audience_band_height : player.band_height;
  const float wanted = drawn > 0 ? drawn : ImGui::GetFontSize() * 5;
  // The audience's band at its least type grows to its text (it has no one to scroll it).
  const BandFit& fit = player.audience_view ? player.audience_band_fit : player.band_fit;
  const bool grows = (player.audience_view || player.slide) &&
                     fit.scale <= band_least_font_scale(ImGui::GetFontSize()) + 1e-4f;
  const float most =
      std::floor(display_h * (grows ? kAudienceBandMostFraction : kBandMostFraction));
  // Up, not to the nearest: half a pixel short of its content shows the band's scrollbar.
  return std::min(std::ceil(wanted - 0.01f), most);
}

void draw_lesson_band(AppState& state, ImVec4 rect) {
  LessonPlayer& player = state.lesson;
  if (!lesson_open(state) || rect.w <= rect.y) return;
  const bool audience = player.audience_view || player.slide;
  ImGui::SetNextWindowPos(ImVec2(rect.x, rect.y));
  ImGui::SetNextWindowSize(ImVec2(rect.z - rect.x, rect.w - rect.y));
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize |
                                 ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse |
                                 ImGuiWindowFlags_NoSavedSettings;
  if (ImGui::Begin("Lesson###lesson", nullptr, flags)) {
    // The type size fitted to this content in this window: it starts whole for new content.
    BandFit& fit = player.audience_view ? player.audience_band_fit : player.band_fit;
    const float font = ImGui::GetFontSize();
    const float most = std::floor(ImGui::GetIO().DisplaySize.y * kBandMostFraction);
    char fitted_for[160];
    std::snprintf(fitted_for, sizeof fitted_for, "%d %d %d %d %d %zu %zu %.0f %.0f %.1f",
                  player.scene, player.revealed, player.playing, notes_shown(state),
                  player.typed_answer.empty(), player.errors.size(),
                  player.scene_error.size() + player.notice.size(), rect.z - rect.x, most, font);
    if (fit.fitted_for != fitted_for) fit = BandFit{1, fitted_for, false};
    const float scale = fit.scale;
    ImGui::SetWindowFontScale(scale);
    if (!player.slide) scene_strip(state, audience, scale);
    const Palette& colours = palette(state.ui.theme);
    if (!player.playing && !audience)
      text_wrapped("Free play: L returns to scene " + std::to_string(player.scene + 1) + ".");
    if (!player.scene_error.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(colours.error));
      text_wrapped(player.scene_error);
      ImGui::PopStyleColor();
    }
    const Scene& scene = player.lesson.scenes[size_t(std::max(player.scene, 0))];
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(colours.accent));
    // The title on the strip's row where it fits there whole: a row more for the caption.
    const bool strip_last =
        !player.slide && (player.playing || audience) && player.scene_error.empty();
    const bool beside_strip =
        strip_last &&
        same_line_if_fits(ImGui::CalcTextSize(scene.title.c_str()).x, ImGui::GetFontSize());
    if (beside_strip)
      ImGui::TextUnformatted(scene.title.c_str());
    else
      draw_wrapped(band_text(player).title, "", scene.title);
    ImGui::PopStyleColor();
    draw_wrapped(band_text(player).caption, "", scene.caption);
    if (scene.question) question_block(state, scene, audience);
    if (notes_shown(state)) presenter_part(state);
    const float content = ImGui::GetCursorPosY() + ImGui::GetStyle().WindowPadding.y -
                          ImGui::GetStyle().ItemSpacing.y;
    (player.audience_view ? player.audience_band_height : player.band_height) = content;
    // Too tall for the band's most: smaller type next frame (about in proportion), down to the
    // floor; below it the band scrolls (the audience's grows first). Never larger again for the
    // same content (no flicker).
    const float least = band_least_font_scale(font);
    const bool shrink = content > most + 0.5f && scale > least;
    if (shrink) fit.scale = std::max(least, scale * std::min(0.97f, most / content));
    // Not settled either while the band is not yet drawn at the height this content gives it, or
    // shows a scrollbar it no longer needs (ImGui decides both from the last frame's content): a
    // picture saved now would show them. A few frames at most (no endless redraw).
    const float height = rect.w - rect.y;
    const bool moving =
        std::abs(lesson_band_height(state, ImGui::GetIO().DisplaySize.y) - height) > 0.5f ||
        ImGui::GetCurrentWindow()->ScrollbarY != (content > height + 0.5f);
    fit.settling = shrink ? 0 : fit.settling + (moving ? 1 : 0);
    fit.fitting = shrink || (moving && fit.settling <= kMostSettlingFrames);
    ImGui::SetWindowFontScale(1.0f);
  }
  ImGui::End();
}

void track_pointer(AppState& state) {
  LessonPlayer& player = state.lesson;
  const ImGuiIO& io = ImGui::GetIO();
  const double now = state.walk.clock;
  std::erase_if(player.trail,
                [now](const PointerPoint& p) { return now - p.time > kTrailSeconds; });
  const bool held = io.MouseDown[1] || (kKeyX < int(IM_ARRAYSIZE(io.KeysDown)) &&
                                        io.KeysDown[kKeyX] && !io.WantTextInput);
  const bool inside = io.MousePos.x >= 0 && io.DisplaySize.x > 0 && io.DisplaySize.y > 0;
  if (!held || !inside) {
    player.drawing = false;
    return;
  }
  const PointerPoint point{io.MousePos.x / io.DisplaySize.x, io.MousePos.y / io.DisplaySize.y, now};
  if (io.KeyShift) {  // the pen
    if (!player.drawing) player.strokes.emplace_back();
    player.drawing = true;
    player.strokes.back().push_back(point);
    return;
  }
  player.drawing = false;
  player.trail.push_back(point);
}

void draw_pointer(const AppState& state) {
  const LessonPlayer& player = state.lesson;
  if (player.trail.empty() && player.strokes.empty()) return;
  ImDrawList* list = ImGui::GetForegroundDrawList();
  const ImVec2 size = ImGui::GetIO().DisplaySize;
  const float font = ImGui::GetFontSize();
  const auto at = [&](const PointerPoint& p) { return ImVec2(p.x * size.x, p.y * size.y); };
  for (const std::vector<PointerPoint>& stroke : player.strokes)
    for (size_t i = 1; i < stroke.size(); ++i)
      list->AddLine(at(stroke[i - 1]), at(stroke[i]), kPointer, font * 0.15f);
  const double now = state.walk.clock;
  for (size_t i = 0; i < player.trail.size(); ++i) {
    const float left = float(1.0 - (now - player.trail[i].time) / kTrailSeconds);
    if (left <= 0) continue;
    const ImU32 colour = (kPointer & 0x00FFFFFF) | (ImU32(255 * left) << 24);
    if (i > 0)
      list->AddLine(at(player.trail[i - 1]), at(player.trail[i]), colour, font * 0.4f * left);
    if (i + 1 == player.trail.size())
      list->AddCircleFilled(at(player.trail[i]), font * 0.35f, colour);
  }
}

}  // namespace attnlab::gui
