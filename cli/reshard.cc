// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "cli/reshard.h"

#include <openssl/evp.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "cli/command_line.h"
#include "cli/handles.h"
#include "cli/load.h"
#include "cli/load_options.h"
#include "cli/mesh_rules.h"
#include "cli/rules.h"
#include "cli/text_input.h"
#include "tessera/tessera.h"

namespace tessera_cli {

const char kReshardHelp[] = R"(Usage: tessera reshard --from DIR [options]

Plans restoring a sharded Tessera checkpoint (a directory with
tessera-index.json, saved on any mesh and layouts) onto the mesh and layouts
given here, and prints what each process of the restoring job reads: the
bytes, from how many files, in how many ranges. Each process reads only the
parts of the stored pieces its devices' shards overlap.

Options:
  --from DIR              the checkpoint's directory, or its tessera-index.json
  --mesh AXIS=SIZE,...    mesh axes restored onto, major first
                          (default: batch=2,model=4)
  --rules FILE            layout rules as for 'tessera plan', looked up with
                          each tensor's name (default: none, so every tensor
                          is replicated)
  --match search|full     how patterns match names (default: search)
  --shard-mode MODE       strict (default), chunk-flat or chunk-nested
  --process P             only process P (default: every process)
  --num-processes N       processes in the restoring job, dividing the mesh's
                          devices (default: 1)
  --verify                restore into memory and check every shard's SHA-256
                          against the stored data: each tensor reassembled
                          from its stored pieces, sliced, hashed
  --json                  print JSON instead of text
  --threads N             loader threads (default: min(4, hardware threads))
  --staging-bytes N       staging memory over all threads (default: 64 MiB)
  --gap-bytes N           read runs at most N bytes apart in one read, the gap
                          included (default: 65536)
  -h, --help              show this help

Output, one line per process:
  process 0 of 2: 1,048,576 bytes from 2 files in 16 ranges (8 shards)
then the total; with --verify, per process "verified N shards" or one line
per shard that differs: "cpu:3 w [0:4, 0:8]: restored SHA, stored SHA".

Exit status: 0 on success, 1 when --verify finds a shard that differs, 2 for
bad usage, a checkpoint the library refuses (a missing or damaged file, a
tensor whose pieces do not cover it, a tensor that cannot be split) or a
read that fails.
)";

namespace {

using Index = std::unique_ptr<tessera_checkpoint_index,
                              Destroyer<tessera_checkpoint_index, tessera_checkpoint_index_destroy>>;
using Checkpoint = std::unique_ptr<tessera_checkpoint, Destroyer<tessera_checkpoint, tessera_checkpoint_destroy>>;
using DigestContext = std::unique_ptr<EVP_MD_CTX, Destroyer<EVP_MD_CTX, EVP_MD_CTX_free>>;

struct ReshardOptions {
  LoadOptions load;          // checkpoint_path is --from
  bool all_processes = true; // no --process
  bool verify = false;
  bool json = false;
};

void Print(std::FILE* stream, const std::string& text) { std::fwrite(text.data(), 1, text.size(), stream); }

void Check(bool ok, tessera_error* error, const std::string& where = "") {
  if (!ok) throw InputError(where + TakeMessage(error));
}

const OptionTable kOptions = {"reshard", {"--verify", "--json"}, {"--from", "--mesh", "--rules", "--match",
                                                                  "--shard-mode", "--process", "--num-processes",
                                                                  "--threads", "--staging-bytes", "--gap-bytes"}};

ReshardOptions ParseReshardOptions(const std::vector<std::string>& args) {
  ReshardOptions options;
  options.load.mesh = ParseMeshSpec("batch=2,model=4");
  ScanOptions(
      args, kOptions,
      [&](const std::string& flag) {
        if (flag == "--help") options.load.help = true;
        if (flag == "--verify") options.verify = true;
        if (flag == "--json") options.json = true;
      },
      [&](const std::string& name, const std::string& value) {
        if (name == "--process") options.all_processes = false;
        SetLoadOption(name == "--from" ? "--checkpoint" : name, value, &options.load);
      });
  if (!options.load.help && options.load.checkpoint_path.empty()) {
    throw InputError("--from is required (see 'tessera reshard --help')");
  }
  if (!options.load.help && options.load.process >= options.load.num_processes) {
    throw InputError("--process " + std::to_string(options.load.process) + ": expected less than --num-processes " +
                     std::to_string(options.load.num_processes));
  }
  return options;
}

std::vector<int64_t> PieceRanges(const tessera_read_plan* plan, size_t piece) {
  std::vector<int64_t> ranges(tessera_read_plan_piece_ranges(plan, piece, nullptr, 0, nullptr));
  if (!ranges.empty()) tessera_read_plan_piece_ranges(plan, piece, ranges.data(), ranges.size(), nullptr);
  return ranges;
}

std::string BoxText(const std::vector<int64_t>& ranges) {
  std::string text = "[";
  for (size_t i = 0; i < ranges.size(); i += 2) {
    if (i > 0) text += ", ";
    text += std::to_string(ranges[i]) + ":" + std::to_string(ranges[i + 1]);
  }
  return text + "]";
}

std::string Sha256Hex(const std::string& bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), digest, &length, EVP_sha256(), nullptr) != 1) {
    throw InputError("SHA-256: OpenSSL's digest failed");
  }
  static const char kDigits[] = "0123456789abcdef";
  std::string hex;
  for (unsigned int i = 0; i < length; ++i) {
    hex += kDigits[digest[i] >> 4];
    hex += kDigits[digest[i] & 15];
  }
  return hex;
}

