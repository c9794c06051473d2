// Where the read-only data files (presets/) are, for a build and for an install.
#pragma once

#include <string>

namespace attnlab {

// The first of these that is used:
//   1. $ATTNLAB_ASSETS_DIR when set (it must hold presets/: a wrong setting is reported, not
//      passed over);
//   2. an install: <folder of the executable>/../share/attention-lab, found via /proc/self/exe;
//   3. the source tree's assets/ (a development build; ATTNLAB_NO_SOURCE_ASSETS=1 skips it, so a
//      test can prove the installed copy is read).
// 2 and 3 count only when they hold a presets/ folder. Throws UserError naming every path tried
// when none does.
std::string assets_dir();

}  // namespace attnlab
