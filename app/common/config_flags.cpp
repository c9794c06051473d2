#include "app/common/config_flags.hpp"

#include <CLI/CLI.hpp>
#include <charconv>
#include <cstdio>
#include <optional>
#include <variant>

#include "core/model/config_fields.hpp"
#include "core/model/errors.hpp"
#include "core/model/overloaded.hpp"
#include "core/teaching/mistakes.hpp"

namespace attnlab {

namespace {

int64_t parse_count(const std::string& text, const std::string& what) {
  int64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || value < 0) {
    throw UserError("--mask: " + what + " \"" + text + "\" is not a whole number >= 0");
  }
  return value;
}

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t at = text.find(sep, start);
    parts.push_back(text.substr(start, at - start));
    if (at == std::string::npos) return parts;
    start = at + 1;
  }
}

// One --mask value into `mask` ("none" clears it).
void add_mask(const std::string& text, MaskSpec& mask) {
  const std::vector<std::string> parts = split(text, ':');
  const std::string& kind = parts[0];
  if (kind == "none" && parts.size() == 1) {
    mask = MaskSpec{};
  } else if (kind == "causal" && parts.size() == 1) {
    mask.causal = true;
  } else if (kind == "padding" && parts.size() == 2) {
    mask.padding_lengths.clear();
    for (const std::string& length : split(parts[1], ','))
      mask.padding_lengths.push_back(parse_count(length, "padding length"));
  } else if (kind == "window" && (parts.size() == 2 || parts.size() == 3)) {
    mask.window = parse_count(parts[1], "window width");
    if (mask.window < 1)
      throw UserError("--mask window:" + parts[1] + ": the window must be at least 1");
    mask.global_tokens = parts.size() == 3 ? parse_count(parts[2], "global token count") : 0;
  } else {
    throw UserError("--mask \"" + text +
                    "\" is not a mask: use none, causal, padding:L1,L2,... or window:W[:G]");
  }
}

// --mla D_C[:D_ROPE] into the config's latent and rotary widths.
void apply_mla(const std::string& text, Config& c) {
  const std::vector<std::string> parts = split(text, ':');
  auto width = [&](const std::string& part, const char* what) {
    int64_t value = 0;
    const char* end = part.data() + part.size();
    auto [ptr, ec] = std::from_chars(part.data(), end, value);
    if (ec != std::errc() || ptr != end || value < 0) {
      throw UserError("--mla " + text + ": " + what + " \"" + part +
                      "\" is not a whole number; use D_C or D_C:D_ROPE, e.g. --mla 16:4");
    }
    return value;
  };
  if (parts.size() > 2) throw UserError("--mla " + text + ": use D_C or D_C:D_ROPE, e.g. 16:4");
  c.kv_latent = width(parts[0], "d_c");
  c.rope_dim = parts.size() == 2 ? width(parts[1], "d_rope") : 0;
  if (c.kv_latent < 1) throw UserError("--mla " + text + ": d_c must be at least 1");
}

// "--bias" -> "--no-bias"
std::string off_flag(const ConfigField& field) {
  return "--no-" + std::string(field.flag).substr(2);
}

void add_field_flag(CLI::App& app, const ConfigField& field, FlagValue& v) {
  std::visit(
      Overloaded{
          [&](int64_t Config::*) {
            if (field.flag_unit > 0)
              app.add_option(field.flag, v.number, field.help);
            else
              app.add_option(field.flag, v.count, field.help);
          },
          [&](uint64_t Config::*) { app.add_option(field.flag, v.seed, field.help); },
          [&](bool Config::*) {
            app.add_flag(field.flag, v.on, field.help);
            app.add_flag(off_flag(field), v.off, field.help_off);
          },
          [&](double Config::*) { app.add_option(field.flag, v.number, field.help); },
          [&](std::string Config::*) { app.add_option(field.flag, v.text, field.help); },
          [&](MaskSpec Config::*) { app.add_option(field.flag, v.masks, field.help); },
          [&](Mistake Config::*) { app.add_option(field.flag, v.text, field.help); },
          [&](std::vector<bool> Config::*) { app.add_option(field.flag, v.heads, field.help); },
          [&](PositionEncoding Config::*) { app.add_option(field.flag, v.text, field.help); },
      },
      field.member);
}

