// Every limit on input that comes from outside (a colleague's lesson, a student's answer, a
// downloaded model, a settings file), named in one place, each with its default and the reason
// for it (as SQLite's "Limits In SQLite" does). A read of such a file goes through
// core/limits/bounded_read.hpp with one of these; docs/reliability.md's "Limits" table lists them.
// A limit holds for pipes, FIFOs and devices as much as for regular files, and for an archive as
// a whole as much as for one of its members.
// The browser page applies the same limits to the files a person drops or picks, by each file's
// name (core/limits/folder_files.hpp), before reading a byte of them.
#pragma once

#include <cstdint>

namespace attnlab {

// The most a file of one kind may hold, and the words a refusal uses:
//   "FILE: is over the 4 MiB a lesson may hold; split it into several lessons"
struct FileLimit {
  uint64_t bytes;    // the limit
  const char* what;  // the kind of file, in messages: "a lesson"
  const char* fix;   // how to fix a file past the limit
};

namespace limits {

constexpr uint64_t kKiB = 1024, kMiB = kKiB * 1024, kGiB = kMiB * 1024;

// [SECTION] files read whole

// A lesson is Markdown: a lecture's text is tens of KB; 4 MiB is many lectures, and bounds the
// parse, the page's escaping and the caption layout a file can ask for.
constexpr FileLimit kLessonFile{4 * kMiB, "a lesson", "split it into several lessons"};

// exercise.json spells the mask out (B·T·T entries, one a line): 64 MiB is T of about 2800.
constexpr FileLimit kExerciseJson{64 * kMiB, "an exercise.json",
                                  "make the exercise again with attnlab-cli exercise"};

// settings.json holds choices, a few paths and the sentence: a few KB, more only for a long
// pasted text; past 16 MiB it is a broken or foreign file (moved aside, the app starts afresh).
constexpr FileLimit kSettingsJson{16 * kMiB, "a settings file",
                                  "delete it and the app starts with the defaults"};

// A preset is a config and at most a few small input tensors written out as JSON numbers.
constexpr FileLimit kPresetFile{16 * kMiB, "a preset", "keep its input tensors small"};

// A model folder's config.json and a model.json attnlab-cli train wrote: a few KB each.
constexpr FileLimit kModelJson{1 * kMiB, "a model's settings file",
                               "give the folder of a downloaded or trained model"};

// tokenizer.json, tokenizer_config.json, vocab.json, merges.txt, vocab.txt: the largest
// published tokenizer.json (Gemma's, 262 144 tokens) is about 33 MiB; a tokenizer_config.json
// that lists thousands of added tokens can pass 1 MiB.
constexpr FileLimit kTokenizerFile{64 * kMiB, "a tokenizer file",
                                   "download the model's tokenizer files again"};

// model.safetensors.index.json: one line per tensor; a 70B model's is about 100 KB.
constexpr FileLimit kSafetensorsIndex{16 * kMiB, "a safetensors index",
                                      "download the model's index.json again"};

// A .safetensors file's JSON header, as the safetensors library's own limit; the tensors after
// it are read by the ranges the header declares, each checked against the file's size.
constexpr uint64_t kSafetensorsHeaderBytes = 100'000'000;

// An answer (.npz) holds one array per stage of a classroom-sized run.
constexpr FileLimit kAnswerFile{1 * kGiB, "an answer", "save fewer or smaller stages"};

// The one-file page the lesson is written into (the web build's output, about 10 MB).
constexpr FileLimit kOnePageTemplate{256 * kMiB, "the one-file page",
                                     "build it again with ./setup.sh web --single-file"};

// [SECTION] .npy arrays

// An array's data: 2 GiB is far above any tensor a lecture computes.
constexpr uint64_t kNpyDataBytes = 2 * kGiB;
// Its header (a Python dict literal); numpy writes at most a few hundred bytes.
constexpr uint64_t kNpyHeaderBytes = 1 * kMiB;
// A .npy file: its header first, then only the data the header declares is read.
constexpr FileLimit kNpyFile{kNpyDataBytes + kNpyHeaderBytes, "a .npy array",
                             "load a smaller array"};

// [SECTION] zip archives (.npz answers), on the whole archive before anything is inflated

// Files in one archive: an answer holds one array per stage (about 20).
constexpr uint64_t kZipMaxEntries = 4096;
// One member, inflated: 1 GiB, the most an answer may hold.
constexpr uint64_t kZipMaxEntryBytes = kAnswerFile.bytes;
// All members together, inflated: twice an answer file, room for a stored archive of
// float64 arrays read as float32 and nothing more.
constexpr uint64_t kZipMaxTotalBytes = 2 * kGiB;
// Inflated bytes per archive byte, for archives that inflate past kZipRatioFloorBytes: real
// float arrays compress to about 1:1.1 and deflate's own maximum is 1032; a small answer of
// zeros may legitimately be close to that, so only large ones are held to this.
constexpr uint64_t kZipMaxRatio = 100;
constexpr uint64_t kZipRatioFloorBytes = 64 * kMiB;

// [SECTION] pipes, FIFOs and devices

// A pipe, FIFO or device must give its whole file within this long (a regular file is read at
// once): a read never waits without bound on a writer that stalls or trickles.
constexpr int kPipeReadMilliseconds = 5000;

// [SECTION] memory

// The memory cap (--memory-cap-mb) may never be above the machine's memory
// (core/limits/machine_memory.hpp): a request above it is refused with both numbers.

}  // namespace limits
}  // namespace attnlab
