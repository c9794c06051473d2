// The Train tab: settings of a tiny attention-only model and its task, Start / Pause / Step /
// Reset, the loss and accuracy curves, every head's attention map on an evaluation sequence and
// its pattern scores, live, and a scrubber that replays the snapshots, so a lecturer can show the
// moment the heads specialise.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app/gui/look/colormap.hpp"
#include "app/gui/look/theme.hpp"
#include "app/gui/look/wrap.hpp"
#include "app/gui/panels/job_status.hpp"
#include "app/gui/panels/panels.hpp"
#include "app/gui/state/gui_words.hpp"
#include "app/gui/train/panel_longer.hpp"
#include "app/gui/train/train_maps.hpp"
#include "core/training/tasks.hpp"
#include "core/training/to_trace.hpp"

namespace attnlab::gui {

namespace {

using training::TrainSettings;

// [SECTION] settings

// A number field's width: room for five digits and its -/+ buttons.
float box_width() {
  const ImGuiStyle& style = ImGui::GetStyle();
  return ImGui::CalcTextSize("00000").x + 2 * style.FramePadding.x +
         2 * (ImGui::GetFrameHeight() + style.ItemInnerSpacing.x);
}

// The width a field takes: its box and its label.
float field_width(const char* label) {
  return box_width() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label).x;
}

bool int_field(const char* label, int64_t& value, int64_t low, int64_t high, const char* help) {
  same_line_if_fits(field_width(label), ImGui::GetFontSize());
  int shown = int(value);
  ImGui::SetNextItemWidth(box_width());
  const bool changed = ImGui::InputInt(label, &shown, 1, 10);
  tooltip(help);
  if (changed) value = std::clamp<int64_t>(shown, low, high);
  return changed;
}

void task_picker(TrainSettings& settings) {
  const training::TaskInfo& current = training::task_info(settings.task);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10);
  if (ImGui::BeginCombo("task", current.name)) {
    for (const training::TaskInfo& task : training::all_tasks()) {
      if (ImGui::Selectable(task.name, task.task == settings.task)) {
        settings.task = task.task;
        settings.layers = std::max(settings.layers, task.suggested_layers);
        settings.seq_len = std::max(settings.seq_len, task.min_seq_len);
      }
      tooltip(task.pattern);
    }
    ImGui::EndCombo();
  }
  tooltip("The task the model learns; each asks for one relation between positions.");
}

// How positions enter the model (issue 23).
void position_picker(TrainSettings& settings) {
  same_line_if_fits(ImGui::GetFontSize() * 7 + ImGui::CalcTextSize("pos").x, ImGui::GetFontSize());
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
  if (ImGui::BeginCombo("pos", std::string(position_encoding_name(settings.pos)).c_str())) {
    for (const PositionEncoding pos : all_position_encodings())
      if (ImGui::Selectable(std::string(position_encoding_name(pos)).c_str(), pos == settings.pos))
        settings.pos = pos;
    ImGui::EndCombo();
  }
  tooltip(
      "Position encoding: none, sinusoidal (fixed, added to x), learned (a trained T-row table), "
      "rope (q and k turned by position), alibi (a per-head distance penalty on the scores).");
}

