// The exercise folder and the grader's data, in C++: the right answer is the traced run, the
// folder reads back as written, and grade_stage finds the heads and entries that differ. The
// students' own code is graded end to end by tests/exercise/check_exercises.py.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>

#include "core/exercise/grade.hpp"
#include "core/model/errors.hpp"
#include "core/model/preset.hpp"
#include "core/trace/mha.hpp"

namespace attnlab {
namespace {

namespace fs = std::filesystem;

Exercise exercise_of(const std::string& preset_name) {
  const Preset preset = find_preset(preset_name);
  return make_exercise(preset.config, preset.inputs);
}

// A tensor's values in storage of their own (contiguous() shares a contiguous tensor's storage).
Tensor copy_of(const Tensor& t, const std::string& name) {
  Tensor copy = Tensor::zeros(name, t.shape());
  t.copy_to(copy.data());
  return copy;
}

// The right answer handed in as a student would: every stage, in storage of its own.
Answer right_answer(const Exercise& e) {
  Answer a;
  a.source = "right";
  for (const std::string& name : stage_names(e.answer))
    a.arrays.push_back({name, copy_of(e.answer.find(name)->tensor, name)});
  return a;
}

Tensor& tensor_of(Answer& a, const std::string& name) {
  for (AnswerArray& array : a.arrays)
    if (array.name == name) return array.tensor;
  throw std::logic_error("no " + name);
}

TEST(Exercise, RightAnswerIsThePresetsTracedRun) {
  const Exercise e = exercise_of("seed002");
  const Preset preset = find_preset("seed002");
  const Trace direct = run(preset.config, preset.inputs);
  EXPECT_LT(max_abs_difference(e.answer.find("out")->tensor, direct.find("out")->tensor), 1e-6);
  const std::vector<std::string> names = stage_names(e.answer);
  EXPECT_EQ(names.front(), "q");
  EXPECT_EQ(names.back(), "out");
  EXPECT_EQ(input_names(e.config), (std::vector<std::string>{"x", "w_q", "w_k", "w_v", "w_o"}));
  EXPECT_EQ(input_names(exercise_of("seed003").config),
            (std::vector<std::string>{"x", "w_q", "w_k", "w_v"}));  // no output projection
}

TEST(Exercise, FolderReadsBackAsWritten) {
  const fs::path dir =
      fs::temp_directory_path() / ("attnlab_exercise_" + std::to_string(::getpid()));
  const Exercise e = exercise_of("gqa");
  write_exercise(e, dir.string());
  for (const char* file :
       {"x.npy", "w_k.npy", "w_o.npy", "exercise.json", "README.md", "mha.py", "mha_torch.py"})
    EXPECT_TRUE(fs::exists(dir / file)) << file;
  const Exercise back = load_exercise(dir.string());
  EXPECT_EQ(back.config, e.config);
  EXPECT_EQ(back.inputs.w_k.shape(), (Shape{8, 4}));  // 2 K/V heads of d_k = 2
  EXPECT_LT(max_abs_difference(back.answer.find("out")->tensor, e.answer.find("out")->tensor),
            1e-7);
  fs::remove_all(dir);
}

TEST(Exercise, ConfigsBeyondPlainAttentionAreRefused) {
  Config c = find_preset("seed002").config;
  c.pos = PositionEncoding::Rope;
  EXPECT_THROW(make_exercise(c, {}), UserError);
  c = find_preset("seed002").config;
  c.mistake = Mistake::NoScale;
  EXPECT_THROW(make_exercise(c, {}), UserError);
  try {
    load_exercise("/nonexistent/attnlab-exercise");
    ADD_FAILURE();
  } catch (const UserError& err) {
    EXPECT_NE(std::string(err.what()).find("no such exercise folder"), std::string::npos);
  }
}

TEST(Grade, RightAnswerWholeIsRight) {
  const Exercise e = exercise_of("seed003");
  const Grade g = grade_answer(e, right_answer(e));
  EXPECT_TRUE(g.all_right());
  EXPECT_EQ(g.given_count, int(g.stages.size()));
  EXPECT_EQ(g.first_wrong, -1);
}

TEST(Grade, LargeNegativeFillCountsAsMasked) {
  const Exercise e = exercise_of("seed003");
  Answer a = right_answer(e);
  Tensor& masked = tensor_of(a, "masked");
  for (int64_t i = 0; i < masked.numel(); ++i)
    if (std::isinf(masked.data()[i])) masked.data()[i] = -1e9f;
  EXPECT_TRUE(grade_answer(e, a).all_right());
  masked.data()[1] = -10;  // a masked entry (query 0, key 1) no longer hidden
  const Grade g = grade_answer(e, a);
  ASSERT_GE(g.first_wrong, 0);
  EXPECT_EQ(g.stages[size_t(g.first_wrong)].name, "masked");
}

TEST(Grade, OneEntryOffNamesItsHeadAndIndex) {
  const Exercise e = exercise_of("seed003");
  Answer a = right_answer(e);
  Tensor& w = tensor_of(a, "weights");  // (1, 2, 11, 11)
  const int64_t flat = ((0 * 2 + 1) * 11 + 4) * 11 + 2;
  w.data()[flat] += 0.25f;
  const StageGrade s = grade_stage(*e.answer.find("weights"), &w);
  EXPECT_TRUE(s.shape_ok);
  EXPECT_FALSE(s.values_ok);
  EXPECT_EQ(s.wrong_entries, 1);
  EXPECT_NEAR(s.max_error, 0.25, 1e-6);
  EXPECT_EQ(s.worst_index, (Shape{0, 1, 4, 2}));
  EXPECT_EQ(s.differing_heads, (std::vector<int64_t>{1}));
  ASSERT_EQ(s.wrong_at.size(), size_t(w.numel()));
  EXPECT_EQ(s.wrong_at[size_t(flat)], 1);
  EXPECT_EQ(std::count(s.wrong_at.begin(), s.wrong_at.end(), 1), 1);
  const Grade g = grade_answer(e, a);
  EXPECT_TRUE(g.diagnosis.mistakes.empty());  // no known mistake changes one weight
  EXPECT_NE(g.diagnosis.unexplained.find("in head 1"), std::string::npos)
      << g.diagnosis.unexplained;
}

TEST(Grade, HeadsSideBySideAreFoundInConcat) {
  const Exercise e = exercise_of("seed003");
  Tensor concat = copy_of(e.answer.find("concat")->tensor, "concat");  // (1, 11, 2*2)
  concat.data()[3 * 4 + 2] = 9;                                        // token 3, column 2: head 1
  const StageGrade s = grade_stage(*e.answer.find("concat"), &concat);
  EXPECT_EQ(s.differing_heads, (std::vector<int64_t>{1}));
}

TEST(Grade, NanIsNamedWithItsIndex) {
  const Exercise e = exercise_of("seed002");
  Tensor out = copy_of(e.answer.find("out")->tensor, "out");  // (1, 3, 4)
  out.data()[5] = std::numeric_limits<float>::quiet_NaN();
  const StageGrade s = grade_stage(*e.answer.find("out"), &out);
  EXPECT_EQ(s.non_finite, "NaN at index (0, 1, 1)");
}

}  // namespace
}  // namespace attnlab
