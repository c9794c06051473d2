// The mistakes simulator: pick one classic bug; the core runs the buggy config and the correct one
// side by side. Shows the wrong and the right line, the symptom in words with the core's numbers,
// the framework's error for a run that stops, and the correct, buggy and |difference| maps of the
// record where the bug lands (one head of it), on one colour scale; when the change is too small
// to see on this config, says so and offers the core's config where it shows.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

#include "app/gui/look/theme.hpp"
#include "app/gui/look/wrap.hpp"
#include "app/gui/panels/panels.hpp"
#include "app/gui/panels/three_maps.hpp"
#include "app/gui/state/mistake_maps.hpp"

namespace attnlab::gui {

namespace {

// [SECTION] choosing

void mistake_picker(AppState& state) {
  const Mistake current = state.session.config.mistake;
  const char* shown = current == Mistake::None ? "none (correct code)" : mistake_info(current).name;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14);
  if (ImGui::BeginCombo("mistake", shown)) {
    std::optional<Mistake> chosen;
    if (ImGui::Selectable("none (correct code)", current == Mistake::None)) chosen = Mistake::None;
    for (const MistakeInfo& info : all_mistakes()) {
      if (ImGui::Selectable(info.name, info.id == current)) chosen = info.id;
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s: %s", info.title, info.symptom);
    }
    ImGui::EndCombo();
    if (chosen) state.requests.later([m = *chosen](AppState& s) { set_mistake(s, m); });
  }
  tooltip("Inject one classic bug into the forward pass (M: next, Shift+M: previous).");
}

// A slider over an int64 index, for the head (or token) compared.
void index_slider(const char* label, int64_t& value, int64_t count, const char* help) {
  if (count <= 1) return;
  ImGui::SameLine(0, ImGui::GetFontSize());
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
  const int64_t low = 0, high = count - 1;
  value = std::clamp(value, low, high);
  ImGui::SliderScalar(label, ImGuiDataType_S64, &value, &low, &high, "%d");
  tooltip(help);
}

// [SECTION] what went wrong, in words

void mono_line(const AppState& state, const char* prefix, const char* code, ImU32 colour) {
  ImGui::TextUnformatted(prefix);
  ImGui::SameLine();
  if (state.window.mono_font) ImGui::PushFont(state.window.mono_font);
  ImGui::PushStyleColor(ImGuiCol_Text, colour);
  // Wrapped between the code's units, never inside a call's brackets, under the first line.
  const float indent = ImGui::GetCursorPosX();
  const auto measure = [](const std::string& text) { return ImGui::CalcTextSize(text.c_str()).x; };
  bool first = true;
  for (const std::string& line : wrap_code(code, ImGui::GetContentRegionAvail().x, measure)) {
    if (!first) ImGui::SetCursorPosX(indent);
    ImGui::TextUnformatted(line.c_str());
    first = false;
  }
  ImGui::PopStyleColor();
  if (state.window.mono_font) ImGui::PopFont();
}

void failure_text(const AppState& state, const Trace& buggy) {
  const Palette& colours = palette(state.ui.theme);
  ImGui::PushStyleColor(ImGuiCol_Text, colours.error);
  ImGui::TextWrapped("The run stops in the %s stage with the framework's error:",
                     stage_name(buggy.failure.stage));
  if (state.window.mono_font) ImGui::PushFont(state.window.mono_font);
  text_wrapped(buggy.failure.message);
  if (state.window.mono_font) ImGui::PopFont();
  ImGui::PopStyleColor();
  if (state.session.mistake_report && !state.session.mistake_report->layout.empty())
    ImGui::TextWrapped("Why: %s.", state.session.mistake_report->layout.c_str());
}

// When the change is too small to see: says so, with the core's config where it shows as a button
// (`chosen` when clicked: applied after the tab is drawn, as it replaces the trace).
void too_small_line(const AppState& state, const MistakeReport& report,
                    std::optional<Config>& chosen) {
  ImGui::PushStyleColor(ImGuiCol_Text, palette(state.ui.theme).error);
  ImGui::TextWrapped("Effect too small to see here: %s (entropy %.2f \u2192 %.2f bits).",
                     report.effect.c_str(), report.entropy_correct_bits, report.entropy_buggy_bits);
  ImGui::PopStyleColor();
  const std::optional<ShowcaseConfig> there = config_where_it_shows(state.session.trace->config);
  if (!there) return;
  const std::string label = "Show it on " + there->change;
  if (ImGui::Button(label.c_str())) chosen = there->config;
  tooltip(there->why.c_str());
}

void description(const AppState& state, const MistakeInfo& info, std::optional<Config>& chosen) {
  const Palette& colours = palette(state.ui.theme);
  const Trace& buggy = *state.session.trace;
  ImGui::PushStyleColor(ImGuiCol_Text, colours.accent);
  ImGui::TextWrapped("%s (%s stage)", info.title, stage_name(info.stage));
  ImGui::PopStyleColor();
  mono_line(state, "wrong:", info.wrong, colours.error);
  mono_line(state, "right:", info.right, IM_COL32(0, 140, 70, 255));
  if (info.id == Mistake::DropoutOnOutput) {
    const double p = dropout_on_output_p(buggy.config);
    if (buggy.config.dropout > 0)
      ImGui::TextWrapped("p = %.2g, the dropout setting.", p);
    else
      ImGui::TextWrapped("The dropout slider is 0, so the buggy code drops with p = %.2g.", p);
  }
  ImGui::Separator();
  if (buggy.failure.failed) {
    failure_text(state, buggy);
    return;
  }
  if (!state.session.mistake_report) return;
  const MistakeReport& report = *state.session.mistake_report;
  if (report.too_small_to_see) too_small_line(state, report, chosen);
  text_wrapped(report.symptom);
  if (report.max_future_weight > 0)
    ImGui::Text("largest weight on a masked key: %.3g (correct: 0)", report.max_future_weight);
  if (report.max_row_sum_error > 1e-4)
    ImGui::Text("rows of the weights sum to 1 within %.3g only", report.max_row_sum_error);
}

// [SECTION] the three maps

// In place of a buggy map the run never made: why, with the strides that made view() refuse.
std::string empty_buggy_note(const Trace& buggy) {
  if (!buggy.failure.failed) return "no map";
  const TensorRecord* back =
      buggy.find(Op::TransposeBack);  // the non-contiguous (B, T, h, d_v) view
  if (!back) return "never made: the run stopped";
  return "never made: view() raised. " + back->name + " " + back->axes_text() + " has strides " +
         shape_to_string(back->tensor.strides()) + ": not contiguous";
}

void draw_maps(AppState& state, HeatmapDrawer* drawer) {
  const std::array<HeatmapSet, 3>& maps = current_mistake_maps(state);
  const Palette& colours = palette(state.ui.theme);
  const float font = ImGui::GetFontSize();
  const std::string record =
      state.session.mistake_report ? state.session.mistake_report->record : "";
  static constexpr const char* kTitles[3] = {"correct", "buggy", "|buggy \u2212 correct|"};
  if (maps[1].maps_are_tokens)
    ImGui::TextWrapped(
        "Buggy scores are (B, T, h, h): heads attend to heads, no T \u00D7 T map to subtract. "
        "Middle: token %lld's h \u00D7 h map.",
        (long long)state.mistakes.token);
  const HeatmapSet* scaled = nullptr;  // any drawn map: they share one colour scale
  for (const HeatmapSet& set : maps)
    if (!set.empty()) scaled = &set;
  if (scaled && !maps[2].empty() && state.session.mistake_report) {
    ImGui::TextWrapped("%s: colours %.3g .. %.3g; largest change %.3g", record.c_str(),
                       double(scaled->value_min), double(scaled->value_max),
                       state.session.mistake_report->record_change);
  } else if (scaled) {
    ImGui::TextWrapped("%s: colours %.3g .. %.3g", record.c_str(), double(scaled->value_min),
                       double(scaled->value_max));
  }

  const std::optional<ThreeMaps> row = three_maps_row();
  if (!row) return;
  ImDrawList* list = ImGui::GetWindowDrawList();
  for (int i = 0; i < 3; ++i) {
    const HeatmapSet& set = maps[size_t(i)];
    const ImVec2 at = row->map_min(i);
    // "|buggy − correct|" where it fits above its map, else "|difference|".
    if (i == 2)
      row->title(list, i, {kTitles[i], "|difference|"}, colours.text);
    else
      row->title(list, i, {kTitles[i]}, colours.text);
    if (set.empty()) {
      const std::string why = i == 1 ? empty_buggy_note(*state.session.trace)
                              : i == 2 && !state.session.trace->failure.failed
                                  ? "shapes differ"
                                  : "nothing to subtract";
      list->AddText(nullptr, 0, ImVec2(at.x, at.y + font * 0.5f), colours.text_dim, why.c_str(),
                    nullptr, row->side);
      continue;
    }
    const HeatmapPlacement placement{i, at, row->map_max(i, set)};
    state.frame.mistake_placements.push_back(placement);
    const HeatmapSlot slot = HeatmapSlot(int(HeatmapSlot::MistakeCorrect) + i);
    if (drawer && drawer->error().empty()) {
      drawer->prepare(set, state.mistakes.maps.builds(), slot);
      drawer->draw(list, set, {HeatmapPlacement{0, placement.min, placement.max}}, slot);
    }
    list->AddRect(placement.min, placement.max, colours.block_border);
    char axes[64];
    std::snprintf(axes, sizeof axes, "%s \u00D7 %s", set.row_axis.c_str(), set.col_axis.c_str());
    list->AddText(ImVec2(at.x, placement.max.y + font * 0.2f), colours.text_dim, axes);
  }
  row->end();

  // Hover: the same cell in all three maps, with the values.
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  if (!ImGui::IsWindowHovered()) return;
  for (const HeatmapPlacement& p : state.frame.mistake_placements) {
    if (mouse.x < p.min.x || mouse.y < p.min.y || mouse.x >= p.max.x || mouse.y >= p.max.y)
      continue;
    const HeatmapSet& set = maps[size_t(p.head)];
    const int64_t row = std::min<int64_t>(
        int64_t((mouse.y - p.min.y) / (p.max.y - p.min.y) * float(set.rows)), set.rows - 1);
    const int64_t col = std::min<int64_t>(
        int64_t((mouse.x - p.min.x) / (p.max.x - p.min.x) * float(set.cols)), set.cols - 1);
    const float cell_w = (p.max.x - p.min.x) / float(set.cols);
    const float cell_h = (p.max.y - p.min.y) / float(set.rows);
    const ImVec2 a(p.min.x + float(col) * cell_w, p.min.y + float(row) * cell_h);
    list->AddRect(a, ImVec2(a.x + cell_w, a.y + cell_h), colours.error, 0, 0, 2.0f);
    ImGui::BeginTooltip();
    ImGui::Text("row %lld (%s), column %lld (%s)", (long long)row, set.row_axis.c_str(),
                (long long)col, set.col_axis.c_str());
    for (int i = 0; i < 3; ++i) {
      const HeatmapSet& m = maps[size_t(i)];
      if (m.empty() || m.rows != set.rows || m.cols != set.cols) continue;
      ImGui::Text("%s: %.4f", kTitles[i], double(m.shown[size_t(row * m.cols + col)]));
    }
    ImGui::EndTooltip();
  }
}

}  // namespace

