// Loop vs batched: the seeds' per-head loop against the batched computation on the same inputs.
// Opening the tab times both (median of 5 runs, on a background thread) and compares their outputs;
// the drawing shows the loop as h steps one after another and the batched path as one step.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "app/gui/look/theme.hpp"
#include "app/gui/look/wrap.hpp"
#include "app/gui/panels/job_status.hpp"
#include "app/gui/panels/panels.hpp"
#include "app/gui/state/trace_jobs.hpp"
#include "core/teaching/comparisons.hpp"

namespace attnlab::gui {

namespace {

// A timeline bar of `ms` milliseconds (scaled by `pixels_per_ms`), cut into `steps` equal boxes.
void timeline(const char* label, double ms, int64_t steps, float pixels_per_ms, float label_w,
              const Palette& colours) {
  const float label_x = ImGui::GetCursorPosX();  // the bar starts label_w after the label's start
  ImGui::TextUnformatted(label);
  ImGui::SameLine(label_x + label_w);
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const float height = ImGui::GetTextLineHeight() * 1.6f;
  const float width = std::max(4.0f, float(ms) * pixels_per_ms);
  ImDrawList* list = ImGui::GetWindowDrawList();
  const float step_w = width / float(steps);
  for (int64_t i = 0; i < steps; ++i) {
    const ImVec2 a(at.x + float(i) * step_w, at.y);
    const ImVec2 b(a.x + step_w - (steps > 1 ? 2 : 0), at.y + height);
    list->AddRectFilled(a, b, steps > 1 ? head_colour(int(i)) : colours.accent);
    char text[16];
    std::snprintf(text, sizeof text, steps > 1 ? "h%lld" : "all heads", (long long)i);
    const ImVec2 size = ImGui::CalcTextSize(text);
    if (size.x + 4 < b.x - a.x)
      list->AddText(ImVec2(a.x + 3, a.y + (height - size.y) * 0.5f),
                    text_colour_on(steps > 1 ? head_colour(int(i)) : colours.accent), text);
  }
  ImGui::Dummy(ImVec2(width, height));
  ImGui::SameLine();
  ImGui::Text("%.3f ms", ms);
}

}  // namespace

void draw_paths_tab(AppState& state) {
  const Trace& trace = *state.session.trace;
  const Palette& colours = palette(state.ui.theme);
  start_path_timing(state);  // opening the tab measures the shown config, once
  const bool busy = state.paths.comparison.busy();
  ImGui::BeginDisabled(busy);
  if (ImGui::Button("measure again")) {
    state.paths.comparison.forget();  // measuring the same trace again is what it is for
    start_path_timing(state);
  }
  ImGui::EndDisabled();
  tooltip("Run both paths 5 times each on this config (in the background) and compare them.");
  ImGui::SameLine();
  ImGui::TextWrapped(
      "The seeds first compute attention one head at a time in a Python-style loop; real code "
      "batches the heads into one matrix product over (B, h, T, d_k).");
  if (draw_task_status(state.paths.comparison, "paths", colours.error)) return;
  const PathComparison* result = state.paths.comparison.result_for(shown_key(state, WholeTrace{}));
  if (!result) return;
  ImGui::Text("outputs agree: max |loop \u2212 batched| = %.3g", result->max_abs_difference);
  ImGui::Text("median of %d runs: loop %.3f ms, batched %.3f ms", result->runs, result->loop_ms,
              result->batched_ms);
  // Why the clock says what it says: the counts, from the core (the same on every machine).
  const PathWork work = path_work(trace.config);
  text_wrapped("loop: " + std::to_string(work.loop_products) +
               " small matrix products, one after another. batched: " +
               std::to_string(work.batched_products) + " products over every head at once, and " +
               std::to_string(work.head_pairs) +
               (work.heads_in_parallel
                    ? " heads attended in parallel over the cores."
                    : " heads attended on one thread: at this size their work is too small to be "
                      "worth starting threads, and each call's fixed cost is what the clock "
                      "measures."));
  ImGui::Spacing();
  const float label_w = ImGui::CalcTextSize("batched (1 step) ").x;
  const float room = ImGui::GetContentRegionAvail().x - label_w -
                     ImGui::CalcTextSize("0000.000 ms").x - ImGui::GetFontSize();
  const double longest = std::max({result->loop_ms, result->batched_ms, 1e-6});
  const float pixels_per_ms = room / float(longest);
  const std::string loop_label = "loop (" + std::to_string(trace.config.n_heads) + " steps)";
  timeline(loop_label.c_str(), result->loop_ms, trace.config.n_heads, pixels_per_ms, label_w,
           colours);
  timeline("batched (1 step)", result->batched_ms, 1, pixels_per_ms, label_w, colours);
}

}  // namespace attnlab::gui
