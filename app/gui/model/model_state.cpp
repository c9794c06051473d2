#include "app/gui/model/model_state.hpp"

#include <algorithm>
#include <filesystem>
#include <numeric>
#include <utility>

#include "app/common/config_flags.hpp"
#include "app/gui/state/app_state.hpp"
#include "app/gui/state/gui_words.hpp"
#include "app/gui/state/trace_jobs.hpp"
#include "core/model/errors.hpp"
#include "core/pretrained/layer_trace.hpp"

namespace attnlab::gui {

namespace {

// One line: the first line of a message.
std::string one_line(const std::string& message) {
  return message.substr(0, message.find('\n'));
}

std::string folder_name(const std::string& folder) {
  std::filesystem::path path(folder);
  while (!path.empty() && path.filename().empty()) path = path.parent_path();  // "dir/"
  const std::string name = path.filename().string();
  return name.empty() ? folder : name;
}

// Makes `done` the model's sentence and run (the error beside the sentence when it could not run,
// the previous run kept); shows the current layer on it.
bool take_sentence_run(AppState& state, const SentenceRun& done) {
  ModelTab& tab = state.model;
  tab.sentence = done.sentence;
  if (!done.error.empty()) {
    tab.sentence_error = done.error;
    return false;
  }
  tab.tokens = done.tokens;
  tab.run = done.run;
  tab.run_loss = done.loss;
  tab.found.clear();  // poll_model starts the head finder on the new run
  tab.sentence_error.clear();
  return show_model_layer(state, tab.layer);
}

// Takes a loaded model and its first sentence's run, and shows its layer.
void adopt_model(AppState& state, const LoadedModel& loaded) {
  ModelTab& tab = state.model;
  tab.session = loaded.session;
  tab.folder = tab.loading;
  tab.name = folder_name(tab.folder);
  tab.loading.clear();
  tab.error.clear();
  tab.run.reset();
  tab.found.clear();
  tab.folder_text = tab.folder;
  remember_model_folder(state.ui.recent_models, tab.folder);
  const int64_t layers = tab.session->model.spec.n_layers;
  tab.layer = std::clamp<int64_t>(tab.requested_layer < 0 ? 0 : tab.requested_layer, 0, layers - 1);
  if (tab.requested_layer >= layers)
    tab.error = "layer " + std::to_string(tab.requested_layer) +
                " is not one of the model's: " + "showing layer " + std::to_string(tab.layer) +
                " (0 to " + std::to_string(layers - 1) + ")";
  tab.requested_layer = -1;
  take_sentence_run(state, loaded.first);
  tab.sentence_taken = {tab.session, tab.sentence};
  if (!tab.run) {  // the asked sentence cannot run: the default text, the reason kept beside it
    take_sentence_run(state, loaded.fallback);
    tab.sentence = loaded.first.sentence;
    tab.sentence_error = loaded.first.error;
  }
  switch_requested_heads_off(state);
}

}  // namespace

void switch_requested_heads_off(AppState& state) {
  ModelTab& tab = state.model;
  const std::vector<int64_t> heads = std::exchange(tab.requested_off_heads, {});
  if (heads.empty() || !model_is_current(state)) return;
  Config config = state.session.config;
  try {
    config.ablated_heads = ablated_heads_for(heads, tab.session->model.spec.n_heads);
  } catch (const UserError& error) {
    tab.error = in_gui_words(error);
    return;
  }
  set_config(state, config);
}

// [SECTION] opening

void start_model_load(AppState& state, const std::string& folder) {
  ModelTab& tab = state.model;
  tab.load.stop();  // a load under way: its folder is no longer wanted
  tab.load.forget();
  tab.loading = folder;
  tab.error.clear();
  tab.folder_text = folder;
  // The sentence asked for (--sentence) runs on the task too: opening never stalls the window.
  const std::string sentence = tab.requested_sentence.value_or("");
  tab.requested_sentence.reset();
  tab.load.start(folder, [folder, sentence](const RunControl& control) {
    LoadedModel loaded;
    loaded.session = std::make_shared<ModelSession>();
    ModelSession& session = *loaded.session;
    // load_pretrained reports after each tensor: the place to stop when asked.
    session.model = load_pretrained(folder, [&control](int64_t done, int64_t total) {
      control.check_cancel();
      control.report(total > 0 ? double(done) / double(total) : 0.0);
    });
    try {
      session.tokenizer = HfTokenizer::open(folder, session.model.spec.model_type);
    } catch (const UserError& error) {
      session.tokenizer_error = in_gui_words(error);
    }
    control.check_cancel();
    loaded.first = run_model_sentence(session, sentence, control);
    if (!loaded.first.error.empty()) loaded.fallback = run_model_sentence(session, "", control);
    return loaded;
  });
}

// The run of the sentence typed: started when it differs from the last started (one typed while a
// run is under way cancels it, and starts once it has stopped), taken when done if still typed.
void poll_sentence_run(AppState& state) {
  ModelTab& tab = state.model;
  BackgroundTask<SentenceRun, ModelTab::SentenceKey>& job = tab.sentence_run;
  job.poll();
  if (!tab.session) return;
  const ModelTab::SentenceKey key{tab.session, tab.sentence};
  if (job.busy()) {  // a run for a sentence typed before: stopped, this one starts after it
    if (!job.started_for(key)) job.cancel();
    return;
  }
  if (key == tab.sentence_taken) return;
  if (const SentenceRun* done = job.result_for(key)) {
    tab.sentence_taken = key;
    take_sentence_run(state, SentenceRun(*done));
  } else if (!job.started_for(key)) {
    job.start(key, [key](const RunControl& control) {
      return run_model_sentence(*key.first, key.second, control);
    });
  }
}

// The head finder of the shown run, on its own task: started when the run changes, taken when done.
void poll_head_finder(ModelTab& tab) {
  tab.finding.poll();
  if (tab.finding.busy()) return;
  if (const std::vector<FoundHead>* found = tab.finding.result_for(tab.run);
      found && tab.found.empty())
    tab.found = *found;
  if (tab.run && !tab.finding.started_for(tab.run))
    tab.finding.start(tab.run, [session = tab.session, run = tab.run](const RunControl&) {
      return find_heads(session->model, *run);
    });
}

void poll_model(AppState& state) {
  ModelTab& tab = state.model;
  if (!state.window.dropped_paths.empty()) {  // a folder dropped on the window: the last one
    const std::string dropped = state.window.dropped_paths.back();
    state.window.dropped_paths.clear();
    start_model_load(state, dropped);
  }
  poll_sentence_run(state);
  poll_head_finder(tab);
  if (tab.loading.empty()) return;
  tab.load.poll();
  if (tab.load.busy()) return;
  if (tab.load.cancelled()) {
    tab.loading.clear();
    state.status = "Opening the model cancelled: still showing the previous trace.";
  } else if (!tab.load.error().empty()) {
    tab.error = one_line(tab.load.error());
    tab.loading.clear();
  } else if (const auto& loaded = tab.load.result(); loaded && loaded->session) {
    adopt_model(state, *loaded);
  }
  tab.load.forget();
  poll_head_finder(tab);
}

void cancel_model_load(AppState& state) {
  state.model.load.cancel();
}

void wait_for_model(AppState& state) {
  state.model.load.wait();
  poll_model(state);
  while (state.model.sentence_run.pending()) {  // each sentence typed meanwhile runs in turn
    state.model.sentence_run.wait();
    poll_model(state);
  }
  state.model.finding.wait();
  poll_model(state);
}

std::string model_label(const ModelTab& tab) {
  return tab.name + ", layer " + std::to_string(tab.layer);
}

bool model_is_current(const AppState& state) {
  return state.model.session && state.model.run &&
         state.session.preset_name == model_label(state.model);
}

void remember_model_folder(std::vector<std::string>& recent, const std::string& folder) {
  std::erase(recent, folder);
  recent.insert(recent.begin(), folder);
  if (recent.size() > size_t(kMaxRecentModels)) recent.resize(kMaxRecentModels);
}

// [SECTION] what is shown

bool show_model_layer(AppState& state, int64_t layer) {
  ModelTab& tab = state.model;
  if (!tab.session || !tab.run) return false;
  // Heads switched off stay off while the layer stays (a new sentence); another layer starts on.
  const bool same_layer = model_is_current(state) && layer == tab.layer;
  const std::vector<bool> off =
      same_layer ? state.session.config.ablated_heads : std::vector<bool>{};
  LayerOfModel shown;
  try {
    shown = layer_of_model(tab.session->model, *tab.run, layer);
  } catch (const std::exception& error) {
    tab.error = one_line(in_gui_words(error));
    return false;
  }
  shown.inputs.labels.tokens = tab.tokens.pieces;  // the trace labels tokens by the model's pieces
  shown.config.ablated_heads = off;
  tab.layer = layer;
  Session& session = state.session;
  session.preset_name = model_label(tab);
  session.preset_config = shown.config;
  session.preset_inputs = shown.inputs;
  set_config(state, shown.config);
  sync_edit_buffers(state);
  if (state.heads.focus.head >= shown.config.n_heads) state.heads.focus = {};
  return true;
}

std::string default_model_sentence(const ModelSession& session) {
  if (session.tokenizer) {
    if (!session.model.spec.causal) return "The capital of France is [MASK].";
    return "The capital of France is";
  }
  // No tokenizer: ids, five of them and then the first four again (an induction head's cue).
  const int64_t vocab = session.model.spec.vocab;
  std::string ids;
  for (int i = 0; i < 9; ++i)
    ids += (ids.empty() ? "" : ", ") + std::to_string((11 + 13 * (i % 5)) % vocab);
  return ids;
}

std::string default_model_sentence(const ModelTab& tab) {
  return tab.session ? default_model_sentence(*tab.session) : "";
}

SentenceRun run_model_sentence(const ModelSession& session, const std::string& sentence,
                               const RunControl& control) {
  SentenceRun done;
  done.sentence = sentence;
  const std::string text = sentence.empty() ? default_model_sentence(session) : sentence;
  try {
    if (session.tokenizer) {
      done.tokens = tokens_of_sentence(session, text);
    } else {
      std::vector<int64_t> ids;
      try {
        ids = parse_token_ids(text);
      } catch (const UserError&) {
        throw UserError(
            "this folder has no tokenizer: type token ids separated by commas, e.g. 5, 17, 42");
      }
      done.tokens = tokens_of_ids(session, ids);
    }
    done.run = std::make_shared<const PretrainedRun>(
        run_pretrained(session.model, done.tokens.ids, {}, true, control));
    done.loss = next_token_loss(*done.run);
  } catch (const Cancelled&) {
    throw;
  } catch (const std::exception& error) {
    done = SentenceRun{sentence, {}, nullptr, 0, one_line(in_gui_words(error))};
  }
  return done;
}

void set_model_sentence(AppState& state, const std::string& sentence) {
  ModelTab& tab = state.model;
  if (!tab.session) return;
  tab.sentence = sentence;  // the field shows what was typed while it runs
  poll_sentence_run(state);
}

void open_model_head(AppState& state, int64_t layer, int64_t head) {
  if (!model_is_current(state) || layer != state.model.layer) {
    state.walk.pending_stage = "attend";  // taken when the layer's trace arrives
    if (!show_model_layer(state, layer)) return;
  }
  if (state.session.trace) go_to_named_step(state, "attend");
  if (head >= 0 && head < state.session.config.n_heads) state.heads.focus = {int(head), -1, {}};
}

std::vector<HeadSwitch> switched_off_heads(const AppState& state) {
  std::vector<HeadSwitch> off;
  if (!model_is_current(state)) return off;
  const std::vector<bool>& ablated = state.session.config.ablated_heads;
  for (size_t h = 0; h < ablated.size(); ++h)
    if (ablated[h]) off.push_back({state.model.layer, int64_t(h)});
  return off;
}

std::optional<ModelPassChoice> model_pass_choice(const AppState& state) {
  const std::shared_ptr<const Trace>& trace = state.session.trace;
  // The shown trace, once it is the config's (a head just switched off: its trace computes first).
  if (!model_is_current(state) || !trace ||
      trace->config.ablated_heads != state.session.config.ablated_heads)
    return std::nullopt;
  ModelPassChoice choice;
  choice.run = state.model.run;
  choice.off = switched_off_heads(state);
  return choice;
}

const HeadsOffRun* heads_off_run(AppState& state) {
  ModelTab& tab = state.model;
  const std::optional<ModelPassChoice> choice = model_pass_choice(state);
  if (!choice || choice->off.empty()) return nullptr;
  const TraceKey<ModelPassChoice> key = shown_key(state, *choice);
  if (!tab.heads_off.started_for(key))
    tab.heads_off.start(key, [session = tab.session, choice = *choice](const RunControl& control) {
      HeadsOffRun done;
      done.run = std::make_shared<const PretrainedRun>(
          run_pretrained(session->model, choice.run->ids, choice.off, true, control));
      done.loss = next_token_loss(*done.run);
      return done;
    });
  return tab.heads_off.result_for(key);
}

void start_generation(AppState& state) {
  ModelTab& tab = state.model;
  std::optional<ModelPassChoice> choice = model_pass_choice(state);
  if (!choice || tab.generating.busy()) return;
  choice->count = tab.generate_count;
  tab.generating.forget();  // the same again when asked: the button is the request
  tab.generating.start(shown_key(state, *choice), [session = tab.session,
                                                   choice = *choice](const RunControl& control) {
    return generate_greedy(session->model, choice.run->ids, choice.count, choice.off, control);
  });
}

const std::vector<GeneratedToken>* generated_tokens(const AppState& state) {
  const auto& task = state.model.generating;
  if (!task.key() || !task.result() || task.key()->generation != state.session.generation)
    return nullptr;
  return &*task.result();
}

// [SECTION] the head finder and the next token

const char* finder_column_name(FinderColumn column) {
  // Short, so six columns stay whole at a projector's font scale; the tooltips say them in full.
  constexpr const char* kNames[kFinderColumns] = {"head", "prev", "first",
                                                  "same", "bits", "induct"};
  return kNames[int(column)];
}

std::vector<int> sorted_heads(const std::vector<FoundHead>& found, FinderColumn column,
                              bool descending) {
  const auto key = [column](const FoundHead& f) {
    switch (column) {
      case FinderColumn::Head:
        return double(f.layer) * 1e6 + double(f.head);
      case FinderColumn::Previous:
        return f.previous;
      case FinderColumn::First:
        return f.first;
      case FinderColumn::Same:
        return f.same;
      case FinderColumn::Entropy:
        return f.entropy;
      case FinderColumn::Induction:
        return f.induction;
    }
    return 0.0;
  };
  std::vector<int> order(found.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    const double ka = key(found[size_t(a)]), kb = key(found[size_t(b)]);
    return descending ? ka > kb : ka < kb;
  });
  return order;
}

