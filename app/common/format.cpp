#include "app/common/format.hpp"

#include <cstdio>

namespace attnlab {

std::string count_text(double value, const char* unit) {
  char text[48];
  if (value >= 1e9) {
    std::snprintf(text, sizeof text, "%.2f G%s", value / 1e9, unit);
  } else if (value >= 1e6) {
    std::snprintf(text, sizeof text, "%.2f M%s", value / 1e6, unit);
  } else if (value >= 1e4) {
    std::snprintf(text, sizeof text, "%.1f k%s", value / 1e3, unit);
  } else {
    std::snprintf(text, sizeof text, *unit ? "%.0f %s" : "%.0f%s", value, unit);
  }
  return text;
}

}  // namespace attnlab
