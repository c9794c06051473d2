#include "core/flash/tile_plan.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>

#include "core/model/errors.hpp"
#include "core/model/masks.hpp"

namespace attnlab {

namespace {

// The padding length of sequence b, or -1 without a padding mask.
int64_t padding_length(const MaskSpec& m, int64_t b) {
  if (m.padding_lengths.empty()) return -1;
  return m.padding_lengths[m.padding_lengths.size() == 1 ? 0 : size_t(b)];
}

// Distances |i - j| between the query rows [i0, i1) and the keys [j0, j1): the least and the most.
int64_t nearest(int64_t i0, int64_t i1, int64_t j0, int64_t j1) {
  if (j0 > i1 - 1) return j0 - (i1 - 1);
  if (i0 > j1 - 1) return i0 - (j1 - 1);
  return 0;  // the ranges overlap
}
int64_t farthest(int64_t i0, int64_t i1, int64_t j0, int64_t j1) {
  return std::max(std::llabs(i0 - (j1 - 1)), std::llabs((i1 - 1) - j0));
}

// Decided from the tile's corners alone: one of the masks hides every entry.
bool one_mask_hides_all(const MaskSpec& m, int64_t b, int64_t i0, int64_t i1, int64_t j0,
                        int64_t j1) {
  if (m.causal && j0 > i1 - 1) return true;  // every key comes after every query
  const int64_t length = padding_length(m, b);
  if (length >= 0 && j0 >= length) return true;  // every key is padding
  // No global token in the tile, and even its nearest (query, key) pair is beyond the window.
  return m.window > 0 && i0 >= m.global_tokens && j0 >= m.global_tokens &&
         nearest(i0, i1, j0, j1) > m.window;
}

// Decided from the corners alone: no mask hides any entry.
bool no_mask_hides_any(const MaskSpec& m, int64_t b, int64_t i0, int64_t i1, int64_t j0,
                       int64_t j1) {
  if (m.causal && j1 - 1 > i0) return false;  // the first query sees up to itself only
  const int64_t length = padding_length(m, b);
  if (length >= 0 && j1 > length) return false;
  if (m.window > 0) {
    const bool global = i1 <= m.global_tokens || j1 <= m.global_tokens;
    if (!global && farthest(i0, i1, j0, j1) > m.window) return false;
  }
  return true;
}

}  // namespace

TileSizes parse_tile_sizes(const std::string& text) {
  const std::string form = " (expected BR:BC, query rows and keys per tile, e.g. 64:64)";
  const size_t colon = text.find(':');
  if (colon == std::string::npos) throw UserError("'" + text + "' has no ':'" + form);
  TileSizes tiles;
  const auto number = [&](size_t begin, size_t end, int64_t& out) {
    const char* first = text.data() + begin;
    const char* last = text.data() + end;
    const auto [ptr, error] = std::from_chars(first, last, out);
    return begin < end && error == std::errc() && ptr == last;
  };
  if (!number(0, colon, tiles.rows) || !number(colon + 1, text.size(), tiles.cols))
    throw UserError("'" + text + "' is not two whole numbers" + form);
  if (const std::string issue = tile_sizes_issue(tiles); !issue.empty()) throw UserError(issue);
  return tiles;
}

std::string tile_sizes_issue(TileSizes tiles) {
  const auto bad = [](int64_t n) { return n < 1 || n > kMaxTileSize; };
  if (!bad(tiles.rows) && !bad(tiles.cols)) return "";
  return "tile sizes " + std::to_string(tiles.rows) + ":" + std::to_string(tiles.cols) +
         " are out of range: Br (query rows) and Bc (keys) must be between 1 and " +
         std::to_string(kMaxTileSize);
}

TileKind classify_tile(const MaskSpec& m, int64_t b, int64_t i0, int64_t i1, int64_t j0,
                       int64_t j1) {
  if (!m.any()) return TileKind::Full;
  if (one_mask_hides_all(m, b, i0, i1, j0, j1)) return TileKind::Skipped;
  if (no_mask_hides_any(m, b, i0, i1, j0, j1)) return TileKind::Full;
  // On a mask's edge (the causal diagonal, the window's border, the padding, several masks at
  // once): look at the entries.
  int64_t visible = 0;
  for (int64_t i = i0; i < i1; ++i)
    for (int64_t j = j0; j < j1; ++j) visible += key_visible(m, b, i, j) ? 1 : 0;
  if (visible == 0) return TileKind::Skipped;
  return visible == (i1 - i0) * (j1 - j0) ? TileKind::Full : TileKind::Partial;
}

FlashCounters count_tiles(const Config& c, TileSizes tiles, int64_t workers) {
  const int64_t B = c.batch, h = c.n_heads, T = c.tokens(), Tk = c.key_tokens();
  const int64_t dk = c.head_dim_k(), dv = c.head_dim_v();
  FlashCounters n;
  n.tiles = tiles;
  n.workers = workers;
  const int64_t query_blocks = block_count(T, tiles.rows), key_blocks = block_count(Tk, tiles.cols);
  // The masks are the same for every head: count one head per sequence, times h.
  for (int64_t b = 0; b < B; ++b) {
    for (int64_t qb = 0; qb < query_blocks; ++qb) {
      const int64_t i0 = qb * tiles.rows, i1 = std::min(T, i0 + tiles.rows);
      for (int64_t kb = 0; kb < key_blocks; ++kb) {
        const int64_t j0 = kb * tiles.cols, j1 = std::min(Tk, j0 + tiles.cols);
        const TileKind kind = classify_tile(c.mask, b, i0, i1, j0, j1);
        if (kind == TileKind::Skipped) {
          n.tiles_skipped += h;
          continue;
        }
        n.tiles_computed += h;
        n.flops += double(h) * 2.0 * double((i1 - i0) * (j1 - j0)) * double(dk + dv);
        if (kind == TileKind::Full) {
          n.visible_scores += h * (i1 - i0) * (j1 - j0);
          continue;
        }
        n.tiles_partial += h;
        for (int64_t i = i0; i < i1; ++i)
          for (int64_t j = j0; j < j1; ++j)
            n.visible_scores += key_visible(c.mask, b, i, j) ? h : 0;
      }
    }
  }
  n.tiles_total = n.tiles_computed + n.tiles_skipped;
  n.ordinary_flops = 2.0 * double(B * h) * double(T) * double(Tk) * double(dk + dv);
  n.bytes_held = tiled_bytes_held(c, tiles, workers);
  n.ordinary_bytes = 2 * B * h * T * Tk * int64_t(sizeof(float));
  return n;
}

int64_t tiled_bytes_held(const Config& c, TileSizes tiles, int64_t workers) {
  const int64_t per_worker = tiles.rows * tiles.cols + tiles.rows * c.head_dim_v();
  const int64_t row_statistics = c.batch * c.n_heads * c.tokens() * 2;  // m and l
  return (workers * per_worker + row_statistics) * int64_t(sizeof(float));
}

}  // namespace attnlab
