// Nothing a person wrote is lost (issue 37): writing into a folder a person works in keeps every
// file that differs, moves it aside when asked to replace it, and makes a new folder whole or not
// at all; `attnlab-cli exercise` over a student's folder keeps the student's edits byte for byte.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/exercise/exercise.hpp"
#include "core/files/person_files.hpp"
#include "core/model/errors.hpp"
#include "core/model/preset.hpp"

namespace attnlab {
namespace {

namespace fs = std::filesystem;

std::string bytes_of(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void put(const fs::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

class PersonFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    root = fs::temp_directory_path() /
           ("attnlab-person-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root);
    fs::create_directories(root);
    dir = root / "ex";
  }
  void TearDown() override { fs::remove_all(root); }
  std::vector<std::string> names_in(const fs::path& folder) const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(folder))
      names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }
  fs::path root, dir;
};

const std::vector<PersonFile> kTwo{{"a.py", "def a(): pass\n", {}}, {"b.txt", "bee\n", {}}};

TEST_F(PersonFiles, ANewFolderGetsEveryFile) {
  const PersonWrite w = write_person_files(dir.string(), kTwo, WhenDifferent::Keep);
  EXPECT_EQ(w.written, (std::vector<std::string>{"a.py", "b.txt"}));
  EXPECT_EQ(bytes_of(dir / "a.py"), "def a(): pass\n");
  EXPECT_EQ(names_in(root), std::vector<std::string>{"ex"}) << "no temporary folder left";
}

TEST_F(PersonFiles, AFileThatDiffersIsKeptAndNamedAndOnlyTheMissingOneIsWritten) {
  fs::create_directories(dir);
  put(dir / "a.py", "def a(): return 42  # mine\n");
  const PersonWrite w = write_person_files(dir.string(), kTwo, WhenDifferent::Keep);
  EXPECT_EQ(bytes_of(dir / "a.py"), "def a(): return 42  # mine\n");
  EXPECT_EQ(w.kept, std::vector<std::string>{"a.py"});
  EXPECT_EQ(w.written, std::vector<std::string>{"b.txt"});
  EXPECT_EQ(kept_line(w, "ex"), "kept a.py in ex: it differs from what would be written");
  EXPECT_EQ(names_in(dir), (std::vector<std::string>{"a.py", "b.txt"}));
}

TEST_F(PersonFiles, AnIdenticalFileIsLeftUntouched) {
  write_person_files(dir.string(), kTwo, WhenDifferent::Keep);
  const auto before = fs::last_write_time(dir / "a.py");
  const PersonWrite w = write_person_files(dir.string(), kTwo, WhenDifferent::MoveAside);
  EXPECT_EQ(w.same, (std::vector<std::string>{"a.py", "b.txt"}));
  EXPECT_TRUE(w.moved.empty());
  EXPECT_EQ(fs::last_write_time(dir / "a.py"), before);
  EXPECT_EQ(names_in(dir), (std::vector<std::string>{"a.py", "b.txt"})) << "no backup made";
}

TEST_F(PersonFiles, ReplacingMovesTheOldOneAsideWithItsBytes) {
  fs::create_directories(dir);
  put(dir / "a.py", "first edit\n");
  PersonWrite w = write_person_files(dir.string(), kTwo, WhenDifferent::MoveAside);
  ASSERT_EQ(w.moved.size(), 1u);
  EXPECT_EQ(w.moved[0].backup, "a.py.~1~");
  EXPECT_EQ(bytes_of(dir / "a.py.~1~"), "first edit\n");
  EXPECT_EQ(bytes_of(dir / "a.py"), "def a(): pass\n");
  EXPECT_EQ(moved_line(w, "ex"), "moved a.py to a.py.~1~ in ex before writing it anew");
  put(dir / "a.py", "second edit\n");  // a second replacement takes the next number
  w = write_person_files(dir.string(), kTwo, WhenDifferent::MoveAside);
  EXPECT_EQ(w.moved.at(0).backup, "a.py.~2~");
  EXPECT_EQ(bytes_of(dir / "a.py.~1~"), "first edit\n");
  EXPECT_EQ(bytes_of(dir / "a.py.~2~"), "second edit\n");
}

TEST_F(PersonFiles, AnEditReplacesOnlyTheBytesItRead) {
  fs::create_directories(dir);
  put(dir / "lesson.md", "# L\n");
  const PersonFile edit{"lesson.md", "# L\n## new scene\n", std::string("# L\n")};
  EXPECT_EQ(write_person_files(dir.string(), {edit}, WhenDifferent::Keep).edited,
            std::vector<std::string>{"lesson.md"});
  EXPECT_EQ(bytes_of(dir / "lesson.md"), "# L\n## new scene\n");
  put(dir / "lesson.md", "# L\nsaved meanwhile in an editor\n");
  EXPECT_EQ(write_person_files(dir.string(), {edit}, WhenDifferent::Keep).kept,
            std::vector<std::string>{"lesson.md"});
  EXPECT_EQ(bytes_of(dir / "lesson.md"), "# L\nsaved meanwhile in an editor\n");
}

TEST_F(PersonFiles, AFailedWriteLeavesNoNewFolderNorItsParents) {
  const fs::path deep = root / "new" / "deeper" / "ex";
  // "missing/b.txt" cannot be written (its folder is not made): the whole write fails.
  const std::vector<PersonFile> files{{"a.py", "a\n", {}}, {"missing/b.txt", "b\n", {}}};
  EXPECT_THROW(write_person_files(deep.string(), files, WhenDifferent::Keep), UserError);
  EXPECT_TRUE(names_in(root).empty()) << "neither the folder, its parents nor a temporary";
}

TEST_F(PersonFiles, AFailedWriteIntoAFolderUndoesWhatItDid) {
  fs::create_directories(dir);
  put(dir / "a.py", "mine\n");
  const std::vector<PersonFile> files{
      {"a.py", "new\n", {}}, {"c.txt", "c\n", {}}, {"missing/b.txt", "b\n", {}}};
  EXPECT_THROW(write_person_files(dir.string(), files, WhenDifferent::MoveAside), UserError);
  EXPECT_EQ(names_in(dir), std::vector<std::string>{"a.py"});
  EXPECT_EQ(bytes_of(dir / "a.py"), "mine\n") << "moved back from its backup";
}

TEST_F(PersonFiles, AFileWhereTheFolderShouldBeIsRefused) {
  put(dir, "a file\n");
  EXPECT_THROW(write_person_files(dir.string(), kTwo, WhenDifferent::Keep), UserError);
  EXPECT_EQ(bytes_of(dir), "a file\n");
}

Exercise seed002_exercise() {
  const Preset preset = find_preset("seed002");
  return make_exercise(preset.config, preset.inputs);
}

TEST_F(PersonFiles, ExerciseOverAStudentsFolderKeepsTheirEditsByteForByte) {
  const Exercise e = seed002_exercise();
  write_exercise(e, dir.string());
  const std::string numpy = bytes_of(dir / "mha.py");
  std::string edited = numpy;
  edited.replace(edited.find("raise NotImplementedError"), 25, "return {}  # \xc3\xa9l\xc3\xa8ve");
  put(dir / "mha.py", edited);
  fs::remove(dir / "README.md");  // what is missing is written again
  const PersonWrite w = write_exercise(e, dir.string());
  EXPECT_EQ(bytes_of(dir / "mha.py"), edited);
  EXPECT_EQ(w.kept, std::vector<std::string>{"mha.py"});
  EXPECT_EQ(w.written, std::vector<std::string>{"README.md"});
  EXPECT_FALSE(bytes_of(dir / "README.md").empty());
  // --force: the edit is moved aside whole, the starter written anew.
  const PersonWrite forced = write_exercise(e, dir.string(), WhenDifferent::MoveAside);
  ASSERT_EQ(forced.moved.size(), 1u);
  EXPECT_EQ(bytes_of(dir / "mha.py.~1~"), edited);
  EXPECT_EQ(bytes_of(dir / "mha.py"), numpy);
}

TEST_F(PersonFiles, AnotherExercisesFolderIsRefusedWholeWithoutForce) {
  write_exercise(seed002_exercise(), dir.string());
  const std::string before = bytes_of(dir / "exercise.json");
  const Preset other = find_preset("seed003");
  const Exercise e = make_exercise(other.config, other.inputs);
  try {
    write_exercise(e, dir.string());
    ADD_FAILURE() << "another exercise's folder must be refused";
  } catch (const UserError& error) {
    EXPECT_NE(std::string(error.what()).find("holds another exercise"), std::string::npos);
    EXPECT_NE(std::string(error.what()).find("--force"), std::string::npos);
  }
  EXPECT_EQ(bytes_of(dir / "exercise.json"), before);
}

}  // namespace
}  // namespace attnlab
