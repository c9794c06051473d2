#include "core/flash/tiled_attention.hpp"

#include <algorithm>
#include <limits>

#include "core/flash/online_softmax.hpp"
#include "core/flash/projections.hpp"
#include "core/kernels/blas_threads.hpp"
#include "core/kernels/linear.hpp"
#include "core/kernels/parallel.hpp"
#include "core/model/errors.hpp"
#include "core/model/threads_available.hpp"
#include "core/model/tokenizer.hpp"
#include "core/trace/plan_sizes.hpp"

namespace attnlab {

namespace {

const Scalar* data_or_null(const Tensor& t) {
  return t.storage() ? t.data() : nullptr;
}

// validate()'s issues, but for the trace's memory cap: the tiled run has its own (below).
std::string config_issues(const Config& c) {
  const std::vector<ConfigIssue> issues = validate_settings(c);
  return issues.empty() ? "" : describe(issues);
}

}  // namespace

int64_t flash_workers() {
  return int64_t(usable_cores());
}

int64_t flash_bytes_needed(const Config& c, TileSizes tiles) {
  // The plan's X, Q, K, V, concat and output and the parameters, plus the tiles: linear in T.
  return tiled_bytes_needed(c, tiled_bytes_held(c, tiles, flash_workers()));
}

std::string flash_unavailable(const Config& c, TileSizes tiles) {
  if (std::string issues = config_issues(c); !issues.empty()) return issues;
  if (std::string issue = tile_sizes_issue(tiles); !issue.empty()) return issue;
  if (c.shape_only) return "shape-only mode computes no values: turn shape-only off";
  if (c.mistake != Mistake::None)
    return "the tiled path computes the correct attention only: set the mistake to none";
  if (c.dropout > 0) return "the tiled path computes without dropout: set dropout to 0";
  if (c.latent())
    return "latent attention (MLA) is computed by the traced run only: turn the latent off";
  const int64_t need = flash_bytes_needed(c, tiles);
  if (need <= c.memory_cap_bytes) return "";
  return "the tiled run needs " + format_bytes(double(need)) + " (" + std::to_string(need) +
         " bytes) for X, the weights, Q, K, V and the output, above the cap of " +
         format_bytes(double(c.memory_cap_bytes)) + ": lower B, T or the widths";
}

Inputs flash_inputs(const Config& c, const Inputs& given) {
  const std::vector<std::string> tokens_kv =
      c.cross() ? tokens_for(c.sentence_kv, c.key_tokens()) : std::vector<std::string>{};
  Inputs in = complete_inputs(c, tokens_for(c.sentence, c.tokens()), given, tokens_kv);
  // ALiBi's bias is computed inside each tile from the slopes: no (h, T, T_k) map unless given.
  if (!given.alibi_bias.storage()) in.alibi_bias = Tensor();
  return in;
}

FlashResult flash_forward(const Config& c, const Inputs& in, TileSizes tiles,
                          const RunControl& control) {
  use_single_threaded_blas();
  if (std::string reason = flash_unavailable(c, tiles); !reason.empty()) throw UserError(reason);
  const int64_t B = c.batch, T = c.tokens(), h = c.n_heads, dv = c.head_dim_v();
  const int64_t rows = B * T, v_width = h * dv;
  const Projections p = project_qkv(c, in);
  control.check_cancel();

  FlashResult result;
  result.counters = count_tiles(c, tiles, flash_workers());
  result.row_max.assign(size_t(B * h * T), -std::numeric_limits<Scalar>::infinity());
  result.row_sum.assign(size_t(B * h * T), 0.0f);
  const AttentionChoices choices = attention_choices(c);  // the plan's scale, bias, mask, heads
  Values concat(size_t(rows * v_width), 0.0f);  // (B, T, h*d_v); switched-off heads stay 0
  const int64_t query_blocks = block_count(T, tiles.rows);
  parallel_for(B * h * query_blocks, result.counters.flops, [&](int64_t begin, int64_t end) {
    BlockState<Scalar> state;  // this thread's tile and row state
    for (int64_t task = begin; task < end && !control.cancel_requested(); ++task) {
      const int64_t b = task / (h * query_blocks), hd = task / query_blocks % h;
      const int64_t qb = task % query_blocks;
      if (choices.head_off(hd)) continue;
      // Head hd of sequence b, read through the strides of the (B, T, h*d) projections.
      const HeadOperands<Scalar> op =
          head_operands(c, p, b, hd, concat.data() + b * T * v_width + hd * dv, v_width);
      sweep_query_block(op, choices, c.mask, tiles, qb, state);
      const int64_t first = (b * h + hd) * T + qb * tiles.rows;
      std::copy(state.m.begin(), state.m.end(), result.row_max.begin() + first);
      std::copy(state.l.begin(), state.l.end(), result.row_sum.begin() + first);
    }
  });
  control.check_cancel();  // the loop above stops early when asked; its result is incomplete

  if (!c.output_proj) {
    result.out = Tensor::zeros("out", {B, T, v_width});
    result.out.storage()->values = std::move(concat);
    return result;
  }
  result.out = Tensor::empty("out", {B, T, c.d_model});
  linear(concat.data(), rows, v_width, in.w_o.data(), c.d_model, data_or_null(in.b_o),
         result.out.data());
  return result;
}

}  // namespace attnlab