// The settings, in rows that wrap to the tab's width; true when one changed.
bool settings_fields(TrainSettings& s) {
  bool changed = false;
  task_picker(s);
  position_picker(s);
  changed |= int_field("layers", s.layers, 1, 2, "Attention layers L (1 or 2; induction needs 2).");
  changed |= int_field("heads", s.heads, 1, 16, "Heads h per layer.");
  changed |= int_field("d_model", s.d_model, 2, 256, "Width of the embeddings D.");
  changed |= int_field("d_k", s.d_k, 0, 256, "Per-head width; 0 = d_model / h.");
  changed |= int_field("T", s.seq_len, 2, 64, "Sequence length.");
  changed |= int_field("V", s.vocab, 2, 256, "Vocabulary size.");
  changed |= int_field("steps", s.steps, 1, 100000, "Training steps (batches of 64).");
  same_line_if_fits(field_width("lr"), ImGui::GetFontSize());
  float lr = float(s.lr);
  ImGui::SetNextItemWidth(ImGui::CalcTextSize("0.00000").x + 2 * ImGui::GetStyle().FramePadding.x);
  if (ImGui::InputFloat("lr", &lr, 0, 0, "%.4f")) {
    s.lr = std::clamp(double(lr), 1e-6, 1.0);
    changed = true;
  }
  tooltip("AdamW learning rate.");
  int64_t seed = int64_t(s.seed);
  changed |= int_field("seed", seed, 0, 1 << 30, "Seed of the weights and the batches.");
  s.seed = uint64_t(seed);
  int64_t eval_len = s.eval_seq_lens.empty() ? 0 : s.eval_seq_lens.front();
  if (int_field("eval T", eval_len, 0, training::kMaxEvalSeqLen,
                "Evaluate at this longer length when the run ends (0: off), as attnlab-cli train "
                "--eval-seq-len: a learned table says n/a beyond T.")) {
    s.eval_seq_lens = eval_len > 0 ? std::vector<int64_t>{eval_len} : std::vector<int64_t>{};
    changed = true;
  }
  const training::TaskInfo& task = training::task_info(s.task);
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  text_wrapped(std::string(task.name) + ": " + task.pattern);
  ImGui::PopStyleColor();
  return changed;
}

// [SECTION] the run's buttons

void run_buttons(TrainTab& tab) {
  TrainRun* run = tab.run.get();
  const bool running = run && run->running();
  const auto reset = [&] {
    if (!tab.run) tab.run = std::make_unique<TrainRun>();
    tab.error = tab.run->reset(tab.settings);
    tab.run->set_pace(tab.pace);
    tab.scrub = -1;
    tab.show_longer = false;
    return tab.error.empty();
  };
  if (running) {
    if (ImGui::Button("Pause")) run->pause();
    tooltip("Stop after the current step; Start goes on from there.");
  } else {
    if (ImGui::Button("Start")) {
      // A finished run, or new settings, start a new model; a paused one goes on.
      const bool fresh = !run || !run->has_model() || run->steps_done() >= run->steps_total() ||
                         !(run->settings().task == tab.settings.task &&
                           run->settings().heads == tab.settings.heads &&
                           run->settings().d_model == tab.settings.d_model &&
                           run->settings().pos == tab.settings.pos &&
                           run->settings().eval_seq_lens == tab.settings.eval_seq_lens);
      if (!fresh || reset()) tab.run->start();
      tab.show_longer = false;  // the heads as they learn
    }
    tooltip("Train on the worker thread until the last step (the window stays live).");
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
  ImGui::SliderFloat("##pace", &tab.pace, 0, 30,
                     tab.pace < 0.5f ? "speed: fastest" : "%.0f steps/s",
                     ImGuiSliderFlags_AlwaysClamp);
  tooltip(
      "How fast it trains: slow it down (1-30 steps per second, the maps redrawn after "
      "every step) to watch the heads learn in class; left end: as fast as it goes.");
  if (tab.pace < 0.5f) tab.pace = 0;
  if (run && run->pace() != double(tab.pace)) run->set_pace(tab.pace);
  same_line_if_fits(ImGui::CalcTextSize("Step").x + 2 * ImGui::GetStyle().FramePadding.x,
                    ImGui::GetStyle().ItemSpacing.x);
  if (ImGui::Button("Step") && !running) {
    if (!tab.run || !tab.run->has_model()) reset();
    if (tab.run && tab.error.empty()) tab.run->step_once();
  }
  tooltip("One training step (while paused).");
  same_line_if_fits(ImGui::CalcTextSize("Reset").x + 2 * ImGui::GetStyle().FramePadding.x,
                    ImGui::GetStyle().ItemSpacing.x);
  if (ImGui::Button("Reset")) reset();
  tooltip("A new model from these settings, untrained.");
  if (run && run->has_model()) {  // beside the buttons where it fits, else under them
    char progress[64];
    std::snprintf(progress, sizeof progress, "step %lld / %lld", (long long)run->steps_done(),
                  (long long)run->steps_total());
    same_line_if_fits(ImGui::CalcTextSize(progress).x, ImGui::GetFontSize());
    ImGui::TextUnformatted(progress);
  }
}

// Save and Load: a folder of .npy files and model.json, as `attnlab-cli train --out` writes.
void model_files(TrainTab& tab, bool running) {
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10);
  ImGui::InputText("##model_dir", &tab.model_dir);
  note_text_field();
  tooltip(
      "The model's folder: model.json and one .npy per parameter (as attnlab-cli train --out).");
  const ImGuiStyle& style = ImGui::GetStyle();
  const auto button_width = [&](const char* text) {
    return ImGui::CalcTextSize(text).x + 2 * style.FramePadding.x;
  };
  same_line_if_fits(button_width("Save"), style.ItemSpacing.x);
  ImGui::BeginDisabled(running || !tab.run || !tab.run->has_model());
  if (ImGui::Button("Save")) tab.model_message = tab.run->save(tab.model_dir);
  ImGui::EndDisabled();
  tooltip("Save the model (pause first), atomically.");
  same_line_if_fits(button_width("Load"), style.ItemSpacing.x);
  ImGui::BeginDisabled(running);
  if (ImGui::Button("Load")) {
    if (!tab.run) tab.run = std::make_unique<TrainRun>();
    const std::string error = tab.run->load(tab.model_dir);
    tab.model_message = error.empty() ? "Loaded " + tab.model_dir : error;
    if (error.empty()) tab.settings = tab.run->settings();
    tab.scrub = -1;
    tab.pruning.reset();
  }
  ImGui::EndDisabled();
  tooltip(
      "Load a saved model (a folder attnlab-cli train wrote, or Save): its heads, pruning and "
      "Open in the pipeline work on it.");
  if (!tab.model_message.empty()) text_wrapped(tab.model_message);
}

