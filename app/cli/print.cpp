#include "app/cli/print.hpp"

#include <algorithm>
#include <iomanip>
#include <optional>
#include <sstream>

#include "app/common/format.hpp"
#include "core/model/config.hpp"
#include "core/model/masks.hpp"
#include "core/teaching/code_view.hpp"
#include "core/teaching/mistakes.hpp"
#include "core/teaching/model_table.hpp"
#include "core/trace/diagnostics.hpp"
#include "core/trace/plan.hpp"
#include "core/variants/latent_attention.hpp"

namespace attnlab::cli {

namespace {

std::string code_of(const std::string& pytorch) {
  const size_t comment = pytorch.find("  #");
  return comment == std::string::npos ? pytorch : pytorch.substr(0, comment);
}

std::string notes_of(const TensorRecord& r) {
  std::string storage = r.is_view ? "view of " + r.storage_owner
                                  : (r.substep == Substep::Contiguous ? "copy" : "new") +
                                        std::string(" storage, ") + format_bytes(double(r.bytes));
  return storage + "; " + r.formula;
}

struct Row {
  std::string operation, shape, strides, contiguous, notes;
};

// Columns as wide as their widest cell; `header` first, then a rule, then the rows.
void print_table(std::ostream& out, const Row& header, const std::vector<Row>& rows) {
  size_t w[4] = {header.operation.size(), header.shape.size(), header.strides.size(),
                 header.contiguous.size()};
  for (const Row& r : rows) {
    w[0] = std::max(w[0], r.operation.size());
    w[1] = std::max(w[1], r.shape.size());
    w[2] = std::max(w[2], r.strides.size());
    w[3] = std::max(w[3], r.contiguous.size());
  }
  auto line = [&](const Row& r) {
    out << std::left << std::setw(int(w[0])) << r.operation << "  " << std::setw(int(w[1]))
        << r.shape << "  " << std::setw(int(w[2])) << r.strides << "  " << std::setw(int(w[3]))
        << r.contiguous << "  " << r.notes << "\n";
  };
  line(header);
  line({std::string(w[0], '-'), std::string(w[1], '-'), std::string(w[2], '-'),
        std::string(w[3], '-'), std::string(header.notes.size(), '-')});
  for (const Row& r : rows) line(r);
}

}  // namespace

void print_shape_journey(std::ostream& out, const Trace& t) {
  const Config& c = t.config;
  out << "Multi-head attention: B=" << c.batch << " T=" << c.tokens() << " d_in=" << c.input_dim()
      << " d_model=" << c.d_model << " h=" << c.n_heads << " d_k=" << c.head_dim_k()
      << " d_v=" << c.head_dim_v() << " mask=" << describe(c.mask)
      << " bias=" << (c.bias ? "on" : "off") << " W_o=" << (c.output_proj ? "on" : "off");
  if (c.dropout > 0) out << " dropout=" << c.dropout;
  out << (t.shape_only ? "  [shape-only]" : "") << "\n";
  if (t.tokens.size() <= 32) {
    out << "Tokens:";
    for (const std::string& token : t.tokens) out << " " << token;
    out << "\n";
  }
  out << "\n";
  std::vector<Row> rows;
  for (const TensorRecord& p : t.parameters) {
    rows.push_back({p.name, shape_to_string(p.tensor.shape()), shape_to_string(p.tensor.strides()),
                    "yes", "parameter " + p.axes_text()});
  }
  Stage current = Stage::Input;
  bool first = true;
  for (const TensorRecord& r : t.records) {
    if (first || r.stage != current) {
      rows.push_back({std::string("[") + stage_name(r.stage) + "]", "", "", "", ""});
      current = r.stage;
      first = false;
    }
    rows.push_back({code_of(r.pytorch), shape_to_string(r.tensor.shape()) + " " + r.axes_text(),
                    shape_to_string(r.tensor.strides()), r.tensor.is_contiguous() ? "yes" : "no",
                    notes_of(r)});
  }
  print_table(out, {"Operation", "Shape", "Strides", "Contiguous?", "Notes"}, rows);
}

void print_counters(std::ostream& out, const Trace& t) {
  const Counters& n = t.counters;
  const Config& c = t.config;
  out << "\nCounters\n";
  out << "  parameters: " << n.parameters() << " = projections making Q, K, V " << n.qkv_weights;
  if (n.qkv_biases) out << " + biases " << n.qkv_biases;
  if (n.out_weights) out << " + W_o " << n.out_weights;
  if (n.out_bias) out << " + b_o " << n.out_bias;
  out << "\n  FLOPs per stage:";
  for (int s = 0; s < kStageCount; ++s) {
    const auto stage = static_cast<Stage>(s);
    out << " " << stage_name(stage) << " " << count_text(t.stage_flops(stage), "FLOP") << ";";
  }
  out << " total " << count_text(n.flops, "FLOP") << "\n  bytes per stage:";
  for (int s = 0; s < kStageCount; ++s) {
    const auto stage = static_cast<Stage>(s);
    out << " " << stage_name(stage) << " " << format_bytes(double(t.stage_bytes(stage))) << ";";
  }
  out << " total " << format_bytes(double(n.bytes)) << "\n";
  out << "  attention memory: B*h*T*T_k = " << c.batch << "*" << c.n_heads << "*" << c.tokens()
      << "*" << c.key_tokens() << " = " << n.attention_elements << " weights ("
      << format_bytes(double(n.attention_elements) * 4) << " as float32)\n";
  out << "  K/V: " << c.kv_heads() << " K/V head" << (c.kv_heads() > 1 ? "s" : "") << " for "
      << c.n_heads << " query heads";
  if (c.grouped()) out << " (each shared by g=" << c.group_size() << ")";
  out << "; K/V parameters " << n.kv_parameters << "; KV cache per token per layer "
      << n.kv_cache_numbers << " numbers = " << format_bytes(double(n.kv_cache_numbers) * 4)
      << " float32 (" << format_bytes(double(n.kv_cache_numbers) * 2) << " fp16)";
  if (c.latent()) {
    out << " = d_c " << c.kv_latent << " + d_rope " << c.rope_dim
        << " (MLA caches the latent), against 2*h*d_k = " << 2 * c.n_heads * c.head_dim_k()
        << " for multi-head attention";
    if (!t.pass_records(Pass::Absorbed).empty()) {
      out << "\n  absorbed form: out_absorbed differs from out by at most " << std::scientific
          << std::setprecision(2) << t.absorbed.max_abs_difference << std::defaultfloat << "; "
          << kAbsorbedWhy;
    }
  } else {
    out << " = n_kv*(d_k+d_v) = " << c.kv_heads() << "*(" << c.head_dim_k() << "+" << c.head_dim_v()
        << ")";
  }
  out << "\n";
}

void print_decode(std::ostream& out, const Trace& t) {
  const DecodeTrace& d = t.decode;
  if (d.steps.empty()) return;
  out << "\nKV-cache decoding: prefill of " << d.prompt_tokens << " prompt tokens ("
      << count_text(d.prefill_flops, "FLOP") << "), then one token at a time\n";
  std::vector<Row> rows;
  for (size_t i = 0; i < d.steps.size(); ++i) {
    const DecodeStep& step = d.steps[i];
    // The plan's records of this step.
    const TensorRecord* cache = t.find(decode_name(int64_t(i), "k_cache"));
    const TensorRecord* scores = t.find(decode_name(int64_t(i), "scores"));
    std::ostringstream flops;
    flops << count_text(step.flops, "FLOP") << " vs " << count_text(step.recompute_flops, "FLOP")
          << " recomputing (" << std::fixed << std::setprecision(1)
          << step.recompute_flops / std::max(step.flops, 1.0) << "x)";
    rows.push_back({"token " + std::to_string(step.position),
                    cache ? shape_to_string(cache->tensor.shape()) : "",
                    scores ? shape_to_string(scores->tensor.shape()) : "",
                    format_bytes(double(step.cache_bytes)), flops.str()});
  }
  print_table(out, {"Step", "K cache", "Score row", "Cache bytes", "FLOPs with the cache"}, rows);
}

void print_diagnostics(std::ostream& out, const Trace& t) {
  const Diagnostics& d = t.diagnostics;
  out << "\nDiagnostics\n";
  for (const std::string& notice : d.notices) out << "  note: " << notice << "\n";
  if (t.shape_only) {
    out << "  shape-only trace: no values were computed\n";
    return;
  }
  out << "  row sums: max |sum - 1| = " << std::scientific << std::setprecision(2)
      << d.max_row_sum_error << std::defaultfloat << "\n";
  out << "  masked weights: " << d.masked_entries << " entries, " << d.masked_nonzero
      << " not exactly 0\n";
  if (!d.empty_rows.empty()) {
    out << "  queries with no visible key (zero weights, zero context): " << d.empty_rows.size()
        << ", first at b=" << d.empty_rows[0][0] << " query=" << d.empty_rows[0][1] << "\n";
  }
  out << "  NaN/Inf: " << d.nonfinite_values
      << (d.nonfinite_values ? " (first in " + d.first_nonfinite + ")" : "") << "\n";
  out << "  entropy per head (bits):" << std::fixed << std::setprecision(2);
  for (size_t h = 0; h < d.head_entropy_bits.size(); ++h)
    out << " h" << h << "=" << d.head_entropy_bits[h];
  out << "\n  " << describe_uniform_entropy(t)
      << "; each head's share of it:" << std::setprecision(0);
  for (size_t h = 0; h < d.head_entropy_bits.size(); ++h)
    out << " h" << h << "=" << 100 * fraction_of_uniform(d, h) << "%";
  out << std::defaultfloat << "\n";
}

void print_values(std::ostream& out, const TensorRecord& r) {
  out << "\n"
      << r.name << " " << shape_to_string(r.tensor.shape()) << " " << r.axes_text() << ":\n";
  if (!r.tensor.has_values()) {
    out << "  (shape-only: no values)\n";
    return;
  }
  const std::vector<Scalar> values = r.tensor.to_vector();
  const int64_t row = r.tensor.dim() ? r.tensor.size(-1) : 1;
  for (size_t i = 0; i < values.size(); ++i) {
    out << (i % size_t(row) == 0 ? "  [" : " ") << std::setw(12) << std::setprecision(8)
        << values[i] << ((i + 1) % size_t(row) == 0 ? "]\n" : "");
  }
}

void print_preset_list(std::ostream& out, const std::vector<Preset>& presets) {
  for (const Preset& p : presets)
    out << std::left << std::setw(12) << p.name << "  " << p.title << "\n";
}

}  // namespace attnlab::cli

