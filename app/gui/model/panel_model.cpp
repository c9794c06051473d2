// The Model tab (key 0): a real model's heads. Left, the model view (every layer x head as a small
// map, as BertViz's model view), the shown layer and head outlined; a click opens that head in the
// pipeline and the heads panel. Right, the head finder's table (sortable by each column) and the
// next token: the top 10 with their probabilities, and what switching heads off does to them and
// to the loss over the sentence.
#include <imgui.h>
#include <imgui_internal.h>  // TableSetColumnSortDirection: the tab's own sort drives the table

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app/gui/look/colormap.hpp"
#include "app/gui/look/theme.hpp"
#include "app/gui/look/wrap.hpp"
#include "app/gui/model/model_panels.hpp"
#include "app/gui/model/model_view_maps.hpp"
#include "app/gui/panels/fitted_type.hpp"
#include "app/gui/panels/heatmap_drawer.hpp"
#include "app/gui/panels/job_status.hpp"
#include "app/gui/panels/panels.hpp"
#include "app/gui/state/gui_words.hpp"

namespace attnlab::gui {

namespace {

void dim_text(const AppState& state, const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, palette(state.ui.theme).text_dim);
  text_wrapped(text);
  ImGui::PopStyleColor();
}

std::string head_name(int64_t layer, int64_t head) {
  return "L" + std::to_string(layer) + " h" + std::to_string(head);
}

// The head shown in the heads panel (focused) when the model's layer is the trace; -1: none.
int64_t focused_head(const AppState& state) {
  return model_is_current(state) ? state.heads.focus.head : -1;
}

bool is_off(const std::vector<HeadSwitch>& off, int64_t layer, int64_t head) {
  return std::find(off.begin(), off.end(), HeadSwitch{layer, head}) != off.end();
}

// [SECTION] the model view

// The run's maps, built once per run (model_view_maps) and uploaded once per build.
const HeatmapSet& view_maps(ModelTab& tab, HeatmapDrawer* drawer) {
  if (tab.view_maps_of != tab.run) {
    tab.view_maps = model_view_maps(*tab.run, !tab.session || tab.session->model.spec.causal);
    tab.view_maps_of = tab.run;
    ++tab.view_maps_builds;
  }
  if (drawer) drawer->prepare(tab.view_maps, tab.view_maps_builds, HeatmapSlot::ModelView);
  return tab.view_maps;
}

void model_view(AppState& state, HeatmapDrawer* drawer) {
  ModelTab& tab = state.model;
  const PretrainedRun& run = *tab.run;
  const auto layers = int64_t(run.layers.size());
  if (layers == 0) return;
  const int64_t heads = run.layers[0].weights.size(1), T = run.layers[0].weights.size(2);
  const float font = ImGui::GetFontSize();
  const ImGuiStyle& style = ImGui::GetStyle();
  const float label_w = ImGui::CalcTextSize("L00").x + style.ItemInnerSpacing.x;
  const float top_h = ImGui::GetTextLineHeightWithSpacing();
  const ImVec2 room = ImGui::GetContentRegionAvail();
  const float gap = std::max(2.0f, font * 0.25f);
  // The caption under the maps, and the grey rows' legend where the maps have even rows
  // (colormap.hpp).
  char caption[96];
  std::snprintf(caption, sizeof caption, "%lld layers x %lld heads, T = %lld (each row to its max)",
                (long long)layers, (long long)heads, (long long)T);
  const HeatmapSet& maps = view_maps(tab, drawer);
  std::vector<std::string> below{caption};
  if (maps.even_rows > 0) below.push_back(std::string("grey = ") + kEvenRowLegend);
  // Wrapped half a font short of the room's edge, which the child's clip may reach.
  const auto measure = [](const std::string& text) { return ImGui::CalcTextSize(text.c_str()).x; };
  std::vector<std::string> lines;
  for (const std::string& text : below)
    for (const std::string& line : wrap_at_spaces(text, room.x - font * 0.5f, measure))
      lines.push_back(line);
  const float below_h = gap + float(lines.size()) * ImGui::GetTextLineHeightWithSpacing();
  // The largest square maps that fit the room; small ones scroll (GPT-2 small: 12 x 12).
  const float side =
      std::max(font * 0.8f, std::floor(std::min((room.x - label_w) / float(heads) - gap,
                                                (room.y - top_h - below_h) / float(layers) - gap)));
  const std::vector<HeadSwitch> off = switched_off_heads(state);
  const bool current = model_is_current(state);
  const int64_t focus = focused_head(state);
  const Palette& colours = palette(state.ui.theme);
  ImDrawList* list = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  // Head numbers on top, layer numbers on the left (every one while they fit, else every k-th).
  const int every = std::max(1, int(std::ceil(ImGui::CalcTextSize("h00").x / (side + gap))));
  for (int64_t h = 0; h < heads; h += every) {
    const std::string text = "h" + std::to_string(h);
    list->AddText(ImVec2(origin.x + label_w + float(h) * (side + gap), origin.y), colours.text_dim,
                  text.c_str());
  }
  const int every_row = std::max(1, int(std::ceil(ImGui::GetTextLineHeight() / (side + gap))));
  tab.drawn.clear();
  // The maps first, as textured quads under the outlines, crosses and hover frames drawn below.
  const auto map_at = [&](int64_t l, int64_t h) {
    return ImVec2(origin.x + label_w + float(h) * (side + gap),
                  origin.y + top_h + float(l) * (side + gap));
  };
  std::vector<HeatmapPlacement> placements;
  for (int64_t l = 0; l < layers; ++l)
    for (int64_t h = 0; h < heads; ++h) {
      const ImVec2 at = map_at(l, h);
      placements.push_back({int(l * heads + h), at, ImVec2(at.x + side, at.y + side)});
    }
  if (drawer && drawer->error().empty())
    drawer->draw(list, maps, placements, HeatmapSlot::ModelView);
  for (int64_t l = 0; l < layers; ++l) {
    const float y = origin.y + top_h + float(l) * (side + gap);
    if (l % every_row == 0) {
      const std::string text = "L" + std::to_string(l);
      list->AddText(ImVec2(origin.x, y + (side - ImGui::GetTextLineHeight()) * 0.5f),
                    current && l == tab.layer ? colours.accent : colours.text_dim, text.c_str());
    }
    for (int64_t h = 0; h < heads; ++h) {
      const ImVec2 at = map_at(l, h);
      const ImVec2 end(at.x + side, at.y + side);
      tab.drawn.push_back({l, h, at, end});
      ImGui::SetCursorScreenPos(at);
      ImGui::PushID(int(l * heads + h));
      const bool clicked = ImGui::InvisibleButton("##head_map", ImVec2(side, side));
      const bool twice = ImGui::IsItemHovered() && ImGui::IsMouseDoubleClicked(0);
      if (ImGui::IsItemHovered()) {
        list->AddRect(at, end, colours.text, 0, 0, 2.0f);
        const FoundHead* found = nullptr;
        for (const FoundHead& f : tab.found)
          if (f.layer == l && f.head == h) found = &f;
        if (found)
          ImGui::SetTooltip(
              "%s: previous %.2f, first %.2f, same %.2f, entropy %.2f bits, induction %.2f\n"
              "Click: show it in the pipeline and the heads panel; double-click: the stage view.",
              head_name(l, h).c_str(), found->previous, found->first, found->same, found->entropy,
              found->induction);
      }
      ImGui::PopID();
      if (clicked) state.requests.later([l, h](AppState& s) { open_model_head(s, l, h); });
      if (twice) state.tabs.requested_tool = ToolTab::Tensors;
      if (is_off(off, l, h)) {  // switched off: crossed out
        list->AddLine(at, end, colours.error, 2.0f);
        list->AddLine(ImVec2(at.x, end.y), ImVec2(end.x, at.y), colours.error, 2.0f);
      }
    }
    if (current && l == tab.layer) {  // the shown layer, and its focused head
      const float pad = gap * 0.5f;
      list->AddRect(ImVec2(origin.x + label_w - pad, y - pad),
                    ImVec2(origin.x + label_w + float(heads) * (side + gap) - pad, y + side + pad),
                    colours.accent, 0, 0, 1.0f);
      if (focus >= 0 && focus < heads) {
        const ImVec2 at(origin.x + label_w + float(focus) * (side + gap), y);
        list->AddRect(ImVec2(at.x - pad, at.y - pad), ImVec2(at.x + side + pad, at.y + side + pad),
                      colours.accent, 0, 0, 3.0f);
      }
    }
  }
  ImGui::SetCursorScreenPos(
      ImVec2(origin.x, origin.y + top_h + float(layers) * (side + gap) + gap));
  ImGui::PushStyleColor(ImGuiCol_Text, colours.text_dim);
  for (const std::string& line : lines) ImGui::TextUnformatted(line.c_str());
  ImGui::PopStyleColor();
}

// [SECTION] the head finder

void head_finder(AppState& state) {
  ModelTab& tab = state.model;
  if (tab.found.empty() && tab.finding.busy()) {
    dim_text(state, "Finding the heads (the induction run on a repeated random sequence)...");
    return;
  }
  if (tab.found.empty() && !tab.finding.error().empty()) {
    dim_text(state, "The head finder failed: " + tab.finding.error());
    return;
  }
  const ImGuiTableFlags flags = ImGuiTableFlags_Sortable | ImGuiTableFlags_RowBg |
                                ImGuiTableFlags_BordersOuter | ImGuiTableFlags_BordersInnerV |
                                ImGuiTableFlags_ScrollY | ImGuiTableFlags_ScrollX |
                                ImGuiTableFlags_SizingFixedFit;
  // As tall as its rows where the region's type can shrink until they fit (a small model's heads
  // are shown whole); otherwise the panel's height, scrolling at the whole type (GPT-2's 144).
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float row_h = ImGui::GetTextLineHeight() + 2 * ImGui::GetStyle().CellPadding.y;
  const float whole = row_h * float(tab.found.size() + 1) + 2;  // the header and the borders
  const float height = whole * fitted_type_room(state) <= avail.y ? whole : avail.y;
  if (!ImGui::BeginTable("##head_finder", kFinderColumns, flags, ImVec2(avail.x, height))) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  const char* tips[kFinderColumns] = {
      "Layer and head (L1 h3); click a row to show it in the pipeline and the heads panel.",
      "Previous token: the mean weight on key t-1 (queries t >= 1), on the sentence.",
      "First token (the sink): the mean weight on key 0 (queries t >= 1).",
      "Same token: the mean weight on key t.",
      "Entropy of a query's weights, in bits (low: sharp, high: spread out).",
      "Induction: on random tokens repeated once, the weight from each repeat to the token after "
      "its earlier copy."};
  for (int c = 0; c < kFinderColumns; ++c)
    ImGui::TableSetupColumn(finder_column_name(FinderColumn(c)),
                            c == 0 ? ImGuiTableColumnFlags_DefaultSort : 0);
  // The header row, with a tooltip per column.
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  for (int c = 0; c < kFinderColumns; ++c) {
    if (!ImGui::TableSetColumnIndex(c)) continue;
    ImGui::TableHeader(ImGui::TableGetColumnName(c));
    tooltip(tips[c]);
  }
  if (ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs()) {
    if (specs->SpecsDirty && specs->SpecsCount > 0) {  // a click on a header
      tab.sort_column = FinderColumn(specs->Specs[0].ColumnIndex);
      tab.sort_descending = specs->Specs[0].SortDirection == ImGuiSortDirection_Descending;
    } else if (specs->SpecsCount == 0 || specs->Specs[0].ColumnIndex != int(tab.sort_column) ||
               (specs->Specs[0].SortDirection == ImGuiSortDirection_Descending) !=
                   tab.sort_descending) {  // the tab's sort, set elsewhere, drives the arrows
      ImGui::TableSetColumnSortDirection(
          int(tab.sort_column),
          tab.sort_descending ? ImGuiSortDirection_Descending : ImGuiSortDirection_Ascending,
          false);
    }
    specs->SpecsDirty = false;
  }
  tab.finder_order = sorted_heads(tab.found, tab.sort_column, tab.sort_descending);
  const int64_t focus = focused_head(state);
  const Palette& colours = palette(state.ui.theme);
  for (const int row : tab.finder_order) {
    const FoundHead& f = tab.found[size_t(row)];
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    const bool selected = model_is_current(state) && f.layer == tab.layer && f.head == focus;
    const std::string name = head_name(f.layer, f.head);
    if (ImGui::Selectable(name.c_str(), selected, ImGuiSelectableFlags_SpanAllColumns))
      state.requests.later([l = f.layer, h = f.head](AppState& s) { open_model_head(s, l, h); });
    const double scores[] = {f.previous, f.first, f.same, f.entropy, f.induction};
    for (int c = 1; c < kFinderColumns; ++c) {
      ImGui::TableSetColumnIndex(c);
      const double value = scores[c - 1];
      // The fractions' cells tinted by their value (entropy is in bits, not a fraction).
      if (FinderColumn(c) != FinderColumn::Entropy && value > 0.05) {
        ImVec4 tint = ImGui::ColorConvertU32ToFloat4(colours.accent);
        tint.w = float(std::clamp(value, 0.0, 1.0)) * 0.45f;
        ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, ImGui::GetColorU32(tint));
      }
      ImGui::Text("%.2f", value);
    }
  }
  ImGui::EndTable();
}