// How a tensor's type lays out its bytes: `elements` consecutive elements of
// the innermost dimension in `bytes` bytes (1 element for whole-byte types;
// F4 packs 2 in 1, F6_* 4 in 3).
struct Blocks {
  int64_t elements = 1;
  int64_t bytes = 0;
};

// The stored bytes of one tensor, reassembled whole (row-major) from its
// pieces as the process files hold them: the files are read as safetensors
// files of their own (tessera_checkpoint_open), never through a restore plan.
class StoredTensors {
 public:
  explicit StoredTensors(const tessera_checkpoint_index* index) : index_(index) {
    tessera_error* error = nullptr;
    const size_t files = tessera_checkpoint_index_num_files(index, nullptr);
    for (size_t f = 0; f < files; ++f) {
      const char* path = tessera_checkpoint_index_file_path(index, f, nullptr);
      files_.emplace_back(tessera_checkpoint_open(path, &error));
      Check(files_.back() != nullptr, error, "--verify: ");
      paths_.push_back(path);
    }
  }

  // Block layout, shape and whole bytes of index tensor `tensor`.
  void Reassemble(size_t tensor, Blocks* blocks, std::vector<int64_t>* shape, std::string* whole) {
    const std::string name = tessera_checkpoint_index_tensor_name(index_, tensor, nullptr);
    shape->assign(tessera_checkpoint_index_tensor_shape(index_, tensor, nullptr, 0, nullptr), 0);
    if (!shape->empty()) tessera_checkpoint_index_tensor_shape(index_, tensor, shape->data(), shape->size(), nullptr);
    int64_t elements = 1;
    for (int64_t n : *shape) elements *= n;
    *blocks = Blocks{};
    whole->clear();
    const size_t pieces = tessera_checkpoint_index_tensor_num_pieces(index_, tensor, nullptr);
    for (size_t p = 0; p < pieces; ++p) {
      std::vector<int64_t> ranges(2 * shape->size());
      if (!ranges.empty()) {
        tessera_checkpoint_index_piece_ranges(index_, tensor, p, ranges.data(), ranges.size(), nullptr);
      }
      const size_t file = tessera_checkpoint_index_piece_file(index_, tensor, p, nullptr);
      std::string key = name + "@";
      for (size_t i = 0; i < ranges.size(); i += 2) {
        key += (i > 0 ? "," : "") + std::to_string(ranges[i]) + ":" + std::to_string(ranges[i + 1]);
      }
      size_t position = 0;
      tessera_error* error = nullptr;
      Check(tessera_checkpoint_tensor_lookup(files_[file].get(), key.c_str(), &position, &error), error,
            "--verify: ");
      blocks->elements = tessera_checkpoint_tensor_block_num_elements(files_[file].get(), position, nullptr);
      blocks->bytes = tessera_checkpoint_tensor_block_size(files_[file].get(), position, nullptr);
      if (whole->empty()) whole->assign(static_cast<size_t>(elements / blocks->elements * blocks->bytes), '\0');
      const std::string bytes = ReadBytes(paths_[file], tessera_checkpoint_tensor_offset(files_[file].get(), position, nullptr),
                                          tessera_checkpoint_tensor_size(files_[file].get(), position, nullptr));
      CopyBox(*shape, ranges, *blocks, bytes, whole, /*into_whole=*/true);
    }
  }

