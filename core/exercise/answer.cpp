#include "core/exercise/answer.hpp"

#include <algorithm>
#include <filesystem>

#include "core/exercise/starter_code.hpp"
#include "core/limits/bounded_read.hpp"
#include "core/model/errors.hpp"
#include "core/tensor/npy.hpp"
#include "core/tensor/zip_read.hpp"

namespace attnlab {

namespace fs = std::filesystem;

namespace {

// Names are unique: zip_entries refuses an archive with a name twice, and a folder cannot hold one.
void add(Answer& answer, std::string name, const std::string& bytes, const std::string& label) {
  Tensor t = parse_npy(bytes, label, name, NonFinite::Keep);
  if (name == kNotImplementedMarker) {
    answer.not_implemented = true;
    return;
  }
  answer.arrays.push_back({std::move(name), std::move(t)});
}

// "q.npy" -> "q"; "" for a name that is not a .npy file.
std::string array_name(const std::string& file) {
  const std::string suffix = ".npy";
  if (file.size() <= suffix.size() || file.compare(file.size() - 4, 4, suffix) != 0) return "";
  return file.substr(0, file.size() - suffix.size());
}

// The first bytes of an answer: a zip archive's, not a lone .npy array's nor anything else's.
void check_archive_start(const std::string& bytes, const std::string& label) {
  if (bytes.rfind("\x93NUMPY", 0) == 0)
    throw UserError(label +
                    ": is one .npy array, not a .npz archive; save the stages with "
                    "np.savez(\"answer.npz\", q=q, out=out)");
  if (bytes.rfind("PK", 0) != 0)
    throw UserError(label +
                    ": is not a .npz archive (it does not start as a zip file does); "
                    "save the stages with np.savez(\"answer.npz\", q=q, out=out)");
}

// The answer file, its first bytes checked before the rest is read (/dev/zero is refused at once).
std::string read_archive(const std::string& path) {
  BoundedFile file(path, limits::kAnswerFile);
  std::string bytes = file.read_start(6);
  check_archive_start(bytes, path);
  return bytes + file.read(limits::kAnswerFile.bytes);
}

}  // namespace

const Tensor* Answer::find(const std::string& name) const {
  for (const AnswerArray& a : arrays)
    if (a.name == name) return &a.tensor;
  return nullptr;
}

Answer parse_answer_archive(const std::string& bytes, const std::string& label) {
  check_archive_start(bytes, label);
  Answer answer;
  answer.source = label;
  for (const auto& [file, contents] : zip_entries(bytes, label)) {
    const std::string name = array_name(file);
    if (name.empty())
      throw UserError(label + ": holds " + file +
                      ", which is not a .npy array; save the stages with np.savez");
    add(answer, name, contents, label + " array " + name);
  }
  return answer;
}

Answer read_answer(const std::string& path) {
  std::error_code ec;
  if (!fs::exists(path, ec))
    throw UserError(path +
                    ": no such file; fill in mha() in mha.py and run python3 mha.py "
                    "(it writes answer.npz), or give the answer's file{{(answer FILE)}}");
  if (!fs::is_directory(path, ec)) return parse_answer_archive(read_archive(path), path);
  Answer answer;
  answer.source = path;
  std::vector<fs::path> files;
  for (const fs::directory_entry& entry : fs::directory_iterator(path, ec))
    if (!array_name(entry.path().filename().string()).empty()) files.push_back(entry.path());
  if (ec) throw UserError(path + ": cannot list the folder (" + ec.message() + ")");
  std::sort(files.begin(), files.end());
  for (const fs::path& file : files)
    add(answer, array_name(file.filename().string()), read_npy_file(file.string()), file.string());
  if (files.empty())
    throw UserError(path + ": the folder holds no .npy files; save each stage as NAME.npy");
  return answer;
}

}  // namespace attnlab
