// The command-line flags that set a Config, shared by attnlab-cli and attnlab: the same names,
// help, checks and messages in both front ends. One flag per field of the config table
// (core/model/config_fields.hpp), plus --mla, the shorthand for MLA's two widths.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/model/config.hpp"
#include "core/model/inputs.hpp"

namespace CLI {
class App;
}

namespace attnlab {

// What the command line gave for one field, as its type takes it.
struct FlagValue {
  std::optional<int64_t> count;     // whole numbers
  std::optional<uint64_t> seed;     // seeds
  std::optional<double> number;     // dropout, and a count given in a unit (--memory-cap-mb)
  std::optional<std::string> text;  // sentences, the mistake
  bool on = false, off = false;     // a bool's --flag and --no-flag
  std::vector<std::string> masks;  // each --mask, in order: a key is visible if every one allows it
  std::vector<int64_t> heads;      // each --ablate
  bool given() const;
};

// What the command line gave for the Config, before it is applied over a preset.
struct ConfigFlags {
  std::vector<FlagValue> fields;   // one per config_fields() entry, in its order
  std::optional<std::string> mla;  // "D_C" or "D_C:D_ROPE"

  // The flag of that field (config_fields()' name: "n_heads", "sentence_kv") was given.
  bool given(const std::string& field) const;
  const FlagValue& value(const std::string& field) const;
  bool any_given() const;  // any config flag at all
  // These flags with `field`'s not given (a model read later sets what it is checked against).
  ConfigFlags without(const std::string& field) const;
};

// --ablate's heads (ConfigFlags::value("ablated_heads").heads) as Config::ablated_heads of a layer
// with `n_heads` heads (a real model's, once it is read). Throws UserError for a head outside
// 0..n_heads-1: "--ablate 12: heads are numbered 0..11".
std::vector<bool> ablated_heads_for(const std::vector<int64_t>& heads, int64_t n_heads);

// Adds each config field's flag (--sentence, --seq-len, --heads, --mask, --bias / --no-bias, ...;
// `attnlab-cli --help` lists them) and --mla to `app`, writing into `flags`.
void add_config_flags(CLI::App& app, ConfigFlags& flags);

// Sets what the flags give over `config` (a preset's, or the last session's). A new sentence drops
// the preset's X and a new seed its weights and biases, from `preset_inputs`. Throws UserError for
// a bad --mask, --memory-cap-mb, --mistake, --ablate or --mla (the message starts with the flag).
// --decode turns the causal mask on: decoding one token at a time sees only the past.
// --sentence-kv turns off the causal and window masks a preset may have (before --mask applies).
void apply_config_flags(const ConfigFlags& flags, Config& config, Inputs& preset_inputs);

// The arguments that set every field of `config` over the defaults (for tests and scripts):
// apply_config_flags of them gives `config` back when its flags can say it (with --decode on, the
// mask is causal; switched-off heads are listed for n_heads heads).
std::vector<std::string> config_to_flags(const Config& config);

}  // namespace attnlab
