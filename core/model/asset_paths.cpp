#include "core/model/asset_paths.hpp"

#include <cstdlib>
#include <filesystem>
#include <vector>

#include "core/model/errors.hpp"

namespace attnlab {

namespace fs = std::filesystem;

namespace {

bool holds_presets(const fs::path& dir) {
  std::error_code ec;
  return fs::is_directory(dir / "presets", ec);
}

// <exe>/../share/attention-lab, or "" when /proc/self/exe cannot be read.
fs::path installed_assets() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  return (exe.parent_path() / ATTNLAB_INSTALLED_ASSETS_FROM_BIN).lexically_normal();
}

}  // namespace

std::string assets_dir() {
  if (const char* env = std::getenv("ATTNLAB_ASSETS_DIR"); env && *env) {
    if (holds_presets(env)) return env;
    throw UserError("ATTNLAB_ASSETS_DIR=" + std::string(env) +
                    " has no presets folder: point it at the folder that holds presets/, or "
                    "unset it");
  }
  std::vector<fs::path> candidates;
  if (const fs::path installed = installed_assets(); !installed.empty())
    candidates.push_back(installed);
  const char* no_source = std::getenv("ATTNLAB_NO_SOURCE_ASSETS");
  if (!no_source || std::string(no_source) != "1") candidates.push_back(ATTNLAB_SOURCE_ASSETS_DIR);
  std::string tried;
  for (const fs::path& dir : candidates) {
    if (holds_presets(dir)) return dir.string();
    tried += (tried.empty() ? "" : ", ") + (dir / "presets").string();
  }
  throw UserError("no presets folder found; tried " + tried +
                  ": reinstall (cmake --install build), or set ATTNLAB_ASSETS_DIR to the folder "
                  "that holds presets/");
}

}  // namespace attnlab