// [SECTION] what the run shows

void curves(const std::vector<std::shared_ptr<const TrainSnapshot>>& shots, int shown) {
  std::vector<float> loss, accuracy;
  for (const auto& shot : shots) {
    loss.push_back(float(shot->eval.report.loss));
    const std::vector<double>& acc = shot->eval.report.accuracy;
    accuracy.push_back(acc.empty() ? 0.0f : float(*std::min_element(acc.begin(), acc.end())));
  }
  const float width = ImGui::GetContentRegionAvail().x;
  const float height = ImGui::GetFontSize() * 3;
  char label[64];
  std::snprintf(label, sizeof label, "loss %.3f", double(loss[size_t(shown)]));
  ImGui::PlotLines("##loss", loss.data(), int(loss.size()), 0, label, 0.0f, FLT_MAX,
                   ImVec2(width, height));
  tooltip("Loss on the evaluation sequence at each snapshot (cross-entropy, summed over outputs).");
  std::snprintf(label, sizeof label, "accuracy %.0f %%", 100.0 * double(accuracy[size_t(shown)]));
  ImGui::PlotLines("##accuracy", accuracy.data(), int(accuracy.size()), 0, label, 0.0f, 1.0f,
                   ImVec2(width, height));
  tooltip("Accuracy (the lowest over the outputs) on the evaluation sequence.");
}

// One head's (T, T) map as cells, in per-row colours (train_maps.hpp: an even row grey).
void head_map(const std::vector<float>& map, int64_t T, float side, ColormapKind colours,
              bool causal) {
  ImDrawList* list = ImGui::GetWindowDrawList();
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const float cell = side / float(T);
  const std::vector<float> positions = train_map_positions(map, T, causal);
  for (int64_t q = 0; q < T; ++q)
    for (int64_t k = 0; k < T; ++k) {
      const ImVec2 a(at.x + cell * float(k), at.y + cell * float(q));
      list->AddRectFilled(a, ImVec2(a.x + cell, a.y + cell),
                          colour_at_packed(colours, positions[size_t(q * T + k)]));
    }
  list->AddRect(at, ImVec2(at.x + side, at.y + side), IM_COL32(128, 128, 128, 255));
  ImGui::Dummy(ImVec2(side, side));
}

