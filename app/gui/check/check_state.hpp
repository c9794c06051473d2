// What the Check tab (key K) remembers: the exercise folder opened, the answer graded against it
// (DIR/answer.npz unless an answer file was opened or dropped), and the grading, done on a
// background job whenever the answer's modification time changes (its watcher wakes the loop): a
// student edits, runs and watches the stages turn green.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include "app/gui/check/answer_watch.hpp"
#include "app/gui/state/background_task.hpp"
#include "app/gui/state/heatmap_data.hpp"
#include "core/exercise/exercise.hpp"
#include "core/exercise/grade.hpp"

namespace attnlab::gui {

// What a grading was made for: the folder, the answer and the answer's modification time.
struct CheckKey {
  std::string dir, answer;
  std::filesystem::file_time_type stamp{};  // min(): the answer is missing
  bool operator==(const CheckKey&) const = default;
};

// A finished grading. `answer_error` (the answer missing or unreadable: one line) leaves `grade`
// with every stage not given; a folder that is no exercise fails the job instead.
struct CheckOutcome {
  std::shared_ptr<const Exercise> exercise;
  Grade grade;
  std::string answer_error;
};

struct CheckTab {
  std::string dir_text;  // the path field as typed
  std::string dir;       // the exercise folder opened ("" none)
  std::string answer;    // the answer graded: DIR/answer.npz, or a file opened or dropped
  std::filesystem::file_time_type stamp{};  // the answer's modification time, last graded for
  AnswerWatch watch;                        // looks at that time on its own thread
  BackgroundTask<std::shared_ptr<const CheckOutcome>, CheckKey> grading;
  std::shared_ptr<const CheckOutcome> shown;  // the last grading finished for the open folder
  uint64_t shown_version = 0;                 // bumped with each new `shown` (heatmap uploads)
  std::string error;                          // the folder is no exercise: shown in red
  int stage = -1;     // the stage whose maps are shown; -1: the first wrong one (or the last given)
  int64_t head = -1;  // the map shown; -1: the first differing head
  // The three maps (yours, right, |difference|) built for (shown_version, stage, head).
  std::array<HeatmapSet, 3> maps;
  std::array<int64_t, 3> maps_for{-1, -1, -1};
  uint64_t maps_builds = 0;
};

// The watcher has seen the answer change since its grading was started: a frame is due.
bool answer_changed(const CheckTab& tab);

// How a stage's box is drawn: not given (grey), right (green), wrong (red).
enum class StageMark { NotGiven, Right, Wrong };
StageMark stage_mark(const StageGrade& stage);

// The answer file a path names when opened: a folder's answer.npz, or the file (or .npy folder)
// itself; and the exercise folder it belongs to.
struct CheckPaths {
  std::string dir, answer;
};
CheckPaths check_paths(const std::string& path);

// Whether a dropped path is for the Check tab: a folder holding exercise.json, or a .npz / .npy.
bool is_check_path(const std::string& path);

// The answer's modification time (the newest .npy of a folder); min() when it is missing.
std::filesystem::file_time_type answer_stamp(const std::string& answer);

}  // namespace attnlab::gui
