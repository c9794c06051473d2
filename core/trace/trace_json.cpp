#include <nlohmann/json.hpp>

#include "core/model/config_json.hpp"
#include "core/model/masks.hpp"
#include "core/trace/export.hpp"

namespace attnlab {

using nlohmann::json;

namespace {

json record_json(const TensorRecord& r) {
  json kinds = json::array();
  for (const Axis& axis : r.axes) kinds.push_back(axis_kind_name(axis.kind));
  return {{"name", r.name},
          {"pass", pass_name(r.pass)},
          {"stage", stage_name(r.stage)},
          {"substep", substep_name(r.substep)},
          {"axes", r.axes_text()},
          {"axis_kinds", kinds},
          {"inputs", r.inputs},
          {"shape", r.tensor.shape()},
          {"strides", r.tensor.strides()},
          {"offset", r.tensor.offset()},
          {"contiguous", r.tensor.is_contiguous()},
          {"is_view", r.is_view},
          {"storage", r.storage_owner},
          {"formula", r.formula},
          {"pytorch", r.pytorch},
          {"flops", r.flops},
          {"bytes", r.bytes}};
}

json records_json(const std::vector<const TensorRecord*>& records) {
  json list = json::array();
  for (const TensorRecord* r : records) list.push_back(record_json(*r));
  return list;
}

json decode_json(const Trace& t) {
  const DecodeTrace& d = t.decode;
  json steps = json::array();
  for (const DecodeStep& s : d.steps) {
    steps.push_back({{"position", s.position},
                     {"flops", s.flops},
                     {"recompute_flops", s.recompute_flops},
                     {"cache_bytes", s.cache_bytes},
                     {"records", records_json(t.pass_records(Pass::Decode, s.position))}});
  }
  return {{"prompt_tokens", d.prompt_tokens},
          {"prefill_flops", d.prefill_flops},
          {"prefill", records_json(t.pass_records(Pass::Prefill))},
          {"steps", steps}};
}

}  // namespace

std::string trace_to_json(const Trace& t) {
  const Counters& n = t.counters;
  const Diagnostics& d = t.diagnostics;
  json stages = json::array();
  for (const TensorRecord& r : t.records) stages.push_back(record_json(r));
  json parameters = json::array();
  for (const TensorRecord& r : t.parameters) parameters.push_back(record_json(r));
  json per_stage = json::array();
  for (int s = 0; s < kStageCount; ++s) {
    const auto stage = static_cast<Stage>(s);
    per_stage.push_back({{"stage", stage_name(stage)},
                         {"flops", t.stage_flops(stage)},
                         {"bytes", t.stage_bytes(stage)}});
  }
  json empty_rows = json::array();
  for (const auto& row : d.empty_rows) empty_rows.push_back({{"b", row[0]}, {"query", row[1]}});
  json root = {{"format", "attention-lab trace 1"},
               {"conventions",
                "row vectors: Q = X @ W_q; shapes (B, T, d); heads (B, h, T, d); C order float32"},
               {"config", config_to_json(t.config)},
               {"mask", describe(t.config.mask)},
               {"tokens", t.tokens},
               {"tokens_kv", t.tokens_kv},
               {"shape_only", t.shape_only},
               {"parameters", parameters},
               {"stages", stages},
               {"per_stage", per_stage},
               {"counters",
                {{"parameters", n.parameters()},
                 {"qkv_weights", n.qkv_weights},
                 {"qkv_biases", n.qkv_biases},
                 {"out_weights", n.out_weights},
                 {"out_bias", n.out_bias},
                 {"flops", n.flops},
                 {"tensor_bytes", n.bytes},
                 {"attention_elements", n.attention_elements},
                 {"kv_parameters", n.kv_parameters},
                 {"kv_cache_numbers_per_token", n.kv_cache_numbers}}},
               {"diagnostics",
                {{"max_row_sum_error", d.max_row_sum_error},
                 {"masked_entries", d.masked_entries},
                 {"masked_nonzero", d.masked_nonzero},
                 {"empty_rows", empty_rows},
                 {"nonfinite_values", d.nonfinite_values},
                 {"first_nonfinite", d.first_nonfinite},
                 {"head_entropy_bits", d.head_entropy_bits},
                 {"uniform_entropy_bits", d.uniform_entropy_bits},
                 {"notices", d.notices}}}};
  if (!t.decode.steps.empty()) root["decode"] = decode_json(t);
  if (const std::vector<const TensorRecord*> absorbed = t.pass_records(Pass::Absorbed);
      !absorbed.empty()) {
    root["absorbed"] = {{"record", record_json(*absorbed[0])},
                        {"max_abs_difference", t.absorbed.max_abs_difference}};
  }
  // Tokens come from user text: bytes that are not UTF-8 become U+FFFD instead of an exception.
  return root.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace attnlab
