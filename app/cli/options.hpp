// attnlab-cli's command line: what the user asked for, turned into a Config and Inputs.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/flash/tile_plan.hpp"
#include "core/model/config.hpp"
#include "core/model/inputs.hpp"

namespace attnlab::cli {
struct RealModel;
}

namespace attnlab::cli {

struct Request {
  Config config;
  Inputs inputs;
  std::string export_dir;             // --export DIR; empty = no export
  bool json = false;                  // --json: trace.json on stdout instead of the table
  bool list_presets = false;          // --list-presets
  bool list_mistakes = false;         // --list-mistakes
  bool importance = false;            // --importance: per-head ablation importance
  bool model_table = false;           // --model-table: the seeds' hyperparameter table
  bool compare_heads = false;         // --compare-heads: one head vs h heads
  bool compare_paths = false;         // --compare-paths: per-head loop vs batched
  bool code = false;                  // --code: the PyTorch forward of this config
  std::optional<uint64_t> shuffle;    // --shuffle SEED: the sentence's tokens reordered
  std::vector<std::string> show;      // --show NAME: print these tensors' values
  std::vector<std::string> warnings;  // from the preset file (unknown keys)
  std::vector<std::string> notices;   // how the options were read (an empty --sentence)
  // --model DIR on a Hugging Face folder: the opened model, its forward pass, the chosen layer.
  std::shared_ptr<RealModel> real_model;
  bool heads_report = false;             // --heads-report: the head finder's table
  std::string heads_sort = "induction";  // --sort COLUMN
  bool next_token = false;               // --next-token: the top 10 (or [MASK]'s fill)
  double temperature = 1.0;              // --temperature
  int64_t generate = 0;                  // --generate N: greedy tokens decoded with a KV cache
  bool flash = false;                    // --flash BR:BC: the tiled kernel instead of the trace
  TileSizes flash_tiles;                 // its tile sizes
};

// Parses argv. Returns the exit code to stop with (0 for --help) or -1 to go on.
// Bad input prints one line on stderr and returns 2.
int parse(int argc, char** argv, Request& request);

}  // namespace attnlab::cli
