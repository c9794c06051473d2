// The limits on input from outside (core/limits/): the bounded read at its limit and one past
// it, for regular files, FIFOs (without a writer, with one that never stops, with one that never
// writes) and devices; a lesson and an answer read through it; the memory cap against the
// machine's memory, from every source a config comes from.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "app/lessons/lesson_files.hpp"
#include "core/checkpoints/model_config.hpp"
#include "core/exercise/answer.hpp"
#include "core/exercise/exercise.hpp"
#include "core/limits/bounded_read.hpp"
#include "core/limits/limits.hpp"
#include "core/limits/machine_memory.hpp"
#include "core/model/config.hpp"
#include "core/model/errors.hpp"
#include "core/model/preset.hpp"

namespace attnlab {
namespace {

namespace fs = std::filesystem;

struct TempDir {
  fs::path path;
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "attnlab-limits-XXXXXX").string();
    path = ::mkdtemp(pattern.data());
  }
  ~TempDir() { fs::remove_all(path); }
  std::string file(const std::string& name, const std::string& bytes) const {
    const std::string at = (path / name).string();
    std::ofstream(at, std::ios::binary) << bytes;
    return at;
  }
  std::string fifo(const std::string& name) const {
    const std::string at = (path / name).string();
    EXPECT_EQ(::mkfifo(at.c_str(), 0600), 0);
    return at;
  }
};

