#include "app/cli/real_model.hpp"

#include <algorithm>
#include <iomanip>
#include <numeric>

#include "core/model/config.hpp"
#include "core/model/errors.hpp"

namespace attnlab::cli {

namespace {

// `text` padded with spaces to `width` characters (UTF-8 code points, not bytes: "·the" is 4).
std::string padded(const std::string& text, size_t width) {
  size_t chars = 0;
  for (unsigned char byte : text) chars += (byte & 0xC0) != 0x80;
  return text + std::string(chars < width ? width - chars : 1, ' ');
}

// The k most likely tokens of position t's logits.
void print_top(std::ostream& out, const RealModel& m, int64_t t, int64_t k, double temperature) {
  const std::vector<double> p = next_token_probabilities(m.forward, t, temperature);
  std::vector<int64_t> order(p.size());
  std::iota(order.begin(), order.end(), 0);
  k = std::min<int64_t>(k, int64_t(order.size()));
  std::partial_sort(order.begin(), order.begin() + k, order.end(),
                    [&](int64_t a, int64_t b) { return p[size_t(a)] > p[size_t(b)]; });
  for (int64_t i = 0; i < k; ++i) {
    const int64_t id = order[size_t(i)];
    out << "  " << std::right << std::setw(2) << i + 1 << ". "
        << padded(piece_of(m.session, id), 16) << std::setw(8) << id << "  " << std::fixed
        << std::setprecision(4) << p[size_t(id)] << "\n";
    out.unsetf(std::ios::fixed);
  }
}

}  // namespace

std::string default_sentence(const ModelSpec& spec) {
  return !spec.causal ? "The cat sat on the mat because it was tired."
                      : "When Mary and John went to the store, John gave a drink to";
}

void print_model_header(std::ostream& out, const RealModel& m) {
  const ModelSpec& s = m.session.model.spec;
  out << m.session.model.folder << ": " << s.model_type << " (" << s.arch->name << ") · "
      << s.n_layers << " layers · " << s.n_heads << " heads";
  if (s.n_kv_heads < s.n_heads) out << " (" << s.n_kv_heads << " K/V)";
  out << " of " << s.d_head << " · d_model " << s.d_model << " · vocab " << s.vocab << "\n";
  out << "layer " << m.layer << " of 0.." << s.n_layers - 1 << " · " << m.tokens.ids.size()
      << " tokens:";
  for (size_t t = 0; t < m.tokens.ids.size(); ++t)
    out << " " << m.tokens.pieces[t] << "(" << m.tokens.ids[t] << ")";
  out << "\n";
  if (!m.session.tokenizer) out << "tokenizer: " << m.session.tokenizer_error << "\n";
  const double loss = next_token_loss(m.forward);
  if (s.causal && loss == loss)
    out << "next-token loss over the sentence: " << std::setprecision(4) << loss << " nats\n";
  out << "\n";
}

void print_block_rest(std::ostream& out, const RealModel& m) {
  const ModelSpec& s = m.session.model.spec;
  const LayerRecord& r = m.forward.layers.at(size_t(m.layer));
  struct Row {
    const char* name;
    std::string formula;
    const Tensor& tensor;
  };
  const BlockWords& words = s.arch->block;
  const std::vector<Row> rows = {{"residual", words.residual, r.residual},
                                 {"mlp_in", words.mlp_in, r.mlp_input},
                                 {"mlp_hidden", words.mlp_hidden, r.mlp_hidden},
                                 {"block_out", words.block_out, r.block_out}};
  out << "The rest of block " << m.layer << " (attention's out joins the residual stream h):\n";
  for (const Row& row : rows)
    out << "  " << std::left << std::setw(11) << row.name << std::setw(58) << row.formula
        << std::right << shape_to_string(row.tensor.shape()) << "\n";
  out << "  block_out is layer " << m.layer + 1
      << (m.layer + 1 < s.n_layers ? "'s h" : "'s: the final norm and the output head read it")
      << "\n\n";
}

void print_next_tokens(std::ostream& out, const RealModel& m, int64_t k, double temperature) {
  if (!m.forward.logits.has_values()) {
    out << "Next token: this checkpoint has no output head (BERT without its MLM head)\n\n";
    return;
  }
  const int64_t T = int64_t(m.tokens.ids.size());
  if (m.session.model.spec.causal) {
    out << "Next token after \"" << m.tokens.pieces.back() << "\" (temperature " << temperature
        << "):\n";
    print_top(out, m, T - 1, k, temperature);
  } else {
    const auto mask = m.session.tokenizer ? m.session.tokenizer->special_ids().mask : std::nullopt;
    bool any = false;
    for (int64_t t = 0; t < T; ++t) {
      if (!mask || m.tokens.ids[size_t(t)] != *mask) continue;
      out << "[MASK] at position " << t << ":\n";
      print_top(out, m, t, k, temperature);
      any = true;
    }
    if (!any) out << "Fill [MASK]: the sentence has no [MASK] token: put one in the sentence\n";
  }
  out << "\n";
}

void print_generation(std::ostream& out, const RealModel& m, int64_t n) {
  out << "Generated with a KV cache (the prompt's " << m.tokens.ids.size()
      << " tokens once, then one token at a time):\n";
  for (const GeneratedToken& g : generate_greedy(m.session.model, m.tokens.ids, n, m.off)) {
    out << "  " << std::right << std::setw(3) << g.position << "  "
        << padded(piece_of(m.session, g.id), 16) << std::setw(8) << g.id << "  p " << std::fixed
        << std::setprecision(4) << g.probability;
    out.unsetf(std::ios::fixed);
    out << "  from a cache of " << format_bytes(double(g.cache_bytes)) << "\n";
  }
  out << "\n";
}

void print_heads_report(std::ostream& out, const std::vector<FoundHead>& heads,
                        const std::string& column) {
  const auto key = [&](const FoundHead& f) {
    if (column == "previous") return f.previous;
    if (column == "first") return f.first;
    if (column == "same") return f.same;
    if (column == "entropy") return -f.entropy;  // most focused first
    return f.induction;
  };
  std::vector<FoundHead> sorted = heads;
  std::stable_sort(sorted.begin(), sorted.end(),
                   [&](const FoundHead& a, const FoundHead& b) { return key(a) > key(b); });
  out << "Head finder (sorted by " << column << "):\n"
      << " layer.head  previous   first    same  entropy(bits)  induction\n";
  out << std::fixed << std::setprecision(3);
  for (const FoundHead& f : sorted)
    out << std::setw(6) << f.layer << "." << std::left << std::setw(4) << f.head << std::right
        << std::setw(10) << f.previous << std::setw(8) << f.first << std::setw(8) << f.same
        << std::setw(15) << f.entropy << std::setw(11) << f.induction << "\n";
  out.unsetf(std::ios::fixed);
  out << "\n";
}

}  // namespace attnlab::cli
