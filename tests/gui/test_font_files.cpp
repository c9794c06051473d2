// Fonts are looked up (fontconfig, then the usual folders), not read from one hard-coded folder.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "app/gui/look/font_files.hpp"

namespace attnlab::gui {
namespace {

// The first four bytes of a TrueType file: the sfnt version 0x00010000.
bool is_truetype(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  char magic[4] = {};
  file.read(magic, 4);
  return file && magic[0] == 0 && magic[1] == 1 && magic[2] == 0 && magic[3] == 0;
}

TEST(FontFiles, FindsTheDejaVuFilesTheAppUses) {
  for (const char* name : {"DejaVuSans.ttf", "DejaVuSansMono.ttf"}) {
    const std::string path = find_font_file(name);
    ASSERT_FALSE(path.empty()) << name << " not found: is fonts-dejavu-core installed?";
    EXPECT_EQ(std::filesystem::path(path).filename(), name) << path;
    EXPECT_TRUE(is_truetype(path)) << path;
  }
}

TEST(FontFiles, AnUnknownFileIsNotFound) {
  EXPECT_EQ(find_font_file("NoSuchFontAttentionLab.ttf"), "");
  // Only a file of exactly that name counts, not fontconfig's nearest substitute.
  EXPECT_EQ(find_font_file("DejaVuSans"), "");
}

}  // namespace
}  // namespace attnlab::gui
