// One test that crosses every variant with every attention path (issue 28). The combinations are
// the cartesian product of one table of dimensions (position encodings x masks x K/V heads x
// cross-attention x MLA x biases x fused QKV x ablation x dropout), kept where validate() accepts
// them; each goes through every path that computes it:
//   run()            the traced batched run: the reference the others are held to
//   forward()        the bare production path (not MLA)
//   run_loop()       the per-head loop (not MLA)
//   flash_forward()  FlashAttention's tiles (not MLA, not dropout: refused in one line)
//   decoding         KV-cache decoding, each decoded row against run()'s row (causal, no dropout)
//   absorbed         MLA's absorbed form (MLA only)
// and a path that cannot compute a combination must refuse it with one line (every_path.hpp: the
// fuzzer runs the same check on what it generates). The pretrained
// models' layers (tiny checkpoints in the published layouts) cross the same paths, held to the
// model's own forward pass.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/flash/flash_sweep.hpp"
#include "core/flash/tiled_attention.hpp"
#include "core/pretrained/layer_trace.hpp"
#include "core/pretrained/pretrained_forward.hpp"
#include "core/pretrained/pretrained_model.hpp"
#include "core/trace/mha.hpp"
#include "tests/spine/every_path.hpp"
#include "tiny_checkpoints.hpp"

