// The Controls' "Pretrained model" section: a Hugging Face folder (typed, picked from the recent
// ones, dropped on the window or given with --model), loaded in the background with its progress
// and Cancel; the error beside the field; the layer shown as the trace.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cfloat>
#include <cstdio>

#include "app/gui/look/theme.hpp"
#include "app/gui/look/wrap.hpp"
#include "app/gui/model/model_panels.hpp"
#include "app/gui/panels/config_widgets.hpp"
#include "app/gui/panels/job_status.hpp"
#include "app/gui/panels/panels.hpp"

namespace attnlab::gui {

namespace {

void red_line(AppState& state, const std::string& text, const char* field) {
  error_text(state, text);
  state.frame.explained.push_back(field);
}

void dim_line(AppState& state, const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, palette(state.ui.theme).text_dim);
  text_wrapped(text);
  ImGui::PopStyleColor();
}

}  // namespace

void model_folder_row(AppState& state, float leave) {
  ModelTab& tab = state.model;
  const ImGuiStyle& style = ImGui::GetStyle();
  const float open_w = ImGui::CalcTextSize("Open").x + 2 * style.FramePadding.x;
  const float buttons_w = open_w + ImGui::GetFrameHeight() + 2 * style.ItemInnerSpacing.x;
  // The field takes what the row leaves after Open and the recent folders' arrow; in a panel too
  // narrow for a field of 4 em beside them, the buttons go under the field.
  const float room = ImGui::GetContentRegionAvail().x - leave;
  const bool one_row = room - buttons_w >= ImGui::GetFontSize() * 4;
  ImGui::SetNextItemWidth(one_row ? room - buttons_w : room);
  const bool entered =
      ImGui::InputTextWithHint("##model_folder", field_hint("a Hugging Face model folder").c_str(),
                               &tab.folder_text, ImGuiInputTextFlags_EnterReturnsTrue);
  note_text_field();
  tooltip(
      "A model folder as Hugging Face saves it (config.json and .safetensors; GPT-2, Llama, "
      "Mistral, Qwen2, BERT). Enter or Open loads it; a folder dropped on the window too.");
  if (one_row) ImGui::SameLine(0, style.ItemInnerSpacing.x);
  ImGui::BeginDisabled(tab.folder_text.empty());
  const bool open = ImGui::Button("Open");
  ImGui::EndDisabled();
  tooltip("Load the folder's weights and tokenizer, and show its layer as the trace.");
  if ((entered || open) && !tab.folder_text.empty())
    state.requests.later([folder = tab.folder_text](AppState& s) { start_model_load(s, folder); });
  ImGui::SameLine(0, style.ItemInnerSpacing.x);
  ImGui::BeginDisabled(state.ui.recent_models.empty());
  if (ImGui::BeginCombo("##recent_models", "", ImGuiComboFlags_NoPreview)) {
    for (const std::string& folder : state.ui.recent_models)
      if (ImGui::Selectable(folder.c_str(), folder == tab.folder))
        state.requests.later([folder](AppState& s) { start_model_load(s, folder); });
    ImGui::EndCombo();
  }
  ImGui::EndDisabled();
  tooltip("The folders opened last, the latest first.");
}

void draw_model_section(AppState& state) {
  ModelTab& tab = state.model;
  model_folder_row(state);
  if (!tab.loading.empty()) {
    draw_task_status(tab.load, "model_load", palette(state.ui.theme).error);
    dim_line(state, "Opening " + tab.loading + " ...");
  }
  if (!tab.error.empty()) red_line(state, tab.error, "model");
  if (!tab.session) {
    dim_line(state, "Open a model to see its real heads at every stage (attnlab --model DIR).");
    return;
  }
  const ModelSpec& spec = tab.session->model.spec;
  char about[160];
  std::snprintf(about, sizeof about, "%s (%s): %lld layers x %lld heads, d_model %lld, vocab %lld",
                tab.name.c_str(), spec.arch->name.c_str(), (long long)spec.n_layers,
                (long long)spec.n_heads, (long long)spec.d_model, (long long)spec.vocab);
  dim_line(state, about);
  if (!tab.session->tokenizer)
    dim_line(state, "No tokenizer in the folder: the sentence is token ids (5, 17, 42).");
  int64_t layer = tab.layer;
  const int64_t first = 0, last = std::max<int64_t>(spec.n_layers - 1, 0);
  const bool moved = ImGui::SliderScalar(field_label(state, "layer").c_str(), ImGuiDataType_S64,
                                         &layer, &first, &last, "%lld");
  tooltip("The layer whose attention is the trace: every stage and the heads panel show it.");
  if (moved) {
    layer = std::clamp<int64_t>(layer, 0, last);
    state.requests.later([layer](AppState& s) { show_model_layer(s, layer); });
  }
  if (!model_is_current(state)) {
    if (wrapped_button("Show the model again"))
      state.requests.later([layer = tab.layer](AppState& s) { show_model_layer(s, layer); });
    tooltip("A preset (or an edited setting) is shown now: back to the model's layer.");
  }
}

void model_sentence_notes(AppState& state) {
  ModelTab& tab = state.model;
  // A real model's pass can take seconds: its progress and Cancel (the previous run stays shown).
  draw_task_status(tab.sentence_run, "model_sentence", palette(state.ui.theme).error,
                   "running the model on the sentence", "Run it again");
  if (!tab.sentence_error.empty()) {
    red_line(state, tab.sentence_error, "sentence");
    return;
  }
  if (tab.sentence.empty()) dim_line(state, "empty: \"" + default_model_sentence(tab) + "\"");
  dim_line(state, std::to_string(tab.tokens.ids.size()) + " tokens, as " + tab.name + " reads it");
}

void model_decode_note(AppState& state) {
  if (!model_is_current(state)) return;
  ModelTab& tab = state.model;
  dim_line(state, "Layer " + std::to_string(tab.layer) + " of " + tab.name +
                      ", with its real weights: the sentence's last tokens decoded through this "
                      "layer with its KV cache. New tokens from the whole model:");
  if (ImGui::Button("Generate with the whole model (Model tab)")) {
    state.tabs.requested_tool = ToolTab::Model;
    tab.requested_page = ModelPage::NextToken;
  }
  tooltip(
      "The Model tab's Next token page: the top 10, and greedy generation with every "
      "layer's KV cache.");
}

}  // namespace attnlab::gui