// --ablate's heads as Config::ablated_heads for `n_heads` heads; a head outside them is refused.
std::vector<bool> heads_switched_off(const std::string& flag, const std::vector<int64_t>& heads,
                                     int64_t n_heads) {
  std::vector<bool> off;
  for (int64_t head : heads) {
    if (head < 0 || head >= n_heads) {
      throw UserError(flag + " " + std::to_string(head) + ": heads are numbered 0.." +
                      std::to_string(n_heads - 1));
    }
    off.resize(size_t(n_heads), false);
    off[size_t(head)] = true;
  }
  return off;
}

// Sets one field of `c` from what its flag gave.
void apply_field(const ConfigField& field, const FlagValue& v, Config& c) {
  std::visit(
      Overloaded{
          [&](int64_t Config::*m) {
            if (field.flag_unit > 0 && v.number) {
              if (!(*v.number > 0 && *v.number < 1e9))
                throw UserError(std::string(field.flag) + " must be a positive number of " + "MiB");
              c.*m = static_cast<int64_t>(*v.number * field.flag_unit);
            } else if (v.count) {
              c.*m = *v.count;
            }
          },
          [&](uint64_t Config::*m) {
            if (v.seed) c.*m = *v.seed;
          },
          [&](bool Config::*m) {
            if (v.on) c.*m = true;
            if (v.off) c.*m = false;
          },
          [&](double Config::*m) {
            if (v.number) c.*m = *v.number;
          },
          [&](std::string Config::*m) {
            if (v.text) c.*m = *v.text;
          },
          [&](MaskSpec Config::*m) {
            for (const std::string& mask : v.masks) add_mask(mask, c.*m);
          },
          [&](Mistake Config::*m) {
            if (v.text && !parse_mistake(*v.text, c.*m)) {
              throw UserError(std::string(field.flag) + " " + *v.text +
                              ": unknown; choose one of " + mistake_names());
            }
          },
          [&](std::vector<bool> Config::*m) {
            if (!v.heads.empty()) c.*m = heads_switched_off(field.flag, v.heads, c.n_heads);
          },
          [&](PositionEncoding Config::*m) {
            if (!v.text) return;
            const std::optional<PositionEncoding> pos = parse_position_encoding(*v.text);
            if (!pos) {
              throw UserError(std::string(field.flag) + " " + *v.text +
                              ": unknown; choose one of " + position_encoding_choices());
            }
            c.*m = *pos;
          },
      },
      field.member);
}

// The --mask values that rebuild `mask` from none.
std::vector<std::string> mask_flags(const MaskSpec& m) {
  std::vector<std::string> masks = {"none"};
  if (m.causal) masks.push_back("causal");
  if (!m.padding_lengths.empty()) {
    std::string lengths;
    for (int64_t length : m.padding_lengths)
      lengths += (lengths.empty() ? "" : ",") + std::to_string(length);
    masks.push_back("padding:" + lengths);
  }
  if (m.window > 0) {
    masks.push_back("window:" + std::to_string(m.window) +
                    (m.global_tokens > 0 ? ":" + std::to_string(m.global_tokens) : ""));
  }
  return masks;
}

std::string exact_number(double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

}  // namespace

bool FlagValue::given() const {
  return count || seed || number || text || on || off || !masks.empty() || !heads.empty();
}

bool ConfigFlags::given(const std::string& field) const {
  return value(field).given();
}

const FlagValue& ConfigFlags::value(const std::string& field) const {
  static const FlagValue none;
  const std::vector<ConfigField>& table = config_fields();
  for (size_t i = 0; i < table.size() && i < fields.size(); ++i)
    if (field == table[i].name) return fields[i];
  return none;
}

ConfigFlags ConfigFlags::without(const std::string& field) const {
  ConfigFlags rest = *this;
  const std::vector<ConfigField>& table = config_fields();
  for (size_t i = 0; i < table.size() && i < rest.fields.size(); ++i)
    if (field == table[i].name) rest.fields[i] = FlagValue{};
  return rest;
}

