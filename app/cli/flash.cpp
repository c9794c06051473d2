#include "app/cli/flash.hpp"

#include <cmath>
#include <filesystem>
#include <iostream>

#include "app/common/format.hpp"
#include "core/flash/flash_sweep.hpp"
#include "core/flash/tiled_attention.hpp"
#include "core/model/errors.hpp"
#include "core/model/masks.hpp"
#include "core/tensor/npy.hpp"

namespace attnlab::cli {

namespace {

void print_counters(std::ostream& out, const Config& c, const FlashCounters& k) {
  const auto percent = [](double part, double whole) {
    return whole > 0 ? format_number(std::round(1000.0 * part / whole) / 10.0) + " %" : "-";
  };
  out << "FlashAttention, tiles of Br=" << k.tiles.rows << " query rows by Bc=" << k.tiles.cols
      << " keys, mask " << describe(c.mask) << ", " << k.workers << " worker threads\n";
  out << "  tiles computed:  " << k.tiles_computed << " of " << k.tiles_total << " ("
      << k.tiles_partial << " on a mask's edge, masked inside)\n";
  out << "  tiles skipped:   " << k.tiles_skipped << " ("
      << percent(double(k.tiles_skipped), double(k.tiles_total))
      << ", every entry hidden by the mask)\n";
  out << "  visible scores:  " << count_text(double(k.visible_scores), "") << " of "
      << count_text(double(c.batch * c.n_heads * c.tokens() * c.key_tokens()), "") << "\n";
  out << "  attention FLOPs: " << count_text(k.flops, "FLOP") << " tiled, "
      << count_text(k.ordinary_flops, "FLOP") << " ordinary (" << percent(k.flops, k.ordinary_flops)
      << ")\n";
  out << "  held at once:    " << format_bytes(double(k.bytes_held))
      << " tiled (a Br x Bc tile and a Br x d_v accumulator per worker, m and l per row)\n"
      << "                   " << format_bytes(double(k.ordinary_bytes))
      << " ordinary (the (B, h, T, T_k) scores and weights)\n";
}

}  // namespace

int run_flash(const Request& r) {
  const Config& c = r.config;
  if (r.real_model) throw UserError("--flash computes the toy layer of the flags: drop --model");
  if (r.json || !r.show.empty() || r.importance || r.compare_heads || r.compare_paths || r.code)
    throw UserError(
        "--flash runs the tiled kernel instead of the trace, which --json, --show, --importance, "
        "--compare-heads, --compare-paths and --code read: drop them or --flash");
  const TileSizes tiles = r.flash_tiles;
  const Inputs inputs = flash_inputs(c, r.inputs);
  const FlashResult result = flash_forward(c, inputs, tiles);
  std::cout << "B=" << c.batch << " T=" << c.tokens() << " d_model=" << c.d_model
            << " n_heads=" << c.n_heads << " d_k=" << c.head_dim_k() << "\n";
  print_counters(std::cout, c, result.counters);
  // The wall the tiled path walks through: what the ordinary trace would need.
  for (const ConfigIssue& issue : validate(c))
    if (issue.field == "memory")
      std::cout << "  the ordinary trace: refused, " << issue.message << "\n";
  const bool sweep_fits = c.tokens() <= kMaxSweepTokens && c.key_tokens() <= kMaxSweepTokens;
  if (r.export_dir.empty()) return 0;
  std::error_code error;
  std::filesystem::create_directories(r.export_dir, error);
  if (error)
    throw UserError("--export " + r.export_dir + ": cannot create the folder (" + error.message() +
                    "): choose a folder you can write to");
  save_npy(r.export_dir + "/out.npy", result.out);
  int files = 1;
  if (sweep_fits) {
    const FlashSweep sweep = record_sweep(c, inputs, tiles, 0, 0);
    save_npy(r.export_dir + "/flash_m.npy", sweep_row_max(sweep));
    save_npy(r.export_dir + "/flash_l.npy", sweep_row_sum(sweep));
    files += 2;
  }
  std::cerr << "attnlab-cli: wrote " << files << " .npy files to " << r.export_dir
            << (sweep_fits ? "" : " (the sweep is recorded for T up to 256: out.npy alone)")
            << "\n";
  return 0;
}

}  // namespace attnlab::cli
