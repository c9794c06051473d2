// The controls: every setting of the config, the display options and export. An invalid
// combination is explained in red under the control it names; the last valid trace stays.
#include <imgui.h>
#include <imgui_internal.h>  // TempInputIsActive: is a number being typed into a slider
#include <imgui_stdlib.h>

#include <algorithm>
#include <cfloat>

#include "app/gui/export/vector_export.hpp"
#include "app/gui/look/theme.hpp"
#include "app/gui/look/wrap.hpp"
#include "app/gui/model/model_panels.hpp"
#include "app/gui/panels/config_widgets.hpp"
#include "app/gui/panels/panels.hpp"
#include "app/gui/panels/text_field.hpp"
#include "app/gui/positions/positions_panels.hpp"
#include "app/gui/variants/variant_panels.hpp"
#include "core/model/tokenizer.hpp"

namespace attnlab::gui {

namespace {

// [SECTION] widgets over int64 config fields

constexpr int64_t kMaxSliderRange = int64_t{1} << 20;
constexpr int64_t kMostHeadsOffered = 64;  // the n_heads slider's range; more can be typed

// A collapsible group of controls, open at start.
bool section(const char* title) {
  return section_header(title, "", ImGuiTreeNodeFlags_DefaultOpen);
}

// [SECTION] config

// The sentence box; when it gives no tokens, a line under it says the sample text is used.
bool sentence_control(AppState& state, std::string& sentence) {
  // Empty, the box itself says what is used; blank (only spaces), a line under it does.
  const bool changed = text_field(state, field_label(state, "sentence").c_str(),
                                  "empty: the built-in sample text", sentence);
  tooltip("The tokens of the input; empty uses the built-in sample text.");
  // New characters (another script) need their glyphs in the font atlas.
  if (changed && needs_new_glyphs(sentence, state.window.font_text))
    state.window.fonts_dirty = true;
  const std::string notice = sentence.empty() ? "" : sample_text_notice("the sentence", sentence);
  if (notice.empty()) return changed;
  ImGui::PushStyleColor(ImGuiCol_Text, palette(state.ui.theme).text_dim);
  text_wrapped(notice);
  ImGui::PopStyleColor();
  state.frame.explained.push_back("sentence");
  return changed;
}

bool input_controls(AppState& state, Config& c) {
  bool changed = false;
  if (model_is_current(state)) {  // the sentence the real model reads
    std::string sentence = state.model.sentence;
    if (sentence_control(state, sentence))
      state.requests.later([sentence](AppState& s) { set_model_sentence(s, sentence); });
    model_sentence_notes(state);
  } else {
    changed |= sentence_control(state, c.sentence);
  }
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
  changed |= valid_value_slider(
      state, "n_heads", "n_heads", c.n_heads, valid_head_counts(c, kMostHeadsOffered),
      "Number of heads h: each gets its own Q, K, V slice and its own map. The slider stops only "
      "on valid counts (Ctrl+click types any).");
  issue_text(state, "n_heads");

  if (ImGui::Checkbox("link d_k", &state.ui.link_d_k)) {
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
  const std::vector<int64_t> widths =
      state.ui.link_d_k ? std::vector<int64_t>{d_k} : valid_values(c, &Config::d_k, 1, 512);
  if (valid_value_slider(state, "d_k", "d_k", d_k, widths,
                         "Per-head width of queries and keys (and values): stops only on valid "
                         "widths (Ctrl+click types any).",
                         d_k < 1 ? "none: d_model < n_heads" : "", ImGuiSliderFlags_Logarithmic)) {
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
  ImGui::InputText(field_label(state, "padding").c_str(), &state.controls.padding_text);
  note_text_field();
  if (ImGui::IsItemDeactivatedAfterEdit() && apply_padding_text(state, m)) {
    state.controls.last_edited_field = "mask";
    changed = true;
  }
  tooltip(
      "Valid length per sequence (one for all, or one per batch item): later keys are padding.");
  if (!state.controls.padding_error.empty()) {
    error_text(state, state.controls.padding_error);
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
  error_text(state, state.session.run_error);
  state.frame.explained.push_back("run");
}

bool model_controls(AppState& state, Config& c) {
  bool changed = false;
  const uint64_t seed_before = c.seed;
  const bool seed_edited =
      ImGui::InputScalar(field_label(state, "seed").c_str(), ImGuiDataType_U64, &c.seed);
  changed |= commit(state, "seed", seed_edited, c.seed, seed_before, true);
  tooltip(
      "Seed of the random weights: the same seed gives the same numbers everywhere (type, "
      "then Enter).");
  changed |= ImGui::Checkbox("biases", &c.bias);
  tooltip("Add bias vectors to the Q, K, V (and output) projections.");
  ImGui::SameLine();
  changed |= ImGui::Checkbox("W_o", &c.output_proj);
  tooltip("Mix the concatenated heads with W_o into d_model; off, the output is the concat.");
  float dropout = float(c.dropout);
  const float dropout_before = dropout;
  const bool dropout_edited =
      ImGui::SliderFloat(field_label(state, "dropout").c_str(), &dropout, 0.0f, 0.9f, "%.2f");
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
  ImGui::SliderFloat(field_label(state, "font scale").c_str(), &ui.font_scale, kMinFontScale,
                     kMaxFontScale, "%.2f");
  tooltip("Text size for the back row; the font is re-rendered at this size when you let go.");
  if (ImGui::IsItemDeactivatedAfterEdit()) state.window.fonts_dirty = true;

  int view = int(ui.heatmap_view);
  if (ImGui::Combo(field_label(state, "heatmaps").c_str(), &view,
                   "weights\0raw scores\0scaled scores\0masked scores\0"))
    ui.heatmap_view = HeatmapView(view);
  tooltip("What the heads panel shows: the softmax weights, or the scores before it.");
  int scale = int(ui.colour_scale);
  if (ImGui::Combo("weight colours", &scale,
                   "per map: 0 .. its max\0per row: 0 .. row max\0"
                   "log: 1e-4 .. 1\0fixed: 0 .. 1\0"))
    ui.colour_scale = ColourScale(scale);
  tooltip(
      "How attention weights become colours (S cycles). Long sequences have weights near 1/T:\n"
      "per map stretches each head's map to its largest weight, per row each query's row,\n"
      "log shows orders of magnitude, fixed is the plain 0 .. 1. Scores keep their scale.");
  if (state.session.trace && state.session.trace->config.batch > 1)
    slider(state, "batch_shown", "sequence shown", state.walk.batch_shown, 0,
           state.session.trace->config.batch - 1, "b = %d",
           "Which sequence of the batch the tensors and heatmaps show.");
  ImGui::SliderFloat(field_label(state, "play speed").c_str(), &ui.steps_per_second, 0.1f, 4.0f,
                     "%.1f steps/s");
  tooltip("How fast Space walks through the stages.");
  ImGui::SliderFloat(field_label(state, "animation").c_str(), &ui.animation_seconds, 0.0f, 2.0f,
                     "%.1f s");
  tooltip("How long each stage's animation lasts (0 = jump).");
  ImGui::Checkbox("values in cells", &ui.show_values);
  tooltip("Print each number inside its cell when the cells are big enough.");
}

void export_controls(AppState& state) {
  if (ImGui::Button("Save picture...")) state.save.open = true;
  tooltip(
      "The picture alone (no controls) as a PNG or the stages as a GIF or MP4, at any size, "
      "light or dark, with the font scale you choose (Ctrl+Shift+E); Record keeps what you step "
      "through (Ctrl+Shift+R).");
  if (ImGui::Button("Save window PNG"))
    state.window.export_request = ExportRequest{std::nullopt, ""};
  tooltip("Save the whole window as a PNG in the current folder (Ctrl+S).");
  // Side by side when both fit, else one under the other.
  const float heads_w =
      ImGui::CalcTextSize("Save heads PNG").x + 2 * ImGui::GetStyle().FramePadding.x;
  if (ImGui::GetContentRegionAvail().x - ImGui::GetItemRectSize().x > heads_w + 8)
    ImGui::SameLine();
  if (ImGui::Button("Save heads PNG"))
    state.window.export_request = ExportRequest{PanelId::Heads, ""};
  tooltip("Save only the heads panel as a PNG, for slides.");
  if (ImGui::Button("Save maps SVG"))
    state.window.export_request = ExportRequest{std::nullopt, "", false, true};
  tooltip(
      "The heads' maps, the shape journey and the focused head as a vector image (one cell "
      "per weight, the tokens as text): sharp in a paper or a slide (Ctrl+Shift+S).");
#ifndef __EMSCRIPTEN__  // cairo writes the PDF: the desktop only (the page saves SVG)
  ImGui::SameLine();
  if (ImGui::Button("PDF##maps"))
    state.window.export_request = ExportRequest{std::nullopt, maps_file_name("pdf"), false, true};
  tooltip("The same picture as a one-page PDF (vector cells, the tokens as text).");
#endif
  if (ImGui::Button("Save tensors (.npy in a .zip)"))
    state.window.export_request = ExportRequest{std::nullopt, "", true};
  tooltip(
      "Every stage tensor and parameter of this trace as a float32 .npy, with trace.json, in one "
      ".zip: np.load each file to check the numbers in NumPy or PyTorch (Ctrl+E).");
  if (!state.window.platform_note.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, palette(state.ui.theme).text_dim);
    text_wrapped(state.window.platform_note);
    ImGui::PopStyleColor();
  }
  if (state.window.export_message.empty()) return;
  if (!state.window.export_failed) {
    text_wrapped(state.window.export_message);
    return;
  }
  error_text(state, state.window.export_message);
  state.frame.explained.push_back("export");
}

}  // namespace

void draw_controls_panel(AppState& state) {
  if (begin_panel(state, PanelId::Controls, "Controls")) {
    // Labels to the right of their fields while the longest fits beside a field of 7 em; in a
    // narrower panel (a projector's large font) each label goes on a line above its field.
    const float font = ImGui::GetFontSize();
    const float room = ImGui::GetContentRegionAvail().x;
    const float longest_label = ImGui::CalcTextSize("sequence shown").x;
    state.controls.stacked_labels = room < longest_label + 7 * font;
    ImGui::PushItemWidth(state.controls.stacked_labels ? -FLT_MIN
                                                       : room - longest_label - font * 0.5f);
    preset_picker(state);
    // Folded until a model is open (or opening, or failed to): the presets' lessons keep the room.
    const ModelTab& model = state.model;
    if (!model.loading.empty() || !model.error.empty()) ImGui::SetNextItemOpen(true);
    if (section_header(
            "Pretrained model",
            "Open a Hugging Face model folder: its real heads at every stage (key 0: Model tab).",
            model.session ? ImGuiTreeNodeFlags_DefaultOpen : 0))
      draw_model_section(state);
    Config config = state.session.config;
    bool changed = false;
    if (section("Input")) changed |= input_controls(state, config);
    if (section("Heads")) changed |= size_controls(state, config);
    if (section("Mask")) changed |= mask_controls(state, config);
    if (section("Model")) changed |= model_controls(state, config);
    // The seeds' "Coming next": word order first (positions other than the default open it).
    const bool variant = config.grouped() || config.cross() || config.decode_steps > 0 ||
                         config.latent() || config.pos != PositionEncoding::Sinusoidal;
    if (section_header("Next lessons###next",
                       "Next lessons: positions, GQA, KV cache, MLA, cross-attention.",
                       variant ? ImGuiTreeNodeFlags_DefaultOpen : 0)) {
      changed |= position_control(state, config);
      changed |= variant_controls(state, config);
    }
    if (changed) {
      state.requests.later([config](AppState& s) {
        s.session.preset_name.clear();  // it is the user's own config now
        set_config(s, config);
      });
    }
    remaining_problems(state);
    if (section("Display")) display_controls(state);
    if (section("Export")) export_controls(state);
    ImGui::PopItemWidth();
  }
  ImGui::End();
}

}  // namespace attnlab::gui
