// The app side of a real pretrained model (issue 22): the Controls' section that opens one and
// picks its layer, and the Model tab (key 0): every layer's heads as small maps, the head finder's
// table, and the next token with heads switched off. Each is a function of the app state.
#pragma once

#include "app/gui/panels/heatmap_drawer.hpp"
#include "app/gui/state/app_state.hpp"

namespace attnlab::gui {

// The Controls' "Pretrained model" section: the folder, Open, the recent folders, the load's
// progress and Cancel, the error beside the field, the layer slider.
void draw_model_section(AppState& state);
// The folder field, Open and the recent folders on one row (also at the top of the Model tab,
// for presenter mode, where the controls are folded away).
// `leave`: room to keep free at the row's end (for more on the same line).
void model_folder_row(AppState& state, float leave = 0);
// Under the sentence field while the model is shown: its tokens' count, or why the sentence
// cannot run, in red.
void model_sentence_notes(AppState& state);
// At the top of the Decode tab while the model's layer is shown: what is decoded here (this layer,
// its real weights) and a button to the Model tab's generation with the whole model.
void model_decode_note(AppState& state);
// The Model tab; its model view's maps through `drawer` (none headless: outlines only).
void draw_model_tab(AppState& state, HeatmapDrawer* drawer);

}  // namespace attnlab::gui