std::vector<TopToken> top_tokens(const std::vector<double>& probabilities, int k) {
  std::vector<TopToken> all(probabilities.size());
  for (size_t i = 0; i < probabilities.size(); ++i) all[i] = {int64_t(i), probabilities[i]};
  const size_t n = std::min(all.size(), size_t(std::max(k, 0)));
  std::partial_sort(
      all.begin(), all.begin() + ptrdiff_t(n), all.end(), [](const TopToken& a, const TopToken& b) {
        return a.probability > b.probability || (a.probability == b.probability && a.id < b.id);
      });
  all.resize(n);
  return all;
}

std::vector<int64_t> predicted_positions(const ModelTab& tab) {
  std::vector<int64_t> positions;
  if (!tab.session || !tab.run || tab.run->ids.empty()) return positions;
  if (tab.session->model.spec.causal) {
    positions.push_back(int64_t(tab.run->ids.size()) - 1);
    return positions;
  }
  const auto mask =
      tab.session->tokenizer ? tab.session->tokenizer->special_ids().mask : std::nullopt;
  if (!mask) return positions;
  for (size_t t = 0; t < tab.run->ids.size(); ++t)
    if (tab.run->ids[t] == *mask) positions.push_back(int64_t(t));
  return positions;
}

}  // namespace attnlab::gui
