#include "app/gui/check/check_state.hpp"

#include <algorithm>
#include <system_error>

namespace attnlab::gui {

namespace fs = std::filesystem;

namespace {

bool has_extension(const fs::path& path, const char* extension) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  return ext == extension;
}

bool is_exercise_folder(const fs::path& path) {
  std::error_code error;
  return fs::is_directory(path, error) && fs::exists(path / "exercise.json", error);
}

}  // namespace

CheckPaths check_paths(const std::string& path) {
  const fs::path given = fs::path(path).lexically_normal();
  if (is_exercise_folder(given) || !fs::exists(given))  // a missing folder: the job says so
    return {given.string(), (given / "answer.npz").string()};
  // An answer file, or a folder of .npy files, inside (or beside) its exercise.
  const fs::path parent = given.has_parent_path() ? given.parent_path() : fs::path(".");
  return {parent.string(), given.string()};
}

bool is_check_path(const std::string& path) {
  const fs::path given(path);
  return is_exercise_folder(given) || has_extension(given, ".npz") || has_extension(given, ".npy");
}

bool answer_changed(const CheckTab& tab) {
  return !tab.dir.empty() && tab.watch.stamp() != tab.stamp;
}

StageMark stage_mark(const StageGrade& stage) {
  if (!stage.given) return StageMark::NotGiven;
  return stage.right() ? StageMark::Right : StageMark::Wrong;
}

fs::file_time_type answer_stamp(const std::string& answer) {
  std::error_code error;
  const fs::path path(answer);
  if (!fs::is_directory(path, error)) {
    const fs::file_time_type stamp = fs::last_write_time(path, error);
    return error ? fs::file_time_type::min() : stamp;
  }
  fs::file_time_type newest = fs::last_write_time(path, error);
  if (error) return fs::file_time_type::min();
  for (const fs::directory_entry& entry : fs::directory_iterator(path, error))
    if (has_extension(entry.path(), ".npy"))
      newest = std::max(newest, fs::last_write_time(entry.path(), error));
  return newest;
}

}  // namespace attnlab::gui
