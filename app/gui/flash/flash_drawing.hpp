// The Flash tab's drawings, each into a rectangle the tab lays out: the grid of tiles, each row's
// m and l as bars, the output rows, and the memory gauge.
#pragma once

#include <imgui.h>

#include "app/gui/look/theme.hpp"
#include "core/flash/flash_sweep.hpp"
#include "core/flash/tile_plan.hpp"

namespace attnlab::gui {

// A recorded sweep at one step: what has been swept so far.
struct SweepView {
  const FlashSweep& sweep;
  const Tensor& row_max;  // (steps, T): every row's m after each step
  const Tensor& row_sum;  // (steps, T): every row's l after each step
  int step;               // the step shown
  const Palette& colours;
};

// The (T, T_k) scores as a grid of tiles, `cell` pixels per entry from `at`: the tiles visited so
// far show their scores (diverging colours, hidden keys masked), the tiles the mask hides entirely
// are hatched, the ones still to come are empty, the current tile is outlined.
void draw_tile_grid(const SweepView& view, ImVec2 at, float cell);

// Each row's running max m (signed, from a centre line) and running sum l (from the left), `cell`
// pixels high, in two columns of `width` from `at`: rows not reached yet are empty; the rows of the
// current block show their value before this tile as an outline and after it filled.
void draw_row_bars(const SweepView& view, ImVec2 at, float cell, float width);

// The head's output rows (T, d_v), `cell` pixels high and `width` wide from `at`: finished blocks
// hold their final rows, the current block its rows as they stand after this tile, later blocks
// nothing yet.
void draw_output_rows(const SweepView& view, ImVec2 at, float cell, float width);

// Under its title (wrapped to `width`), two bars, the ordinary path's bytes and the tiled path's,
// on one scale, labelled; at the cursor.
void draw_memory_gauge(const char* title, const FlashCounters& counters, float width,
                       const Palette& colours);

}  // namespace attnlab::gui
