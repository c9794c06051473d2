#include "core/tokenizers/bpe.hpp"

#include <cstdio>
#include <limits>

#include "core/model/errors.hpp"

namespace attnlab {
namespace {

uint64_t pair_key(int64_t left, int64_t right) {
  return (static_cast<uint64_t>(left) << 32) | static_cast<uint32_t>(right);
}

std::size_t utf8_length(unsigned char lead) {
  if (lead >= 0xF0) return 4;
  if (lead >= 0xE0) return 3;
  if (lead >= 0xC0) return 2;
  return 1;
}

}  // namespace

BpeModel::BpeModel(std::unordered_map<std::string, int64_t> vocab,
                   const std::vector<std::pair<std::string, std::string>>& merges, Options options,
                   const std::string& where)
    : vocab_(std::move(vocab)), options_(options) {
  merges_.reserve(merges.size());
  for (std::size_t rank = 0; rank < merges.size(); ++rank) {
    const auto& [left, right] = merges[rank];
    const auto l = vocab_.find(left), r = vocab_.find(right), m = vocab_.find(left + right);
    if (l == vocab_.end() || r == vocab_.end() || m == vocab_.end()) {
      throw UserError(where + ": merge " + std::to_string(rank + 1) + " (\"" + left + "\" \"" +
                      right + "\") joins pieces that are not in the vocabulary: the vocabulary " +
                      "and the merges do not belong together; download both again");
    }
    merges_.emplace(pair_key(l->second, r->second),
                    Merge{static_cast<int32_t>(rank), m->second});  // the first rank wins
  }
}

void BpeModel::encode_word(const std::string& word, std::vector<int64_t>& ids) const {
  if (word.empty()) return;
  if (options_.ignore_merges) {
    if (const auto it = vocab_.find(word); it != vocab_.end()) {
      ids.push_back(it->second);
      return;
    }
  }
  // One symbol a character; byte fallback's <0xNN> pieces and unknowns take part in no merge.
  std::vector<int64_t> symbols;
  for (std::size_t i = 0; i < word.size();) {
    const std::size_t length = std::min(utf8_length(word[i]), word.size() - i);
    const std::string ch = word.substr(i, length);
    i += length;
    if (const auto it = vocab_.find(ch); it != vocab_.end()) {
      symbols.push_back(it->second);
      continue;
    }
    if (options_.byte_fallback) {
      bool all = true;
      std::vector<int64_t> bytes;
      for (unsigned char b : ch) {
        char name[8];
        std::snprintf(name, sizeof name, "<0x%02X>", b);
        const auto it = vocab_.find(name);
        if (it == vocab_.end()) {
          all = false;
          break;
        }
        bytes.push_back(it->second);
      }
      if (all) {
        symbols.insert(symbols.end(), bytes.begin(), bytes.end());
        continue;
      }
    }
    if (options_.unk) {
      if (!(options_.fuse_unk && !symbols.empty() && symbols.back() == *options_.unk)) {
        symbols.push_back(*options_.unk);
      }
    }
  }
  // Merge the pair of lowest rank (the leftmost of equals) until no pair has a merge.
  while (symbols.size() > 1) {
    int32_t best_rank = std::numeric_limits<int32_t>::max();
    std::size_t best = 0;
    int64_t merged = 0;
    for (std::size_t k = 0; k + 1 < symbols.size(); ++k) {
      const auto it = merges_.find(pair_key(symbols[k], symbols[k + 1]));
      if (it != merges_.end() && it->second.rank < best_rank) {
        best_rank = it->second.rank;
        best = k;
        merged = it->second.id;
      }
    }
    if (best_rank == std::numeric_limits<int32_t>::max()) break;
    symbols[best] = merged;
    symbols.erase(symbols.begin() + static_cast<std::ptrdiff_t>(best) + 1);
  }
  ids.insert(ids.end(), symbols.begin(), symbols.end());
}

}  // namespace attnlab
