#include "app/gui/train/train_run.hpp"

#include <algorithm>
#include <chrono>

#ifdef ATTNLAB_ONE_THREAD
#include <emscripten/eventloop.h>
#endif

#include "app/gui/state/gui_words.hpp"
#include "core/model/errors.hpp"
#include "core/training/tasks.hpp"

namespace attnlab::gui {

namespace {

// A snapshot this often: about 60 over a run, and every step of a short one.
int64_t snapshot_every(int64_t steps) {
  return std::max<int64_t>(1, steps / 60);
}

// The evaluation batch: one sequence, from a batch index training never reaches.
constexpr int64_t kEvalBatchIndex = int64_t(1) << 40;

using Clock = std::chrono::steady_clock;

}  // namespace

#ifdef ATTNLAB_ONE_THREAD
TrainRun::TrainRun() = default;

TrainRun::~TrainRun() {
  emscripten_clear_timeout(timer_);
}
#else
TrainRun::TrainRun() : thread_([this] { loop(); }) {}

TrainRun::~TrainRun() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}
#endif

std::string TrainRun::reset(const training::TrainSettings& settings) {
  try {
    training::check_settings(settings);
  } catch (const UserError& error) {
    return error.in_controls();
  }
  running_ = false;
  std::lock_guard train(train_mutex_);  // waits for a step under way
  settings_ = settings;
  trainer_ = std::make_unique<training::Trainer>(settings);
  eval_batch_ = training::make_batch(settings.task, 1, settings.seq_len, settings.vocab,
                                     settings.seed, kEvalBatchIndex);
  steps_done_ = 0;
  auto first = snapshot(*trainer_);
  std::lock_guard lock(mutex_);
  snapshots_ = {std::move(first)};
  pending_steps_ = 0;
  has_model_ = true;
  return "";
}

void TrainRun::start() {
  if (!has_model() || steps_done_ >= steps_total()) return;
  {
    std::lock_guard lock(mutex_);
    running_ = true;
  }
  wake_.notify_all();
#ifdef ATTNLAB_ONE_THREAD
  schedule_steps();
#endif
}

void TrainRun::pause() {
  running_ = false;
}

void TrainRun::step_once() {
  if (!has_model()) return;
#ifdef ATTNLAB_ONE_THREAD
  if (!running_) take_step();
#else
  {
    std::lock_guard lock(mutex_);
    ++pending_steps_;
  }
  wake_.notify_all();
#endif
}

bool TrainRun::has_model() const {
  return has_model_.load();
}

int64_t TrainRun::steps_total() const {
  return settings_.steps;
}

std::string TrainRun::save(const std::string& dir) {
  std::lock_guard train(train_mutex_);
  if (!trainer_) return "no model yet: press Start or Reset first";
  try {
    training::save_model(dir, *trainer_);
  } catch (const std::exception& error) {
    return in_gui_words(error);
  }
  return "Saved the model to " + dir + " (" + std::to_string(trainer_->steps_done()) + " steps)";
}

std::string TrainRun::load(const std::string& dir) {
  training::SavedModel saved;
  try {
    saved = training::load_model(dir);
  } catch (const std::exception& error) {
    return in_gui_words(error);
  }
  if (std::string error = reset(saved.settings); !error.empty()) return error;
  std::lock_guard train(train_mutex_);
  trainer_->parameters() = saved.parameters;
  auto shot = snapshot(*trainer_);
  std::lock_guard lock(mutex_);
  snapshots_ = {std::move(shot)};
  return "";
}

training::SavedModel TrainRun::model() {
  std::lock_guard train(train_mutex_);
  if (!trainer_) throw UserError("no model yet: press Start or Reset first");
  return {settings_, trainer_->shape(), trainer_->parameters()};
}

std::vector<std::shared_ptr<const TrainSnapshot>> TrainRun::snapshots() const {
  std::lock_guard lock(mutex_);
  return snapshots_;
}

void TrainRun::set_pace(double steps_per_second) {
  pace_ = std::max(0.0, steps_per_second);
  wake_.notify_all();  // a slow pace's wait ends at once when it changes
#ifdef ATTNLAB_ONE_THREAD
  if (running_) schedule_steps();
#endif
}

#ifdef ATTNLAB_ONE_THREAD
void TrainRun::schedule_steps() {
  emscripten_clear_timeout(timer_);
  const double pace = pace_.load();
  timer_ =
      emscripten_set_timeout([](void* run) { static_cast<TrainRun*>(run)->steps_between_frames(); },
                             pace > 0 ? 1000.0 / pace : 0.0, this);
}

void TrainRun::steps_between_frames() {
  timer_ = 0;
  // A third of a 60 Hz frame: the page still draws the heads as they learn.
  const Clock::time_point until = Clock::now() + std::chrono::milliseconds(5);
  do {
    if (!running_) return;
    take_step();
  } while (pace_.load() == 0 && Clock::now() < until);
  if (running_) schedule_steps();
}
#else
void TrainRun::loop() {
  Clock::time_point last_step{};
  while (true) {
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock,
                 [&] { return stopping_ || (has_model_ && (running_ || pending_steps_ > 0)); });
      if (stopping_) return;
      if (pending_steps_ > 0) {
        --pending_steps_;
      } else if (const double pace = pace_.load(); pace > 0) {
        // Running at a pace: not before 1/pace after the last step (Pause, Step, a new pace or
        // the end wake the wait early, and it looks again).
        const auto due = last_step + std::chrono::duration_cast<Clock::duration>(
                                         std::chrono::duration<double>(1.0 / pace));
        if (wake_.wait_until(lock, due,
                             [&] { return stopping_ || !running_ || pace_.load() != pace; }) ||
            Clock::now() < due || !running_)
          continue;
      }
    }
    last_step = Clock::now();
    take_step();
  }
}
#endif

void TrainRun::take_step() {
  std::shared_ptr<const TrainSnapshot> shot;
  {
    std::lock_guard train(train_mutex_);
    training::Trainer& trainer = *trainer_;
    if (trainer.steps_done() >= settings_.steps) {
      running_ = false;
      return;
    }
    trainer.step();
    steps_done_ = trainer.steps_done();
    const bool last = trainer.steps_done() >= settings_.steps;
    if (last && !settings_.eval_seq_lens.empty()) trainer.evaluate_lengths();
    if (last || pace_.load() > 0 || !running_ ||
        trainer.steps_done() % snapshot_every(settings_.steps) == 0)
      shot = snapshot(trainer);
    if (last) running_ = false;
  }
  if (shot) {
    std::lock_guard lock(mutex_);
    snapshots_.push_back(std::move(shot));
  }
}

std::shared_ptr<const TrainSnapshot> TrainRun::snapshot(training::Trainer& trainer) const {
  auto shot = std::make_shared<TrainSnapshot>();
  shot->step = trainer.steps_done();
  shot->eval = trainer.evaluate(eval_batch_);
  shot->tokens = eval_batch_.tokens;
  shot->lengths = trainer.length_evals();
  const int64_t T = eval_batch_.seq_len;
  const training::ModelShape& shape = trainer.shape();
  for (const auto& layer : trainer.cache().layers) {
    // weights: (B*h*T, T) with B = 1: rows head*T + query.
    for (int64_t head = 0; head < shape.heads; ++head) {
      std::vector<float> map(size_t(T * T));
      for (int64_t q = 0; q < T; ++q)
        for (int64_t k = 0; k < T; ++k) map[size_t(q * T + k)] = layer.weights(head * T + q, k);
      shot->maps.push_back(std::move(map));
    }
  }
  return shot;
}

}  // namespace attnlab::gui