namespace attnlab {
namespace {

// float32 paths that sum in different orders: relative to the output's largest value.
constexpr double kTolerance = 1e-5;

// [SECTION] the table

// One value of a dimension: its name and what it sets on the config.
struct Value {
  std::string name;
  std::function<void(Config&)> apply;
};
struct Dimension {
  std::string name;
  std::vector<Value> values;
};

const std::vector<Dimension>& table() {
  static const std::vector<Dimension> dimensions = {
      {"pos",
       {{"none", [](Config& c) { c.pos = PositionEncoding::None; }},
        {"sinusoidal", [](Config& c) { c.pos = PositionEncoding::Sinusoidal; }},
        {"learned", [](Config& c) { c.pos = PositionEncoding::Learned; }},
        {"rope", [](Config& c) { c.pos = PositionEncoding::Rope; }},
        {"alibi", [](Config& c) { c.pos = PositionEncoding::Alibi; }}}},
      {"mask",
       {{"none", [](Config&) {}},
        {"causal", [](Config& c) { c.mask.causal = true; }},
        {"padding",
         [](Config& c) {
           c.mask.padding_lengths = {3, 5};
         }},
        {"window+global",
         [](Config& c) {
           c.mask.window = 1;
           c.mask.global_tokens = 1;
         }},
        {"causal+padding",
         [](Config& c) {
           c.mask.causal = true;
           c.mask.padding_lengths = {5, 2};
         }}}},
      {"kv",
       {{"mha", [](Config&) {}},
        {"gqa", [](Config& c) { c.n_kv_heads = 2; }},
        {"mqa", [](Config& c) { c.n_kv_heads = 1; }}}},
      {"keys",
       {{"self", [](Config&) {}},
        {"cross",
         [](Config& c) {
           c.sentence_kv = "keys from another sentence";
           c.kv_len = 5;
         }}}},
      {"mla",
       {{"off", [](Config&) {}},
        {"on",
         [](Config& c) {
           c.kv_latent = 6;
           c.rope_dim = 2;
         }}}},
      {"bias", {{"off", [](Config&) {}}, {"on", [](Config& c) { c.bias = true; }}}},
      {"qkv", {{"separate", [](Config&) {}}, {"fused", [](Config& c) { c.fused_qkv = true; }}}},
      {"ablation",
       {{"none", [](Config&) {}},
        {"head1",
         [](Config& c) {
           c.ablated_heads = {false, true, false, false};
         }}}},
      {"dropout",
       {{"0", [](Config&) {}},
        {"0.2",
         [](Config& c) {
           c.dropout = 0.2;
           c.dropout_seed = 5;
         }}}},
  };
  return dimensions;
}

// One combination: a value index per dimension, its name and its config.
struct Combination {
  std::vector<size_t> index;
  std::string name;
  Config config;
};

Config base_config(uint64_t seed) {
  Config c;
  c.batch = 2;
  c.seq_len = 7;
  c.d_model = 16;
  c.n_heads = 4;
  c.seed = seed;
  return c;
}

// Every combination of the table validate() accepts (the product, filtered), and how many it
// refused.
std::vector<Combination> valid_combinations(int& refused) {
  const std::vector<Dimension>& dims = table();
  std::vector<Combination> valid;
  std::vector<size_t> index(dims.size(), 0);
  refused = 0;
  for (uint64_t n = 0;; ++n) {
    Combination combination{index, "", base_config(100 + n)};
    for (size_t d = 0; d < dims.size(); ++d) {
      const Value& value = dims[d].values[index[d]];
      value.apply(combination.config);
      combination.name += (d ? " " : "") + dims[d].name + "=" + value.name;
    }
    if (validate(combination.config).empty()) {
      valid.push_back(std::move(combination));
    } else {
      ++refused;
    }
    size_t d = 0;  // the next index, as an odometer turns
    while (d < dims.size() && ++index[d] == dims[d].values.size()) index[d++] = 0;
    if (d == dims.size()) break;
  }
  return valid;
}

// [SECTION] the paths (every_path.hpp: the fuzzer calls the same check)

const std::vector<TileSizes> kTiles = {{1, 1}, {3, 2}, {4, 7}};

// How often each path was compared or refused, over every combination, and how many combinations
// failed (the first kShownFailures of them are reported in full).
struct PathCounts {
  std::map<std::string, int> compared, refused;
  int failed = 0;
};
constexpr int kShownFailures = 10;

// A path's name without the number at its end: "decoding row 4" -> "decoding row",
// "flash_forward 3:2" -> "flash_forward".
std::string path_kind(const std::string& path) {
  const size_t last = path.rfind(' ');
  const bool numbered = last != std::string::npos && std::isdigit(path[last + 1]);
  return numbered ? path.substr(0, last) : path;
}

// Every path on one combination; each failure named with the combination.
void expect_every_path_agrees(const Config& config, const Inputs& given, const std::string& name,
                              size_t variant, const Tensor* reference, PathCounts& counts) {
  spine::PathOptions options;
  options.tiles = kTiles[variant % kTiles.size()];
  options.tolerance = kTolerance;
  options.reference = reference;
  const spine::PathReport report = spine::check_every_path(config, given, options);
  if (!report.failures.empty() && counts.failed++ < kShownFailures)
    for (const std::string& failure : report.failures) ADD_FAILURE() << name << ": " << failure;
  std::set<std::string> compared, refused;  // once per combination
  for (const std::string& path : report.compared) compared.insert(path_kind(path));
  for (const std::string& path : report.refused) refused.insert(path_kind(path));
  for (const std::string& path : compared) ++counts.compared[path];
  for (const std::string& path : refused) ++counts.refused[path];
}

// [SECTION] the table's combinations through every path

TEST(EveryPath, EveryValidCombinationOfTheTableAgreesOnEveryPathThatComputesIt) {
  int refused = 0;
  const std::vector<Combination> combinations = valid_combinations(refused);
  PathCounts counts;
  std::vector<std::vector<int>> seen;  // per dimension, per value: valid combinations with it
  for (const Dimension& d : table()) seen.emplace_back(d.values.size(), 0);
  for (size_t i = 0; i < combinations.size(); ++i) {
    const Combination& c = combinations[i];
    for (size_t d = 0; d < c.index.size(); ++d) ++seen[d][c.index[d]];
    expect_every_path_agrees(c.config, {}, c.name, i, nullptr, counts);
  }
  EXPECT_EQ(counts.failed, 0) << "combinations where a path disagrees or fails to refuse";
  std::printf("%zu valid combinations (%d refused by validate): ", combinations.size(), refused);
  for (const auto& [path, n] : counts.compared) std::printf("%s %d, ", path.c_str(), n);
  std::printf("\n");
  // The product is 5*5*3*2*2*2*2*2*2 = 4800; every value of every dimension keeps some combination,
  // and every path computed many.
  EXPECT_EQ(combinations.size() + size_t(refused), 4800u);
  for (size_t d = 0; d < table().size(); ++d)
    for (size_t v = 0; v < seen[d].size(); ++v)
      EXPECT_GT(seen[d][v], 0) << table()[d].name << "=" << table()[d].values[v].name
                               << " is in no valid combination";
  for (const char* path :
       {"forward()", "the per-head loop", "flash_forward", "decoding row", "MLA's absorbed form"})
    EXPECT_GE(counts.compared[path], 20) << path;
  for (const char* path : {"forward()", "the per-head loop", "flash_forward"})
    EXPECT_GE(counts.refused[path], 20) << path;
}

// ALiBi through FlashAttention, the defect the table found first: its bias is in every tile, from
// the trace's (h, T, T) map or, with flash_inputs (which holds no map), from each head's slope.
TEST(EveryPath, FlashEqualsTheOrdinaryRunWithAlibiAtEveryTileSize) {
  for (const bool causal : {false, true}) {
    Config c = base_config(7);
    c.d_model = 32;
    c.seq_len = 13;
    c.pos = PositionEncoding::Alibi;
    c.mask.causal = causal;
    const Trace trace = run(c);
    const Tensor& out = trace.find("out")->tensor;
    const Inputs with_map = trace_inputs(trace, {});
    const Inputs with_slopes = flash_inputs(c);
    EXPECT_FALSE(with_slopes.alibi_bias.storage()) << "flash_inputs made a (h, T, T) map";
    for (const TileSizes tiles : {TileSizes{4, 3}, TileSizes{1, 13}, TileSizes{13, 1}}) {
      for (const Inputs* in : {&with_map, &with_slopes}) {
        const double difference = spine::relative_difference(flash_forward(c, *in, tiles).out, out);
        EXPECT_LE(difference, kTolerance)
            << (causal ? "causal " : "") << "tiles " << tiles.rows << ":" << tiles.cols
            << (in == &with_map ? " bias map" : " slopes") << ": relative difference "
            << difference;
      }
    }
    // Without the bias the tiles would give another output: the bias is not negligible here.
    Config plain = c;
    plain.pos = PositionEncoding::None;
    Inputs unbiased = with_map;
    unbiased.alibi_bias = Tensor();
    EXPECT_GT(spine::relative_difference(flash_forward(plain, unbiased, {4, 3}).out, out), 1e-2);
  }
}

// Any additive bias, not only ALiBi's own: a given (h, T, T) map enters every path alike.
TEST(EveryPath, AGivenBiasMapEntersEveryPathAlike) {
  Config c = base_config(13);
  c.pos = PositionEncoding::Alibi;
  c.mask.causal = true;
  Inputs given;
  given.alibi_bias = Tensor::empty("alibi_bias", {c.n_heads, c.tokens(), c.tokens()});
  for (int64_t i = 0; i < given.alibi_bias.numel(); ++i)
    given.alibi_bias.data()[i] = float(std::sin(0.7 * double(i)));  // no distance rule at all
  spine::PathOptions options;
  options.tolerance = kTolerance;
  const spine::PathReport report = spine::check_every_path(c, given, options);
  for (const std::string& failure : report.failures) ADD_FAILURE() << failure;
  EXPECT_EQ(report.compared.size(), 3u + 3u);  // forward, loop, flash and three decoded rows
}

// The Flash tab's recorded sweep adds the bias too: each tile's scores are run()'s biased scores
// (-inf where the causal mask hides them), and the swept head's rows are run()'s context.
TEST(EveryPath, TheRecordedSweepHoldsAlibisBiasInEachTile) {
  Config c = base_config(9);
  c.seq_len = 9;
  c.pos = PositionEncoding::Alibi;
  c.mask.causal = true;
  const Trace trace = run(c);
  const Inputs in = trace_inputs(trace, {});
  const Tensor& biased = trace.find("biased")->tensor;    // (B, h, T, T)
  const Tensor& context = trace.find("context")->tensor;  // (B, h, T, d_v)
  const int64_t b = 1, hd = 2, dv = c.head_dim_v();
  const FlashSweep sweep = record_sweep(c, in, {4, 3}, b, hd);
  double worst = 0;
  int entries = 0;
  for (const SweepStep& step : sweep.steps) {
    if (step.scores.empty()) continue;  // a tile the mask skips
    for (int64_t r = 0; r < step.rows; ++r)
      for (int64_t k = 0; k < step.cols; ++k) {
        const float got = step.scores[size_t(r * step.cols + k)];
        const int64_t i = step.row0 + r, j = step.col0 + k;
        if (j > i) {
          EXPECT_TRUE(std::isinf(got) && got < 0) << "row " << i << " key " << j;
          continue;
        }
        worst = std::max(worst, double(std::fabs(got - biased.at({b, hd, i, j}))));
        ++entries;
      }
  }
  EXPECT_EQ(entries, 9 * 10 / 2);  // every visible score of the head, once
  EXPECT_LE(worst, kTolerance) << "tile scores against run()'s biased scores";
  for (int64_t t = 0; t < c.tokens(); ++t)
    for (int64_t e = 0; e < dv; ++e)
      EXPECT_NEAR(sweep.context[size_t(t * dv + e)], context.at({b, hd, t, e}), kTolerance)
          << "row " << t;
}

// [SECTION] the pretrained models' layers through the same paths

namespace fs = std::filesystem;
using fixtures::tiny_checkpoints;

// Each family's last layer (its own position encoding, mask, K/V heads, fused QKV and biases), with
// the table's ablation values, through every path, against the model's own forward pass.
TEST(EveryPath, EachPretrainedLayerAgreesOnEveryPath) {
  const std::vector<int64_t> ids = {1, 5, 9, 13, 2, 7, 11, 3, 4};
  const Dimension& ablation = table()[7];
  ASSERT_EQ(ablation.name, "ablation");
  PathCounts counts;
  size_t variant = 0;
  for (const char* family :
       {"gpt2-f32-tied", "llama-gqa-bf16-untied-sharded", "llama3-rope-scaling", "mistral-head-dim",
        "qwen2-bias-tied-bf16", "bert-prefix-mlm"}) {
    const PretrainedModel m = load_pretrained((tiny_checkpoints() / family).string());
    const int64_t layer = m.spec.n_layers - 1;
    for (const Value& value : ablation.values) {
      Config switches;
      switches.ablated_heads.assign(size_t(m.spec.n_heads), false);
      value.apply(switches);
      switches.ablated_heads.resize(size_t(m.spec.n_heads), false);
      std::vector<HeadSwitch> off;
      for (int64_t hd = 0; hd < m.spec.n_heads; ++hd)
        if (switches.ablated_heads[size_t(hd)]) off.push_back({layer, hd});
      const PretrainedRun forward_pass = run_pretrained(m, ids, off, false);
      LayerOfModel l = layer_of_model(m, forward_pass, layer);
      l.config.ablated_heads = switches.ablated_heads;
      const std::string name =
          std::string(family) + " layer " + std::to_string(layer) + " ablation=" + value.name;
      expect_every_path_agrees(l.config, l.inputs, name, variant++,
                               &forward_pass.layers[size_t(layer)].attn_out, counts);
    }
  }
  EXPECT_EQ(counts.failed, 0);
  EXPECT_EQ(counts.compared["run()"], 12);  // against the model's own layer
  EXPECT_EQ(counts.compared["forward()"], 12);
  EXPECT_EQ(counts.compared["the per-head loop"], 12);
  EXPECT_EQ(counts.compared["flash_forward"], 12);
  EXPECT_EQ(counts.compared["decoding row"], 10);  // the causal families: not BERT
}

}  // namespace
}  // namespace attnlab
