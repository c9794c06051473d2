// The Check tab (key K): a student's own multi-head attention graded stage by stage. The exercise
// folder (or an answer file) is opened in the path field, with `attnlab --check DIR`, or dropped on
// the window; the stages turn green (right), red (wrong) or stay grey (not given); the first wrong
// stage's map, the right one and their difference are drawn side by side with the differing heads
// and entries outlined; the mistake card names the mistake and its fix and shows it in the Mistakes
// tab. The answer is graded again whenever its file changes (check_state.hpp's watcher).
#pragma once

#include <string>

#include "app/gui/panels/heatmap_drawer.hpp"
#include "app/gui/state/app_state.hpp"

namespace attnlab::gui {

// Opens an exercise folder or an answer file (its folder is the exercise) and shows the tab;
// the grading starts at once. Call between frames (state.requests.later).
void open_check(AppState& state, const std::string& path);

// Takes the paths dropped on the window that are exercises or answers, starts a grading when the
// answer's modification time (as its watcher last saw it) changed and takes a finished one. Called
// every frame.
void poll_check(AppState& state);

// The stage the maps show: the chosen one, else the first wrong, else the weights or the last
// given (-1: none).
int shown_check_stage(const CheckTab& tab);

// The Mistakes tab on `mistake`, run on the exercise's config (what the card's button asks for).
void show_mistake_in_simulator(AppState& state, const Config& exercise_config, Mistake mistake);

void draw_check_tab(AppState& state, HeatmapDrawer* drawer);

}  // namespace attnlab::gui
