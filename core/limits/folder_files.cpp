#include "core/limits/folder_files.hpp"

#include "core/limits/bounded_read.hpp"

namespace attnlab {

namespace {

bool ends_with(const std::string& text, const std::string& end) {
  return text.size() >= end.size() && text.compare(text.size() - end.size(), end.size(), end) == 0;
}

FolderFile whole(const FileLimit& limit) {
  return {FolderFile::Read::kWhole, limit};
}

}  // namespace

FolderFile folder_file(const std::string& name) {
  // core/checkpoints/model_config.cpp, core/training/model_io.cpp
  if (name == "config.json" || name == "model.json") return whole(limits::kModelJson);
  // core/tokenizers/hf_tokenizer.cpp's tokenizer_files::read, for each of them
  for (const char* tokenizer :
       {"tokenizer.json", "tokenizer_config.json", "vocab.json", "merges.txt", "vocab.txt"})
    if (name == tokenizer) return whole(limits::kTokenizerFile);
  // core/checkpoints/checkpoint_weights.cpp
  if (name == "model.safetensors.index.json") return whole(limits::kSafetensorsIndex);
  if (ends_with(name, ".safetensors")) return {FolderFile::Read::kByRanges, {0, "", ""}};
  // core/exercise/exercise.cpp, core/tensor/npy.cpp, core/exercise/answer.cpp
  if (name == "exercise.json") return whole(limits::kExerciseJson);
  if (ends_with(name, ".npy")) return whole(limits::kNpyFile);
  if (ends_with(name, ".npz")) return whole(limits::kAnswerFile);
  return {};
}

std::string folder_file_refusal(const std::string& path, uint64_t size) {
  const FolderFile file = folder_file(path.substr(path.find_last_of('/') + 1));
  if (file.read != FolderFile::Read::kWhole || size <= file.limit.bytes) return "";
  return over_limit_line(path, size, file.limit);
}

std::string files_above_memory(const std::string& label, uint64_t total, int64_t memory) {
  if (memory <= 0 || total <= uint64_t(memory)) return "";
  return label + ": is " + limit_text(total) + " to read, more than the " +
         limit_text(uint64_t(memory)) +
         " this page's memory can hold; open a smaller model, or open it in the desktop app";
}

}  // namespace attnlab
