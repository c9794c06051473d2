// RoPE: q and k are turned pair by pair, (i, i + d_k/2) by the angle position * w_i. One pair of a
// query token's q and a key token's k (this run's, before the turn) drawn in their plane as the two
// are placed further apart: the angle between them grows by w_i per position, and the score
// q_rot . k_rot, plotted against the distance, is the same wherever the two sit.
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <numbers>
#include <string>

#include "app/gui/look/theme.hpp"
#include "app/gui/look/token_text.hpp"
#include "app/gui/look/wrap.hpp"
#include "app/gui/panels/panels.hpp"
#include "app/gui/positions/positions_panels.hpp"
#include "core/position/encoding_views.hpp"

namespace attnlab::gui {

namespace {

constexpr int kMostDistance = 64;

struct RopeInputs {
  std::vector<double> q, k, inv_freq;  // (d_k), (d_k), (d_k/2)
};

void sliders(AppState& state, const Trace& trace) {
  WordOrderTab& tab = state.word_order;
  const int T = int(trace.config.tokens()), half = int(trace.config.head_dim_k() / 2);
  const float w = ImGui::GetFontSize() * 6, gap = ImGui::GetFontSize();
  if (tab.rope_query < 0 || tab.rope_query >= T) tab.rope_query = T - 1;
  tab.rope_key = std::clamp(tab.rope_key, 0, T - 1);
  tab.head = std::clamp(tab.head, 0, int(trace.config.n_heads - 1));
  tab.rope_pair = std::clamp(tab.rope_pair, 0, std::max(half - 1, 0));
  // A slider of `w` on the same line when it fits; `label` is "shown###id".
  const auto slider = [&](const std::string& label, int& value, int high, const char* help,
                          bool same_line) {
    const float label_w = ImGui::CalcTextSize(label.substr(0, label.find("##")).c_str()).x;
    if (same_line) same_line_if_fits(w + ImGui::GetStyle().ItemInnerSpacing.x + label_w, gap);
    ImGui::SetNextItemWidth(w);
    ImGui::SliderInt(label.c_str(), &value, 0, std::max(high, 0), "%d");
    tooltip(help);
  };
  const ImFont& font = *ImGui::GetFont();
  const auto token = [&](int t) { return display_text(trace.tokens[size_t(t)], font); };
  slider("distance", tab.rope_distance, kMostDistance,
         "How many positions apart the query and key tokens are placed.", false);
  slider("pair", tab.rope_pair, half - 1, "Which pair of dimensions (i, i + d_k/2) is drawn.",
         true);
  slider("head###rope_head", tab.head, int(trace.config.n_heads - 1), "The head drawn.", true);
  slider("query: " + token(tab.rope_query) + "###rope_query", tab.rope_query, T - 1,
         "The query token (its q before the turn).", false);
  slider("key: " + token(tab.rope_key) + "###rope_key", tab.rope_key, T - 1,
         "The key token (its k before the turn).", true);
}

// The pair's plane: the query's point turned to position `distance`, the key's at 0.
void draw_plane(const AppState& state, const RopeInputs& in, int pair, int distance, float side) {
  const Palette& colours = palette(state.ui.theme);
  ImDrawList* list = ImGui::GetWindowDrawList();
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const ImVec2 centre(at.x + side / 2, at.y + side / 2);
  const float radius = side / 2 - ImGui::GetFontSize();
  list->AddCircle(centre, radius, colours.grid, 64);
  list->AddLine(ImVec2(centre.x - radius, centre.y), ImVec2(centre.x + radius, centre.y),
                colours.grid);
  list->AddLine(ImVec2(centre.x, centre.y - radius), ImVec2(centre.x, centre.y + radius),
                colours.grid);
  const PlanePoint q = rope_pair(in.q, in.inv_freq, pair, distance);
  const PlanePoint q0 = rope_pair(in.q, in.inv_freq, pair, 0);  // where q was at distance 0
  const PlanePoint k = rope_pair(in.k, in.inv_freq, pair, 0);
  const double longest = std::max({q.length(), k.length(), 1e-12});
  const float thick = std::max(2.0f, ImGui::GetFontSize() / 8);
  const auto arrow = [&](const PlanePoint& p, ImU32 colour, const char* name) {
    const ImVec2 tip(centre.x + float(p.x / longest) * radius,
                     centre.y - float(p.y / longest) * radius);
    list->AddLine(centre, tip, colour, thick);
    list->AddCircleFilled(tip, thick * 2, colour);
    list->AddText(ImVec2(tip.x + thick * 2, tip.y - ImGui::GetFontSize()), colour, name);
  };
  // The turn from q at distance 0 to q now, as an arc (at most one full turn drawn).
  const double turned =
      std::min(double(distance) * in.inv_freq[size_t(pair)], 2 * std::numbers::pi);
  const double from = -q0.angle();  // screen y points down
  list->PathArcTo(centre, radius * 0.35f, float(from - turned), float(from), 32);
  list->PathStroke(head_colour(0, 0.6f), 0, thick * 0.6f);
  arrow(q0, head_colour(0, 0.3f), "");
  arrow(k, head_colour(1), "k");
  arrow(q, head_colour(0), "q");
  ImGui::Dummy(ImVec2(side, side));
}

}  // namespace

void draw_rope_view(AppState& state) {
  const Trace& trace = *state.session.trace;
  const Config& c = trace.config;
  const TensorRecord* q_heads = trace.find(Op::Transpose, 'q');
  const TensorRecord* k_heads = trace.find(Op::Transpose, 'k');
  const TensorRecord* inv = trace.find("rope_inv_freq");
  if (!c.rotary()) offer_encoding(state, PositionEncoding::Rope, "RoPE");
  if (!c.rotary() || trace.shape_only || !q_heads || !k_heads || !inv) {
    ImGui::TextWrapped(
        "The RoPE view turns this run's q and k: it needs --pos rope (or --rope-theta) and "
        "computed "
        "values.");
    return;
  }
  sliders(state, trace);
  const WordOrderTab& tab = state.word_order;
  const int64_t kv_head = tab.head / std::max<int64_t>(c.group_size(), 1);
  RopeInputs in;
  in.q = head_vector(*q_heads, 0, tab.head, tab.rope_query);
  in.k = head_vector(*k_heads, 0, kv_head, tab.rope_key);
  for (Scalar f : inv->tensor.to_vector()) in.inv_freq.push_back(double(f));
  const double w = in.inv_freq[size_t(tab.rope_pair)];
  const double angle0 = rope_pair_angle(in.q, in.k, in.inv_freq, tab.rope_pair, 0, 0);
  const double angle =
      rope_pair_angle(in.q, in.k, in.inv_freq, tab.rope_pair, tab.rope_distance, 0);
  const double degrees = 180.0 / std::numbers::pi;
  text_wrapped_format(
      "Pair %d turns %.1f\u00B0 per position: %d apart, the angle from k to q goes from %.0f\u00B0 "
      "to %.0f\u00B0. Right: the score q_rot\u00B7k_rot by distance, the same wherever the two "
      "sit.",
      tab.rope_pair, w * degrees, tab.rope_distance, angle0 * degrees, angle * degrees);
  const float font = ImGui::GetFontSize();
  const float width = ImGui::GetContentRegionAvail().x - font * 0.5f;
  // The room there is, not room_below's readable least: on a projector the view does not scroll
  // (the plane and the plot stay whole, smaller), down to three lines of type.
  const float room =
      ImGui::GetContentRegionAvail().y - 0.3f * ImGui::GetTextLineHeightWithSpacing();
  const float side = std::min(room, width * 0.42f);
  if (side < font * 3) {
    ImGui::TextWrapped("Too little room to draw: enlarge the window.");
    return;
  }
  draw_plane(state, in, tab.rope_pair, tab.rope_distance, side);
  ImGui::SameLine(0, font);
  // rope_score for the query at position kMostDistance and the key 0 .. kMostDistance before it.
  const std::vector<double> scores =
      rope_scores_by_distance(in.q, in.k, in.inv_freq, kMostDistance, kMostDistance);
  std::vector<float> values(scores.begin(), scores.end());
  const float plot_w = std::max(font * 4, width - side - font);
  ImGui::PlotLines("##rope_scores", values.data(), int(values.size()), 0,
                   "q_rot\u00B7k_rot by distance", FLT_MAX, FLT_MAX, ImVec2(plot_w, side));
  tooltip("The unscaled score of the two tokens placed 0 .. 64 positions apart.");
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  const float x = a.x + (b.x - a.x) * float(tab.rope_distance) / float(kMostDistance);
  ImGui::GetWindowDrawList()->AddLine(ImVec2(x, a.y), ImVec2(x, b.y), head_colour(0), 2.0f);
}

}  // namespace attnlab::gui