void score_bars(const training::HeadScores& s, float width) {
  const struct {
    const char* name;
    double value;
    const char* help;
  } bars[] = {{"prev", s.previous, "mean weight on the previous token"},
              {"first", s.first, "mean weight on the first token"},
              {"same", s.same, "mean weight on the token itself"},
              {"induct", s.prefix, "prefix matching: weight on the token after an earlier copy"}};
  for (const auto& bar : bars) {
    char text[48];
    std::snprintf(text, sizeof text, "%s %.2f", bar.name, bar.value);
    ImGui::ProgressBar(float(std::clamp(bar.value, 0.0, 1.0)), ImVec2(width, 0), text);
    tooltip(bar.help);
  }
}

void heads(const TrainSnapshot& shot, const training::ModelShape& shape, ColormapKind colours) {
  const int64_t T = int64_t(shot.tokens.size());
  const int64_t maps = int64_t(shot.maps.size());
  if (T == 0 || maps == 0) return;
  const float font = ImGui::GetFontSize();
  const ImVec2 room = ImGui::GetContentRegionAvail();
  const float bars_h =
      ImGui::GetFrameHeightWithSpacing() * 4 + ImGui::GetTextLineHeightWithSpacing();
  const float side = std::clamp(
      std::min((room.x - font * float(maps)) / float(maps), room.y - bars_h), font * 3, font * 14);
  for (int64_t m = 0; m < maps; ++m) {
    if (m > 0) ImGui::SameLine(0, font);
    ImGui::BeginGroup();
    const int64_t layer = m / shape.heads, head = m % shape.heads;
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(head_colour(int(head))), "L%lld h%lld",
                       (long long)layer, (long long)head);
    head_map(shot.maps[size_t(m)], T, side, colours, shape.causal);
    if (size_t(m) < shot.eval.heads.size()) score_bars(shot.eval.heads[size_t(m)], side);
    ImGui::EndGroup();
  }
}

// Head pruning: each head switched off in turn on a batch the model never trained on, the loss
// increase per head sorted, and the accuracy left with the k least important heads removed.
void pruning_section(TrainTab& tab) {
  TrainRun& run = *tab.run;
  if (ImGui::Button("Prune heads")) {
    const training::SavedModel model = run.model();
    const training::Batch batch =
        training::make_batch(model.settings.task, 256, model.settings.seq_len, model.settings.vocab,
                             model.settings.seed + 1, 0);
    tab.pruning = training::prune_heads(model, batch);
    tab.pruned_at = run.steps_done();
    tab.remove_k = 0;
  }
  tooltip(
      "Switch each head off in turn (its rows of W_o zeroed) and measure the loss increase on 256 "
      "new sequences: the real cost of losing it, not a norm.");
  if (!tab.pruning) return;
  const training::HeadPruning& p = *tab.pruning;
  if (tab.pruned_at != run.steps_done()) {
    ImGui::SameLine();
    ImGui::TextDisabled("(measured at step %lld)", (long long)tab.pruned_at);
  }
  const int64_t heads_per_layer = run.settings().heads;
  double largest = 1e-9;
  for (const double increase : p.loss_increase) largest = std::max(largest, increase);
  const float width = ImGui::GetContentRegionAvail().x;
  for (auto it = p.least_important.rbegin(); it != p.least_important.rend(); ++it) {
    char text[64];
    std::snprintf(text, sizeof text, "L%lld h%lld  loss +%.3f", (long long)(*it / heads_per_layer),
                  (long long)(*it % heads_per_layer), p.loss_increase[size_t(*it)]);
    ImGui::ProgressBar(float(std::max(0.0, p.loss_increase[size_t(*it)]) / largest),
                       ImVec2(width, 0), text);
  }
  ImGui::SetNextItemWidth(width * 0.5f);
  ImGui::SliderInt("remove the k least important", &tab.remove_k, 0, int(p.least_important.size()));
  const training::LossReport& left = p.without_least[size_t(tab.remove_k)];
  double accuracy = 1;
  for (const double a : left.accuracy) accuracy = std::min(accuracy, a);
  ImGui::Text("%d of %d heads off: loss %.3f, accuracy %.1f %% (lowest output)", tab.remove_k,
              int(p.least_important.size()), left.loss, 100.0 * accuracy);
}