// [SECTION] the next token

// The top tokens as bars, each scaled to the most probable one, with the piece and its percent.
void token_bars(const AppState& state, const std::vector<TopToken>& top) {
  const float width = std::max(ImGui::GetFontSize() * 3, ImGui::GetContentRegionAvail().x * 0.4f);
  const double largest = top.empty() ? 1.0 : std::max(top.front().probability, 1e-12);
  // Ten rows close together: all of them fit under the heading at 720 rows and font scale 1.5.
  ImGui::PushStyleVar(
      ImGuiStyleVar_ItemSpacing,
      ImVec2(ImGui::GetStyle().ItemSpacing.x, std::max(1.0f, ImGui::GetFontSize() * 0.08f)));
  for (const TopToken& t : top) {
    char text[160];
    std::snprintf(text, sizeof text, "%5.1f %%  %s", 100.0 * t.probability,
                  piece_of(*state.model.session, t.id).c_str());
    value_bar(float(t.probability / largest), width, palette(state.ui.theme).accent, text);
  }
  ImGui::PopStyleVar();
}

// Heads switched off: the loss over the sentence before -> after, and the top 10 at `position`
// with each token's probability before and after. The pass without them is a job: while it
// computes, its progress and Cancel (the window never waits for it).
void switched_off_effect(AppState& state, int64_t position, double temperature) {
  ModelTab& tab = state.model;
  const HeadsOffRun* off = heads_off_run(state);
  const bool waiting = draw_task_status(tab.heads_off, "heads_off", palette(state.ui.theme).error,
                                        "computing without them", "Compute again");
  if (waiting || !off) return;
  const PretrainedRun* off_run = off->run.get();
  std::string names;
  for (const HeadSwitch& s : tab.heads_off.key()->choice.off)
    names += (names.empty() ? "" : ", ") + head_name(s.layer, s.head);
  heading(state, ("Switched off: " + names).c_str());
  if (tab.session->model.spec.causal) {
    const double before = tab.run_loss, after = off->loss;
    ImGui::Text("next-token loss over the sentence: %.3f -> %.3f nats (%+.3f)", before, after,
                after - before);
    tooltip("Mean cross-entropy of each next token of the sentence, all heads on -> these off.");
  }
  const std::vector<double> p_on = next_token_probabilities(*tab.run, position, temperature);
  const std::vector<double> p_off = next_token_probabilities(*off_run, position, temperature);
  const std::vector<TopToken> top_on = top_tokens(p_on), top_off = top_tokens(p_off);
  const auto in_top = [](const std::vector<TopToken>& top, int64_t id) {
    return std::any_of(top.begin(), top.end(), [id](const TopToken& t) { return t.id == id; });
  };
  // A row per token of the top 10 with all heads on; those their absence brings into the top 10
  // named under the table (ten rows, not up to twenty: the table fits the page whole).
  std::vector<int64_t> ids;
  for (const TopToken& t : top_on) ids.push_back(t.id);
  std::string entered;
  for (const TopToken& t : top_off) {
    if (in_top(top_on, t.id)) continue;
    char percent[32];
    std::snprintf(percent, sizeof percent, " %.1f %%", 100.0 * t.probability);
    entered += (entered.empty() ? "" : ", ") + piece_of(*tab.session, t.id) + percent;
  }
  const ImGuiTableFlags flags =
      ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersOuter | ImGuiTableFlags_SizingStretchProp;
  if (!ImGui::BeginTable("##off_effect", 4, flags)) return;
  ImGui::TableSetupColumn("token");
  ImGui::TableSetupColumn("all heads on");
  ImGui::TableSetupColumn("heads off");
  ImGui::TableSetupColumn("change");
  ImGui::TableHeadersRow();
  const Palette& colours = palette(state.ui.theme);
  for (const int64_t id : ids) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextUnformatted(piece_of(*tab.session, id).c_str());
    ImGui::TableSetColumnIndex(1);
    ImGui::Text("%.1f %%", 100.0 * p_on[size_t(id)]);
    ImGui::TableSetColumnIndex(2);
    ImGui::Text(in_top(top_off, id) ? "%.1f %%" : "(%.1f %%)", 100.0 * p_off[size_t(id)]);
    ImGui::TableSetColumnIndex(3);
    const double change = 100.0 * (p_off[size_t(id)] - p_on[size_t(id)]);
    ImGui::PushStyleColor(ImGuiCol_Text, change < 0 ? colours.error : colours.text);
    ImGui::Text("%+.1f", change);
    ImGui::PopStyleColor();
  }
  ImGui::EndTable();
  dim_text(state, "(in brackets: out of the top 10 without them)" +
                      (entered.empty() ? "" : "; into it: " + entered));
}

