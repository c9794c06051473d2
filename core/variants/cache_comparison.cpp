#include "core/variants/cache_comparison.hpp"

#include "core/trace/plan_sizes.hpp"

namespace attnlab {

namespace {

// The layer's counters with K/V shared by `kv_heads` heads (no latent), or as `base` has it.
CacheRow counted(Config c, const std::string& variant, const std::string& sharing) {
  c.batch = 1;
  c.decode_steps = 0;
  const Counters n = parameter_counters(c);
  return {variant, sharing, n.kv_cache_numbers, n.kv_parameters, 1};
}

Config without_latent(Config c, int64_t kv_heads) {
  c.kv_latent = c.rope_dim = c.q_latent = 0;
  c.n_kv_heads = kv_heads;
  return c;
}

std::string heads_text(int64_t n) {
  return std::to_string(n) + " K/V head" + (n == 1 ? "" : "s");
}

}  // namespace

std::vector<CacheRow> cache_comparison(const Config& base, int64_t gqa_groups) {
  const int64_t h = base.n_heads;
  std::vector<CacheRow> rows;
  rows.push_back(counted(without_latent(base, h), "MHA", heads_text(h)));
  if (gqa_groups > 1 && gqa_groups < h && h % gqa_groups == 0) {
    rows.push_back(counted(without_latent(base, gqa_groups), "GQA-" + std::to_string(gqa_groups),
                           heads_text(gqa_groups)));
  }
  if (h > 1) rows.push_back(counted(without_latent(base, 1), "MQA", heads_text(1)));
  if (base.latent()) {
    rows.push_back(counted(
        base, "MLA",
        "d_c " + std::to_string(base.kv_latent) + " + d_rope " + std::to_string(base.rope_dim)));
  }
  for (CacheRow& row : rows)
    row.share_of_multi_head = double(row.kv_cache_numbers) / double(rows[0].kv_cache_numbers);
  return rows;
}

}  // namespace attnlab