// The runs' loss curves on one plot (log scale), each in its head count's colour, with a legend
// of the steps each needed to reach 99 %.
void head_count_curves(const std::vector<training::HeadCountCurve>& curves) {
  double low = 1e9, high = -1e9;
  int64_t last_step = 1;
  for (const auto& curve : curves)
    for (size_t i = 0; i < curve.loss.size(); ++i) {
      const double l = std::log10(std::max(curve.loss[i], 1e-6));
      low = std::min(low, l);
      high = std::max(high, l);
      last_step = std::max(last_step, curve.steps[i]);
    }
  if (high <= low) high = low + 1;
  const float width = ImGui::GetContentRegionAvail().x, height = ImGui::GetFontSize() * 6;
  ImDrawList* list = ImGui::GetWindowDrawList();
  const ImVec2 at = ImGui::GetCursorScreenPos();
  list->AddRect(at, ImVec2(at.x + width, at.y + height), IM_COL32(128, 128, 128, 255));
  for (size_t c = 0; c < curves.size(); ++c) {
    const auto& curve = curves[c];
    std::vector<ImVec2> points;
    for (size_t i = 0; i < curve.loss.size(); ++i) {
      const double l = std::log10(std::max(curve.loss[i], 1e-6));
      points.emplace_back(at.x + width * float(double(curve.steps[i]) / double(last_step)),
                          at.y + height * float((high - l) / (high - low)));
    }
    list->AddPolyline(points.data(), int(points.size()), head_colour(int(c)), 0, 2.0f);
  }
  ImGui::Dummy(ImVec2(width, height));
  tooltip("Training loss (log scale) against steps, one line per head count.");
  ImGui::Text("loss 10^%.1f .. 10^%.1f over %lld steps", low, high, (long long)last_step);
  for (size_t c = 0; c < curves.size(); ++c) {
    const auto& curve = curves[c];
    char text[96];
    if (curve.steps_to_99 >= 0)
      std::snprintf(text, sizeof text, "h = %lld: 99 %% at step %lld, final loss %.4f",
                    (long long)curve.heads, (long long)curve.steps_to_99, curve.loss.back());
    else
      std::snprintf(text, sizeof text, "h = %lld: never 99 %%, final loss %.4f",
                    (long long)curve.heads, curve.loss.back());
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(head_colour(int(c))), "%s", text);
  }
}

void head_count_section(AppState& state) {
  TrainTab& tab = state.train;
  if (ImGui::Button("Heads vs one head")) {
    const training::TrainSettings settings = tab.settings;
    tab.head_counts.start(NoKey{}, [settings](const RunControl& control) {
      return training::compare_head_counts(settings, {1, 2, 4, 8, 16}, control);
    });
  }
  tooltip(
      "Train h = 1, 2, 4, 8 and 16 (d_k = d_model / h: the same parameter count) on this task and "
      "seed, one after another in the background, and plot their losses together.");
  if (draw_task_status(tab.head_counts, "train_head_counts", palette(state.ui.theme).error)) return;
  if (const auto& curves = tab.head_counts.result(); curves && !curves->empty())
    head_count_curves(*curves);
}

}  // namespace

// "Open in the pipeline": the trained first layer on a sequence of its task becomes the current
// trace (its embeddings as X, its weights as W), so every stage and tab shows the learned heads.
void open_trained_model(AppState& state) {
  try {
    const training::TraceOfModel trained =
        training::first_layer_trace(state.train.run->model(), /*batch=*/1);
    Session& session = state.session;
    session.preset_name =
        std::string("trained ") + training::task_info(state.train.run->settings().task).name;
    session.preset_config = trained.config;
    session.preset_inputs = trained.inputs;
    state.walk.pending_stage = "attend";  // taken when the trace arrives
    set_config(state, trained.config);
    sync_edit_buffers(state);
    state.tabs.requested_tool = ToolTab::Tensors;
    state.status =
        "The trained model's first layer is the current trace: every tab shows its heads.";
  } catch (const std::exception& error) {
    state.train.error = in_gui_words(error);
  }
}