std::vector<bool> ablated_heads_for(const std::vector<int64_t>& heads, int64_t n_heads) {
  for (const ConfigField& field : config_fields())
    if (std::string(field.name) == "ablated_heads")
      return heads_switched_off(field.flag, heads, n_heads);
  return {};
}

bool ConfigFlags::any_given() const {
  for (const FlagValue& v : fields)
    if (v.given()) return true;
  return mla.has_value();
}

void add_config_flags(CLI::App& app, ConfigFlags& f) {
  const std::vector<ConfigField>& table = config_fields();
  f.fields.assign(table.size(), FlagValue{});  // bound below: never resized after this
  for (size_t i = 0; i < table.size(); ++i) add_field_flag(app, table[i], f.fields[i]);
  app.add_option("--mla", f.mla,
                 "Multi-head latent attention: K and V from a d_c-wide latent, plus a d_rope-wide "
                 "shared rotary key (D_C or D_C:D_ROPE; sets --kv-latent and --rope-dim)");
}

void apply_config_flags(const ConfigFlags& f, Config& c, Inputs& preset_inputs) {
  if (f.given("sentence_kv")) {
    // A preset's (or the last session's) causal or window mask compares positions within one
    // sequence, which cross-attention's keys are not: dropped; a --mask given is still checked.
    c.mask.causal = false;
    c.mask.window = c.mask.global_tokens = 0;
  }
  const std::vector<ConfigField>& table = config_fields();
  for (size_t i = 0; i < table.size() && i < f.fields.size(); ++i)
    apply_field(table[i], f.fields[i], c);
  // What a new value implies for the others.
  if (f.given("sentence")) {
    if (!f.given("seq_len")) c.seq_len = 0;  // T follows the new sentence
    preset_inputs.x = Tensor();              // the preset's X belonged to its own tokens
  }
  if (f.given("sentence_kv")) {
    if (!f.given("kv_len")) c.kv_len = 0;  // T_k follows the key/value sentence
    preset_inputs.x_kv = Tensor();
  }
  if (f.given("seed")) {
    // A new seed means new weights: drop the preset's explicit ones.
    Inputs& in = preset_inputs;
    in.w_q = in.w_k = in.w_v = in.w_o = Tensor();
    in.b_q = in.b_k = in.b_v = in.b_o = Tensor();
  }
  if (f.mla) apply_mla(*f.mla, c);
  if (f.given("decode_steps") && c.decode_steps > 0) c.mask.causal = true;
}

std::vector<std::string> config_to_flags(const Config& c) {
  std::vector<std::string> args;
  for (const ConfigField& field : config_fields()) {
    const std::string flag = field.flag;
    std::visit(
        Overloaded{
            [&](int64_t Config::*m) {
              args.push_back(flag + "=" +
                             (field.flag_unit > 0 ? exact_number(double(c.*m) / field.flag_unit)
                                                  : std::to_string(c.*m)));
            },
            [&](uint64_t Config::*m) { args.push_back(flag + "=" + std::to_string(c.*m)); },
            [&](bool Config::*m) { args.push_back(c.*m ? flag : off_flag(field)); },
            [&](double Config::*m) { args.push_back(flag + "=" + exact_number(c.*m)); },
            [&](std::string Config::*m) {
              if (!(c.*m).empty()) {
                args.push_back(flag + "=" + c.*m);  // "=": a sentence may start with "-"
              } else {
                args.push_back(flag);
                args.push_back("");
              }
            },
            [&](MaskSpec Config::*m) {
              for (const std::string& mask : mask_flags(c.*m)) args.push_back(flag + "=" + mask);
            },
            [&](Mistake Config::*m) {
              args.push_back(flag + "=" +
                             (c.*m == Mistake::None ? "none" : mistake_info(c.*m).name));
            },
            [&](std::vector<bool> Config::*m) {
              for (size_t h = 0; h < (c.*m).size(); ++h)
                if ((c.*m)[h]) args.push_back(flag + "=" + std::to_string(h));
            },
            [&](PositionEncoding Config::*m) {
              args.push_back(flag + "=" + std::string(position_encoding_name(c.*m)));
            },
        },
        field.member);
  }
  return args;
}

}  // namespace attnlab
