#include "core/model/config.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

#include "core/limits/machine_memory.hpp"
#include "core/model/config_fields.hpp"
#include "core/model/errors.hpp"
#include "core/model/tokenizer.hpp"
#include "core/trace/plan.hpp"
#include "core/variants/variant_rules.hpp"

namespace attnlab {

int64_t Config::tokens() const {
  if (seq_len > 0) return seq_len;
  auto n = static_cast<int64_t>(tokenize(sentence.empty() ? kSampleText : sentence).size());
  if (n == 0) n = static_cast<int64_t>(tokenize(kSampleText).size());
  return std::min(n, kMaxTokens);
}

int64_t Config::key_tokens() const {
  if (!cross()) return tokens();
  if (kv_len > 0) return kv_len;
  const auto n = static_cast<int64_t>(tokenize(sentence_kv).size());
  return std::min(std::max<int64_t>(n, 1), kMaxTokens);
}

namespace {

std::string divisors_of(int64_t n) {
  std::string list;
  int shown = 0;
  for (int64_t d = 1; d <= n && shown < 12; ++d) {
    if (n % d != 0) continue;
    list += (shown++ ? ", " : "") + std::to_string(d);
  }
  return list;
}

void check_range(std::vector<ConfigIssue>& issues, const std::string& field, int64_t value,
                 int64_t low, int64_t high, const std::string& meaning) {
  if (value >= low && value <= high) return;
  issues.push_back({field, field + "=" + std::to_string(value) + " is out of range: " + meaning +
                               " must be between " + std::to_string(low) + " and " +
                               std::to_string(high)});
}

// "" when the trace fits the memory cap; else what it needs and how to fix it.
std::string over_memory_cap(const Config& c) {
  const int64_t need = trace_bytes_needed(c);
  if (need <= c.memory_cap_bytes) return "";
  return "computing this configuration needs " + format_bytes(double(need)) + " (" +
         std::to_string(need) + " bytes) for the trace, above the cap of " +
         format_bytes(double(c.memory_cap_bytes)) +
         (c.shape_only ? ": lower B, T or n_heads"
                       : ": use shape-only mode, or lower B, T or n_heads");
}

// [SECTION] the rules, one group each

void check_sizes(const Config& c, std::vector<ConfigIssue>& issues) {
  // Every whole-number field's range, from the one table (0 is "auto" or "off" where allowed);
  // how the variants' sizes combine is core/variants/variant_rules.cpp's.
  for (const ConfigField& field : config_fields()) {
    const auto* member = std::get_if<int64_t Config::*>(&field.member);
    if (!member || field.high == 0) continue;
    const int64_t value = c.**member;
    if (value == 0 && field.zero) continue;
    check_range(issues, field.issue_name(), value, field.low, field.high, field.meaning);
  }
  // Real numbers with a meaning (dropout is a probability, checked by its own rule below).
  for (const ConfigField& field : config_fields()) {
    const auto* member = std::get_if<double Config::*>(&field.member);
    if (!member || *field.meaning == 0) continue;
    const double value = c.**member;
    if ((value == 0 && field.zero) || (value >= field.real_low && value < field.real_high))
      continue;
    issues.push_back(
        {field.issue_name(), std::string(field.issue_name()) + "=" + format_number(value) +
                                 " is out of range: " + field.meaning + " must be " +
                                 (field.zero ? "0 (" + std::string(field.zero) + ") or " : "") +
                                 "at least " + format_number(field.real_low) + " and below " +
                                 format_number(field.real_high)});
  }
}

void check_heads(const Config& c, std::vector<ConfigIssue>& issues) {
  const int64_t h = c.n_heads;
  if (c.d_k == 0 && h > c.d_model) {
    issues.push_back({"n_heads", "n_heads=" + std::to_string(h) +
                                     " is larger than d_model=" + std::to_string(c.d_model) +
                                     " (each head would get less than one dimension): choose "
                                     "n_heads in {" +
                                     divisors_of(c.d_model) + "} or set d_k"});
  } else if (c.d_k == 0 && c.d_model % h != 0) {
    issues.push_back({"n_heads", "d_model=" + std::to_string(c.d_model) +
                                     " is not divisible by n_heads=" + std::to_string(h) +
                                     " (each head would get " +
                                     format_number(static_cast<double>(c.d_model) / h) +
                                     " dimensions): choose n_heads in {" + divisors_of(c.d_model) +
                                     "} or set d_k"});
  }
}

void check_mask(const Config& c, std::vector<ConfigIssue>& issues) {
  const int64_t T = c.key_tokens();  // padding hides keys: cross-attention's are T_k
  const MaskSpec& m = c.mask;
  if (!m.padding_lengths.empty()) {
    const auto n = static_cast<int64_t>(m.padding_lengths.size());
    if (n != 1 && n != c.batch) {
      issues.push_back({"mask", "padding mask lists " + std::to_string(n) +
                                    " lengths but the batch has B=" + std::to_string(c.batch) +
                                    " sequences: give one length per sequence, or one for all"});
    }
    for (int64_t length : m.padding_lengths) {
      if (length < 0 || length > T) {
        const std::string t = c.cross() ? "T_k" : "T";
        issues.push_back({"mask", "padding length " + std::to_string(length) + " is outside 0.." +
                                      std::to_string(T) + " (" + t + "=" + std::to_string(T) +
                                      " key tokens): each valid length must be at most " + t});
        break;
      }
    }
  }
  if (m.window < 0) {
    issues.push_back({"mask", "window=" + std::to_string(m.window) +
                                  " must be at least 1 (tokens visible on each side)"});
  }
  if (m.global_tokens < 0 || m.global_tokens > T) {
    issues.push_back({"mask", "global tokens=" + std::to_string(m.global_tokens) +
                                  " must be between 0 and T=" + std::to_string(T)});
  } else if (m.global_tokens > 0 && m.window == 0) {
    issues.push_back({"mask",
                      "global tokens only apply with a sliding window: set a window "
                      "width too (e.g. window:2:" +
                          std::to_string(m.global_tokens) + ")"});
  }
}

// Only for a config every other rule accepts: the sizes are then sane to multiply.
void check_countable(const Config& c, std::vector<ConfigIssue>& issues) {
  if (const double bound = element_bound(c); bound > kMaxCountableElements) {
    issues.push_back(
        {"memory", "this configuration's tensors hold about " + format_number(bound) +
                       " numbers, more than even shape-only mode can count exactly: lower B, T "
                       "or n_heads"});
  }
}

}  // namespace

std::vector<ConfigIssue> validate(const Config& c) {
  std::vector<ConfigIssue> issues = validate_settings(c);
  if (!issues.empty() || c.shape_only) return issues;
  if (std::string over = over_memory_cap(c); !over.empty()) issues.push_back({"memory", over});
  return issues;
}

std::vector<ConfigIssue> validate_settings(const Config& c) {
  std::vector<ConfigIssue> issues;
  check_sizes(c, issues);
  if (!issues.empty()) return issues;  // the rules below assume sane sizes
  check_heads(c, issues);
  check_mask(c, issues);
  check_variants(c, issues);
  if (!(c.dropout >= 0.0 && c.dropout < 1.0)) {
    issues.push_back({"dropout", "dropout=" + format_number(c.dropout) +
                                     " must be at least 0 and below 1 (it is the probability of "
                                     "zeroing an attention weight)"});
  }
  if (c.memory_cap_bytes <= 0) issues.push_back({"memory_cap", "the memory cap must be positive"});
  // Whatever set it (the command line, a scene, a preset, settings.json, exercise.json).
  if (std::string above = cap_above_machine(c.memory_cap_bytes); !above.empty())
    issues.push_back({"memory_cap", above});
  if (issues.empty()) check_countable(c, issues);
  return issues;
}

std::string values_unavailable(const Config& c) {
  if (const std::vector<ConfigIssue> issues = validate(c); !issues.empty()) return describe(issues);
  if (!c.shape_only) return "";
  if (const std::string over = over_memory_cap(c); !over.empty())
    return "this configuration is shape-only: " + over;
  return "this configuration is shape-only (no values are computed): turn shape-only off";
}

void require_values(const Config& c, const std::string& what) {
  if (const std::string reason = values_unavailable(c); !reason.empty())
    throw UserError(what + " needs computed values, and " + reason);
}

std::string describe(const std::vector<ConfigIssue>& issues) {
  std::string text;
  for (const ConfigIssue& issue : issues) text += (text.empty() ? "" : "; ") + issue.message;
  return text;
}

std::string format_number(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

std::string format_bytes(double bytes) {
  const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int unit = 0;
  while (bytes >= 1024.0 && unit < 5) {
    bytes /= 1024.0;
    ++unit;
  }
  char text[64];
  std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.1f %s", bytes, units[unit]);
  return text;
}

}  // namespace attnlab