// The one-line message `read` throws ("(no error)" when it throws none).
template <typename Read>
std::string refusal(Read read) {
  try {
    read();
  } catch (const UserError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    return message;
  }
  return "(no error)";
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

constexpr FileLimit kSmall{1000, "a test file", "make it smaller"};

// [SECTION] the bounded read

TEST(BoundedRead, RegularFileAtTheLimitIsReadAndOnePastIsRefusedBeforeReading) {
  TempDir dir;
  EXPECT_EQ(read_bounded(dir.file("at.txt", std::string(1000, 'a')), kSmall),
            std::string(1000, 'a'));
  const std::string past = dir.file("past.txt", std::string(1001, 'a'));
  EXPECT_EQ(refusal([&] { read_bounded(past, kSmall); }),
            past + ": is 1001 bytes, over the 1000 bytes a test file may hold; make it smaller");
}

TEST(BoundedRead, EmptyFileMissingFileAndFolderEachSaySo) {
  TempDir dir;
  const std::string empty = dir.file("empty.txt", "");
  EXPECT_EQ(refusal([&] { read_bounded(empty, kSmall); }),
            empty + ": is empty (0 bytes), not a test file; check that it was saved completely");
  const std::string missing = (dir.path / "missing.txt").string();
  EXPECT_EQ(refusal([&] { read_bounded(missing, kSmall); }),
            missing + ": cannot open the file: No such file or directory; check the path");
  EXPECT_TRUE(has(refusal([&] { read_bounded(dir.path.string(), kSmall); }), "Is a directory"));
}

TEST(BoundedRead, DevZeroIsRefusedAtTheLimit) {
  EXPECT_EQ(refusal([&] { read_bounded("/dev/zero", kSmall); }),
            "/dev/zero: is over the 1000 bytes a test file may hold (it is a pipe or a device, "
            "read up to the limit); make it smaller");
}

TEST(BoundedRead, FifoWithNoWriterIsEmptyAtOnce) {
  TempDir dir;
  const std::string fifo = dir.fifo("lesson.md");
  EXPECT_TRUE(has(refusal([&] { read_bounded(fifo, kSmall); }), fifo + ": is empty (0 bytes)"));
}

// A writer that fills the FIFO for as long as the test runs (non-blocking, so it can stop).
class EndlessWriter {
 public:
  explicit EndlessWriter(const std::string& fifo, bool silent = false) {
    // Read and write ends in one open: the FIFO has a writer before the reader opens it.
    fd_ = ::open(fifo.c_str(), O_RDWR | O_NONBLOCK);
    EXPECT_GE(fd_, 0);
    if (silent) return;
    thread_ = std::thread([this] {
      const std::string block(4096, 'x');
      while (!stop_) {
        if (::write(fd_, block.data(), block.size()) < 0) {
          pollfd room{fd_, POLLOUT, 0};
          ::poll(&room, 1, 10);
        }
      }
    });
  }
  ~EndlessWriter() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
    ::close(fd_);
  }

 private:
  int fd_ = -1;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

TEST(BoundedRead, FifoWithAWriterThatNeverStopsIsRefusedAtTheLimit) {
  TempDir dir;
  const std::string fifo = dir.fifo("answer.npz");
  EndlessWriter writer(fifo);
  EXPECT_TRUE(has(refusal([&] { read_bounded(fifo, limits::kLessonFile); }),
                  fifo + ": is over the 4 MiB a lesson may hold (it is a pipe or a device"));
}

TEST(BoundedRead, FifoWhoseWriterNeverWritesIsRefusedWhenItsTimeIsUp) {
  TempDir dir;
  const std::string fifo = dir.fifo("settings.json");
  EndlessWriter writer(fifo, /*silent=*/true);
  EXPECT_EQ(refusal([&] { read_bounded(fifo, kSmall); }),
            fifo + ": gave no end of file within " +
                std::to_string(limits::kPipeReadMilliseconds / 1000) +
                " s (it is a pipe or a device that keeps waiting); give a regular file");
}

TEST(BoundedRead, PiecesShareOneLimit) {
  TempDir dir;
  const std::string path = dir.file("pieces.bin", std::string(1500, 'p'));
  BoundedFile file(path, {1500, "a test file", "make it smaller"});
  EXPECT_EQ(file.read(1000).size(), 1000u);
  EXPECT_EQ(file.read(1000).size(), 500u);  // the end of the file
  EXPECT_EQ(file.read(10), "");
  EXPECT_EQ(file.taken(), 1500u);
}

TEST(BoundedRead, LimitsAreWrittenInTheirUnit) {
  EXPECT_EQ(limit_text(4 * limits::kMiB), "4 MiB");
  EXPECT_EQ(limit_text(limits::kGiB), "1 GiB");
  EXPECT_EQ(limit_text(5 * limits::kMiB + 1), "5.0 MiB");
  EXPECT_EQ(limit_text(700), "700 bytes");
}

// [SECTION] the readers that use it

TEST(LessonLimits, FiveMiBLessonIsRefusedAndFourMiBIsRead) {
  TempDir dir;
  const std::string big = dir.file("big.md", std::string(5 * limits::kMiB, 'a'));
  EXPECT_EQ(lessons::read_lesson_text(big).error,
            big + ": is 5 MiB, over the 4 MiB a lesson may hold; split it into several lessons");
  const std::string at = dir.file("at.md", std::string(4 * limits::kMiB, 'a'));
  const lessons::LessonText read = lessons::read_lesson_text(at);
  EXPECT_EQ(read.error, "");
  EXPECT_EQ(read.markdown.size(), 4 * limits::kMiB);
}

TEST(LessonLimits, LessonFromDevZeroIsRefusedAtTheLimit) {
  EXPECT_EQ(lessons::read_lesson_text("/dev/zero").error,
            "/dev/zero: is over the 4 MiB a lesson may hold (it is a pipe or a device, read up "
            "to the limit); split it into several lessons");
}

TEST(LessonLimits, LessonFromAFifoEndsWithOrWithoutAWriter) {
  TempDir dir;
  const std::string fifo = dir.fifo("lesson.md");
  EXPECT_TRUE(has(lessons::read_lesson_text(fifo).error, fifo + ": is empty (0 bytes)"));
  EndlessWriter writer(fifo);
  EXPECT_TRUE(has(lessons::read_lesson_text(fifo).error, "is over the 4 MiB a lesson may hold"));
}

TEST(AnswerLimits, ZeroByteAnswerIsEmptyNotAPermissionProblem) {
  TempDir dir;
  const std::string empty = dir.file("answer.npz", "");
  EXPECT_EQ(refusal([&] { read_answer(empty); }),
            empty + ": is empty (0 bytes), not an answer; check that it was saved completely");
}

TEST(ExerciseLimits, ExerciseJsonFromAFifoWithNoWriterIsEmptyAtOnce) {
  TempDir dir;
  const std::string fifo = dir.fifo("exercise.json");
  EXPECT_EQ(
      refusal([&] { load_exercise(dir.path.string()); }),
      fifo + ": is empty (0 bytes), not an exercise.json; check that it was saved completely");
}

TEST(ModelLimits, ConfigJsonLinkedToDevZeroIsRefusedAtTheLimit) {
  TempDir dir;
  fs::create_symlink("/dev/zero", dir.path / "config.json");
  EXPECT_EQ(refusal([&] { read_model_config(dir.path.string()); }),
            (dir.path / "config.json").string() +
                ": is over the 1 MiB a model's settings file may hold (it is a pipe or a device, "
                "read up to the limit); give the folder of a downloaded or trained model");
}

// [SECTION] the memory cap and the machine's memory

TEST(MemoryLimits, MachineMemoryIsReadFromTheSystem) {
  const int64_t memory = machine_memory_bytes();
  const int64_t physical = int64_t(::sysconf(_SC_PHYS_PAGES)) * ::sysconf(_SC_PAGESIZE);
  EXPECT_GT(memory, 0);
  EXPECT_LE(memory, physical);  // a cgroup limit only lowers it
}

TEST(MemoryLimits, CapAboveTheMachinesMemoryNamesBothNumbers) {
  const int64_t mib = int64_t(limits::kMiB);
  EXPECT_EQ(cap_above_machine(200000 * mib, 24000 * mib),
            "the memory cap of 200000 MiB is above this machine's memory, 24000 MiB: lower the "
            "memory cap{{(memory_cap_bytes)}} to at most 24000 MiB");
  EXPECT_EQ(cap_above_machine(24000 * mib, 24000 * mib), "");
  EXPECT_EQ(cap_above_machine(200000 * mib, 0), "");  // the machine did not say
}

TEST(MemoryLimits, TheDefaultCapFitsASmallMachine) {
  const int64_t mib = int64_t{1} << 20;
  EXPECT_EQ(default_memory_cap_bytes(24000 * mib), 1024 * mib);
  EXPECT_EQ(default_memory_cap_bytes(0), 1024 * mib);  // the machine did not say
  EXPECT_EQ(default_memory_cap_bytes(512 * mib), 384 * mib);
  EXPECT_EQ(cap_above_machine(default_memory_cap_bytes(512 * mib), 512 * mib), "");
  Config config;  // this machine's default
  EXPECT_EQ(cap_above_machine(config.memory_cap_bytes), "");
}

TEST(MemoryLimits, ValidateRefusesACapAboveTheMachineWhateverSetIt) {
  const int64_t machine = machine_memory_bytes();
  const std::string machine_mib = std::to_string(machine / int64_t(limits::kMiB)) + " MiB";
  Config c;
  c.memory_cap_bytes = machine;
  EXPECT_TRUE(validate(c).empty()) << describe(validate(c));
  c.memory_cap_bytes = machine + int64_t(limits::kMiB);
  const std::string said = describe(validate(c));
  EXPECT_TRUE(has(said, "is above this machine's memory, " + machine_mib)) << said;
  EXPECT_TRUE(has(said, std::to_string(c.memory_cap_bytes / int64_t(limits::kMiB)) + " MiB"));
  // A preset (as a scene's, a settings file's or an exercise's config) goes through the same rule.
  const std::string preset =
      "{\"seq_len\": 4, \"memory_cap_bytes\": " + std::to_string(machine + int64_t(limits::kMiB)) +
      "}";
  const std::string refused = refusal([&] { parse_preset(preset, "big.json"); });
  EXPECT_TRUE(has(refused, "big.json: ")) << refused;
  EXPECT_TRUE(has(refused, "above this machine's memory, " + machine_mib)) << refused;
}

}  // namespace
}  // namespace attnlab