// Greedy decoding with the KV cache: N more tokens, each computed once (the heads switched off
// stay off), with the cache each was predicted from. A job: its progress and Cancel while it runs.
void generation(AppState& state) {
  ModelTab& tab = state.model;
  ImGui::Spacing();
  // Two digits, and the field's - and + buttons (a frame's height each) beside them.
  const ImGuiStyle& style = ImGui::GetStyle();
  ImGui::SetNextItemWidth(ImGui::CalcTextSize("00").x + 2 * style.FramePadding.x +
                          2 * (ImGui::GetFrameHeight() + style.ItemInnerSpacing.x));
  ImGui::InputInt("##generate_count", &tab.generate_count, 1, 8);
  tab.generate_count = std::clamp(tab.generate_count, 1, 64);
  ImGui::SameLine();
  ImGui::BeginDisabled(tab.generating.busy());
  if (ImGui::Button("Generate with the KV cache")) start_generation(state);
  ImGui::EndDisabled();
  tooltip(
      "Decode this many more tokens, the likeliest each time: the sentence once, then one "
      "token at a time over the cached keys and values (1 to 64).");
  draw_task_status(tab.generating, "generate", palette(state.ui.theme).error, "generating",
                   nullptr);
  const std::vector<GeneratedToken>* generated = generated_tokens(state);
  if (!generated || generated->empty()) return;
  std::string text = "continues:";  // the pieces apart, so a line can wrap between them
  for (const GeneratedToken& g : *generated) text += " " + piece_of(*tab.session, g.id);
  ImGui::TextWrapped("%s", text.c_str());
  const GeneratedToken& last = generated->back();
  dim_text(state, (std::to_string(generated->size()) +
                   " tokens; the last predicted from a "
                   "cache of " +
                   format_bytes(double(last.cache_bytes)) + " (" + std::to_string(last.position) +
                   " positions)")
                      .c_str());
}

