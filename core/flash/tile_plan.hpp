// FlashAttention's tiling: the (T, T_k) score matrix of every head cut into tiles of Br query rows
// by Bc keys, what the masks leave of each tile, and the counters of a tiled run worked out from
// the shapes alone (no values): tiles computed and skipped, FLOPs, bytes held at once.
#pragma once

#include <cstdint>
#include <string>

#include "core/model/config.hpp"

namespace attnlab {

// Br query rows by Bc keys per tile.
struct TileSizes {
  int64_t rows = 0;  // Br
  int64_t cols = 0;  // Bc
  bool operator==(const TileSizes&) const = default;
};

// Tile sizes a user may choose: 1 to this many rows or keys.
constexpr int64_t kMaxTileSize = 1024;

// "BR:BC" -> the sizes; throws UserError naming the text and the expected form.
TileSizes parse_tile_sizes(const std::string& text);
// "" when the sizes are usable, else why not and what to choose.
std::string tile_sizes_issue(TileSizes tiles);

// What the masks leave of one tile: nothing (never computed), everything (no mask applied inside),
// or some entries (the hidden ones set to -inf before the tile's softmax).
enum class TileKind { Skipped, Full, Partial };

// Tile of query rows [i0, i1) and keys [j0, j1) of sequence b. Exact: Skipped only when every
// entry is hidden, Full only when none is.
TileKind classify_tile(const MaskSpec& mask, int64_t b, int64_t i0, int64_t i1, int64_t j0,
                       int64_t j1);

// A tiled run's cost, counted over every (sequence, head, query block, key block).
struct FlashCounters {
  TileSizes tiles;
  int64_t workers = 1;         // tiles in flight at once (threads)
  int64_t tiles_total = 0;     // B * h * ceil(T / Br) * ceil(T_k / Bc)
  int64_t tiles_computed = 0;  // tiles with at least one visible entry
  int64_t tiles_skipped = 0;   // tiles the masks hide entirely: never computed
  int64_t tiles_partial = 0;   // of the computed ones, those that needed the mask inside
  int64_t visible_scores = 0;  // entries the masks leave, over (B, h, T, T_k)
  double flops = 0;            // QK^T and PV of the computed tiles: 2 rows cols (d_k + d_v) each
  double ordinary_flops = 0;   // the same over the whole (B, h, T, T_k): 2 B h T T_k (d_k + d_v)
  // float32 bytes held at once besides Q, K, V and the output: per worker a Br x Bc score tile
  // and a Br x d_v accumulator, plus m and l for every row of every head (B * h * T * 2).
  int64_t bytes_held = 0;
  int64_t ordinary_bytes = 0;  // scores and weights, both (B, h, T, T_k): 2 B h T T_k * 4
};

// The counters of a tiled run of `config` (any mask, GQA, cross-attention) with `workers` threads.
// Needs sizes validate() accepts apart from the memory cap, and usable tile sizes.
FlashCounters count_tiles(const Config& config, TileSizes tiles, int64_t workers);

// FlashCounters::bytes_held alone (no tile is looked at).
int64_t tiled_bytes_held(const Config& config, TileSizes tiles, int64_t workers);

// Tiles of one head: ceil(T / Br) query blocks by ceil(T_k / Bc) key blocks.
inline int64_t block_count(int64_t n, int64_t block) {
  return (n + block - 1) / block;
}

}  // namespace attnlab
