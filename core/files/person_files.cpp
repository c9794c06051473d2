#include "core/files/person_files.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "core/model/errors.hpp"
#include "core/tensor/npy.hpp"

namespace attnlab {

namespace fs = std::filesystem;

namespace {

// The most backups of one file (mha.py.~1~ .. mha.py.~999~) before the person is asked to tidy up.
constexpr int kMaxBackups = 999;

[[noreturn]] void fail(const fs::path& path, const std::error_code& error, const char* doing) {
  throw UserError("cannot " + std::string(doing) + " '" + path.string() + "': " + error.message() +
                  "; check that the folder is writable, or choose another folder");
}

// Whether anything (a file, a folder, a dangling link) has that name.
bool name_taken(const fs::path& path) {
  std::error_code ignored;
  return fs::exists(fs::symlink_status(path, ignored));
}

// Whether the file at `path` holds exactly `bytes`. A file of another size is not read at all, so a
// hostile file (a device, a huge file) costs nothing; one of the same size is read in chunks.
bool holds(const fs::path& path, const std::string& bytes) {
  std::error_code error;
  if (!fs::is_regular_file(fs::status(path, error))) return false;
  const auto size = fs::file_size(path, error);
  if (error || size != bytes.size()) return false;
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::string chunk(std::min<size_t>(bytes.size(), size_t(1) << 16), '\0');
  for (size_t at = 0; at < bytes.size();) {
    const size_t count = std::min(chunk.size(), bytes.size() - at);
    if (!in.read(chunk.data(), std::streamsize(count))) return false;
    if (chunk.compare(0, count, bytes, at, count) != 0) return false;
    at += count;
  }
  return in.peek() == std::ifstream::traits_type::eof();  // and it did not grow meanwhile
}

// The first free "NAME.~N~" beside `path`.
fs::path backup_path(const fs::path& path) {
  for (int n = 1; n <= kMaxBackups; ++n) {
    fs::path backup = path;
    backup += ".~" + std::to_string(n) + "~";
    if (!name_taken(backup)) return backup;
  }
  throw UserError("cannot move '" + path.string() + "' aside: " + std::to_string(kMaxBackups) +
                  " backups of it are there already; remove old ones (" + path.filename().string() +
                  ".~N~)");
}

// The folder as a path without a trailing separator ("ex1/" is "ex1").
fs::path folder_path(const std::string& dir) {
  fs::path folder = fs::path(dir).lexically_normal();
  if (!folder.has_filename() && folder.has_parent_path() && folder != folder.root_path())
    folder = folder.parent_path();
  return folder;
}

// A folder that is not there: made whole in a temporary sibling, renamed into place at the end.
PersonWrite write_new_folder(const fs::path& folder, const std::vector<PersonFile>& files) {
  // The first missing folder on the way (the folder itself or a missing parent): removed again,
  // with what is under it, on a failure.
  fs::path top = folder;
  while (top.has_parent_path() && top.parent_path() != top && !name_taken(top.parent_path()))
    top = top.parent_path();
  fs::path temp = folder;
  temp += ".tmp-" + std::to_string(::getpid());
  const auto undo = [&] {
    std::error_code ignored;
    fs::remove_all(temp, ignored);
    if (top != folder) fs::remove_all(top, ignored);
  };
  PersonWrite done;
  try {
    std::error_code error;
    if (folder.has_parent_path()) {
      fs::create_directories(folder.parent_path(), error);
      if (error) fail(folder.parent_path(), error, "create the folder");
    }
    fs::remove_all(temp, error);  // one this process left (same PID): never another's
    if (!fs::create_directory(temp, error) || error) fail(folder, error, "create the folder");
    for (const PersonFile& file : files) {
      write_file_atomically((temp / file.name).string(), file.bytes);
      done.written.push_back(file.name);
    }
    fs::rename(temp, folder, error);
    if (error) fail(folder, error, "create the folder");
  } catch (...) {
    undo();
    throw;
  }
  return done;
}

enum class Action { Write, Edit, Leave, Keep, MoveAside };

// What was changed, to be undone on a failure.
struct Change {
  fs::path path;
  Action action;
  fs::path backup;                   // MoveAside
  const std::string* old = nullptr;  // Edit: the bytes it held
};

void undo(const std::vector<Change>& changes) {
  std::error_code ignored;
  for (auto change = changes.rbegin(); change != changes.rend(); ++change) {
    if (change->action == Action::Write) fs::remove(change->path, ignored);
    if (change->action == Action::MoveAside) fs::rename(change->backup, change->path, ignored);
    if (change->action == Action::Edit) {
      try {
        write_file_atomically(change->path.string(), *change->old);
      } catch (const std::exception&) {  // the first error is the one said
      }
    }
  }
}

PersonWrite write_into_folder(const fs::path& folder, const std::vector<PersonFile>& files,
                              WhenDifferent when_different) {
  // Every file looked at first: nothing is written when the look fails.
  std::vector<Action> actions;
  for (const PersonFile& file : files) {
    const fs::path path = folder / file.name;
    if (!name_taken(path))
      actions.push_back(Action::Write);
    else if (holds(path, file.bytes))
      actions.push_back(Action::Leave);
    else if (file.edits && holds(path, *file.edits))
      actions.push_back(Action::Edit);
    else
      actions.push_back(when_different == WhenDifferent::Keep ? Action::Keep : Action::MoveAside);
  }
  PersonWrite done;
  std::vector<Change> changes;
  try {
    for (size_t i = 0; i < files.size(); ++i) {
      const PersonFile& file = files[i];
      Change change{folder / file.name, actions[i], {}, file.edits ? &*file.edits : nullptr};
      switch (actions[i]) {
        case Action::Leave:
          done.same.push_back(file.name);
          continue;
        case Action::Keep:
          done.kept.push_back(file.name);
          continue;
        case Action::MoveAside: {
          change.backup = backup_path(change.path);
          std::error_code error;
          fs::rename(change.path, change.backup, error);
          if (error) fail(change.path, error, "move aside");
          changes.push_back(change);
          done.moved.push_back({file.name, change.backup.filename().string()});
          break;
        }
        case Action::Write:
        case Action::Edit:
          break;
      }
      write_file_atomically(change.path.string(), file.bytes);
      if (actions[i] == Action::Write) done.written.push_back(file.name);
      if (actions[i] == Action::Edit) done.edited.push_back(file.name);
      if (actions[i] != Action::MoveAside) changes.push_back(change);
    }
  } catch (...) {
    undo(changes);
    throw;
  }
  return done;
}

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

}  // namespace

bool file_holds(const std::string& path, const std::string& bytes) {
  return holds(path, bytes);
}

PersonWrite write_person_files(const std::string& dir, const std::vector<PersonFile>& files,
                               WhenDifferent when_different) {
  const fs::path folder = folder_path(dir);
  if (!name_taken(folder)) return write_new_folder(folder, files);
  std::error_code error;
  if (!fs::is_directory(folder, error))
    throw UserError("cannot write into " + dir + ": it is a file, not a folder; choose another");
  return write_into_folder(folder, files, when_different);
}

std::string kept_line(const PersonWrite& write, const std::string& dir) {
  if (write.kept.empty()) return "";
  return "kept " + joined(write.kept) + " in " + dir + ": " +
         (write.kept.size() == 1 ? "it differs" : "they differ") + " from what would be written";
}

std::string moved_line(const PersonWrite& write, const std::string& dir) {
  std::vector<std::string> moves;
  for (const MovedAside& m : write.moved) moves.push_back(m.name + " to " + m.backup);
  if (moves.empty()) return "";
  return "moved " + joined(moves) + " in " + dir + " before writing " +
         (moves.size() == 1 ? "it" : "them") + " anew";
}

}  // namespace attnlab
