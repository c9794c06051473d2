// What the fuzz targets do with one input. Shared by the libFuzzer entry points (fuzz_npy.cpp,
// fuzz_preset.cpp, fuzz_safetensors.cpp, fuzz_model_config.cpp) and by the GoogleTest that replays
// the corpus and every regression file in the normal build, so a crash the fuzzer found stays
// fixed.
#pragma once

#include <stdexcept>
#include <string>

namespace attnlab::fuzz {

// An input made the core break one of its own promises (not a user error): a crash to the fuzzer.
class BrokenPromise : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

// Parses `bytes` as a .npy file. A refusal must be a UserError with a message; a loaded tensor
// must come back unchanged from npy_bytes + parse_npy.
void exercise_npy(const std::string& bytes);

// Parses `bytes` as a student's .npz answer (the zip reader, inflate included, and each entry's
// .npy). A refusal must be a UserError of one line; an accepted archive must come back unchanged
// (names, shapes, values bit for bit, NaN included) from zip_store of npy_bytes.
void exercise_npz(const std::string& bytes);

// Parses `text` as a preset. If it parses: validate(); when valid and small, run() on it (with its
// inputs and shape_only as given) and check the trace's diagnostics. UserError is a fine answer.
void exercise_preset(const std::string& text);

// Parses `bytes` as a .safetensors file (parse_safetensors_header on the bytes, and the file
// reader on the same bytes written to a temporary file: both must agree). A refusal must be a
// UserError of one line; an accepted header must keep its promises (ranges inside the data, no
// overlaps, bytes matching shape and dtype) and each float tensor must decode to its shape or be
// refused in one line (NaN/Inf).
void exercise_safetensors(const std::string& bytes);

// Parses `text` as a model's config.json. A refusal must be a UserError of one line; an accepted
// config must have positive sizes of at most 2^30 that fit together (heads * head_dim, K/V heads
// dividing the heads) and an activation the forward computes.
void exercise_model_config(const std::string& text);

}  // namespace attnlab::fuzz