void next_token(AppState& state) {
  ModelTab& tab = state.model;
  const PretrainedRun& run = *tab.run;
  if (!tab.session->model.has_head()) {
    dim_text(state, "This model has no output head (BERT without its MLM head): no predictions.");
    return;
  }
  ImGui::SetNextItemWidth(ImGui::CalcTextSize("temperature 0.00").x +
                          2 * ImGui::GetStyle().FramePadding.x + ImGui::GetFontSize());
  ImGui::SliderFloat("##temperature", &tab.temperature, 0.1f, 3.0f, "temperature %.2f",
                     ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
  tooltip("Softmax temperature: below 1 sharpens the distribution, above 1 flattens it.");
  const std::vector<int64_t> positions = predicted_positions(tab);
  if (positions.empty()) {
    dim_text(state, tab.session->tokenizer
                        ? "The sentence has no [MASK]: type one, e.g. The capital of France is "
                          "[MASK]."
                        : "No tokenizer in the folder: the [MASK] token is not known.");
    return;
  }
  const bool causal = tab.session->model.spec.causal;
  // With heads switched off, their table below lists the top 10 with all heads on beside the same
  // tokens without them: the bars would say it twice.
  const bool heads_off = !switched_off_heads(state).empty();
  for (const int64_t t : positions) {
    const std::string after = piece_of(*tab.session, run.ids[size_t(t)]);
    if (t == positions.front()) ImGui::SameLine();
    heading(state, causal ? ("next after \"" + after + "\"").c_str()
                          : ("at [MASK], token " + std::to_string(t)).c_str());
    if (!heads_off || t != positions.back())
      token_bars(state, top_tokens(next_token_probabilities(run, t, tab.temperature)));
  }
  if (causal) generation(state);
  ImGui::Spacing();
  if (!heads_off) {
    if (causal) ImGui::Text("next-token loss over the sentence: %.3f nats", tab.run_loss);
    dim_text(state,
             "Switch a head off (Shift+digit, or the heads panel) to see what it does to the "
             "next token and the loss.");
    return;
  }
  switched_off_effect(state, positions.back(), tab.temperature);
}

}  // namespace