  // The box `ranges` of a whole row-major tensor into `box` bytes, or back.
  // A sub-byte type's row-major bytes count the innermost dimension in
  // blocks (the loader's bytes of a box); the restore plan and the index
  // refuse a box that splits a block, so every range here holds whole ones.
  static void CopyBox(std::vector<int64_t> shape, std::vector<int64_t> ranges, Blocks blocks,
                      const std::string& box, std::string* whole, bool into_whole, std::string* out = nullptr) {
    const size_t rank = shape.size();
    if (rank > 0) {
      shape[rank - 1] /= blocks.elements;
      ranges[2 * rank - 2] /= blocks.elements;
      ranges[2 * rank - 1] /= blocks.elements;
    }
    const size_t size = static_cast<size_t>(blocks.bytes);
    int64_t count = 1;
    for (size_t d = 0; d < rank; ++d) count *= ranges[2 * d + 1] - ranges[2 * d];
    if (count == 0) return;
    std::vector<int64_t> index(rank, 0);
    for (int64_t e = 0; e < count; ++e) {
      int64_t at = 0;
      for (size_t d = 0; d < rank; ++d) at = at * shape[d] + ranges[2 * d] + index[d];
      const size_t whole_at = static_cast<size_t>(at) * size;
      const size_t box_at = static_cast<size_t>(e) * size;
      if (into_whole) {
        whole->replace(whole_at, size, box, box_at, size);
      } else {
        out->replace(box_at, size, *whole, whole_at, size);
      }
      for (size_t d = rank; d-- > 0;) {
        if (++index[d] < ranges[2 * d + 1] - ranges[2 * d]) break;
        index[d] = 0;
      }
    }
  }

 private:
  static std::string ReadBytes(const std::string& path, int64_t offset, int64_t size) {
    std::ifstream in(path, std::ios::binary);
    std::string bytes(static_cast<size_t>(size), '\0');
    in.seekg(offset);
    if (!in.read(bytes.data(), size)) throw InputError("--verify: " + path + ": cannot read the stored bytes");
    return bytes;
  }

  const tessera_checkpoint_index* index_;
  std::vector<Checkpoint> files_;
  std::vector<std::string> paths_;
};

struct ProcessSummary {
  int64_t process = 0;
  int64_t bytes = 0;
  size_t files = 0;
  size_t ranges = 0;
  size_t shards = 0;
  size_t verified = 0;
  std::vector<std::string> differences;
};

ProcessSummary Summarize(const tessera_read_plan* plan, int64_t process) {
  ProcessSummary summary;
  summary.process = process;
  summary.bytes = tessera_read_plan_total_bytes(plan, nullptr);
  summary.shards = tessera_read_plan_num_pieces(plan, nullptr);
  const size_t files = tessera_read_plan_num_files(plan, nullptr);
  for (size_t f = 0; f < files; ++f) {
    const size_t entries = tessera_read_plan_file_ranges(plan, f, nullptr, 0, nullptr);
    summary.ranges += entries / 2;
    summary.files += entries > 0;
  }
  return summary;
}

// Restores the plan into memory and compares each shard's hash with the
// stored data's.
void Verify(const tessera_checkpoint_index* index, const tessera_read_plan* plan, StoredTensors& stored,
            ProcessSummary* summary) {
  const size_t pieces = tessera_read_plan_num_pieces(plan, nullptr);
  std::vector<std::string> buffers(pieces);
  std::vector<void*> pointers(pieces);
  std::vector<size_t> sizes(pieces);
  for (size_t i = 0; i < pieces; ++i) {
    sizes[i] = static_cast<size_t>(tessera_read_plan_piece_size(plan, i, nullptr));
    buffers[i].assign(sizes[i], '\0');
    pointers[i] = buffers[i].data();
  }
  tessera_error* error = nullptr;
  Check(tessera_read_plan_execute(plan, pointers.data(), sizes.data(), pieces, nullptr, nullptr, nullptr, &error),
        error, "--verify: ");
  const size_t tensors = tessera_checkpoint_index_num_tensors(index, nullptr);
  for (size_t t = 0; t < tensors; ++t) {
    Blocks blocks;
    std::vector<int64_t> shape;
    std::string whole;
    stored.Reassemble(t, &blocks, &shape, &whole);
    for (size_t i = 0; i < pieces; ++i) {
      if (tessera_read_plan_piece_tensor(plan, i, nullptr) != t) continue;
      const std::vector<int64_t> ranges = PieceRanges(plan, i);
      std::string expected(sizes[i], '\0');
      StoredTensors::CopyBox(shape, ranges, blocks, {}, &whole, /*into_whole=*/false, &expected);
      const std::string restored_hash = Sha256Hex(buffers[i]);
      const std::string stored_hash = Sha256Hex(expected);
      if (restored_hash == stored_hash) {
        ++summary->verified;
      } else {
        summary->differences.push_back("cpu:" + std::to_string(tessera_read_plan_piece_device(plan, i, nullptr)) +
                                       " " + tessera_checkpoint_index_tensor_name(index, t, nullptr) + " " +
                                       BoxText(ranges) + ": restored " + restored_hash + ", stored " + stored_hash);
      }
    }
  }
}