void draw_train_tab(AppState& state) {
  TrainTab& tab = state.train;
  // Two columns, each scrolling on its own when the panel is short: the settings, buttons and
  // curves on the left; the heads as they learn on the right.
  const float font = ImGui::GetFontSize();
  const ImVec2 room = ImGui::GetContentRegionAvail();
  const float left_w = std::max(font * 16, room.x * 0.45f);
  // The longer-than-training table needs about 18 characters' width: on the right when it fits.
  const bool longer_on_right = room.x - left_w - font > font * 18;
  ImGui::BeginChild("##train_run", ImVec2(left_w, room.y));
  // The run's buttons first and, once it has snapshots, the replay and the curves: what a class
  // watches stays in view on a projector; the settings follow (folded while a run is shown).
  const bool running = tab.run && tab.run->running();
  run_buttons(tab);
  const bool trained = tab.run && tab.run->has_model();
  const auto shots = trained ? tab.run->snapshots() : decltype(tab.run->snapshots()){};
  int shown = -1;
  if (trained && !shots.empty()) {
    // The scrubber: the latest snapshot while live; dragged, any earlier one.
    shown = tab.scrub < 0 ? int(shots.size()) - 1 : std::min(tab.scrub, int(shots.size()) - 1);
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - font * 4);
    char format[48];
    std::snprintf(format, sizeof format, "step %lld", (long long)shots[size_t(shown)]->step);
    if (ImGui::SliderInt("##scrub", &shown, 0, int(shots.size()) - 1, format))
      tab.scrub = shown == int(shots.size()) - 1 ? -1 : shown;
    tooltip("Replay the run: the heads as they were at each snapshot.");
    ImGui::SameLine();
    if (ImGui::SmallButton(tab.scrub < 0 ? "live" : "go live")) tab.scrub = -1;
    curves(shots, shown);
    length_eval_line(shots[size_t(shown)]->lengths);
  }
  if (!tab.error.empty()) {
    error_text(state, tab.error);
    state.frame.explained.push_back("train");
  }
  ImGui::SetNextItemOpen(shown < 0, ImGuiCond_Appearing);
  if (section_header("settings")) {
    ImGui::BeginDisabled(running);
    settings_fields(tab.settings);
    ImGui::EndDisabled();
    if (running) tooltip("Pause to change the settings.");
  }
  ImGui::SetNextItemOpen(true, ImGuiCond_Appearing);
  if (section_header("longer than training")) longer_than_training_section(state, !longer_on_right);
  model_files(tab, running);
  if (shown < 0) {
    text_wrapped(
        "Pick a task and press Start: a tiny attention-only transformer trains here, and its "
        "heads' maps change as they learn. previous-and-first with 2 heads splits the work: one "
        "head looks at the previous token, the other at the first.");
  } else {
    ImGui::BeginDisabled(running);
    if (ImGui::Button("Open in the pipeline")) state.requests.later(open_trained_model);
    ImGui::EndDisabled();
    tooltip(
        "Make the trained first layer the current trace (its embeddings as X, its weights as W): "
        "the stages, memory layout, mistakes and ablation then show the learned heads.");
    if (!running) pruning_section(tab);
    head_count_section(state);
  }
  ImGui::EndChild();
  const bool longer_shown = tab.show_longer && longer_on_right;
  if (shown < 0 && !longer_shown) return;
  ImGui::SameLine(0, font);
  ImGui::BeginChild("##train_heads", ImVec2(0, room.y));
  if (longer_shown)
    longer_than_training_view(state, true);
  else
    heads(*shots[size_t(shown)], training::model_shape(tab.run->settings()),
          ColormapKind::Sequential);
  ImGui::EndChild();
}

}  // namespace attnlab::gui
