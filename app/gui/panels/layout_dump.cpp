#include "app/gui/panels/layout_dump.hpp"

#include <nlohmann/json.hpp>

#include "app/gui/check/check_state.hpp"
#include "app/gui/look/drawn_text.hpp"
#include "app/gui/state/pipeline_steps.hpp"
#include "core/model/config_json.hpp"
#include "core/tokenizers/unicode.hpp"

namespace attnlab::gui {

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
  out["export_message"] = state.window.export_message;
  out["computing"] = state.session.computing;
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
