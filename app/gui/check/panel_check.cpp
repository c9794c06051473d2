// The Check tab: the folder row, the stages as boxes, the mistake card and the first wrong stage's
// maps (yours, right, |difference|) with the differing maps and entries outlined.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "app/gui/check/check_maps.hpp"
#include "app/gui/check/check_panels.hpp"
#include "app/gui/look/theme.hpp"
#include "app/gui/look/wrap.hpp"
#include "app/gui/panels/panels.hpp"
#include "app/gui/panels/three_maps.hpp"

namespace attnlab::gui {

namespace {

// Green and red readable on both themes, with white text on them.
constexpr ImU32 kRightFill = IM_COL32(40, 140, 80, 255);
constexpr ImU32 kWrongFill = IM_COL32(200, 55, 55, 255);
constexpr ImU32 kNotGivenFill = IM_COL32(120, 120, 128, 255);
constexpr ImU32 kOutline = IM_COL32(255, 60, 60, 255);

ImU32 mark_fill(StageMark mark) {
  switch (mark) {
    case StageMark::Right:
      return kRightFill;
    case StageMark::Wrong:
      return kWrongFill;
    case StageMark::NotGiven:
      break;
  }
  return kNotGivenFill;
}

void coloured_text(ImU32 colour, const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, colour);
  text_wrapped(text);
  ImGui::PopStyleColor();
}

// [SECTION] the folder row

void folder_row(AppState& state) {
  CheckTab& tab = state.check;
  const ImGuiStyle& style = ImGui::GetStyle();
  const float room = ImGui::GetContentRegionAvail().x;
  ImGui::SetNextItemWidth(std::floor(room * (tab.error.empty() ? 0.7f : 0.45f)));
  const bool entered = ImGui::InputTextWithHint(
      "##check_folder", field_hint("an exercise folder or answer file").c_str(), &tab.dir_text,
      ImGuiInputTextFlags_EnterReturnsTrue);
  tooltip(
      "An exercise folder (attnlab-cli exercise DIR makes one; its answer is DIR/answer.npz), or "
      "an answer .npz. Enter or Open grades it; a folder or .npz dropped on the window too.");
  ImGui::SameLine(0, style.ItemInnerSpacing.x);
  ImGui::BeginDisabled(tab.dir_text.empty());
  const bool open = ImGui::Button("Open##check");
  ImGui::EndDisabled();
  tooltip("Grade the answer; it is graded again whenever its file changes.");
  if ((entered || open) && !tab.dir_text.empty())
    state.requests.later([path = tab.dir_text](AppState& s) { open_check(s, path); });
  if (!tab.error.empty()) {
    ImGui::SameLine(0, style.ItemSpacing.x);
    coloured_text(palette(state.ui.theme).error, tab.error);
  }
}

// [SECTION] the stages

void stage_boxes(AppState& state, const Grade& grade, int shown) {
  CheckTab& tab = state.check;
  ImDrawList* list = ImGui::GetWindowDrawList();
  const ImGuiStyle& style = ImGui::GetStyle();
  const float pad = style.FramePadding.x, gap = style.ItemSpacing.x;
  const float right_edge = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
  for (size_t i = 0; i < grade.stages.size(); ++i) {
    const StageGrade& stage = grade.stages[i];
    const ImVec2 size(ImGui::CalcTextSize(stage.name.c_str()).x + 2 * pad, ImGui::GetFrameHeight());
    if (i > 0) {
      ImGui::SameLine(0, gap);
      if (ImGui::GetCursorScreenPos().x + size.x > right_edge) ImGui::NewLine();
    }
    const ImVec2 at = ImGui::GetCursorScreenPos();
    ImGui::PushID(int(i));
    const bool clicked = ImGui::InvisibleButton("stage", size);
    ImGui::PopID();
    const StageMark mark = stage_mark(stage);
    list->AddRectFilled(at, ImVec2(at.x + size.x, at.y + size.y), mark_fill(mark), 4.0f);
    if (int(i) == shown)
      list->AddRect(ImVec2(at.x - 2, at.y - 2), ImVec2(at.x + size.x + 2, at.y + size.y + 2),
                    palette(state.ui.theme).text, 4.0f, 0, 2.0f);
    list->AddText(ImVec2(at.x + pad, at.y + style.FramePadding.y), IM_COL32_WHITE,
                  stage.name.c_str());
    std::string tip = stage.name + " " + stage.axes + ": ";
    if (mark == StageMark::NotGiven)
      tip += "not given";
    else if (!stage.shape_ok)
      tip += "wrong shape " + shape_to_string(stage.given_shape) + ", right is " +
             shape_to_string(stage.right_shape);
    else if (mark == StageMark::Right)
      tip += "right (largest error " + std::to_string(stage.max_error) + ")";
    else
      tip += std::to_string(stage.wrong_entries) + " of " + std::to_string(stage.entries) +
             " entries differ";
    tooltip(tip.c_str());
    if (clicked && stage.given) {
      tab.stage = int(i);
      tab.head = -1;
    }
  }
}

// [SECTION] the mistake card

void stage_summary(AppState& state, const StageGrade& stage) {
  const Palette& colours = palette(state.ui.theme);
  std::string line = stage.name + " " + stage.axes + ": ";
  if (!stage.given) {
    line += "not given";
  } else if (!stage.shape_ok) {
    line += "yours is " + shape_to_string(stage.given_shape) + ", the right one " +
            shape_to_string(stage.right_shape);
  } else if (stage.right()) {
    char text[96];
    std::snprintf(text, sizeof text, "right, largest error %.2g (tolerance %.2g)", stage.max_error,
                  stage.tolerance);
    line += text;
  } else {
    char text[160];
    std::snprintf(text, sizeof text,
                  "%lld of %lld entries differ; largest error %.3g at %s (yours %.4g, right %.4g)",
                  (long long)stage.wrong_entries, (long long)stage.entries, stage.max_error,
                  shape_to_string(stage.worst_index).c_str(), stage.worst_given, stage.worst_right);
    line += text;
  }
  if (!stage.non_finite.empty()) line += "; " + stage.non_finite;
  coloured_text(stage.wrong() ? colours.error : colours.text_dim, line);
}

void fix_lines(AppState& state, const NamedMistake& mistake) {
  if (mistake.wrong.empty() && mistake.right.empty()) return;
  if (state.window.mono_font) ImGui::PushFont(state.window.mono_font);
  coloured_text(kWrongFill, "- " + mistake.wrong);
  coloured_text(kRightFill, "+ " + mistake.right);
  if (state.window.mono_font) ImGui::PopFont();
}

void mistake_card(AppState& state, const CheckOutcome& outcome) {
  const Grade& grade = outcome.grade;
  const Palette& colours = palette(state.ui.theme);
  if (grade.not_implemented) {
    coloured_text(colours.text_dim,
                  "Not implemented yet: the starter's mha() still raises NotImplementedError. "
                  "Fill it in and run the script again; this tab follows.");
    return;
  }
  if (grade.given_count == 0) {
    coloured_text(colours.text_dim,
                  "Nothing graded yet: run mha.py (or mha_torch.py) in the folder to write "
                  "answer.npz; this tab grades it as soon as it changes.");
    return;
  }
  if (grade.all_right()) {
    large_text("Right: all " + std::to_string(grade.given_count) + " stages given agree.",
               1.3f * ImGui::GetFontSize(), kRightFill);
    coloured_text(colours.text_dim,
                  "Every given stage is within float32 tolerance of Attention Lab's own run.");
    return;
  }
  // As the Mistakes tab: the mistake's name and its fix first, then why; the stage's numbers
  // last (the region's type shrinks until all of it fits).
  const StageGrade& first = grade.stages[size_t(grade.first_wrong)];
  large_text("First wrong: " + first.name + " " + first.axes, 1.2f * ImGui::GetFontSize(),
             kWrongFill);
  if (grade.diagnosis.mistakes.empty()) {
    coloured_text(colours.text, "No known mistake explains this answer.");
    coloured_text(colours.text_dim, grade.diagnosis.unexplained);
  }
  for (size_t k = 0; k < grade.diagnosis.mistakes.size(); ++k) {
    const NamedMistake& mistake = grade.diagnosis.mistakes[k];
    if (k > 0) ImGui::Separator();
    coloured_text(colours.accent, mistake.name + ": " + mistake.title);
    fix_lines(state, mistake);
    coloured_text(colours.text, mistake.symptom);
    ImGui::PushID(int(k));
    if (mistake.simulated != Mistake::None &&
        ImGui::Button("Show the same mistake in the simulator"))
      state.requests.later([config = outcome.exercise->config, m = mistake.simulated](AppState& s) {
        show_mistake_in_simulator(s, config, m);
      });
    if (mistake.simulated != Mistake::None)
      tooltip("The Mistakes tab on this mistake, run on the exercise's config.");
    coloured_text(colours.text_dim, mistake.evidence);
    ImGui::PopID();
  }
  ImGui::Separator();
  stage_summary(state, first);
}

// [SECTION] the maps

const std::array<HeatmapSet, 3>& shown_maps(CheckTab& tab, const CheckOutcome& outcome, int stage,
                                            int64_t map) {
  const std::array<int64_t, 3> key{int64_t(tab.shown_version), stage, map};
  if (tab.maps_for != key) {
    tab.maps = build_check_maps(*outcome.exercise, outcome.grade.stages[size_t(stage)], map);
    tab.maps_for = key;
    ++tab.maps_builds;
  }
  return tab.maps;
}

bool map_differs(const StageGrade& stage, int64_t map) {
  const Shape& shape = stage.right_shape;
  if (shape.size() != 4) return false;
  for (int64_t r = 0; r < shape[2]; ++r)
    for (int64_t c = 0; c < shape[3]; ++c)
      if (check_entry_wrong(stage, map, r, c)) return true;
  return false;
}

// The maps' chooser: one chip per head (or token), those holding a wrong entry outlined in red.
void map_chips(AppState& state, const StageGrade& stage, int64_t count, int64_t map,
               const std::string& axis) {
  if (count <= 1) return;
  ImDrawList* list = ImGui::GetWindowDrawList();
  ImGui::TextUnformatted(axis.c_str());
  for (int64_t i = 0; i < count; ++i) {
    ImGui::SameLine(0, ImGui::GetStyle().ItemInnerSpacing.x);
    if (ImGui::GetContentRegionAvail().x < ImGui::GetFrameHeight()) ImGui::NewLine();
    const std::string label = std::to_string(i);
    ImGui::PushID(int(i));
    const bool chosen = i == map;
    if (chosen) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetColorU32(ImGuiCol_ButtonActive));
    if (ImGui::Button(label.c_str(), ImVec2(ImGui::GetFrameHeight() * 1.2f, 0)))
      state.check.head = i;
    if (chosen) ImGui::PopStyleColor();
    if (map_differs(stage, i))
      list->AddRect(ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), kOutline, 3.0f, 0, 2.5f);
    ImGui::PopID();
  }
}