void draw_model_tab(AppState& state, HeatmapDrawer* drawer) {
  ModelTab& tab = state.model;
  const float font = ImGui::GetFontSize();
  const bool open = tab.session && tab.run;
  // With a model open, its layer and tokens share the folder's row: the maps and bars get the room.
  const float layer_w = font * 4;
  model_folder_row(state, open ? ImGui::GetContentRegionAvail().x * 0.5f : 0);
  if (open) {
    const ModelSpec& spec = tab.session->model.spec;
    ImGui::SameLine();
    int64_t layer = tab.layer;
    const int64_t first = 0, last = spec.n_layers - 1;
    ImGui::SetNextItemWidth(layer_w);
    if (ImGui::SliderScalar("layer##model_tab", ImGuiDataType_S64, &layer, &first, &last, "%lld"))
      state.requests.later(
          [layer = std::clamp(layer, first, last)](AppState& s) { show_model_layer(s, layer); });
    tooltip("The layer shown as the trace (its attention at every stage).");
    ImGui::SameLine();
    std::string pieces;
    for (const std::string& piece : tab.tokens.pieces)
      pieces += (pieces.empty() ? "" : " ") + piece;
    // What fits of the row, with an ellipsis; the whole sentence in the tooltip.
    const std::string shown = cut_to_width(pieces, ImGui::GetContentRegionAvail().x);
    ImGui::TextDisabled("%s", shown.c_str());
    tooltip(("The sentence's tokens as the model cut them (the Input's sentence box changes it): " +
             pieces)
                .c_str());
  }
  if (!tab.loading.empty()) {
    draw_task_status(tab.load, "model_load_tab", palette(state.ui.theme).error);
    dim_text(state, "Opening " + tab.loading + " ...");
  }
  if (!tab.error.empty()) {
    error_text(state, tab.error);
    state.frame.explained.push_back("model");
  }
  if (!tab.session || !tab.run) {
    tab.drawn.clear();
    empty_tab_note(
        "Open a model folder: in the controls' Pretrained model section, by dropping it on the "
        "window, or with attnlab --model DIR.");
    dim_text(
        state,
        "Open a Hugging Face model folder (GPT-2, Llama, Mistral, Qwen2, BERT: config.json and "
        ".safetensors) above, drop one on the window, or start with attnlab --model DIR. Its "
        "layer becomes the trace; here every layer's heads, the head finder and the next "
        "token.");
    return;
  }
  if (!tab.sentence_error.empty()) {
    error_text(state, tab.sentence_error);
  }

  const ImVec2 room = ImGui::GetContentRegionAvail();
  // The head finder gets the width its six columns need (no sideways scrolling at 1024 x 768 and
  // font scale 1.5), up to half; the model view's maps fit whatever is left.
  const ImGuiStyle& style = ImGui::GetStyle();
  const float finder_need = ImGui::CalcTextSize("L00 h00").x + 5 * ImGui::CalcTextSize("induct").x +
                            kFinderColumns * (2 * style.CellPadding.x + 1) + style.ScrollbarSize +
                            2 * style.WindowPadding.x;
  const float left_w =
      std::max(font * 10, std::min(room.x * 0.5f - font * 0.5f, room.x - finder_need - font));
  ImGui::BeginChild("##model_view", ImVec2(left_w, room.y), false,
                    ImGuiWindowFlags_HorizontalScrollbar);
  model_view(state, drawer);
  ImGui::EndChild();
  ImGui::SameLine(0, font);
  // Its type shrinks until a small model's head finder, or the next token's page, fits whole.
  begin_fitted_region(state, "##model_pages", ImVec2(0, room.y));
  if (begin_tab_bar("##model_pages_bar")) {
    const struct {
      ModelPage page;
      const char* label;
      const char* tip;
    } pages[] = {{ModelPage::Finder, "Head finder",
                  "Every head's named patterns: previous, first, same token, entropy, induction."},
                 {ModelPage::NextToken, "Next token",
                  "The model's top 10 next tokens, and what switching heads off changes."}};
    StateTabs tabs(int(tab.page));
    for (const auto& page : pages) {
      const bool open = ImGui::BeginTabItem(page.label, nullptr, tabs.flags(int(page.page)));
      tooltip(page.tip);
      if (!open) continue;
      if (tabs.opened(int(page.page))) tab.page = page.page;
      if (page.page == ModelPage::Finder)
        head_finder(state);
      else
        next_token(state);
      ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
  }
  end_fitted_region(state);
}

}  // namespace attnlab::gui
