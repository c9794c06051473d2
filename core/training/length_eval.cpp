#include "core/training/length_eval.hpp"

#include <algorithm>

namespace attnlab::training {

namespace {

// Evaluation batches start far beyond any training step's batch index.
constexpr int64_t kFirstEvalBatchIndex = int64_t(1) << 41;
// At most this many attention weights (B*h*T*T) per forward pass.
constexpr int64_t kWeightsPerChunk = int64_t(1) << 22;

}  // namespace

std::vector<Batch> length_eval_batches(const ModelShape& shape, Task task, uint64_t seed, int64_t T,
                                       int64_t sequences) {
  const int64_t chunk = std::clamp<int64_t>(kWeightsPerChunk / (shape.heads * T * T), 1, sequences);
  std::vector<Batch> batches;
  for (int64_t done = 0, index = 0; done < sequences; done += chunk, ++index)
    batches.push_back(make_batch(task, std::min(chunk, sequences - done), T, shape.vocab, seed,
                                 kFirstEvalBatchIndex + T * 4096 + index));
  return batches;
}

double LengthEval::lowest_accuracy() const {
  const std::vector<double>& a = report.accuracy;
  return a.empty() ? 0.0 : *std::min_element(a.begin(), a.end());
}

std::string length_not_available(const ModelShape& shape, int64_t seq_len) {
  if (shape.pos != PositionEncoding::Learned || seq_len <= shape.seq_len) return "";
  return "n/a: the learned table has " + std::to_string(shape.seq_len) + " rows";
}

std::vector<LengthEval> evaluate_lengths(const ModelShape& shape, const Parameters<float>& params,
                                         Task task, uint64_t seed,
                                         const std::vector<int64_t>& lengths, int64_t sequences) {
  std::vector<LengthEval> out;
  ForwardCache<float> cache;
  for (const int64_t T : lengths) {
    LengthEval eval;
    eval.seq_len = T;
    eval.not_available = length_not_available(shape, T);
    eval.available = eval.not_available.empty();
    if (eval.available) {
      // Sums over chunks of sequences: loss and correct answers weighted by targeted positions.
      const size_t outputs = shape.output_vocab.size();
      std::vector<double> loss(outputs, 0), correct(outputs, 0), counted(outputs, 0);
      for (const Batch& batch : length_eval_batches(shape, task, seed, T, sequences)) {
        const LossReport r = forward_loss(shape, params, batch, cache);
        for (size_t j = 0; j < outputs; ++j) {
          const double n = double(std::count_if(batch.targets[j].begin(), batch.targets[j].end(),
                                                [](int64_t t) { return t >= 0; }));
          loss[j] += r.output_loss[j] * n;
          correct[j] += r.accuracy[j] * n;
          counted[j] += n;
        }
      }
      for (size_t j = 0; j < outputs; ++j) {
        eval.report.output_loss.push_back(counted[j] > 0 ? loss[j] / counted[j] : 0.0);
        eval.report.accuracy.push_back(counted[j] > 0 ? correct[j] / counted[j] : 1.0);
        eval.report.loss += eval.report.output_loss.back();
      }
    }
    out.push_back(std::move(eval));
  }
  return out;
}

}  // namespace attnlab::training
