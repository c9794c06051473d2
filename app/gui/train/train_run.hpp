// The Train tab's run: a Trainer (core/training) stepping on its own thread, so the window stays
// responsive (in the one-thread page, core/model/threads_available.hpp, between the page's
// frames), with Start / Pause / Step / Reset; every few steps a snapshot of the loss, the
// accuracy, the per-head pattern scores and every head's attention map on a fixed evaluation
// sequence, which the tab draws live and its scrubber replays.
#pragma once

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/training/model_io.hpp"
#include "core/training/trainer.hpp"

namespace attnlab::gui {

// One moment of a run, as the tab shows it.
struct TrainSnapshot {
  int64_t step = 0;             // steps done when it was taken
  training::HistoryEntry eval;  // loss, accuracy per output, pattern scores (evaluation batch)
  std::vector<int64_t> tokens;  // the evaluation sequence (T)
  std::vector<std::vector<float>> maps;  // per (layer, head), layer-major: (T, T) weights
  // Longer than training: the accuracy at T and at settings.eval_seq_lens, once the run ended.
  std::vector<training::LengthEval> lengths;
};

class TrainRun {
 public:
  TrainRun();
  ~TrainRun();  // stops and joins the thread
  TrainRun(const TrainRun&) = delete;
  TrainRun& operator=(const TrainRun&) = delete;

  // A new model from `settings` (checked first: the error is returned, "" when it starts).
  std::string reset(const training::TrainSettings& settings);
  void start();  // steps until settings.steps (or Pause)
  void pause();
  void step_once();  // one step while paused
  // Steps per second while running, to be watched in class (a snapshot after every step); 0: as
  // fast as the machine goes (a snapshot about every 1/60 of the run).
  void set_pace(double steps_per_second);
  double pace() const { return pace_.load(); }

  bool has_model() const;
  bool running() const { return running_.load(); }
  int64_t steps_done() const { return steps_done_.load(); }
  int64_t steps_total() const;
  const training::TrainSettings& settings() const { return settings_; }
  // Saves the model to the folder `dir` (model.json, one .npy per parameter, history.json),
  // atomically; returns what to tell the user ("Saved ..." or why not).
  std::string save(const std::string& dir);
  // Loads a saved model in place of this one (paused, its heads shown); "" or why not.
  std::string load(const std::string& dir);
  // The model as it is now (a copy; waits for a step under way), for "Open in the pipeline".
  training::SavedModel model();
  // The snapshots so far (shared, immutable; cheap to copy every frame).
  std::vector<std::shared_ptr<const TrainSnapshot>> snapshots() const;

 private:
#ifdef ATTNLAB_ONE_THREAD
  // The next steps, in a browser timeout: at once, or 1/pace from now.
  void schedule_steps();
  // Steps for a slice of a frame (one step at a pace), then schedules the next ones while running.
  void steps_between_frames();
#else
  void loop();
#endif
  // One step while running or for a Step press, with its snapshot when one is due.
  void take_step();
  // The snapshot of `trainer` now (train_mutex_ held).
  std::shared_ptr<const TrainSnapshot> snapshot(training::Trainer& trainer) const;

  training::TrainSettings settings_;  // of the current model (written under train_mutex_)
  // The model and its evaluation sequence: held by the worker for each step and by Reset, so the
  // GUI waits at most one step (a millisecond or so) and never while it only reads snapshots.
  std::mutex train_mutex_;
  std::unique_ptr<training::Trainer> trainer_;
  training::Batch eval_batch_;
  // What the GUI reads and the worker waits on: held only briefly.
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<std::shared_ptr<const TrainSnapshot>> snapshots_;
  int64_t pending_steps_ = 0;  // Step presses not yet done
  bool stopping_ = false;
  std::atomic<bool> has_model_{false};
  std::atomic<bool> running_{false};
  std::atomic<int64_t> steps_done_{0};
  std::atomic<double> pace_{0};
#ifdef ATTNLAB_ONE_THREAD
  long timer_ = 0;  // the browser timeout of the next steps
#else
  std::thread thread_;  // last: starts after every member above exists
#endif
};

}  // namespace attnlab::gui
