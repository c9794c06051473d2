// The controls: every setting of the config, the display options and export. An invalid
// combination is explained in red under the control it names; the last valid trace stays.
#include <imgui.h>
#include <imgui_internal.h>  // TempInputIsActive: is a number being typed into a slider
#include <imgui_stdlib.h>

#include <algorithm>

#include "app/gui/look/theme.hpp"
#include "app/gui/panels/panels.hpp"
#include "core/model/tokenizer.hpp"

namespace attnlab::gui {

namespace {

// [SECTION] widgets over int64 config fields

constexpr int64_t kMaxSliderRange = int64_t{1} << 20;

// Dragged, a value applies live; typed (Ctrl+click or double-click on a slider, or an input
// box) it applies on Enter or when the field loses focus, so typing 4096 never computes T = 4,
// 40 and 409 on the way. Call right after the widget; `value` is what the widget wrote.
template <typename T>
bool commit(AppState& state, const char* field, bool edited, T& value, T before, bool text_box) {
  ControlsPanel& controls = state.controls;
  const ImGuiID id = ImGui::GetItemID();
  if (ImGui::TempInputIsActive(id) || (text_box && ImGui::IsItemActive())) {
    if (edited) controls.typed_values[id] = value;  // held until the field is left
    value = before;
    return false;
  }
  if (const auto typed = controls.typed_values.find(id); typed != controls.typed_values.end()) {
    // Left by Enter: this frame's value is final. Left by a click elsewhere: the held one.
    if (!edited && ImGui::IsItemDeactivatedAfterEdit()) {
      value = std::get<T>(typed->second);
      edited = value != before;
    }
    controls.typed_values.erase(typed);
  }
  if (edited) controls.last_edited_field = field;
  return edited;
}

bool slider(AppState& state, const char* field, const char* label, int64_t& value, int64_t low,
            int64_t high, const char* format, const char* help, ImGuiSliderFlags flags = 0) {
  const int64_t before = value;
  const bool edited =
      ImGui::SliderScalar(label, ImGuiDataType_S64, &value, &low, &high, format, flags);
  tooltip(help);
  return commit(state, field, edited, value, before, false);
}

// A collapsible group of controls, open at start.
bool section(const char* title) {
  return ImGui::CollapsingHeader(title, ImGuiTreeNodeFlags_DefaultOpen);
}

// [SECTION] config

void preset_picker(AppState& state) {
  const char* current =
      state.session.preset_name.empty() ? "(custom)" : state.session.preset_name.c_str();
  if (ImGui::BeginCombo("preset", current)) {
    for (const Preset& preset : state.session.presets) {
      const bool selected = preset.name == state.session.preset_name;
      if (ImGui::Selectable(preset.name.c_str(), selected)) apply_preset(state, preset.name);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", preset.title.c_str());
      if (selected) ImGui::SetItemDefaultFocus();
    }
    ImGui::EndCombo();
  }
  tooltip("Load a ready-made configuration: the seeds' examples and real model sizes.");
}

// The sentence box; when it gives no tokens, a line under it says the sample text is used.
bool sentence_control(AppState& state, std::string& sentence) {
  // Empty, the box itself says what is used; blank (only spaces), a line under it does.
  const bool changed =
      ImGui::InputTextWithHint("sentence", "empty: the built-in sample text", &sentence);
  tooltip("The tokens of the input; empty uses the built-in sample text.");
  // New characters (another script) need their glyphs in the font atlas.
  if (changed && needs_new_glyphs(sentence, state.window.font_text))
    state.window.fonts_dirty = true;
  const std::string notice = sentence.empty() ? "" : sample_text_notice("the sentence", sentence);
  if (notice.empty()) return changed;
  ImGui::PushStyleColor(ImGuiCol_Text, palette(state.ui.theme).text_dim);
  ImGui::TextWrapped("%s", notice.c_str());
  ImGui::PopStyleColor();
  state.frame.explained.push_back("sentence");
  return changed;
}

bool input_controls(AppState& state, Config& c) {
  bool changed = false;
  changed |= sentence_control(state, c.sentence);
  changed |= slider(
      state, "seq_len", "T (tokens)", c.seq_len, 0, 256, c.seq_len == 0 ? "= sentence" : "%d",
      "Sequence length T: 0 takes as many tokens as the sentence has, more cycles it.");
  issue_text(state, "seq_len");
  changed |= slider(state, "batch", "B (batch)", c.batch, 1, 64, "%d",
                    "Batch size B: how many sequences run at once (each gets its own maps).");
  issue_text(state, "batch");
  changed |= slider(state, "d_in", "d_in", c.d_in, 0, 1024, c.d_in == 0 ? "= d_model" : "%d",
                    "Width of the token embeddings X; 0 makes it equal to d_model.",
                    ImGuiSliderFlags_Logarithmic);
  issue_text(state, "d_in");
  return changed;
}

bool size_controls(AppState& state, Config& c) {
  bool changed = false;
  changed |= slider(state, "d_model", "d_model", c.d_model, 1, 1024, "%d",
                    "Model width: the output width and, by default, h times d_k.",
                    ImGuiSliderFlags_Logarithmic);
  issue_text(state, "d_model");
  changed |= slider(state, "n_heads", "n_heads", c.n_heads, 1, 32, "%d",
                    "Number of heads h: each gets its own Q, K, V slice and its own map.");
  issue_text(state, "n_heads");

  if (ImGui::Checkbox("d_k = d_model / n_heads", &state.ui.link_d_k)) {
    if (state.ui.link_d_k) {
      c.d_k = 0;
    } else {
      c.d_k = std::max<int64_t>(1, c.head_dim_k());
    }
    changed = true;
  }
  tooltip("Linked, each head gets d_model / n_heads dimensions; unlink to set d_k yourself.");
  ImGui::BeginDisabled(state.ui.link_d_k);
  int64_t d_k = c.head_dim_k();
  if (slider(state, "d_k", "d_k", d_k, 1, 512, "%d",
             "Per-head width of queries and keys (and values).", ImGuiSliderFlags_Logarithmic)) {
    c.d_k = d_k;
    changed = true;
  }
  ImGui::EndDisabled();
  issue_text(state, "d_k");
  return changed;
}

bool mask_controls(AppState& state, Config& c) {
  bool changed = false;
  MaskSpec& m = c.mask;
  changed |= ImGui::Checkbox("causal", &m.causal);
  tooltip("Each token sees only itself and the tokens before it, as in GPT.");
  // Applied on Enter or when the field is left, as typed numbers are.
  ImGui::InputText("padding lengths", &state.controls.padding_text);
  if (ImGui::IsItemDeactivatedAfterEdit() && apply_padding_text(state, m)) {
    state.controls.last_edited_field = "mask";
    changed = true;
  }
  tooltip(
      "Valid length per sequence (one for all, or one per batch item): later keys are padding.");
  if (!state.controls.padding_error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, palette(state.ui.theme).error);
    ImGui::TextWrapped("%s", state.controls.padding_error.c_str());
    ImGui::PopStyleColor();
  }
  // ImGui asserts that an int64 slider's range stays within +-2^62; T may be typed in far larger.
  const int64_t T = std::clamp<int64_t>(c.tokens(), 1, kMaxSliderRange);
  changed |= slider(state, "mask", "window", m.window, 0, T, m.window == 0 ? "off" : "%d",
                    "Sliding window: a query sees keys at most this far away (0 = off).");
  changed |= slider(state, "mask", "global tokens", m.global_tokens, 0, T, "%d",
                    "With a window: the first tokens see, and are seen by, every token.");
  issue_text(state, "mask");
  return changed;
}

// Issues whose control is in a collapsed section (or has no control), and a run that failed:
// said here, so every problem is on screen.
void remaining_problems(AppState& state) {
  for (const ConfigIssue& issue : state.session.issues) {
    const auto& shown = state.frame.explained;
    if (std::find(shown.begin(), shown.end(), issue.field) == shown.end())
      issue_text(state, issue.field.c_str());
  }
  if (state.session.run_error.empty()) return;
  ImGui::PushStyleColor(ImGuiCol_Text, palette(state.ui.theme).error);
  ImGui::TextWrapped("%s", state.session.run_error.c_str());
  ImGui::PopStyleColor();
  state.frame.explained.push_back("run");
}

bool model_controls(AppState& state, Config& c) {
  bool changed = false;
  const uint64_t seed_before = c.seed;
  const bool seed_edited = ImGui::InputScalar("seed", ImGuiDataType_U64, &c.seed);
  changed |= commit(state, "seed", seed_edited, c.seed, seed_before, true);
  tooltip(
      "Seed of the random weights: the same seed gives the same numbers everywhere (type, "
      "then Enter).");
  changed |= ImGui::Checkbox("biases", &c.bias);
  tooltip("Add bias vectors to the Q, K, V (and output) projections.");
  ImGui::SameLine();
  changed |= ImGui::Checkbox("output projection", &c.output_proj);
  tooltip("Mix the concatenated heads with W_o into d_model; off, the output is the concat.");
  float dropout = float(c.dropout);
  const float dropout_before = dropout;
  const bool dropout_edited = ImGui::SliderFloat("dropout", &dropout, 0.0f, 0.9f, "%.2f");
  if (commit(state, "dropout", dropout_edited, dropout, dropout_before, false)) {
    c.dropout = dropout;
    changed = true;
  }
  tooltip("Probability of zeroing each attention weight (survivors scaled by 1/(1-p)).");
  issue_text(state, "dropout");
  return changed;
}

// [SECTION] display and export

void display_controls(AppState& state) {
  UiSettings& ui = state.ui;
  int theme = int(ui.theme);
  ImGui::RadioButton("light", &theme, int(Theme::Light));
  tooltip("Light theme: best on projectors.");
  ImGui::SameLine();
  ImGui::RadioButton("dark", &theme, int(Theme::Dark));
  tooltip("Dark theme: for screens in a dim room.");
  if (theme != int(ui.theme)) {
    ui.theme = Theme(theme);
    state.window.fonts_dirty = true;  // the style is rebuilt with the fonts
  }
  ImGui::SliderFloat("font scale", &ui.font_scale, kMinFontScale, kMaxFontScale, "%.2f");
  tooltip("Text size for the back row; the font is re-rendered at this size when you let go.");
  if (ImGui::IsItemDeactivatedAfterEdit()) state.window.fonts_dirty = true;

  int view = int(ui.heatmap_view);
  if (ImGui::Combo("heatmaps", &view, "weights\0raw scores\0scaled scores\0masked scores\0"))
    ui.heatmap_view = HeatmapView(view);
  tooltip("What the heads panel shows: the softmax weights, or the scores before it.");
  int scale = int(ui.colour_scale);
  if (ImGui::Combo("weight colours", &scale, "per map: 0 .. its max\0per row: 0 .. row max\0"
                                              "log: 1e-4 .. 1\0fixed: 0 .. 1\0"))
    ui.colour_scale = ColourScale(scale);
  tooltip("How attention weights become colours (S cycles). Long sequences have weights near 1/T:\n"
          "per map stretches each head's map to its largest weight, per row each query's row,\n"
          "log shows orders of magnitude, fixed is the plain 0 .. 1. Scores keep their scale.");
  if (state.session.trace && state.session.trace->config.batch > 1)
    slider(state, "batch_shown", "sequence shown", state.walk.batch_shown, 0,
           state.session.trace->config.batch - 1, "b = %d",
           "Which sequence of the batch the tensors and heatmaps show.");
  ImGui::SliderFloat("play speed", &ui.steps_per_second, 0.1f, 4.0f, "%.1f steps/s");
  tooltip("How fast Space walks through the stages.");
  ImGui::SliderFloat("animation", &ui.animation_seconds, 0.0f, 2.0f, "%.1f s");
  tooltip("How long each stage's animation lasts (0 = jump).");
  ImGui::Checkbox("values in cells", &ui.show_values);
  tooltip("Print each number inside its cell when the cells are big enough.");
}

void export_controls(AppState& state) {
  if (ImGui::Button("Save window PNG"))
    state.window.export_request = ExportRequest{std::nullopt, ""};
  tooltip("Save the whole window as a PNG in the current folder (Ctrl+S).");
  ImGui::SameLine();
  if (ImGui::Button("Save heads PNG"))
    state.window.export_request = ExportRequest{PanelId::Heads, ""};
  tooltip("Save only the heads panel as a PNG, for slides.");
  if (state.window.export_message.empty()) return;
  if (!state.window.export_failed) {
    ImGui::TextWrapped("%s", state.window.export_message.c_str());
    return;
  }
  ImGui::PushStyleColor(ImGuiCol_Text, palette(state.ui.theme).error);
  ImGui::TextWrapped("%s", state.window.export_message.c_str());
  ImGui::PopStyleColor();
  state.frame.explained.push_back("export");
}

}  // namespace

void draw_controls_panel(AppState& state) {
  if (begin_panel(state, PanelId::Controls, "Controls")) {
    state.controls.focused = ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows);
    ImGui::PushItemWidth(ImGui::GetContentRegionAvail().x * 0.52f);
    preset_picker(state);
    Config config = state.session.config;
    bool changed = false;
    if (section("Input")) changed |= input_controls(state, config);
    if (section("Heads")) changed |= size_controls(state, config);
    if (section("Mask")) changed |= mask_controls(state, config);
    if (section("Model")) changed |= model_controls(state, config);
    if (changed) {
      state.session.preset_name.clear();  // it is the user's own config now
      set_config(state, config);
    }
    remaining_problems(state);
    if (section("Display")) display_controls(state);
    if (section("Export")) export_controls(state);
    ImGui::PopItemWidth();
  }
  ImGui::End();
}

}  // namespace attnlab::gui
