// A real pretrained model opened in the app (issue 22): the folder loaded on a background task,
// the sentence's tokens and forward pass, the head finder's scores, and the layer shown as the
// current trace (its attention input as X, its real weights as W, its pieces as token labels), so
// every stage, the heads panel and the tabs show the real heads. The Model tab (panel_model.cpp)
// and the Controls' Model section (model_controls.cpp) are functions of this state.
#pragma once

#include <imgui.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/gui/state/background_task.hpp"
#include "app/gui/state/heatmap_data.hpp"
#include "app/gui/state/trace_cache.hpp"
#include "core/pretrained/head_finder.hpp"
#include "core/pretrained/model_session.hpp"
#include "core/pretrained/pretrained_forward.hpp"

namespace attnlab::gui {

struct AppState;

constexpr int kMaxRecentModels = 8;
constexpr int kTopTokens = 10;

// The head finder's columns, in the table's order.
enum class FinderColumn { Head, Previous, First, Same, Entropy, Induction };
constexpr int kFinderColumns = 6;

// Where the model view drew one head's map last frame (for tests and the layout).
struct DrawnMap {
  int64_t layer = 0, head = 0;
  ImVec2 min, max;
};

// The right-hand side of the Model tab.
enum class ModelPage { Finder, NextToken };

// A sentence's forward pass, computed on a background task or in place.
struct SentenceRun {
  std::string sentence;  // as asked ("" = the default text or ids)
  ModelTokens tokens;
  std::shared_ptr<const PretrainedRun> run;
  double loss = 0;    // next_token_loss of `run` (NaN without logits), computed with it
  std::string error;  // why the sentence cannot run (then nothing else is set)
};

// The view's choice a pass of the real model is computed for (with the trace generation: the
// key of its job): the sentence's run, the heads switched off in the shown trace, and for
// generation how many tokens.
struct ModelPassChoice {
  std::shared_ptr<const PretrainedRun> run;
  std::vector<HeadSwitch> off;
  int64_t count = 0;
  bool operator==(const ModelPassChoice&) const = default;
};

// The forward again with heads switched off, and its next-token loss.
struct HeadsOffRun {
  std::shared_ptr<const PretrainedRun> run;
  double loss = 0;
};

// What the load task hands over: the model and its first sentence, both computed off the UI thread.
struct LoadedModel {
  std::shared_ptr<ModelSession> session;
  SentenceRun first;
  SentenceRun fallback;  // the default text's run, when `first` cannot run (else empty)
};

struct ModelTab {
  // [SECTION] the folder
  std::string folder_text;  // the field as typed
  std::string error;    // why the last Open failed (one line, the GUI's words), beside the field
  std::string loading;  // the folder being loaded ("" = none)
  BackgroundTask<LoadedModel, std::string> load;  // keyed by the folder
  // Applied when the load arrives: the layer to show (-1: 0) and the sentence (--sentence; also
  // for a model opened later, by a drop or in the page).
  int64_t requested_layer = -1;
  std::optional<std::string> requested_sentence;
  // --ablate's heads, switched off in the layer shown once the model's heads are known.
  std::vector<int64_t> requested_off_heads;

  // [SECTION] the open model
  std::shared_ptr<const ModelSession> session;  // null: none open
  std::string folder;                           // the folder `session` came from
  std::string name;                             // "gpt2-f32-tied" (the folder's last part)
  int64_t layer = 0;                            // the layer shown as the trace
  std::string sentence;                         // as typed ("" = the default text or ids)
  std::string sentence_error;                   // why the sentence cannot run, beside it
  ModelTokens tokens;                           // of the sentence that ran last
  std::shared_ptr<const PretrainedRun> run;     // every head on
  double run_loss = 0;                          // its next-token loss
  // find_heads of `run`, on its own task after the run is shown (the first heatmap does not wait
  // for the induction run): empty while finding. Keyed by the run it was started for.
  std::vector<FoundHead> found;
  BackgroundTask<std::vector<FoundHead>, std::shared_ptr<const PretrainedRun>> finding;
  // The forward pass of a sentence typed since, keyed by the model and the sentence: taken when
  // it is still the one typed. `sentence_taken`: the last key whose outcome is shown (or its
  // error).
  using SentenceKey = std::pair<std::shared_ptr<const ModelSession>, std::string>;
  BackgroundTask<SentenceRun, SentenceKey> sentence_run;
  SentenceKey sentence_taken;

