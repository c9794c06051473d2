// Opening an exercise, and grading its answer again whenever the answer's file changes.
#include <algorithm>
#include <memory>

#include "app/common/error_line.hpp"
#include "app/gui/check/check_panels.hpp"
#include "app/gui/state/gui_words.hpp"
#include "core/exercise/answer.hpp"
#include "core/model/errors.hpp"

namespace attnlab::gui {

namespace {

std::string one_line(std::string message) {
  if (const size_t end = message.find('\n'); end != std::string::npos) message.resize(end);
  return message;
}

// What went wrong, in one clear line as attnlab-cli check says it (app/common/error_line.hpp):
// never a JSON library's raw text.
std::string said(const std::exception& error) {
  return one_line(dynamic_cast<const UserError*>(&error) ? in_gui_words(error) : error_line(error));
}

// Loads the exercise (its right answer recomputed) unless `known` is its, and grades the answer; an
// answer that cannot be read is graded as empty, with why.
std::shared_ptr<const CheckOutcome> grade_files(const CheckKey& key,
                                                std::shared_ptr<const Exercise> known) {
  auto outcome = std::make_shared<CheckOutcome>();
  try {
    outcome->exercise =
        known ? std::move(known) : std::make_shared<const Exercise>(load_exercise(key.dir));
  } catch (const UserError&) {
    throw;
  } catch (const std::exception& error) {  // the job's error line: one clear line
    throw UserError(said(error));
  }
  Answer answer;
  try {
    answer = read_answer(key.answer);
  } catch (const std::exception& error) {
    outcome->answer_error = said(error);
  }
  outcome->grade = grade_answer(*outcome->exercise, answer);
  return outcome;
}

void take_dropped(AppState& state) {
  std::vector<std::string>& dropped = state.window.dropped_paths;
  const auto ours = std::stable_partition(dropped.begin(), dropped.end(),
                                          [](const std::string& p) { return !is_check_path(p); });
  if (ours == dropped.end()) return;
  const std::string last = dropped.back();  // the last one dropped, as the Model tab does
  dropped.erase(ours, dropped.end());
  open_check(state, last);
}

}  // namespace

void open_check(AppState& state, const std::string& path) {
  CheckTab& tab = state.check;
  CheckPaths paths = check_paths(path);
  // An answer file away from its exercise (the page's dropped file): the exercise open stays.
  const bool answer_given = paths.answer == std::filesystem::path(path).lexically_normal().string();
  if (answer_given && !tab.dir.empty() && !is_check_path(paths.dir)) paths.dir = tab.dir;
  tab.dir_text = path;
  if (paths.dir != tab.dir) tab.shown.reset();
  tab.dir = paths.dir;
  tab.answer = paths.answer;
  tab.error.clear();
  tab.stage = -1;
  tab.head = -1;
  state.tabs.requested_tool = ToolTab::Check;
  // Looked at now (a file dropped again over the last is graded again), then watched.
  tab.watch.watch(tab.answer, state.window.wake_loop);
  poll_check(state);
}

void poll_check(AppState& state) {
  take_dropped(state);
  CheckTab& tab = state.check;
  if (tab.dir.empty()) return;
  tab.stamp = tab.watch.stamp();
  const CheckKey key{tab.dir, tab.answer, tab.stamp};
  tab.grading.poll();
  if (!tab.grading.started_for(key)) {  // a new answer (or one still grading the old: next frame)
    // The exercise read once per folder: the page may have freed its files since.
    std::shared_ptr<const Exercise> known = tab.shown ? tab.shown->exercise : nullptr;
    tab.grading.start(key, [key, known](const RunControl&) { return grade_files(key, known); });
    return;
  }
  if (tab.grading.busy()) return;
  if (!tab.grading.error().empty()) {
    tab.error = one_line(tab.grading.error());
    tab.shown.reset();
  } else if (const auto* outcome = tab.grading.result_for(key); outcome && *outcome != tab.shown) {
    tab.error.clear();
    tab.shown = *outcome;
    ++tab.shown_version;
  }
}

int shown_check_stage(const CheckTab& tab) {
  if (!tab.shown) return -1;
  const Grade& grade = tab.shown->grade;
  const int count = int(grade.stages.size());
  if (tab.stage >= 0 && tab.stage < count && grade.stages[size_t(tab.stage)].given)
    return tab.stage;
  if (grade.first_wrong >= 0) return grade.first_wrong;
  for (int i = 0; i < count; ++i)  // all right: the attention weights, the lesson's picture
    if (grade.stages[size_t(i)].name == "weights" && grade.stages[size_t(i)].given) return i;
  for (int i = count - 1; i >= 0; --i)
    if (grade.stages[size_t(i)].given) return i;
  return -1;
}

void show_mistake_in_simulator(AppState& state, const Config& exercise_config, Mistake mistake) {
  Config config = exercise_config;
  config.mistake = mistake;
  set_config(state, config);
  state.tabs.requested_tool = ToolTab::Mistakes;
}

}  // namespace attnlab::gui
