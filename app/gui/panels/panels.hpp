// One function per panel (or tab), each a function of the app state; each lives in its own file.
#pragma once

#include <imgui.h>

#include <string>

#include "app/common/format.hpp"
#include "app/gui/panels/heatmap_drawer.hpp"
#include "app/gui/state/app_state.hpp"

namespace attnlab::gui {

void draw_controls_panel(AppState& state);
// Presenter mode's bar in place of the controls: preset, n_heads, d_model, T and causal.
void draw_presenter_bar(AppState& state);
// The rows the presenter bar's fields take in a window `width` pixels wide: one, or two where
// one row is short of room for their whole texts (the layout gives the bar their height).
int presenter_bar_rows(const AppState& state, float width);
void draw_pipeline_panel(AppState& state);
// The step counter and the play button ("step 5 / 13", "▶ play (Space)"; `symbol`: "▶" alone),
// from the cursor: at the strip's end, or in presenter mode's bar where it wraps onto a second
// row with room for them (FrameOutput::playback_in_bar). Their width, for the widest texts.
float step_and_play_width(bool symbol);
void draw_step_and_play(AppState& state, bool symbol);
// The middle panel: a tab bar over the tensors and the teaching toolkit.
void draw_toolkit_panel(AppState& state, HeatmapDrawer* drawer);
// The tabs presenter mode draws across the whole width in the stage view's place: every tab but
// Tensors (whose stage view shares the screen with the heads' maps) draws its own.
bool presenter_tab_full_width(ToolTab tab);
void draw_heads_panel(AppState& state, HeatmapDrawer* drawer);
// The narrowest heads panel `panel.y` high whose maps are at least least_map_side() for their
// count (two maps: 240 px); 0 where no width up to `panel.x` gives them that, or no maps are shown.
// Call inside a frame.
float heads_width_for_least_maps(AppState& state, ImVec2 panel);
// The right-hand panel: the code of the forward pass, and the run's checks.
void draw_info_panel(AppState& state);

// [SECTION] the tabs' contents (drawn inside their panel's window)
void draw_tensors_tab(AppState& state);
void draw_mistakes_tab(AppState& state, HeatmapDrawer* drawer);
void draw_memory_tab(AppState& state);
void draw_head_tools_tab(AppState& state);
void draw_paths_tab(AppState& state);
void draw_counters_tab(AppState& state);
void draw_train_tab(AppState& state);  // app/gui/train/panel_train.cpp
// The Train tab's model, its first layer, becomes the current trace ("Open in the pipeline").
void open_trained_model(AppState& state);
void draw_code_tab(AppState& state);
void draw_checks_tab(AppState& state);

// [SECTION] shared helpers
// Begins a fixed panel window at its layout rectangle; records the rectangle for PNG export.
bool begin_panel(AppState& state, PanelId panel, const char* title, ImGuiWindowFlags extra = 0);
// One-sentence tooltip for the last item (also when reached by keyboard); records the item's
// rectangle with note_item(). `above`: over the control, not over what is under it (a red
// explanation).
void tooltip(const char* text, bool above = false);
// Records where the last item was laid out (FrameOutput::items), for the layout test.
void note_item(const char* label);
// Records the last item, a text field, whose text scrolls inside it (the text check lets it run
// on).
void note_text_field();
// `text` wrapped, in the theme's error colour: what is wrong, beside the control it is about.
void error_text(const AppState& state, const std::string& text);
// Red, wrapped text under a control when the config has an issue for `field`; records it in
// state.frame.explained.
void issue_text(AppState& state, const char* field);
// BeginTabBar whose tabs keep their whole labels: where they do not all fit, the bar scrolls
// (arrows at its end, the selected tab scrolled into sight) rather than cut every label to "T…".
bool begin_tab_bar(const char* id);
// The tabs of a bar that shows a choice the state holds (the middle panel's tab, the info tab,
// the model's page), in every window that draws the bar: the state decides, each window's bar
// follows it (a key, a scene or the other window changed it: that tab is selected), and a click on
// a tab changes the state. Make one after begin_tab_bar, with the state's choice now.
class StateTabs {
 public:
  explicit StateTabs(int chosen);
  // BeginTabItem's flags for tab `index`.
  int flags(int index) const;
  // Tab `index` is open this frame: true when it is the state's choice from now on (clicked, or
  // the bar arrived at the state's choice); false while the bar still shows its last tab.
  bool opened(int index);

 private:
  unsigned shown_key_;
  int chosen_, shown_;
};
// A collapsing section's header whose title (the part before any "###") is cut with an ellipsis
// where the panel is too narrow for it; its tooltip is `tip`, named by the whole title when cut.
bool section_header(const char* title, const char* tip = "", ImGuiTreeNodeFlags flags = 0);
// A section's title, in the accent colour.
void heading(const AppState& state, const char* text);
// A tab with nothing to show says what to do, in large type (1.5 em, wrapped to the room).
void empty_tab_note(const std::string& text);
// A horizontal bar of `fraction` (0..1) of `width`, with `text` after it, on the current line.
void value_bar(float fraction, float width, ImU32 colour, const char* text);
// BeginChild (no border) whose content keeps half the window's padding from its sides, as a
// panel's does from its clip: text laid out to the content's edge is not drawn at the clip's.
bool begin_padded_child(const char* id, ImVec2 size, ImGuiWindowFlags flags = 0);
// BeginChild filling the rest of the window, which scrolls (either way) where its content is
// larger than the room: its content is the window's remaining content, the region reaching the
// window's padding past it on every side, so its clip is the window's. End with
// end_scroll_region().
bool begin_scroll_region(const char* id);
// Ends it. Where the region scrolls sideways, its content ends with the horizontal scrollbar's
// height of room: ImGui 1.86 decides the vertical scrollbar without the horizontal one's height,
// so a last line under that bar could be neither seen nor scrolled to.
void end_scroll_region();

}  // namespace attnlab::gui
