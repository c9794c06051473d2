// The tiled run's counters (core/flash/tile_plan.hpp): tiles skipped and computed against closed
// formulas and against looking at every entry, FLOPs, visible scores and the bytes held.
#include <gtest/gtest.h>

#include "core/flash/tile_plan.hpp"
#include "core/flash/tiled_attention.hpp"
#include "core/model/masks.hpp"

namespace attnlab {
namespace {

Config sized(int64_t B, int64_t T, int64_t d_model, int64_t h) {
  Config c;
  c.batch = B;
  c.seq_len = T;
  c.d_model = d_model;
  c.n_heads = h;
  return c;
}

TEST(TileCounts, CausalWithSquareTilesComputesTheLowerTriangleOfBlocks) {
  for (const int64_t n : {1, 2, 5, 16}) {
    Config c = sized(2, 8 * n, 16, 4);
    c.mask.causal = true;
    const FlashCounters k = count_tiles(c, {8, 8}, 1);
    EXPECT_EQ(k.tiles_total, 2 * 4 * n * n);
    EXPECT_EQ(k.tiles_computed, 2 * 4 * n * (n + 1) / 2) << "n=" << n;
    EXPECT_EQ(k.tiles_skipped, 2 * 4 * n * (n - 1) / 2) << "n=" << n;
    EXPECT_EQ(k.tiles_partial, 2 * 4 * n);  // the diagonal blocks
    const int64_t T = 8 * n;
    EXPECT_EQ(k.visible_scores, 2 * 4 * T * (T + 1) / 2);
    // Every computed tile is 8 x 8: 2 * 64 * (d_k + d_v) FLOPs each.
    EXPECT_DOUBLE_EQ(k.flops, double(k.tiles_computed) * 2 * 64 * (4 + 4));
  }
}

TEST(TileCounts, WithoutAMaskEveryTileIsComputedAndTheFlopsAreTheOrdinaryOnes) {
  const Config c = sized(3, 21, 8, 2);  // T not a multiple of either tile size
  const FlashCounters k = count_tiles(c, {4, 6}, 2);
  EXPECT_EQ(k.tiles_total, 3 * 2 * 6 * 4);  // ceil(21/4) = 6, ceil(21/6) = 4
  EXPECT_EQ(k.tiles_skipped, 0);
  EXPECT_EQ(k.tiles_partial, 0);
  EXPECT_DOUBLE_EQ(k.flops, k.ordinary_flops);
  EXPECT_DOUBLE_EQ(k.ordinary_flops, 2.0 * 3 * 2 * 21 * 21 * (4 + 4));
}

// Looking at every entry of every tile: skipped = none visible, partial = some but not all.
TEST(TileCounts, EveryMaskAndTileSizeAgreesWithLookingAtEveryEntry) {
  std::vector<MaskSpec> masks(5);
  masks[0].causal = true;
  masks[1].window = 3;
  masks[2].window = 4;
  masks[2].global_tokens = 2;
  masks[3].padding_lengths = {7, 0, 19};
  masks[4] = masks[2];
  masks[4].causal = true;
  masks[4].padding_lengths = {13};
  for (const MaskSpec& mask : masks) {
    for (const TileSizes tiles :
         {TileSizes{1, 1}, TileSizes{3, 5}, TileSizes{4, 4}, TileSizes{7, 2}}) {
      Config c = sized(3, 19, 4, 2);
      c.mask = mask;
      const FlashCounters k = count_tiles(c, tiles, 1);
      int64_t skipped = 0, partial = 0, visible = 0;
      for (int64_t b = 0; b < 3; ++b)
        for (int64_t i0 = 0; i0 < 19; i0 += tiles.rows)
          for (int64_t j0 = 0; j0 < 19; j0 += tiles.cols) {
            int64_t seen = 0, entries = 0;
            for (int64_t i = i0; i < std::min<int64_t>(19, i0 + tiles.rows); ++i)
              for (int64_t j = j0; j < std::min<int64_t>(19, j0 + tiles.cols); ++j, ++entries)
                seen += key_visible(mask, b, i, j) ? 1 : 0;
            skipped += seen == 0 ? 1 : 0;
            partial += seen > 0 && seen < entries ? 1 : 0;
            visible += seen;
          }
      const std::string what = describe(mask) + " tiles " + std::to_string(tiles.rows) + ":" +
                               std::to_string(tiles.cols);
      EXPECT_EQ(k.tiles_skipped, 2 * skipped) << what;
      EXPECT_EQ(k.tiles_partial, 2 * partial) << what;
      EXPECT_EQ(k.visible_scores, 2 * visible) << what;
    }
  }
}

// Sparse attention: a window of w keys on each side costs O(T w), not O(T^2).
TEST(TileCounts, AWindowsVisibleScoresAndComputedTilesGrowLinearlyInT) {
  const int64_t w = 64;
  std::vector<FlashCounters> counts;
  for (const int64_t T : {1024, 2048, 4096}) {
    Config c = sized(1, T, 16, 1);
    c.mask.window = w;
    counts.push_back(count_tiles(c, {64, 64}, 1));
    // Row i sees keys max(0, i - w) .. min(T - 1, i + w): (2w + 1) T minus the ends' w (w + 1).
    EXPECT_EQ(counts.back().visible_scores, (2 * w + 1) * T - w * (w + 1));
    // Query block q meets key blocks q - 1, q, q + 1 (the window reaches one block each way).
    const int64_t n = T / 64;
    EXPECT_EQ(counts.back().tiles_computed, 3 * n - 2);
    EXPECT_DOUBLE_EQ(counts.back().flops, double(3 * n - 2) * 2 * 64 * 64 * (16 + 16));
  }
  // Against the ordinary path's T^2: a quarter of the FLOPs at T = 1024, a sixteenth at 4096.
  EXPECT_NEAR(counts[2].flops / counts[2].ordinary_flops, (3.0 * 64 - 2) / (64 * 64), 1e-12);
}

TEST(TileCounts, BytesHeldAreTilesPerWorkerPlusRowStatisticsAgainstTwoFullMatrices) {
  // The seeds' example: B 8, h 8, T 2048 (d_model 512): scores and weights 2.1 GB.
  const Config seeds = sized(8, 2048, 512, 8);
  const FlashCounters k = count_tiles(seeds, {64, 64}, 2);
  EXPECT_EQ(k.ordinary_bytes, 2LL * 8 * 8 * 2048 * 2048 * 4);  // 2,147,483,648
  EXPECT_EQ(k.bytes_held, (2 * (64 * 64 + 64 * 64) + 8 * 8 * 2048 * 2) * 4);
  EXPECT_LT(k.bytes_held, 2 * 1024 * 1024);
  // Linear in T: doubling T doubles the row statistics only.
  Config longer = seeds;
  longer.seq_len = 4096;
  const FlashCounters k2 = count_tiles(longer, {64, 64}, 2);
  EXPECT_EQ(k2.bytes_held - k.bytes_held, 8 * 8 * 2048 * 2 * 4);
  EXPECT_EQ(k2.ordinary_bytes, 4 * k.ordinary_bytes);
}

TEST(TileCounts, TheTiledRunsMemoryNeedIsLinearInT) {
  Config c = sized(1, 2048, 512, 8);
  const int64_t at_2k = flash_bytes_needed(c, {64, 64});
  c.seq_len = 4096;
  const int64_t at_4k = flash_bytes_needed(c, {64, 64});
  c.seq_len = 16384;
  const int64_t at_16k = flash_bytes_needed(c, {64, 64});
  // Everything but the weights and the tiles grows with T: exactly linear increments.
  EXPECT_EQ(at_16k - at_4k, 6 * (at_4k - at_2k));
  EXPECT_LT(at_16k, c.memory_cap_bytes);
}

}  // namespace
}  // namespace attnlab