  // [SECTION] the tab's own
  ModelPage page = ModelPage::Finder;
  std::optional<ModelPage> requested_page;
  FinderColumn sort_column = FinderColumn::Head;
  bool sort_descending = false;
  std::vector<int> finder_order;  // the rows of `found` in the order last drawn
  std::vector<DrawnMap> drawn;    // the model view's maps, as last drawn
  // model_view_maps of `view_maps_of` (rebuilt when the run changes); `view_maps_builds` counts
  // the builds (the renderer uploads a build once).
  HeatmapSet view_maps;
  std::shared_ptr<const PretrainedRun> view_maps_of;
  uint64_t view_maps_builds = 0;
  float temperature = 1.0f;
  // Greedy generation with the KV cache (causal models): how many, and the job (started by the
  // button; its result shown while the trace it was started on is shown).
  int generate_count = 8;
  TraceJob<std::vector<GeneratedToken>, ModelPassChoice> generating;
  // With heads switched off (the shown trace's ablated_heads of the shown layer): the forward
  // again, a job started when the panel asks for it.
  TraceJob<HeadsOffRun, ModelPassChoice> heads_off;
};

// [SECTION] opening
// Starts loading `folder` on the background task (a load under way is cancelled first).
void start_model_load(AppState& state, const std::string& folder);
// Takes a finished load (and a folder dropped on the window); called every frame.
void poll_model(AppState& state);
void cancel_model_load(AppState& state);
// Blocks until the load, the sentence's run and the head finder are done, then takes them (tests,
// screenshots).
void wait_for_model(AppState& state);
// The open model's layer is the shown config (not a preset, not a config edited since).
bool model_is_current(const AppState& state);
// The preset picker's name for the model's layer: "gpt2-f32-tied, layer 0".
std::string model_label(const ModelTab& tab);
// Adds `folder` to the front of the recent folders (at most kMaxRecentModels, no repeats).
void remember_model_folder(std::vector<std::string>& recent, const std::string& folder);

// [SECTION] what is shown
// Makes layer `layer` of the open model on its sentence the current trace. False (and the error
// beside the layer slider) when it cannot.
bool show_model_layer(AppState& state, int64_t layer);
// --ablate's heads (tab.requested_off_heads), checked against the model's: switched off in the
// layer shown, or the reason beside the folder field.
void switch_requested_heads_off(AppState& state);
// Asks for the model's run on `sentence` (ids "5, 17, 42" when the folder has no tokenizer), a job
// under Cancel: poll_model shows the current layer on it when it is done and still the sentence
// typed; an error goes beside the sentence and the previous run stays.
void set_model_sentence(AppState& state, const std::string& sentence);
// The text the model runs on when the sentence is empty.
std::string default_model_sentence(const ModelSession& session);
std::string default_model_sentence(const ModelTab& tab);
// The forward pass of `sentence` (the default text when empty); throws only Cancelled.
SentenceRun run_model_sentence(const ModelSession& session, const std::string& sentence,
                               const RunControl& control = {});
// Shows layer `layer` at attend with head `head` focused in the heads panel.
void open_model_head(AppState& state, int64_t layer, int64_t head);
// The heads switched off in the shown trace, as the forward pass takes them.
std::vector<HeadSwitch> switched_off_heads(const AppState& state);
// The choice of the passes with the shown trace's heads switched off; nullopt while there is no
// model trace to compute them for (none open, or a new trace still computing).
std::optional<ModelPassChoice> model_pass_choice(const AppState& state);
// The forward with the shown trace's heads off: asks for the job (started once per trace
// generation and choice) and returns its result when done for them; null while it computes, when
// no head is off, or when it failed (the reason in state.model.heads_off.error()).
const HeadsOffRun* heads_off_run(AppState& state);
// Starts the greedy generation of `state.model.generate_count` tokens on the shown trace.
void start_generation(AppState& state);
// The tokens generated for the shown trace; null when none were (or the job still runs).
const std::vector<GeneratedToken>* generated_tokens(const AppState& state);

// [SECTION] the head finder and the next token
// The rows of `found` ordered by `column` (ties: by layer.head).
std::vector<int> sorted_heads(const std::vector<FoundHead>& found, FinderColumn column,
                              bool descending);
const char* finder_column_name(FinderColumn column);

struct TopToken {
  int64_t id = 0;
  double probability = 0;
};
// The `k` most probable ids, most probable first.
std::vector<TopToken> top_tokens(const std::vector<double>& probabilities, int k = kTopTokens);
// The positions whose next token is predicted: the last for a causal model, every [MASK] for
// BERT (none when the sentence has no [MASK] or the folder no tokenizer).
std::vector<int64_t> predicted_positions(const ModelTab& tab);

}  // namespace attnlab::gui
