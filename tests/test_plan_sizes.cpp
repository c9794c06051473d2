// The plan carries each step's shape, bytes and FLOPs without running (issue 28): over a generated
// product of sizes, masks, position encodings, K/V grouping, cross-attention, MLA, fused QKV,
// mistakes, ablation, dropout and decoding, every planned size equals what a real run records,
// record by record; validation reads those sizes and gives the verdict a shape-only run gave;
// decoding's FLOPs come from the plan and equal the decode records'; forward() and the tiled run
// apply their own, smaller memory rules.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <thread>

#include "core/flash/tiled_attention.hpp"
#include "core/model/errors.hpp"
#include "core/model/forward.hpp"
#include "core/model/inputs.hpp"
#include "core/model/preset.hpp"
#include "core/model/tokenizer.hpp"
#include "core/teaching/mistakes.hpp"
#include "core/teaching/model_table.hpp"
#include "core/trace/mha.hpp"
#include "core/trace/plan.hpp"
#include "core/trace/plan_sizes.hpp"
#include "core/variants/kv_cache_decode.hpp"

namespace attnlab {
namespace {

// [SECTION] the generated configs

struct Sizes {
  int64_t B, T, d_model, h, d_k, d_v;
};

// Edge sizes on purpose: one token, one head, d_k = 1, d_v = 1 (where views and copies change).
const Sizes kSizes[] = {{1, 5, 8, 2, 0, 0}, {2, 4, 12, 3, 0, 0}, {2, 1, 8, 2, 0, 0},
                        {1, 3, 4, 4, 0, 0}, {2, 5, 8, 1, 0, 0},  {2, 3, 8, 2, 4, 1},
                        {3, 6, 16, 4, 0, 0}};

using Change = std::function<void(Config&)>;

std::vector<std::pair<std::string, Change>> masks() {
  return {{"no mask", [](Config&) {}},
          {"causal", [](Config& c) { c.mask.causal = true; }},
          {"padding",
           [](Config& c) { c.mask.padding_lengths = {std::max<int64_t>(1, c.seq_len - 1)}; }},
          {"window", [](Config& c) {
             c.mask.window = 1;
             c.mask.global_tokens = 1;
           }}};
}

std::vector<std::pair<std::string, Change>> variants() {
  std::vector<std::pair<std::string, Change>> out = {
      {"plain", [](Config&) {}},
      {"bias", [](Config& c) { c.bias = true; }},
      {"no W_o", [](Config& c) { c.output_proj = false; }},
      {"bias, no W_o",
       [](Config& c) {
         c.bias = true;
         c.output_proj = false;
       }},
      {"fused", [](Config& c) { c.fused_qkv = true; }},
      {"fused + bias + GQA",
       [](Config& c) {
         c.fused_qkv = c.bias = true;
         c.n_kv_heads = 1;
       }},
      {"GQA", [](Config& c) { c.n_kv_heads = c.n_heads % 2 == 0 ? c.n_heads / 2 : 1; }},
      {"MQA", [](Config& c) { c.n_kv_heads = 1; }},
      {"cross",
       [](Config& c) {
         c.kv_len = c.seq_len + 2;
         c.d_in_kv = 6;
       }},
      {"cross + GQA + bias",
       [](Config& c) {
         c.kv_len = 3;
         c.n_kv_heads = 1;
         c.bias = true;
       }},
      {"MLA",
       [](Config& c) {
         c.kv_latent = 6;
         c.rope_dim = 2;
         c.q_latent = 5;
       }},
      {"MLA without rope", [](Config& c) { c.kv_latent = 3; }},
      {"rope", [](Config& c) { c.pos = PositionEncoding::Rope; }},
      {"rope + GQA",
       [](Config& c) {
         c.pos = PositionEncoding::Rope;
         c.n_kv_heads = 1;
       }},
      {"alibi", [](Config& c) { c.pos = PositionEncoding::Alibi; }},
      {"learned", [](Config& c) { c.pos = PositionEncoding::Learned; }},
      {"no position", [](Config& c) { c.pos = PositionEncoding::None; }},
      {"dropout", [](Config& c) { c.dropout = 0.2; }},
      {"ablation", [](Config& c) { c.ablated_heads = {true}; }},
      {"decode", [](Config& c) { c.decode_steps = c.seq_len - 1; }},
      {"decode + rope + GQA + bias",
       [](Config& c) {
         c.decode_steps = 2;
         c.pos = PositionEncoding::Rope;
         c.n_kv_heads = 1;
         c.bias = true;
       }},
      {"decode + alibi, no W_o",
       [](Config& c) {
         c.decode_steps = 1;
         c.pos = PositionEncoding::Alibi;
         c.output_proj = false;
       }},
  };
  for (const MistakeInfo& info : all_mistakes())
    out.push_back({info.name, [id = info.id](Config& c) { c.mistake = id; }});
  return out;
}

struct Labelled {
  std::string label;
  Config config;
};

// Every valid config of sizes x masks x variants (decoding needs the causal mask, so it is added
// for the decode variants).
std::vector<Labelled> generated_configs() {
  std::vector<Labelled> out;
  for (const Sizes& s : kSizes) {
    for (const auto& [mask_name, mask] : masks()) {
      for (const auto& [variant_name, variant] : variants()) {
        Config c;
        c.batch = s.B;
        c.seq_len = s.T;
        c.d_model = s.d_model;
        c.n_heads = s.h;
        c.d_k = s.d_k;
        c.d_v = s.d_v;
        mask(c);
        variant(c);
        if (c.decode_steps > 0) c.mask.causal = true;
        if (!validate(c).empty()) continue;
        const std::string label = "B=" + std::to_string(s.B) + " T=" + std::to_string(s.T) +
                                  " d=" + std::to_string(s.d_model) + " h=" + std::to_string(s.h) +
                                  " d_v=" + std::to_string(c.head_dim_v()) + ", " + mask_name +
                                  ", " + variant_name;
        out.push_back({label, c});
      }
    }
  }
  return out;
}

const std::vector<Labelled>& configs() {
  static const std::vector<Labelled> all = generated_configs();
  return all;
}

int64_t parameter_bytes(const Trace& t) {
  int64_t bytes = 0;
  for (const TensorRecord& p : t.parameters) bytes += p.bytes;
  return bytes;
}

// [SECTION] the plan's sizes against a real run

TEST(PlanSizes, TheGeneratedConfigsCoverEveryVariant) {
  int decoding = 0, latent = 0, cross = 0, grouped = 0, fused = 0, mistaken = 0;
  for (const Labelled& l : configs()) {
    decoding += l.config.decode_steps > 0;
    latent += l.config.latent();
    cross += l.config.cross();
    grouped += l.config.grouped();
    fused += l.config.fused_qkv;
    mistaken += l.config.mistake != Mistake::None;
  }
  EXPECT_GT(configs().size(), 400u);
  for (int count : {decoding, latent, cross, grouped, fused, mistaken}) EXPECT_GE(count, 10);
}

TEST(PlanSizes, EveryStepsShapeViewBytesAndFlopsEqualTheRunsRecord) {
  for (const Labelled& l : configs()) {
    SCOPED_TRACE(l.label);
    const Plan plan = plan_for(l.config);
    const Trace t = run(l.config);
    std::map<std::string, const PlannedStep*> planned;
    for (const PlannedStep& s : plan.steps)
      if (s.recorded && s.reached) {
        EXPECT_TRUE(planned.emplace(s.name, &s).second) << s.name << " is planned twice";
      }
    size_t records = 0;
    for (const std::vector<TensorRecord>* list : {&t.records, &t.side_records}) {
      for (const TensorRecord& r : *list) {
        ++records;
        const auto found = planned.find(r.name);
        ASSERT_NE(found, planned.end()) << r.name << " is recorded but not planned";
        const PlannedStep& s = *found->second;
        EXPECT_EQ(s.pass, r.pass) << r.name;
        EXPECT_EQ(s.shape, r.tensor.shape()) << r.name;
        EXPECT_EQ(s.elements, double(r.tensor.numel())) << r.name;
        EXPECT_EQ(s.view, r.is_view) << r.name;
        EXPECT_EQ(s.bytes, r.bytes) << r.name;
        EXPECT_EQ(s.flops, r.flops) << r.name;  // whole numbers below 2^53: exact either way
      }
    }
    EXPECT_EQ(records, planned.size()) << "planned steps the run never recorded";
    EXPECT_EQ(planned_flops(plan, Pass::Forward), t.counters.flops);
    EXPECT_EQ(planned_bytes(plan, Pass::Forward), t.counters.bytes);
    EXPECT_EQ(planned_parameter_bytes(l.config), parameter_bytes(t));
    const Counters n = planned_counters(l.config);
    EXPECT_EQ(n.flops, t.counters.flops);
    EXPECT_EQ(n.bytes, t.counters.bytes);
    EXPECT_EQ(n.parameters(), t.counters.parameters());
    EXPECT_EQ(n.attention_elements, t.counters.attention_elements);
    EXPECT_EQ(n.kv_cache_numbers, t.counters.kv_cache_numbers);
  }
}

TEST(PlanSizes, TheFailingViewEndsThePlanWhereTheRunStops) {
  Config c;
  c.seq_len = 4;
  c.d_model = 8;
  c.n_heads = 2;
  c.mistake = Mistake::ViewNoContiguous;
  const Plan plan = plan_for(c);
  const Trace t = run(c);
  ASSERT_TRUE(t.failure.failed);
  EXPECT_TRUE(plan.concat_view_fails);
  EXPECT_FALSE(plan.step("concat").reached);
  EXPECT_FALSE(plan.step("out").reached);
  EXPECT_EQ(plan.step("out").bytes, 0);
  EXPECT_TRUE(plan.step("context_t").reached);
  EXPECT_EQ(t.records.back().name, "context_t");
  c.n_heads = 1;  // one head: the transposed context is contiguous, the view goes through
  EXPECT_FALSE(plan_for(c).concat_view_fails);
  EXPECT_FALSE(run(c).failure.failed);
}

// [SECTION] validation reads the plan

TEST(PlanSizes, TheMemoryVerdictNearTheCapIsTheShapeOnlyRunsVerdict) {
  int refused = 0;
  for (const Labelled& l : configs()) {
    SCOPED_TRACE(l.label);
    Config shapes = l.config;
    shapes.shape_only = true;
    const Trace counted = run(shapes);  // what the old estimate ran
    const int64_t old_need = counted.counters.bytes + parameter_bytes(counted);
    EXPECT_EQ(trace_bytes_needed(l.config), old_need);
    for (int64_t cap : {old_need - 1, old_need, old_need + 1}) {
      Config c = l.config;
      c.memory_cap_bytes = cap;
      const std::vector<ConfigIssue> issues = validate(c);
      const bool over = std::any_of(issues.begin(), issues.end(),
                                    [](const ConfigIssue& i) { return i.field == "memory"; });
      EXPECT_EQ(over, old_need > cap) << "cap " << cap;
      if (over) {
        ++refused;
        EXPECT_NE(describe(issues).find(std::to_string(old_need) + " bytes"), std::string::npos);
      }
    }
  }
  EXPECT_EQ(refused, int(configs().size()));  // one cap of the three below the need, each
}

TEST(PlanSizes, ValidationCountsAHugeTraceWithoutRunningIt) {
  Config c;
  c.batch = 8;
  c.seq_len = 65536;
  c.d_model = 1024;
  c.n_heads = 16;
  c.pos = PositionEncoding::None;
  const double B = 8, T = 65536, d = 1024, h = 16;
  // x, q, k, v, context, its contiguous copy and out (B, T, d); scores, scaled and weights
  // (B, h, T, T) (no mask: masked is a view); W_q, W_k, W_v, W_o.
  const double floats = 7 * B * T * d + 3 * B * h * T * T + 4 * d * d;
  const auto bytes = int64_t(4 * floats);
  EXPECT_EQ(trace_bytes_needed(c), bytes);
  const std::string issues = describe(validate(c));
  EXPECT_NE(issues.find(std::to_string(bytes) + " bytes"), std::string::npos) << issues;
  c.shape_only = true;  // shape-only skips the cap, but the sizes are the same plan's
  EXPECT_TRUE(validate(c).empty());
  EXPECT_EQ(planned_counters(c).bytes, bytes - int64_t(4 * 4 * d * d));
  EXPECT_EQ(plan_for(c).step("scores").flops, 2 * B * h * T * T * (d / h));
}

TEST(PlanSizes, TheModelTableAndCacheRowsEqualShapeOnlyRunsCounters) {
  for (const ModelRow& row : model_table()) {
    SCOPED_TRACE(row.preset);
    Config c = find_preset(row.preset).config;
    c.batch = 1;
    c.shape_only = true;
    const Counters n = run(c).counters;  // what the table ran before it read the plan
    EXPECT_EQ(row.flops, n.flops);
    EXPECT_EQ(row.parameters, n.parameters());
    EXPECT_EQ(row.attention_bytes, n.attention_elements * 4);
    EXPECT_EQ(row.kv_parameters, n.kv_parameters);
    EXPECT_EQ(row.kv_cache_numbers, n.kv_cache_numbers);
  }
  Config mha = find_preset("deepseek-v2").config;
  mha.kv_latent = mha.rope_dim = mha.q_latent = 0;
  mha.shape_only = true;
  const std::vector<CacheRow> rows = deepseek_v2_cache_rows();
  ASSERT_FALSE(rows.empty());
  EXPECT_EQ(rows[0].kv_cache_numbers, run(mha).counters.kv_cache_numbers);
  EXPECT_EQ(rows[0].kv_parameters, run(mha).counters.kv_parameters);
}

// [SECTION] decoding counts from the plan

Config prefix_of(const Config& c, int64_t tokens) {
  Config prefix = c;
  prefix.seq_len = tokens;
  prefix.decode_steps = 0;
  for (int64_t& length : prefix.mask.padding_lengths) length = std::min(length, tokens);
  prefix.mask.global_tokens = std::min(prefix.mask.global_tokens, tokens);
  return prefix;
}

TEST(PlanSizes, DecodingFlopsFromThePlanEqualTheDecodeRecordsAndFullRuns) {
  int checked = 0;
  for (const Labelled& l : configs()) {
    if (l.config.decode_steps == 0) continue;
    SCOPED_TRACE(l.label);
    const Trace t = run(l.config);
    const DecodeTrace planned = planned_decode(plan_for(l.config));
    ASSERT_EQ(planned.steps.size(), t.decode.steps.size());
    EXPECT_EQ(planned.prompt_tokens, t.decode.prompt_tokens);
    // The prompt's pass and each recompute: a real run of that prefix, values and all.
    EXPECT_EQ(planned.prefill_flops,
              run(prefix_of(l.config, planned.prompt_tokens)).counters.flops);
    for (size_t i = 0; i < planned.steps.size(); ++i) {
      const DecodeStep& step = planned.steps[i];
      double recorded = 0;
      for (const TensorRecord* r : t.pass_records(Pass::Decode, step.position))
        recorded += r->flops;
      EXPECT_GT(recorded, 0);
      EXPECT_EQ(step.flops, recorded) << "step " << i;
      EXPECT_EQ(t.decode.steps[i].flops, recorded);  // what the run reports, from the plan too
      EXPECT_EQ(step.position, t.decode.steps[i].position);
      EXPECT_EQ(step.recompute_flops, run(prefix_of(l.config, step.position + 1)).counters.flops);
      EXPECT_EQ(step.recompute_flops, t.decode.steps[i].recompute_flops);
      EXPECT_EQ(step.cache_bytes, kv_cache_bytes(l.config, step.position + 1));
      ++checked;
    }
    EXPECT_EQ(t.decode.prefill_flops, planned.prefill_flops);
  }
  EXPECT_GT(checked, 50);
}

// [SECTION] each path's own memory rule

TEST(PlanSizes, ForwardHoldsItsWorkingSetNotTheRecords) {
  Config c;
  c.batch = 2;
  c.seq_len = 64;
  c.d_model = 16;
  c.n_heads = 4;
  c.pos = PositionEncoding::None;
  c.mask.causal = true;
  const double B = 2, T = 64, d = 16;
  const double workers =
      std::min<double>(std::max(1u, std::thread::hardware_concurrency()), B * c.n_heads);
  // x, q, k, v, the concat and out (B, T, d) and W_q, W_k, W_v, W_o in float32; a (T, T) scratch
  // map per worker; the (B, T, T) mask in bytes.
  const auto need = int64_t(4 * (6 * B * T * d + 4 * d * d) + workers * 4 * T * T + B * T * T);
  EXPECT_EQ(forward_bytes_needed(c), need);
  ASSERT_LT(need, trace_bytes_needed(c));

  const Inputs inputs = complete_inputs(c, tokens_for("", c.tokens()), {}, {});
  const Tensor reference = run(c, inputs).find("out")->tensor;
  c.memory_cap_bytes = need;  // the trace is refused under this cap; forward() is not
  EXPECT_FALSE(validate(c).empty());
  const Tensor out = forward(c, inputs);
  EXPECT_LT(max_abs_difference(out, reference), 1e-5);
  c.memory_cap_bytes = need - 1;
  try {
    forward(c, inputs);
    FAIL() << "forward() ran above its cap";
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find(std::to_string(need) + " bytes"), std::string::npos)
        << e.what();
  }
}

TEST(PlanSizes, TheTiledRunsBytesAreTheOldFormulaReadFromThePlan) {
  for (bool cross : {false, true}) {
    Config c;
    c.batch = 2;
    c.seq_len = 300;
    c.d_model = 32;
    c.n_heads = 4;
    c.n_kv_heads = 2;
    c.pos = PositionEncoding::None;
    if (cross) {
      c.kv_len = 100;
      c.d_in_kv = 24;
    }
    const TileSizes tiles{16, 32};
    // The formula flash_bytes_needed had before it read the plan (no biases, W_o on).
    const double B = 2, T = 300, Tk = cross ? 100 : 300, h = 4, hk = 2, dk = 8, dv = 8, d = 32;
    const double d_kv = cross ? 24 : 32;
    const double inputs = B * T * d + (cross ? B * Tk * d_kv : 0.0);
    const double weights = d * h * dk + d_kv * hk * (dk + dv) + h * dv * d;
    const double qkv = B * T * h * dk + B * Tk * hk * (dk + dv);
    const double outputs = B * T * h * dv + B * T * d;
    const double held = double(tiled_bytes_held(c, tiles, flash_workers()));
    EXPECT_EQ(flash_bytes_needed(c, tiles), int64_t((inputs + weights + qkv + outputs) * 4 + held))
        << (cross ? "cross" : "self");
  }
}

}  // namespace
}  // namespace attnlab
