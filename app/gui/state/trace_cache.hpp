// What a panel derives from the shown trace (heatmaps, mistake maps, colour scales), kept until
// the trace or the panel's own choice changes. The one way the app invalidates such caches: each
// remembers the trace generation (Session::generation, bumped whenever a new trace is adopted) and
// the key (view, head, sequence, ...) it was built for, and rebuilds when either differs.
#pragma once

#include <cstdint>
#include <utility>

namespace attnlab::gui {

// The key of a cache that depends on the trace alone.
struct WholeTrace {
  bool operator==(const WholeTrace&) const = default;
};

template <typename Key, typename Value>
class TraceCache {
 public:
  // The value for (generation, key): `build()` runs only when they differ from the last build's.
  template <typename Build>
  Value& get(uint64_t generation, const Key& key, Build&& build) {
    if (!built_for(generation, key)) {
      value_ = std::forward<Build>(build)();
      generation_ = generation;
      key_ = key;
      ++builds_;
    }
    return value_;
  }
  bool built_for(uint64_t generation, const Key& key) const {
    return builds_ > 0 && generation_ == generation && key_ == key;
  }
  // The last build's value (empty before the first), without rebuilding.
  const Value& value() const { return value_; }
  // How many times it was built: the renderer re-uploads the maps when this changes.
  uint64_t builds() const { return builds_; }

 private:
  Value value_{};
  uint64_t generation_ = 0;
  Key key_{};
  uint64_t builds_ = 0;
};

}  // namespace attnlab::gui
