// Writing into a folder a person works in (an exercise folder, a lesson's file): nothing they wrote
// is lost. What is missing is written; a file that already holds what would be written is left; a
// file that differs is kept as it is and named, unless the caller replaces (`--force`), and then
// the old one is first moved aside in its folder (mha.py -> mha.py.~1~, the first number free) and
// named with where it went. A file the caller read in order to edit it (capture-as-scene adds a
// scene to a lesson) names the bytes it read: it is replaced only while it still holds them, so an
// edit made meanwhile (in an editor) is kept. The rule git follows before it overwrites an
// untracked file.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace attnlab {

struct PersonFile {
  std::string name;   // inside the folder, e.g. "mha.py"
  std::string bytes;  // what is written
  // The file's bytes as the caller read them before editing them: replaced without asking while
  // the file still holds them. Unset: a file the caller makes whole.
  std::optional<std::string> edits;
};

// What happens to a file that differs from what would be written (and from what was read).
enum class WhenDifferent { Keep, MoveAside };

struct MovedAside {
  std::string name;    // "mha.py"
  std::string backup;  // "mha.py.~1~", in the same folder, holding the old bytes
};

struct PersonWrite {
  std::vector<std::string> written;  // were missing, now written
  std::vector<std::string> edited;   // held what the caller read: replaced by its edit
  std::vector<std::string> same;     // held these bytes already: left untouched
  std::vector<std::string> kept;     // differ: left as they are (WhenDifferent::Keep)
  std::vector<MovedAside> moved;     // differ: moved aside, then written (WhenDifferent::MoveAside)
};

// Writes `files` into `dir` by the rule above; each file is written atomically (temp, fsync,
// rename). A folder that does not exist is made whole or not at all: written into a temporary
// sibling folder that is renamed to `dir` (its missing parents are removed again on a failure).
// On any failure (unwritable, disk full, out of memory) what this call wrote, made or moved is
// undone and a UserError names the path and the reason.
PersonWrite write_person_files(const std::string& dir, const std::vector<PersonFile>& files,
                               WhenDifferent when_different);

// Whether the file at `path` holds exactly `bytes` (a file of another size is not read at all).
bool file_holds(const std::string& path, const std::string& bytes);

// One line naming the files kept, e.g. "kept mha.py, mha_torch.py in ex1: they differ from what
// would be written"; "" when none was kept. Likewise the files moved aside: "moved mha.py to
// mha.py.~1~ in ex1 before writing it".
std::string kept_line(const PersonWrite& write, const std::string& dir);
std::string moved_line(const PersonWrite& write, const std::string& dir);

}  // namespace attnlab