void draw_mistakes_tab(AppState& state, HeatmapDrawer* drawer) {
  mistake_picker(state);
  const Trace& trace = *state.session.trace;
  if (trace.config.mistake == Mistake::None) {
    empty_tab_note("Choose a mistake above, or press M (Shift+M: the one before).");
    text_wrapped(
        "The same config then runs twice, with the bug and without, and this tab shows the "
        "changed line, the symptom and the tensor where it lands side by side.");
    return;
  }
  if (state.ui.presenter) {  // the lesson's point, readable from the back row
    const MistakeInfo& info = mistake_info(trace.config.mistake);
    const std::string line = std::string(info.name) + ": " + info.symptom;
    state.frame.mistake_headline =
        large_text(line, 1.3f * ImGui::GetFontSize(), palette(state.ui.theme).error);
  }
  const HeatmapSet& buggy = current_mistake_maps(state)[1];
  const TensorRecord* compared =
      state.session.mistake_report && state.session.correct_trace
          ? state.session.correct_trace->find(state.session.mistake_report->record)
          : nullptr;
  if (compared && compared->tensor.dim() == 4)  // (B, h, ., .): one map per head
    index_slider("head", state.mistakes.head, trace.config.n_heads,
                 "Which head's maps to compare.");
  if (buggy.maps_are_tokens)
    index_slider("token", state.mistakes.token, int64_t(trace.tokens.size()),
                 "Whose (h, h) map to show: with this bug every token has one.");
  const float text_w = std::floor(ImGui::GetContentRegionAvail().x * 0.46f);
  ImGui::BeginChild("mistake_text", ImVec2(text_w, 0), false, ImGuiWindowFlags_NoBackground);
  std::optional<Config> chosen;
  description(state, mistake_info(trace.config.mistake), chosen);
  ImGui::EndChild();
  ImGui::SameLine();
  ImGui::BeginChild("mistake_maps", ImVec2(0, 0), false,
                    ImGuiWindowFlags_NoBackground | ImGuiWindowFlags_NoScrollbar);
  if (drawer && !drawer->error().empty()) {
    ImGui::TextWrapped("The heatmap shader failed: %s", drawer->error().c_str());
  } else {
    draw_maps(state, drawer);
  }
  ImGui::EndChild();
  if (chosen) state.requests.later([config = *chosen](AppState& s) { set_config(s, config); });
}

}  // namespace attnlab::gui