void draw_maps(AppState& state, HeatmapDrawer* drawer, const CheckOutcome& outcome, int shown) {
  CheckTab& tab = state.check;
  const StageGrade& stage = outcome.grade.stages[size_t(shown)];
  const int64_t count = check_map_count(*outcome.exercise, stage);
  const int64_t map =
      std::clamp<int64_t>(tab.head >= 0 ? tab.head : first_check_map(stage), 0, count - 1);
  const TensorRecord* right = outcome.exercise->answer.find(stage.name);
  const std::string axis = right && right->tensor.dim() == 4 ? right->axes[1].symbol : "";
  map_chips(state, stage, count, map, axis);
  const std::array<HeatmapSet, 3>& maps = shown_maps(tab, outcome, shown, map);
  const Palette& colours = palette(state.ui.theme);
  const float font = ImGui::GetFontSize();
  static constexpr const char* kTitles[3] = {"yours", "right", "|yours \u2212 right|"};
  static constexpr const char* kMapTips[3] = {
      "Your answer's map: the wrong entries outlined.", "The right map: Attention Lab's own run.",
      "|yours - right|: where they differ, the wrong entries outlined."};
  const std::optional<ThreeMaps> row = three_maps_row();
  if (!row) return;
  ImDrawList* list = ImGui::GetWindowDrawList();
  for (int i = 0; i < 3; ++i) {
    const HeatmapSet& set = maps[size_t(i)];
    const ImVec2 at = row->map_min(i);
    if (i == 2)
      row->title(list, i, {kTitles[i], "|difference|", "|diff|"}, colours.text);
    else
      row->title(list, i, {kTitles[i]}, colours.text);
    if (set.empty()) {
      const char* why = i == 0 && !stage.given ? "not given" : i == 2 ? "shapes differ" : "no map";
      list->AddText(ImVec2(at.x, at.y + font * 0.5f), colours.text_dim, why);
      continue;
    }
    const ImVec2 end = row->map_max(i, set);
    const float w = end.x - at.x, h = end.y - at.y;
    // Where the row's maps went (the Mistakes tab's record: the two tabs never draw in one frame).
    state.frame.mistake_placements.push_back({i, at, end});
    const HeatmapSlot slot = HeatmapSlot(int(HeatmapSlot::MistakeCorrect) + i);
    if (drawer && drawer->error().empty()) {
      // The Mistakes tab's slots (never drawn in the same frame), in versions of their own.
      drawer->prepare(set, (uint64_t(1) << 62) | tab.maps_builds, slot);
      drawer->draw(list, set, {HeatmapPlacement{0, at, end}}, slot);
    }
    list->AddRect(at, end, colours.block_border);
    const ImVec2 cursor = ImGui::GetCursorScreenPos();
    ImGui::SetCursorScreenPos(at);
    ImGui::Dummy(ImVec2(w, h));
    tooltip(kMapTips[i]);
    ImGui::SetCursorScreenPos(cursor);
    char axes[64];
    std::snprintf(axes, sizeof axes, "%s \u00D7 %s", set.row_axis.c_str(), set.col_axis.c_str());
    if (ImGui::CalcTextSize(axes).x <= row->text_room())  // else it runs into the next map's
      list->AddText(ImVec2(at.x, end.y + font * 0.2f), colours.text_dim, axes);
    if (i == 1) continue;  // the wrong entries, outlined on yours and on the difference
    const float cell_w = w / float(set.cols), cell_h = h / float(set.rows);
    for (int64_t r = 0; r < set.rows; ++r)
      for (int64_t c = 0; c < set.cols; ++c)
        if (check_entry_wrong(stage, map, r, c))
          list->AddRect(ImVec2(at.x + float(c) * cell_w, at.y + float(r) * cell_h),
                        ImVec2(at.x + float(c + 1) * cell_w, at.y + float(r + 1) * cell_h),
                        kOutline, 0, 0, 1.5f);
  }
  row->end();
}

}  // namespace

