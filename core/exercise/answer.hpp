// A student's answer: the arrays np.savez or np.savez_compressed wrote into a .npz, or a folder of
// .npy files, by the export's names. Values are kept as given (NaN, Inf and -inf too): grading
// decides what they mean.
#pragma once

#include <string>
#include <vector>

#include "core/tensor/tensor.hpp"

namespace attnlab {

struct AnswerArray {
  std::string name;  // "q" for q.npy
  Tensor tensor;     // float32, contiguous
};

struct Answer {
  std::string source;               // the file or folder read
  std::vector<AnswerArray> arrays;  // in the archive's (or the folder's sorted) order
  bool not_implemented = false;     // the untouched starter's marker (starter_code.hpp)
  const Tensor* find(const std::string& name) const;
};

// Parses .npz bytes. `label` names the file in messages. Throws UserError (one line: the file and
// why, how to fix it) for bytes that are not a zip archive, a corrupt or truncated one, an entry
// that is not a float .npy, or two arrays of one name.
Answer parse_answer_archive(const std::string& bytes, const std::string& label);

// Reads a .npz file or a folder of .npy files. Throws UserError as above; a missing path says how
// an answer is made.
Answer read_answer(const std::string& path);

}  // namespace attnlab
