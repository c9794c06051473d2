// A trained model as an ordinary run of the core: its first layer's attention on a batch of its
// task, as a Config and Inputs for run() / forward(). Every panel and the export then work on the
// learned heads (issue 12, "Use the trained model everywhere").
#pragma once

#include "core/model/config.hpp"
#include "core/model/inputs.hpp"
#include "core/training/model_io.hpp"

namespace attnlab::training {

struct TraceOfModel {
  Config config;  // sizes, bias, causal mask from the model; sentence = sequence 0's token ids
  Inputs inputs;  // x = E[tokens] (+ P) (B, T, D); layer0's W_q, W_k, W_v, W_o and biases
  Batch batch;    // the task batch the x came from
};

// Batch number `batch_index` of the model's task (B sequences) with the model's seed. A RoPE model
// is traced with the pipeline's RoPE (theta 10000), an ALiBi model with its bias sub-step.
TraceOfModel first_layer_trace(const SavedModel& model, int64_t batch, int64_t batch_index = 0);

}  // namespace attnlab::training