namespace attnlab::cli {

void print_mistake_list(std::ostream& out) {
  for (const MistakeInfo& m : all_mistakes())
    out << std::left << std::setw(22) << m.name << "  " << m.symptom << "\n";
}

void print_mistake_report(std::ostream& out, const Trace& correct, const Trace& buggy) {
  const MistakeInfo& info = mistake_info(buggy.config.mistake);
  const MistakeReport report = compare_with_correct(correct, buggy);
  out << "\nMistake: " << info.title << " (" << info.name << ", " << stage_name(info.stage)
      << " stage)\n  wrong: " << info.wrong << "\n  right: " << info.right
      << "\n  symptom: " << report.symptom << "\n  compared: " << report.effect << "\n";
  if (!report.layout.empty()) out << "  why: " << report.layout << "\n";
  if (!report.too_small_to_see) return;
  out << "  too small to see on this config";
  if (const std::optional<ShowcaseConfig> there = config_where_it_shows(buggy.config))
    out << "; it shows with " << there->change << " (" << there->why << ")";
  out << "\n";
}

void print_importance(std::ostream& out, const std::vector<double>& importance) {
  out << "\nHead importance (||out - out with the head off||):";
  for (size_t h = 0; h < importance.size(); ++h) out << " h" << h << "=" << importance[h];
  out << "\n";
}

}  // namespace attnlab::cli