void draw_check_tab(AppState& state, HeatmapDrawer* drawer) {
  folder_row(state);
  CheckTab& tab = state.check;
  const Palette& colours = palette(state.ui.theme);
  if (!tab.shown) {
    coloured_text(colours.text_dim,
                  tab.dir.empty() ? "Open an exercise folder to grade a student's own multi-head "
                                    "attention stage by stage (attnlab-cli exercise DIR makes one; "
                                    "attnlab --check DIR opens it)."
                  : tab.grading.busy() ? "Grading " + tab.answer + " ..."
                                       : "");
    return;
  }
  const CheckOutcome& outcome = *tab.shown;
  const Grade& grade = outcome.grade;
  const std::string answer = "Answer: " + tab.answer + " (graded again when it changes)";
  draw_cut_text(ImGui::GetCursorScreenPos(), ImGui::GetContentRegionAvail().x, ImGui::GetFontSize(),
                colours.text_dim, answer.c_str());
  ImGui::Dummy(ImVec2(ImGui::GetContentRegionAvail().x, ImGui::GetTextLineHeight()));
  tooltip(answer.c_str());
  if (!outcome.answer_error.empty()) coloured_text(colours.error, outcome.answer_error);
  if (!grade.unknown_names.empty()) {
    std::string names;
    for (const std::string& name : grade.unknown_names) names += (names.empty() ? "" : ", ") + name;
    coloured_text(colours.text_dim, "Not stages of this exercise (ignored): " + names);
  }
  const int shown = shown_check_stage(tab);
  stage_boxes(state, grade, shown);
  // The Mistakes tab's split: the card in 46 % of the width, its type fitted to show it whole, the
  // maps in the rest; where the maps are larger under the card (a panel not much wider than it is
  // high), the card across the width in the top 40 % and the maps under it. The card first, so the
  // mistake and its fix are in view.
  const ImVec2 room = ImGui::GetContentRegionAvail();
  const float card_w = std::floor(room.x * 0.46f), card_h = std::floor(room.y * 0.4f);
  const bool card_above = three_maps_side(ImVec2(room.x, room.y - card_h)) >
                          three_maps_side(ImVec2(room.x - card_w, room.y));
  begin_fitted_region(state, "check_card", card_above ? ImVec2(0, card_h) : ImVec2(card_w, 0));
  mistake_card(state, outcome);
  end_fitted_region(state);
  if (!card_above) ImGui::SameLine();
  ImGui::BeginChild("check_maps", ImVec2(0, 0), false,
                    ImGuiWindowFlags_NoBackground | ImGuiWindowFlags_NoScrollbar);
  if (shown >= 0) {
    if (shown != grade.first_wrong && !grade.stages[size_t(shown)].right())
      stage_summary(state, grade.stages[size_t(shown)]);
    if (drawer && !drawer->error().empty())
      ImGui::TextWrapped("The heatmap shader failed: %s", drawer->error().c_str());
    else
      draw_maps(state, drawer, outcome, shown);
  }
  ImGui::EndChild();
}

}  // namespace attnlab::gui
