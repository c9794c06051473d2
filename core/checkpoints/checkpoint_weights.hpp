// The weights of a Hugging Face model folder as downloaded: `model.safetensors`, or shards named
// by `model.safetensors.index.json`'s "weight_map". A tensor is read from its shard on request.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/checkpoints/safetensors.hpp"

namespace attnlab {

class CheckpointWeights {
 public:
  // Opens every shard's header. Throws UserError naming the folder when it has neither file
  // (a PyTorch-only `pytorch_model.bin` folder says how to convert it), when the index is not
  // JSON or names a shard that is missing, or when a shard is not a safetensors file.
  explicit CheckpointWeights(const std::string& folder);

  std::vector<std::string> names() const;
  bool has(const std::string& name) const { return shard_of_.count(name) > 0; }
  const SafetensorsEntry& entry(const std::string& name) const;
  Tensor load(const std::string& name) const;
  // Every shard's SafetensorsFile::read_all(): F32 weights used in place, one read per shard.
  void read_all() const;

 private:
  std::string folder_;
  std::map<std::string, std::unique_ptr<SafetensorsFile>> shards_;  // by file name
  std::map<std::string, const SafetensorsFile*> shard_of_;          // tensor name -> its shard
};

}  // namespace attnlab