namespace attnlab::cli {

void print_model_table(std::ostream& out) {
  out << std::left << std::setw(18) << "model" << std::right << std::setw(8) << "d_model"
      << std::setw(6) << "h" << std::setw(6) << "n_kv" << std::setw(6) << "d_k" << std::setw(9)
      << "context" << std::setw(16) << "params/layer" << std::setw(16) << "attn memory"
      << std::setw(14) << "KV params" << std::setw(12) << "KV/token" << std::setw(8) << "layers"
      << std::setw(16) << "KV cache/token"
      << "\n";
  for (const ModelRow& r : model_table()) {
    out << std::left << std::setw(18) << r.model << std::right << std::setw(8) << r.d_model
        << std::setw(6) << r.n_heads << std::setw(6) << r.n_kv_heads << std::setw(6) << r.d_k
        << std::setw(9) << r.context << std::setw(16) << r.parameters << std::setw(16)
        << format_bytes(double(r.attention_bytes)) << std::setw(14) << r.kv_parameters
        << std::setw(12) << r.kv_cache_numbers << std::setw(8) << r.layers << std::setw(16)
        << format_bytes(double(r.kv_cache_bytes_per_token())) << "\n";
  }
  out << "(attention memory: h * T^2 float32 weights for one sequence at the full context;\n"
         " KV/token: numbers cached per token per layer, 2*n_kv*d_k (MLA: d_c + d_rope);\n"
         " KV cache/token: all layers, 2 bytes a number as served in fp16)\n";
  out << "\nDeepSeek-V2's layer (128 heads of 128, " << kDeepSeekV2Layers
      << " layers) with each way of sharing K and V:\n";
  for (const CacheRow& row : deepseek_v2_cache_rows()) {
    out << "  " << std::left << std::setw(6) << row.variant << std::setw(22) << row.sharing
        << std::right << std::setw(8) << row.kv_cache_numbers << " numbers/token/layer "
        << std::setw(12) << format_bytes(double(row.kv_cache_numbers) * kDeepSeekV2Layers * 2)
        << "/token  " << std::fixed << std::setprecision(1) << 100 * row.share_of_multi_head
        << "% of MHA" << std::defaultfloat << "\n";
  }
}

void print_head_comparison(std::ostream& out, const HeadCountComparison& cmp) {
  auto side = [&](const char* label, const Trace& t) {
    const Config& c = t.config;
    out << "  " << label << ": h=" << c.n_heads << " d_k=" << c.head_dim_k() << "  parameters "
        << t.counters.parameters() << "  attention memory " << t.counters.attention_elements
        << " weights  entropy (bits):";
    for (double bits : t.diagnostics.head_entropy_bits)
      out << " " << std::fixed << std::setprecision(2) << bits;
    out << std::defaultfloat << "\n";
  };
  out << "\nOne head vs many (same weights, same parameters):\n";
  side("single", cmp.single);
  side("multi ", cmp.multi);
}

void print_path_comparison(std::ostream& out, const PathComparison& cmp) {
  out << "\nPer-head loop vs batched (median of " << cmp.runs << " runs): loop " << std::fixed
      << std::setprecision(3) << cmp.loop_ms << " ms, batched " << cmp.batched_ms
      << " ms; outputs differ by at most " << std::scientific << std::setprecision(2)
      << cmp.max_abs_difference << std::defaultfloat << "\n";
}

void print_code(std::ostream& out, const Config& config) {
  out << "\n";
  for (const CodeLine& line : reference_code(config))
    out << (line.changed ? "!! " : "   ") << line.text << "\n";
}

}  // namespace attnlab::cli
