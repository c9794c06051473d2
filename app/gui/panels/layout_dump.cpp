#include "app/gui/panels/layout_dump.hpp"

#include <imgui_internal.h>  // the frame's tables: their rows' and columns' extents

#include <cstdio>
#include <nlohmann/json.hpp>

#include "app/gui/check/check_state.hpp"
#include "app/gui/look/drawn_text.hpp"
#include "app/gui/state/pipeline_steps.hpp"
#include "core/model/config_json.hpp"
#include "core/tokenizers/unicode.hpp"

namespace attnlab::gui {

namespace {

bool inside(float lo, float hi, float shown_lo, float shown_hi) {
  return lo >= shown_lo - 0.5f && hi <= shown_hi + 0.5f;
}

std::string span(const char* what, float lo, float hi, float shown_lo, float shown_hi) {
  char line[120];
  std::snprintf(line, sizeof line, "%s %.0f..%.0f shown %.0f..%.0f", what, lo, hi, shown_lo,
                shown_hi);
  return line;
}

// More than this hidden in a scroll region is a finding (less is a rounding of its edges).
constexpr float kMostHiddenPixels = 2;

// " 57 px of 357 hidden below": what a region `shown` px long hides of its `content` (and its
// padding both sides) along one axis, as ImGui's ScrollMax counts it.
std::string hidden(const char* where, float content, float padding, float shown) {
  const float whole = content + 2 * padding, scroll_max = whole - shown;
  if (scroll_max <= kMostHiddenPixels) return "";
  char line[96];
  std::snprintf(line, sizeof line, " %.0f px of %.0f hidden%s", scroll_max, whole, where);
  return line;
}

// Whether `window` is a table's own scrolling window (this frame's).
bool table_window(const ImGuiWindow* window) {
  ImGuiContext& g = *GImGui;
  for (int i = 0; i < g.Tables.GetMapSize(); ++i) {
    const ImGuiTable* table = g.Tables.TryGetMapData(i);
    if (table && table->InnerWindow == window && table->InnerWindow != table->OuterWindow)
      return true;
  }
  return false;
}

}  // namespace

std::vector<std::string> content_findings(const AppState& state, ImVec4 picture) {
  std::vector<std::string> found;
  ImGuiContext& g = *GImGui;
  for (int i = 0; i < g.Tables.GetMapSize(); ++i) {
    const ImGuiTable* table = g.Tables.TryGetMapData(i);
    if (!table || table->LastFrameActive != g.FrameCount || !table->OuterWindow) continue;
    if (table->OuterWindow->RootWindow->Pos.y >= picture.w - 0.5f) continue;  // the band's
    // What the table's window shows of it, within the picture.
    ImRect shown = table->InnerClipRect;
    shown.ClipWithFull(ImRect(picture.x, picture.y, picture.z, picture.w));
    // The columns from the table's left edge (the first one's cell padding may start left of it)
    // to the last one's right.
    const float left = table->OuterRect.Min.x;
    float right = -1e9f;
    for (int c = 0; c < table->ColumnsCount; ++c)
      if (table->Columns[c].IsEnabled) right = std::max(right, table->Columns[c].MaxX);
    std::string problems;
    if (!inside(table->WorkRect.Min.y, table->RowPosY2, shown.Min.y, shown.Max.y))
      problems += span(" rows", table->WorkRect.Min.y, table->RowPosY2, shown.Min.y, shown.Max.y);
    if (right > left && !inside(left, right, shown.Min.x, shown.Max.x))
      problems += span(" columns", left, right, shown.Min.x, shown.Max.x);
    if (problems.empty()) continue;
    const char* first = table->ColumnsCount > 0 ? ImGui::TableGetColumnName(table, 0) : "";
    found.push_back("table \"" + std::string(first && *first ? first : "?") + "\" (" +
                    table->OuterWindow->Name + "):" + problems);
  }
  // Scroll regions (child windows) whose content is larger than what they show: ImGui draws
  // nothing of what is scrolled out, so no text of it is found cut. A table's own scrolling
  // window is the table's finding above.
  for (const ImGuiWindow* window : g.Windows) {
    if (!window->Active || window->Hidden || !(window->Flags & ImGuiWindowFlags_ChildWindow))
      continue;
    const ImGuiWindow* root = window->RootWindow;
    if (root->Flags & (ImGuiWindowFlags_Tooltip | ImGuiWindowFlags_Popup)) continue;
    if (root->Pos.y >= picture.w - 0.5f || window->Pos.y >= picture.w - 0.5f) continue;
    if (table_window(window)) continue;
    // What this frame drew against what the region shows: ImGui's ScrollMax, which it sets from
    // the last frame's content only when the next frame begins (a region whose type was fitted
    // this frame still has the last frame's).
    const ImVec2 content(ImFloor(window->DC.CursorMaxPos.x - window->DC.CursorStartPos.x),
                         ImFloor(window->DC.CursorMaxPos.y - window->DC.CursorStartPos.y));
    std::string problems =
        hidden(" below", content.y, window->WindowPadding.y, window->InnerRect.GetHeight()) +
        hidden(" across", content.x, window->WindowPadding.x, window->InnerRect.GetWidth());
    if (problems.empty()) continue;
    found.push_back("scrolls \"" + std::string(window->Name) + "\":" + problems);
  }
  const std::vector<HeatmapPlacement>& maps = state.frame.heatmap_placements;
  const float least = least_map_side(int(maps.size()));
  for (const HeatmapPlacement& map : maps) {
    char line[200];
    const float side = std::min(map.max.x - map.min.x, map.max.y - map.min.y);
    if (!inside(map.min.x, map.max.x, picture.x, picture.z) ||
        !inside(map.min.y, map.max.y, picture.y, picture.w)) {
      std::snprintf(line, sizeof line, "map of head %d [%.0f,%.0f %.0f,%.0f] not wholly shown",
                    map.head, map.min.x, map.min.y, map.max.x, map.max.y);
      found.push_back(line);
    } else if (side < least - 0.5f) {
      std::snprintf(line, sizeof line, "map of head %d is %.0f px, under %.0f for %zu maps",
                    map.head, side, least, maps.size());
      found.push_back(line);
    }
  }
  return found;
}

std::string layout_json(const AppState& state, ImVec2 window, ImVec2 scale, int frame) {
  using nlohmann::json;
  const HeatmapSet& set = state.heads.heatmaps.value();
  json maps = json::array();
  for (const HeatmapPlacement& p : state.frame.heatmap_placements)
    maps.push_back({{"head", p.head},
                    {"rect", {p.min.x, p.min.y, p.max.x, p.max.y}},
                    {"shown", {p.uv_min.x, p.uv_min.y, p.uv_max.x, p.uv_max.y}}});
  json out = {{"window", {window.x, window.y}},
              {"framebuffer_scale", {scale.x, scale.y}},
              {"preset", state.session.preset_name},
              {"view", heatmap_view_name(set.view)},
              {"record", set.record},  // the trace record the heads panel's maps show
              {"batch", set.batch_index},
              {"value_min", set.value_min},
              {"value_max", set.value_max},
              {"colormap", colormap_name(set.colormap)},
              {"colour_scale", colour_scale_name(set.scale)},
              {"rows", set.rows},
              {"cols", set.cols},
              {"heatmaps", maps},
              {"focus_head", state.heads.focus.head}};
  out["frame"] = frame;
  out["layout_height"] = state.frame.layout_height;  // the panels' height, over a lesson's band
  json items = json::array();  // every control a test can aim at, named by its tooltip or label
  for (const PlacedItem& item : state.frame.items)
    items.push_back(
        {{"label", item.label}, {"rect", {item.min.x, item.min.y, item.max.x, item.max.y}}});
  out["items"] = items;
  // Every text drawn cut or over another text (issue 29's check; the tests expect none).
  out["text_findings"] = text_findings(drawn_texts(), state.frame.text_fields);
  out["content_findings"] =
      content_findings(state, ImVec4(0, 0, window.x, state.frame.layout_height));
  out["export_message"] = state.window.export_message;
  out["computing"] = state.session.computing;
  out["measuring"] = any_job_pending(state);  // a tab's measurement (the Paths tab's timing)
  out["trace_ms"] = state.session.trace_seconds * 1e3;
  out["presenter"] = state.ui.presenter;
  {  // a lesson playing: where it is (the page's audience tab follows it)
    const LessonPlayer& lesson = state.lesson;
    out["lesson"] = {{"file", unicode::valid_utf8(lesson.file)},  // a path is bytes
                     {"title", lesson.lesson.title},
                     {"scenes", lesson.lesson.scenes.size()},
                     {"scene", lesson.scene},
                     {"revealed", lesson.revealed},
                     {"playing", lesson.playing},
                     {"audience", lesson.audience_view},
                     {"step", state.walk.step_index},
                     {"errors", lesson.errors}};
  }
  out["typing"] = ImGui::GetIO().WantTextInput;  // a text field has the keyboard
  {  // the Model tab's folder: being opened, open (its sizes) or why not
    const ModelTab& tab = state.model;
    json model = {{"loading", tab.loading}, {"error", tab.error}, {"folder", tab.folder},
                  {"name", tab.name},       {"layer", tab.layer}, {"ran", tab.run != nullptr}};
    if (!tab.loading.empty()) model["progress"] = tab.load.progress();
    if (tab.session) {
      const ModelSpec& spec = tab.session->model.spec;
      model["n_layers"] = spec.n_layers;
      model["n_heads"] = spec.n_heads;
      model["d_model"] = spec.d_model;
      model["tokens"] = tab.tokens.pieces.size();
    }
    out["model"] = model;
  }
  {  // the Check tab: the exercise open and its grading (names of the stages, the mistakes)
    const CheckTab& tab = state.check;
    json check = {{"dir", tab.dir}, {"answer", tab.answer}, {"error", tab.error}};
    if (tab.shown) {
      const Grade& grade = tab.shown->grade;
      json wrong = json::array(), mistakes = json::array();
      for (const StageGrade& stage : grade.stages)
        if (stage.wrong()) wrong.push_back(stage.name);
      for (const NamedMistake& mistake : grade.diagnosis.mistakes) mistakes.push_back(mistake.name);
      check["graded"] = {{"all_right", grade.all_right()},
                         {"given", grade.given_count},
                         {"wrong", wrong},
                         {"mistakes", mistakes},
                         {"answer_error", tab.shown->answer_error}};
    }
    out["check"] = check;
  }
  if (!state.session.trace) return out.dump(2) + "\n";
  const Trace& trace = *state.session.trace;
  out["config"] = config_to_json(trace.config);
  out["tab"] = tool_tab_name(state.tabs.tool);
  out["decode"] = {{"step", state.decode.step}, {"steps", trace.decode.steps.size()}};
  if (const PipelineStep* step = current_step(state)) {
    out["maps_ahead"] = maps_ahead_of(step->stage);  // drawn faded: not computed yet
    out["step"] = {{"index", state.walk.step_index},
                   {"stage", stage_name(step->stage)},
                   {"label", step->label}};
    json shapes = json::object();
    for (const TensorRecord* record : step_records(trace, *step))
      shapes[record->name] = record->tensor.shape();
    out["shapes"] = shapes;
  }
  return out.dump(2) + "\n";
}

}  // namespace attnlab::gui
