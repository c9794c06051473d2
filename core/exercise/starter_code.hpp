// The exercise folder's words and starter code: README.md (the task in words and shapes), mha.py
// (NumPy) and mha_torch.py (PyTorch). Both scripts load the folder, call mha() (the body the
// student fills in) and save what it returns to answer.npz under the export's names; an untouched
// body raises NotImplementedError and the script saves the marker kNotImplementedMarker instead,
// which check reports as "not implemented yet".
#pragma once

#include <string>

namespace attnlab {

struct Exercise;

// The one array an untouched starter saves (answer.npz holds only it).
inline constexpr const char* kNotImplementedMarker = "not_implemented";

std::string exercise_readme(const Exercise& exercise);
std::string numpy_starter();
std::string torch_starter();

}  // namespace attnlab
