// Saving and loading a trained model: the round trip is exact, and a folder that is not a model
// (or not a complete one) gives one plain message naming what is wrong.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/model/errors.hpp"
#include "core/model/forward.hpp"
#include "core/tensor/npy.hpp"
#include "core/training/model_io.hpp"
#include "core/training/to_trace.hpp"

namespace attnlab::training {
namespace {

namespace fs = std::filesystem;

struct TempDir {
  fs::path path = fs::temp_directory_path() / ("attnlab_model_io_" + std::to_string(::getpid()));
  TempDir() { fs::remove_all(path); }
  ~TempDir() { fs::remove_all(path); }
};

TrainSettings small() {
  TrainSettings s;
  s.task = Task::Induction;
  s.layers = 2;
  s.heads = 2;
  s.d_model = 8;
  s.d_k = 3;
  s.seq_len = 8;
  s.vocab = 9;
  s.mlp = true;
  s.steps = 15;
  s.batch_size = 4;
  s.seed = 11;
  s.log_every = 5;
  return s;
}

std::string error_of(const std::string& dir) {
  try {
    load_model(dir);
  } catch (const UserError& e) {
    return e.what();
  }
  return "";
}

TEST(TrainingModelIo, RoundTripIsExact) {
  TempDir tmp;
  Trainer trainer(small());
  for (int i = 0; i < 15; ++i) trainer.step();
  save_model(tmp.path.string(), trainer);
  for (const auto& entry : fs::directory_iterator(tmp.path))
    EXPECT_EQ(entry.path().string().find(".tmp-"), std::string::npos) << entry.path();
  const SavedModel loaded = load_model(tmp.path.string());
  EXPECT_EQ(loaded.settings.task, Task::Induction);
  EXPECT_EQ(loaded.settings.d_k, 3);
  EXPECT_TRUE(loaded.settings.mlp);
  EXPECT_EQ(loaded.settings.seed, 11u);
  ASSERT_EQ(loaded.parameters.values.size(), trainer.parameters().values.size());
  for (size_t i = 0; i < loaded.parameters.values.size(); ++i)
    EXPECT_EQ(loaded.parameters.values[i], trainer.parameters().values[i])
        << loaded.parameters.layout.names[i];
  // history.json has one entry per log step (0, 5, 10 and the last, 14).
  std::ifstream history(tmp.path / "history.json");
  const std::string text((std::istreambuf_iterator<char>(history)), {});
  EXPECT_NE(text.find("\"step\": 14"), std::string::npos);
  EXPECT_NE(text.find("\"prefix\""), std::string::npos);
  EXPECT_EQ(trainer.history().size(), 4u);
}

TEST(TrainingModelIo, BadFoldersSayWhatIsWrong) {
  TempDir tmp;
  const std::string dir = tmp.path.string();
  EXPECT_NE(error_of(dir).find("has no readable model.json"), std::string::npos) << error_of(dir);
  Trainer trainer(small());
  save_model(dir, trainer);
  // A parameter of the wrong shape.
  save_npy(dir + "/layer1.w_q.npy", Tensor::zeros("w", {8, 5}));
  EXPECT_NE(error_of(dir).find("layer1.w_q.npy has shape (8, 5) but model.json's settings need "
                               "(8, 6)"),
            std::string::npos)
      << error_of(dir);
  // A parameter missing.
  fs::remove(tmp.path / "layer1.w_q.npy");
  EXPECT_NE(error_of(dir).find("layer1.w_q.npy is missing"), std::string::npos) << error_of(dir);
  // model.json broken.
  std::ofstream(tmp.path / "model.json") << "{ not json";
  EXPECT_NE(error_of(dir).find("is not valid JSON"), std::string::npos) << error_of(dir);
  std::ofstream(tmp.path / "model.json") << "{\"format\": \"attnlab-trained-model\", \"task\": "
                                            "\"copy\"}";
  EXPECT_NE(error_of(dir).find("unknown task"), std::string::npos) << error_of(dir);
}

// The saved model's first layer as a core run: forward() on its Config and Inputs gives the
// model's own layer-0 attention on the same batch.
TEST(TrainingModelIo, FirstLayerTraceIsTheModelsAttention) {
  TempDir tmp;
  Trainer trainer(small());
  for (int i = 0; i < 5; ++i) trainer.step();
  save_model(tmp.path.string(), trainer);
  const SavedModel loaded = load_model(tmp.path.string());
  const TraceOfModel trace = first_layer_trace(loaded, 3, 7);
  EXPECT_EQ(trace.batch.tokens, make_batch(Task::Induction, 3, 8, 9, 11, 7).tokens);
  EXPECT_TRUE(trace.config.mask.causal);
  const Tensor out = forward(trace.config, trace.inputs);
  ForwardCache<float> cache;
  forward_loss(trainer.shape(), trainer.parameters(), trace.batch, cache);
  const Matrix<float>& want = cache.layers[0].attention;  // (B*T, D)
  ASSERT_EQ(out.numel(), want.size());
  double max_diff = 0;
  for (int64_t e = 0; e < out.numel(); ++e)
    max_diff = std::max(max_diff, double(std::abs(out.data()[e] - want.data()[e])));
  std::printf("  max |forward(trace) - model layer 0| = %.2e\n", max_diff);
  EXPECT_LT(max_diff, 1e-5);
}

// Issue 23: the encoding is saved as model.json's "pos"; only learned writes pos_emb.npy; the
// longer-than-training evaluation goes into history.json's "length_eval", n/a said in words.
TEST(TrainingModelIo, PositionEncodingAndLengthEvalRoundTrip) {
  for (const PositionEncoding pos : all_position_encodings()) {
    TempDir tmp;
    TrainSettings s = small();
    s.d_k = 4;  // even, for RoPE
    s.pos = pos;
    s.eval_seq_lens = {10, 12};
    Trainer trainer(s);
    for (int i = 0; i < 3; ++i) trainer.step();
    trainer.evaluate_lengths();
    save_model(tmp.path.string(), trainer);
    EXPECT_EQ(fs::exists(tmp.path / "pos_emb.npy"), pos == PositionEncoding::Learned);
    const SavedModel loaded = load_model(tmp.path.string());
    EXPECT_EQ(loaded.settings.pos, pos);
    EXPECT_EQ(loaded.shape.pos, pos);
    EXPECT_EQ(loaded.settings.eval_seq_lens, (std::vector<int64_t>{10, 12}));
    for (size_t i = 0; i < loaded.parameters.values.size(); ++i)
      EXPECT_EQ(loaded.parameters.values[i], trainer.parameters().values[i]);
    std::ifstream history(tmp.path / "history.json");
    const nlohmann::json doc = nlohmann::json::parse(history);
    const nlohmann::json& lengths = doc.at("length_eval");
    ASSERT_EQ(lengths.size(), 3u);
    EXPECT_EQ(lengths[0].at("seq_len"), 8);
    EXPECT_TRUE(lengths[0].at("available").get<bool>());
    EXPECT_EQ(lengths[0].at("accuracy").size(), 1u);
    for (size_t i : {1, 2}) {
      if (pos == PositionEncoding::Learned) {
        EXPECT_FALSE(lengths[i].at("available").get<bool>());
        EXPECT_EQ(lengths[i].at("not_available"), "n/a: the learned table has 8 rows");
        EXPECT_FALSE(lengths[i].contains("accuracy"));
      } else {
        EXPECT_TRUE(lengths[i].at("available").get<bool>());
        EXPECT_EQ(lengths[i].at("accuracy").size(), 1u);
      }
    }
  }
}

// A folder written before issue 23 has no "pos" in model.json: it is a learned table, as it was.
TEST(TrainingModelIo, OldFolderWithoutPosLoadsAsLearned) {
  TempDir tmp;
  const std::string dir = tmp.path.string();
  Trainer trainer(small());
  save_model(dir, trainer);
  nlohmann::json j = nlohmann::json::parse(std::ifstream(tmp.path / "model.json"));
  j.erase("pos");
  j.erase("eval_seq_len");
  std::ofstream(tmp.path / "model.json") << j.dump(2);
  const SavedModel loaded = load_model(dir);
  EXPECT_EQ(loaded.settings.pos, PositionEncoding::Learned);
  EXPECT_TRUE(loaded.settings.eval_seq_lens.empty());
  EXPECT_EQ(loaded.parameters[loaded.parameters.layout.pos_emb],
            trainer.parameters()[trainer.parameters().layout.pos_emb]);
  j["pos"] = "absolute";
  std::ofstream(tmp.path / "model.json") << j.dump(2);
  EXPECT_NE(error_of(dir).find("\"pos\": \"absolute\" is not a position encoding; use one of "
                               "none|sinusoidal|learned|rope|alibi"),
            std::string::npos)
      << error_of(dir);
}

// An ALiBi model opens in the pipeline with its bias, not silently without it (its values are
// checked against the trainer's in test_position_training.cpp).
TEST(TrainingModelIo, AlibiModelIsTracedWithItsBias) {
  TrainSettings s = small();
  s.pos = PositionEncoding::Alibi;
  Trainer trainer(s);
  const SavedModel model{s, trainer.shape(), trainer.parameters()};
  EXPECT_EQ(first_layer_trace(model, 1).config.pos, PositionEncoding::Alibi);
}

TEST(TrainingModelIo, Int64NpyHeaderAndBytes) {
  const std::string bytes = npy_bytes_int64({1, -1, 300}, {3});
  EXPECT_EQ(bytes.substr(0, 6), "\x93NUMPY");
  EXPECT_NE(bytes.find("'descr': '<i8', 'fortran_order': False, 'shape': (3,), }"),
            std::string::npos);
  const size_t data = bytes.size() - 24;
  EXPECT_EQ(data % 64, 0u);  // header padded to 64 bytes, as numpy writes it
  EXPECT_EQ(static_cast<unsigned char>(bytes[data + 8]), 0xffu);  // -1 in two's complement
  EXPECT_EQ(static_cast<unsigned char>(bytes[data + 16]), 300 % 256);
  EXPECT_EQ(static_cast<unsigned char>(bytes[data + 17]), 1);
}

}  // namespace
}  // namespace attnlab::training
