// GUI soak (issue 6): ATTNLAB_GUI_SOAK_CHANGES random control changes (default 10,000; CTest runs
// 2,000) through the headless app, a frame after each. Changes arrive while the worker is still
// computing, so it is cancelled and restarted over and over; only every tenth change waits for it.
// The target is gui_soak (tools/sanitize.sh tsan can run it).
// Every frame must show a valid trace or an explanation, and memory must stay flat: RSS settled
// after the warm-up and at the end (back on seed003, nothing running, freed memory returned with
// malloc_trim) may differ by at most kMaxGrowthBytes. Peak RSS is reported too, but not judged:
// it follows the largest config the random walk happened to meet (and the freed blocks glibc
// caches per thread), which plateaus but not within a short run. Prints
//   gui soak: N changes, RSS after warm-up X MiB, at end Y MiB (...)
#include <malloc.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "control_driver.hpp"
#include "headless_imgui.hpp"
#include "tests/soak/process_memory.hpp"

namespace attnlab::gui {
namespace {

using soak::kMiB;
using soak::kUnderSanitizer;
using soak::measure_memory;
using soak::Memory;
using soak::mib;

constexpr uint64_t kSeed = 7;
// ImGui's draw lists keep the capacity of the largest frame drawn (about 5 MiB here): bounded.
constexpr int64_t kMaxGrowthBytes = 6 * kMiB;

int changes_to_make() {
  const char* text = std::getenv("ATTNLAB_GUI_SOAK_CHANGES");
  const int count = text ? std::atoi(text) : 0;
  return count > 0 ? count : 10000;
}

class GuiSoak : public HeadlessImGui {
 protected:
  // Back on a fixed small preset, every tab shown once (so each tab's cached maps and
  // measurements are of it), nothing running, freed memory returned to the system: two
  // measurements then hold the same live data, and what differs is what leaked.
  Memory settled_memory() {
    start_on("seed003");
    for (int tab = 0; tab < kToolTabCount; ++tab) {
      state.tabs.requested_tool = ToolTab(tab);
      frame();
      frame();
      wait_for_measurements(state);
      frame();
    }
    malloc_trim(0);
    return measure_memory();
  }
};

TEST_F(GuiSoak, RandomChangesWithTheWorkerRestartedKeepMemoryFlat) {
  // Tensor-sized blocks straight from mmap, back to the system when freed: otherwise glibc keeps
  // freed blocks in each thread's arena (the worker's, the measurements') and RSS follows the
  // allocator's caches and thread timing rather than live data.
  mallopt(M_MMAP_THRESHOLD, 256 << 10);
  const int changes = changes_to_make();
  const int warm_up = std::max(300, changes / 5);
  start_on("seed003");
  ControlDriver driver(kSeed, [this] { frame(); });
  Memory after_warm_up;
  int superseded = 0, worker_runs = 0;
  for (int i = 0; i < changes; ++i) {
    const bool was_computing = state.session.computing;
    const uint64_t requests_before = state.session.last_request;
    const ControlChange change = driver.apply(state);
    if (state.session.computing && state.session.last_request != requests_before) {
      ++worker_runs;
      superseded += was_computing;
    }
    if (i % 10 == 0) state.session.worker->wait_idle();
    frame();
    ASSERT_EQ(frame_problem(state), "") << "change " << i << " (" << change.what << "), config "
                                        << config_text(state.session.config);
    if (i + 1 == warm_up) after_warm_up = settled_memory();
  }
  const Memory at_end = settled_memory();
  std::printf(
      "gui soak: %d changes, RSS after warm-up %.1f MiB, at end %.1f MiB (settled on seed003; "
      "peak %.1f -> %.1f MiB); %d worker runs, %d of them superseding a run in flight\n",
      changes, mib(after_warm_up.current_bytes), mib(at_end.current_bytes),
      mib(after_warm_up.peak_bytes), mib(at_end.peak_bytes), worker_runs, superseded);
  EXPECT_GT(superseded, changes / 200) << "the worker must be cancelled and restarted often";
  if (!kUnderSanitizer) {
    EXPECT_LE(at_end.current_bytes - after_warm_up.current_bytes, kMaxGrowthBytes);
  }
}

}  // namespace
}  // namespace attnlab::gui