std::string JsonString(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
      out += escaped;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

}  // namespace

int RunReshard(const std::vector<std::string>& args) {
  const ReshardOptions options = ParseReshardOptions(args);
  if (options.load.help) {
    Print(stdout, kReshardHelp);
    return 0;
  }
  tessera_error* error = nullptr;
  const Index index(tessera_checkpoint_index_open(options.load.checkpoint_path.c_str(), &error));
  Check(index != nullptr, error);
  const Mesh mesh = CreateMesh(options.load.mesh);
  const RuleSet rules = options.load.rules_path.empty()
                            ? RuleSet{"no rules", {}}
                            : ParseRules(ReadFile(options.load.rules_path, "--rules"), options.load.rules_path);
  const LayoutMap map = CreateLayoutMap(mesh.get(), rules, options.load.match);
  const int64_t first = options.all_processes ? 0 : options.load.process;
  const int64_t end = options.all_processes ? options.load.num_processes : options.load.process + 1;
  std::unique_ptr<StoredTensors> stored;
  if (options.verify) stored = std::make_unique<StoredTensors>(index.get());
  std::vector<ProcessSummary> summaries;
  for (int64_t p = first; p < end; ++p) {
    LoadOptions load = options.load;
    load.process = p;
    const ReadOptions read_options = MakeReadOptions(load);
    const ReadPlan plan(tessera_restore_plan_create(index.get(), map.get(), nullptr, read_options.get(), &error));
    Check(plan != nullptr, error);
    summaries.push_back(Summarize(plan.get(), p));
    if (stored) Verify(index.get(), plan.get(), *stored, &summaries.back());
  }
  int64_t total = 0;
  bool differs = false;
  for (const ProcessSummary& s : summaries) {
    total += s.bytes;
    differs = differs || !s.differences.empty();
  }
  const std::string n = std::to_string(options.load.num_processes);
  std::string out;
  if (options.json) {
    out = "{\"checkpoint\": " + JsonString(options.load.checkpoint_path) +
          ", \"num_processes\": " + n + ", \"processes\": [";
    for (size_t i = 0; i < summaries.size(); ++i) {
      const ProcessSummary& s = summaries[i];
      out += std::string(i > 0 ? ", " : "") + "{\"process\": " + std::to_string(s.process) +
             ", \"bytes\": " + std::to_string(s.bytes) + ", \"files\": " + std::to_string(s.files) +
             ", \"ranges\": " + std::to_string(s.ranges) + ", \"shards\": " + std::to_string(s.shards);
      if (options.verify) {
        out += ", \"verified\": " + std::to_string(s.verified) + ", \"differences\": [";
        for (size_t d = 0; d < s.differences.size(); ++d) out += (d > 0 ? ", " : "") + JsonString(s.differences[d]);
        out += "]";
      }
      out += "}";
    }
    out += "], \"total_bytes\": " + std::to_string(total);
    if (options.verify) out += std::string(", \"verified\": ") + (differs ? "false" : "true");
    out += "}\n";
  } else {
    for (const ProcessSummary& s : summaries) {
      out += "process " + std::to_string(s.process) + " of " + n + ": " + WithThousands(s.bytes) + " bytes from " +
             std::to_string(s.files) + (s.files == 1 ? " file" : " files") + " in " + std::to_string(s.ranges) +
             (s.ranges == 1 ? " range" : " ranges") + " (" + std::to_string(s.shards) + " shards)\n";
      if (options.verify) {
        if (s.differences.empty()) out += "  verified " + std::to_string(s.verified) + " shards\n";
        for (const std::string& d : s.differences) out += "  differs: " + d + "\n";
      }
    }
    out += "total " + WithThousands(total) + " bytes\n";
  }
  Print(stdout, out);
  return differs ? 1 : 0;
}

}  // namespace tessera_cli
