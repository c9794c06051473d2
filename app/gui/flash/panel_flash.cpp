// The Flash tab: FlashAttention's tiled online softmax, one tile at a time. The query block's rows
// keep a running max m and sum l; every new key tile rescales what was summed by exp(m_old - m_new)
// so the softmax comes out exact without a whole row ever being held. Beside the lesson, a memory
// gauge: the ordinary path's (B, h, T, T) scores and weights against the tiled path's tiles.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

#include "app/gui/flash/flash_drawing.hpp"
#include "app/gui/flash/flash_panels.hpp"
#include "app/gui/look/wrap.hpp"
#include "app/gui/panels/fitted_type.hpp"
#include "app/gui/panels/job_status.hpp"
#include "app/gui/panels/panels.hpp"
#include "app/gui/state/trace_jobs.hpp"
#include "core/flash/tiled_attention.hpp"

namespace attnlab::gui {

namespace {

// The seeds' worked figure: B 8, h 8, T 2048, d_model 512 (d_k 64).
FlashCounters seeds_example(TileSizes tiles) {
  Config c;
  c.batch = 8;
  c.n_heads = 8;
  c.seq_len = 2048;
  c.d_model = 512;
  return count_tiles(c, tiles, flash_workers());
}

// Br, Bc and the head: a changed value records the sweep again.
void sweep_controls(AppState& state, const Config& config) {
  FlashTab& tab = state.flash;
  const float font = ImGui::GetFontSize();
  const int T = int(config.tokens()), Tk = int(config.key_tokens());
  const auto slider = [&](const char* label, int& value, int low, int high, const char* tip) {
    ImGui::SetNextItemWidth(font * 4);
    ImGui::SliderInt(label, &value, low, std::max(high, low));
    tooltip(tip);
  };
  int rows = int(tab.tiles.rows), cols = int(tab.tiles.cols);
  slider("Br", rows, 1, T, "Br: query rows per tile (a query block).");
  ImGui::SameLine();
  slider("Bc", cols, 1, Tk, "Bc: keys per tile (a key block).");
  tab.tiles = {rows, cols};
  ImGui::SameLine();
  slider("head##flash", tab.head, 0, int(config.n_heads - 1),
         "The head whose sweep is shown (every head sweeps its own tiles alike).");
}

// The step slider, on the controls' line when it fits.
void step_slider(FlashTab& tab, int last) {
  const float width = ImGui::GetFontSize() * 8;
  same_line_if_fits(width, ImGui::GetStyle().ItemSpacing.x);
  ImGui::SetNextItemWidth(width);
  const std::string format = "step %d of " + std::to_string(last + 1);
  int shown = tab.step + 1;
  if (ImGui::SliderInt("##flash_step", &shown, 1, last + 1, format.c_str())) tab.step = shown - 1;
  tooltip(
      "The tile shown: \u2190/\u2192 (and Home/End) step through the tiles while this tab "
      "is open.");
}

// One sentence on the step shown: which tile, and what it did to m, l and the output.
std::string narration(const FlashSweep& sweep, int shown) {
  const SweepStep& s = sweep.steps[size_t(shown)];
  char where[128];
  std::snprintf(where, sizeof where, "Rows %lld-%lld \u00d7 keys %lld-%lld", (long long)s.row0,
                (long long)(s.row0 + s.rows - 1), (long long)s.col0,
                (long long)(s.col0 + s.cols - 1));
  if (s.kind == TileKind::Skipped)
    return std::string(where) +
           ": the mask hides all of it, so it is skipped: nothing computed "
           "or held, m and l unchanged.";
  float low = 1, high = 0;
  bool first_seen = true;
  for (size_t r = 0; r < s.rescale.size(); ++r) {
    if (!std::isfinite(s.m_before[r])) continue;
    first_seen = false;
    low = std::min(low, s.rescale[r]);
    high = std::max(high, s.rescale[r]);
  }
  const std::string text =
      std::string(where) + (s.kind == TileKind::Partial ? " (masked inside)" : "");
  if (first_seen)
    return text +
           ": the first keys these rows see. m = the row max, l = sum exp(s - m), "
           "output = P V / l.";
  char rescale[64];
  std::snprintf(rescale, sizeof rescale, "%.3g\u2026%.3g", double(low), double(high));
  return text +
         ": m = max(m, row max); l and the output so far \u00d7 exp(m_old - m_new) = " + rescale +
         ", then this tile is added.";
}

// The counters' line: the tiles computed and skipped, and the share of the ordinary FLOPs.
std::string counters_line(const FlashCounters& k) {
  char line[192];
  std::snprintf(line, sizeof line,
                "%lld of %lld tiles computed, %lld skipped (hatched): %.0f %% of the FLOPs.",
                (long long)k.tiles_computed, (long long)k.tiles_total, (long long)k.tiles_skipped,
                k.ordinary_flops > 0 ? 100.0 * k.flops / k.ordinary_flops : 0.0);
  return line;
}

// The two gauges side by side where the room is wider than this many fonts, else one under the
// other.
constexpr float kGaugesSideBySideFonts = 30;

// What the tiled run computes and holds, against the ordinary path: this config and the seeds'.
void draw_counters_and_gauge(AppState& state, const FlashCounters& k) {
  FlashTab& tab = state.flash;
  const Palette& colours = palette(state.ui.theme);
  if (!tab.seeds_example) tab.seeds_example = seeds_example({64, 64});
  text_wrapped(counters_line(k));
  const float font = ImGui::GetFontSize();
  const float width = ImGui::GetContentRegionAvail().x;
  const bool side_by_side = width > font * kGaugesSideBySideFonts;
  const float gauge_w = side_by_side ? (width - font) * 0.5f : width;
  ImGui::BeginGroup();
  draw_memory_gauge("Held at once, this config:", k, gauge_w, colours);
  ImGui::EndGroup();
  if (side_by_side) ImGui::SameLine(0, font);
  ImGui::BeginGroup();
  draw_memory_gauge("The seeds' B 8, h 8, T 2048:", *tab.seeds_example, gauge_w, colours);
  ImGui::EndGroup();
  tooltip(
      "The ordinary path holds the scores and the weights, both (B, h, T, T): 2.1 GB for the "
      "seeds' example (their 'just for scores' counts the two). The tiled path holds one Br x "
      "Bc tile and a Br x d_v accumulator per thread, and m and l for every row (64 x 64 "
      "tiles for the seeds' example).");
}

// The height of the words (the step's narration, the counters' line and the gauges) in a column
// `width` wide, at the window's type: as draw_sweep's words region draws them.
float words_height(const std::string& narration, const std::string& counted, float width) {
  const auto measure = [](const std::string& s) { return ImGui::CalcTextSize(s.c_str()).x; };
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float text_w = width - ImGui::GetStyle().WindowPadding.x;  // the region's half pads
  const auto lines = [&](const std::string& text, float w) {
    return float(wrap_at_spaces(text, w, measure).size());
  };
  const bool side_by_side = text_w > ImGui::GetFontSize() * kGaugesSideBySideFonts;
  const float gauge_w = side_by_side ? (text_w - ImGui::GetFontSize()) * 0.5f : text_w;
  const float first = lines("Held at once, this config:", gauge_w) + 2;
  const float second = lines("The seeds' B 8, h 8, T 2048:", gauge_w) + 2;
  const float gauges = side_by_side ? std::max(first, second) : first + second;
  return (lines(narration, text_w) + lines(counted, text_w) + gauges) * line +
         ImGui::GetStyle().ItemSpacing.y;  // the Spacing() after the narration
}

// Where the words go: beside the drawing in a column `width` wide, or below it (width 0), and
// the drawing's cell size that leaves them.
struct WordsPlace {
  float width = 0;  // beside: the column's; 0: below, across the room
  float cell = 1;   // pixels per score entry of the drawing
  float type = 1;   // the share of the window's type the words need to fit whole
};

// The words' type is not shrunk under this share to make the drawing larger.
constexpr float kLeastWordsType = 0.8f;

// The grid, the bars and the output rows side by side, and the words: beside them in the column
// width that leaves the cells largest with the words whole at no less than kLeastWordsType of
// the type, or below them when that leaves the cells larger (what does not fit shrinks its type:
// a fitted region).
void draw_sweep(AppState& state, const FlashLesson& lesson) {
  const FlashSweep& sweep = *lesson.sweep;
  FlashTab& tab = state.flash;
  const Palette& colours = palette(state.ui.theme);
  const float font = ImGui::GetFontSize(), gap = std::round(font * 0.8f);
  const float title_h = ImGui::GetTextLineHeightWithSpacing();
  const ImVec2 room = ImGui::GetContentRegionAvail();
  const float n = float(std::max(sweep.T, sweep.Tk));
  // Grid n cells, bars about 0.7 n, output at most 0.5 n: 2.2 n cells and two gaps across.
  const auto cell_for = [&](float width, float height) {
    return std::max(1.0f,
                    std::min((height - title_h) / float(sweep.T), (width - 2 * gap) / (2.2f * n)));
  };
  const std::string said = narration(sweep, tab.step);
  const std::string counted = counters_line(lesson.counters);
  // Below: the words across the room at whole type, when that leaves the cells half a font.
  const float below_cell = cell_for(room.x, room.y - words_height(said, counted, room.x) - gap);
  std::optional<WordsPlace> place;
  if (below_cell >= font * 0.5f) place = WordsPlace{0, below_cell, 1};
  WordsPlace most_type{};  // beside, the words' type largest: where nothing else fits
  most_type.type = 0;
  for (float share = 0.3f; share < 0.66f; share += 0.05f) {
    const float width = std::max(font * 13, std::round(room.x * share));
    const WordsPlace beside{width, cell_for(room.x - width - gap, room.y),
                            std::min(1.0f, room.y / words_height(said, counted, width))};
    if (beside.type >= kLeastWordsType && (!place || beside.cell > place->cell)) place = beside;
    if (beside.type > most_type.type) most_type = beside;
  }
  if (!place) place = most_type;
  const bool words_beside = place->width > 0;
  const float cell = place->cell;
  const float grid_w = float(sweep.Tk) * cell;
  const float bars_w = std::max(n * cell * 0.7f, font * 5);
  const float out_w = std::max(std::min(float(sweep.d_v) * cell * 2, n * cell * 0.5f), font * 2);
  const ImVec2 top = ImGui::GetCursorScreenPos();
  const ImVec2 grid_at(top.x, top.y + title_h);
  const ImVec2 bars_at(grid_at.x + grid_w + gap, grid_at.y);
  const ImVec2 out_at(bars_at.x + bars_w + gap, grid_at.y);
  const auto title = [&](float x, float width, const char* text) {
    draw_cut_text(ImVec2(x, top.y), width, font, colours.text, text);
  };
  const float half_gap = std::round(font * 0.5f), column = (bars_w - half_gap) * 0.5f;
  title(grid_at.x, grid_w + gap, "scores");
  title(bars_at.x, column, "m");
  title(bars_at.x + column + half_gap, column, "l");
  title(out_at.x, out_w + gap, "out");
  const SweepView view{sweep, lesson.row_max, lesson.row_sum, tab.step, colours};
  draw_tile_grid(view, grid_at, cell);
  draw_row_bars(view, bars_at, cell, bars_w);
  draw_output_rows(view, out_at, cell, out_w);
  const float drawing_w = out_at.x + out_w - top.x, drawing_h = title_h + float(sweep.T) * cell;
  ImGui::Dummy(ImVec2(drawing_w, drawing_h));
  if (words_beside) ImGui::SameLine(0, gap);
  begin_fitted_region(state, "flash_words", ImVec2(0, words_beside ? room.y : 0));
  text_wrapped(said);
  ImGui::Spacing();
  draw_counters_and_gauge(state, lesson.counters);
  end_fitted_region(state);
}

}  // namespace

void draw_flash_tab(AppState& state) {
  const Config& config = state.session.trace->config;
  sweep_controls(state, config);
  const SweepChoice choice = start_flash_sweep(state);
  FlashTab& tab = state.flash;
  const FlashLesson* lesson = tab.lesson.result_for(shown_key(state, choice));
  const bool swept = lesson && lesson->sweep && !lesson->sweep->steps.empty();
  if (swept) {
    tab.step = std::clamp(tab.step, 0, int(lesson->sweep->steps.size()) - 1);
    step_slider(tab, int(lesson->sweep->steps.size()) - 1);
  }
  if (draw_task_status(tab.lesson, "flash", palette(state.ui.theme).error) || !lesson) return;
  if (swept) {
    draw_sweep(state, *lesson);
    return;
  }
  text_wrapped("T = " + std::to_string(config.tokens()) + ": the sweep is drawn for T up to " +
               std::to_string(kMaxSweepTokens) +
               " tokens; at this length the counters tell what the tiled kernel does.");
  draw_counters_and_gauge(state, lesson->counters);
}

}  // namespace attnlab::gui
