// Presets: named configurations in assets/presets/*.json, optionally with explicit X and weights.
#pragma once

#include <string>
#include <vector>

#include "core/model/config.hpp"
#include "core/model/inputs.hpp"

namespace attnlab {

struct Preset {
  std::string name;         // file stem, e.g. "seed002"
  std::string title;        // "Seed 002: 3 tokens, d=4, 2 heads"
  std::string description;  // one or two sentences for tooltips and --list-presets
  Config config;
  Inputs inputs;  // tensors the file gives explicitly (x, w_q, ...); others undefined
  std::vector<std::string> warnings;  // e.g. unknown keys, ignored
};

// The folder the presets are read from: assets_dir()/presets (core/model/asset_paths.hpp). Throws
// UserError naming the paths tried when there is none.
std::string presets_dir();

// Parses one preset file. Throws UserError naming the file and the problem (bad JSON with its
// line, wrong type or out-of-range value with its key).
Preset load_preset_file(const std::string& path);

// Parses preset JSON text; `source` names it in messages.
Preset parse_preset(const std::string& json_text, const std::string& source);

// Every preset in presets_dir(), sorted by name; files that fail to parse are skipped and their
// messages appended to `errors` (if given). Throws UserError when there is no presets folder.
std::vector<Preset> load_all_presets(std::vector<std::string>* errors = nullptr);

// By name (file stem) from presets_dir(); throws UserError listing the known names if missing.
Preset find_preset(const std::string& name);

}  // namespace attnlab
