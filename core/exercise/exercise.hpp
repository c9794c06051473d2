// An exercise: "code multi-head attention yourself" on one config's inputs. The folder holds the
// inputs and parameters as .npy (conventions' layout), exercise.json (the config, the sizes, the
// mask spelled out, the stages and their shapes), README.md and starter code (mha.py, mha_torch.py:
// starter_code.hpp). The right answer is the traced run on the same inputs, the numbers the export
// writes.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/files/person_files.hpp"
#include "core/model/config.hpp"
#include "core/model/inputs.hpp"
#include "core/trace/trace.hpp"

namespace attnlab {

struct Exercise {
  Config config;  // batch, seq_len and d_in spelled out: x is given
  Inputs inputs;  // x and the parameters (w_q, w_k, w_v, [w_o], [b_q, b_k, b_v, [b_o]])
  Trace answer;   // run(config, inputs): every stage's right values
  // exercise.json's optional "points" ({"out": 4, "weights": 2}): the stages a course's autograder
  // scores (attnlab-cli check --format gradescope) and what each is worth. Without it every stage
  // is worth 1; with it a stage it does not name is worth 0 (still graded and shown).
  std::map<std::string, double> points;
};

// The points `stage` is worth: Exercise::points' value, 0 if it names others, 1 without it.
double stage_points(const Exercise& exercise, const std::string& stage);

// The exercise of a config (inputs not given are made as the traced run makes them). Throws
// UserError for a config an exercise cannot state in NumPy's plain terms (cross-attention, MLA,
// RoPE, ALiBi, decoding, dropout, a mistake, switched-off heads, a fused W_qkv, shape-only).
Exercise make_exercise(const Config& config, const Inputs& given);

// The stages a student may hand in, in pipeline order: the forward records after x ("q", "k",
// "v", "q_split", ..., "out"; with grouped K/V heads also "k_grouped", "k_expanded", ...).
std::vector<std::string> stage_names(const Trace& answer);

// The input files' names (without .npy), in the conventions' order: x, w_q, w_k, w_v, [w_o],
// [b_q, b_k, b_v, [b_o]].
std::vector<std::string> input_names(const Config& config);

// The folder's files, every byte made in memory: the inputs (.npy), exercise.json, README.md,
// mha.py and mha_torch.py.
std::vector<PersonFile> exercise_files(const Exercise& exercise);

// Writes the folder as a person's (core/files/person_files.hpp): a folder that is not there is made
// whole or not at all; in one that is, what is missing is written and a file that differs (the
// student's mha.py) is kept, or with WhenDifferent::MoveAside moved aside and written anew. A
// folder of another exercise (its exercise.json differs) is refused whole unless MoveAside. Throws
// UserError naming the folder or file and why, with nothing written.
PersonWrite write_exercise(const Exercise& exercise, const std::string& dir,
                           WhenDifferent when_different = WhenDifferent::Keep);

// Reads a folder write_exercise wrote and recomputes the right answer. Throws UserError naming the
// folder or file and why ("no exercise.json in DIR: make one with attnlab-cli exercise DIR"), also
// for a "points" entry that is not a stage or not a number of points (0 or more).
Exercise load_exercise(const std::string& dir);

}  // namespace attnlab
