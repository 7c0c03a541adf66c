// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "cli/load.h"

#include <openssl/evp.h>
#include <unistd.h>

#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "cli/handles.h"
#include "cli/load_options.h"
#include "cli/mesh_rules.h"
#include "cli/rules.h"
#include "cli/text_input.h"
#include "tessera/tessera.h"

namespace tessera_cli {
namespace {

using Checkpoint = std::unique_ptr<tessera_checkpoint, Destroyer<tessera_checkpoint, tessera_checkpoint_destroy>>;
using DigestContext = std::unique_ptr<EVP_MD_CTX, Destroyer<EVP_MD_CTX, EVP_MD_CTX_free>>;

void Print(std::FILE* stream, const std::string& text) { std::fwrite(text.data(), 1, text.size(), stream); }

// Throws InputError with the library's message unless `ok`.
void Check(bool ok, tessera_error* error, const std::string& where = "") {
  if (!ok) throw InputError(where + TakeMessage(error));
}

// The piece's box, [start0, stop0, start1, stop1, ...].
std::vector<int64_t> Ranges(const tessera_read_plan* plan, size_t piece) {
  std::vector<int64_t> ranges(tessera_read_plan_piece_ranges(plan, piece, nullptr, 0, nullptr));
  if (!ranges.empty()) tessera_read_plan_piece_ranges(plan, piece, ranges.data(), ranges.size(), nullptr);
  return ranges;
}

// "[0:4, 0:16]": the piece's box as Python slices.
std::string BoxText(const tessera_read_plan* plan, size_t piece) {
  const std::vector<int64_t> ranges = Ranges(plan, piece);
  std::string text = "[";
  for (size_t i = 0; i < ranges.size(); i += 2) {
    if (i > 0) text += ", ";
    text += std::to_string(ranges[i]) + ":" + std::to_string(ranges[i + 1]);
  }
  return text + "]";
}

// For each piece, the first piece of the same tensor with the same box: the
// devices holding a replica get the same bytes, hashed once.
std::vector<size_t> FirstHolders(const tessera_read_plan* plan, size_t num_pieces) {
  std::map<std::pair<size_t, std::vector<int64_t>>, size_t> first;
  std::vector<size_t> owner(num_pieces);
  for (size_t piece = 0; piece < num_pieces; ++piece) {
    owner[piece] = first.emplace(std::make_pair(tessera_read_plan_piece_tensor(plan, piece, nullptr),
                                                Ranges(plan, piece)),
                                 piece)
                       .first->second;
  }
  return owner;
}

// The SHA-256 of each piece, fed in order: the loader may hand a piece's
// parts over out of order from several threads, so a part that arrives
// early waits (copied) until the bytes before it have been hashed.
class PieceHashes {
 public:
  explicit PieceHashes(std::vector<size_t> owner) : owner_(std::move(owner)), pieces_(owner_.size()) {
    for (size_t i = 0; i < pieces_.size(); ++i) {
      if (owner_[i] != i) continue;
      Piece& piece = pieces_[i];
      piece.context.reset(EVP_MD_CTX_new());
      if (!piece.context || EVP_DigestInit_ex(piece.context.get(), EVP_sha256(), nullptr) != 1) {
        throw InputError("SHA-256: cannot initialize OpenSSL's digest");
      }
    }
  }

  // Runs on the loader's threads; nothing may throw through the C ABI, so a
  // failed allocation cancels the load instead.
  static bool Deliver(size_t piece, int64_t offset, const void* bytes, size_t size, void* self) noexcept {
    try {
      return static_cast<PieceHashes*>(self)->Add(piece, offset, static_cast<const unsigned char*>(bytes), size);
    } catch (...) {
      return false;
    }
  }

  // Once the load is done.
  std::string Hex(size_t index) {
    Piece& piece = pieces_[owner_[index]];
    if (piece.hex.empty()) {
      unsigned char digest[EVP_MAX_MD_SIZE];
      unsigned int length = 0;
      EVP_DigestFinal_ex(piece.context.get(), digest, &length);
      static const char kDigits[] = "0123456789abcdef";
      for (unsigned int i = 0; i < length; ++i) {
        piece.hex += kDigits[digest[i] >> 4];
        piece.hex += kDigits[digest[i] & 15];
      }
    }
    return piece.hex;
  }

 private:
  struct Piece {
    std::mutex mu;
    DigestContext context;
    int64_t next = 0;
    std::map<int64_t, std::string> early;
    std::string hex;
  };

  bool Add(size_t index, int64_t offset, const unsigned char* bytes, size_t size) {
    if (owner_[index] != index) return true;
    Piece& piece = pieces_[index];
    std::lock_guard<std::mutex> lock(piece.mu);
    if (offset != piece.next) {
      piece.early.emplace(offset, std::string(reinterpret_cast<const char*>(bytes), size));
      return true;
    }
    if (EVP_DigestUpdate(piece.context.get(), bytes, size) != 1) return false;
    piece.next += static_cast<int64_t>(size);
    for (auto it = piece.early.begin(); it != piece.early.end() && it->first == piece.next;
         it = piece.early.erase(it)) {
      if (EVP_DigestUpdate(piece.context.get(), it->second.data(), it->second.size()) != 1) return false;
      piece.next += static_cast<int64_t>(it->second.size());
    }
    return true;
  }

  const std::vector<size_t> owner_;
  std::vector<Piece> pieces_;
};

bool Discard(size_t, int64_t, const void*, size_t, void*) { return true; }

// A bar on a terminal's stderr, redrawn when the percentage changes.
struct ProgressBar {
  int last_percent = -1;

  static bool Draw(int64_t done, int64_t total, void* self) noexcept {
    auto* bar = static_cast<ProgressBar*>(self);
    const int percent = total > 0 ? static_cast<int>(done * 100 / total) : 100;
    if (percent == bar->last_percent) return true;
    bar->last_percent = percent;
    const int filled = percent * 30 / 100;
    try {
      const std::string text = "\rloading [" + std::string(filled, '#') + std::string(30 - filled, ' ') + "] " +
                               std::to_string(percent) + "% " + WithThousands(done) + " / " + WithThousands(total) +
                               " bytes";
      Print(stderr, text);
      std::fflush(stderr);
    } catch (...) {
      // Without memory for the bar, the load goes on without it.
    }
    return true;
  }
};

}  // namespace

ReadOptions MakeReadOptions(const LoadOptions& options) {
  ReadOptions read(tessera_read_options_create());
  if (!read) throw InputError("out of memory");
  tessera_error* error = nullptr;
  Check(tessera_read_options_set_process(read.get(), static_cast<size_t>(options.process),
                                         static_cast<size_t>(options.num_processes), &error),
        error, "--process: ");
  Check(tessera_read_options_set_shard_mode(read.get(), options.shard_mode, &error), error, "--shard-mode: ");
  if (options.threads > 0) {
    Check(tessera_read_options_set_threads(read.get(), static_cast<size_t>(options.threads), &error), error,
          "--threads: ");
  }
  if (options.staging_bytes > 0) {
    Check(tessera_read_options_set_staging_bytes(read.get(), options.staging_bytes, &error), error,
          "--staging-bytes: ");
  }
  if (options.gap_bytes >= 0) {
    Check(tessera_read_options_set_coalesce_gap(read.get(), options.gap_bytes, &error), error, "--gap-bytes: ");
  }
  return read;
}

int RunLoad(const std::vector<std::string>& args) {
  const LoadOptions options = ParseLoadOptions(args);
  if (options.help) {
    Print(stdout, kLoadHelp);
    return 0;
  }
  tessera_error* error = nullptr;
  Checkpoint checkpoint(tessera_checkpoint_open(options.checkpoint_path.c_str(), &error));
  Check(checkpoint != nullptr, error);
  const Mesh mesh = CreateMesh(options.mesh);
  const RuleSet rules = options.rules_path.empty()
                            ? RuleSet{"no rules", {}}
                            : ParseRules(ReadFile(options.rules_path, "--rules"), options.rules_path);
  const LayoutMap map = CreateLayoutMap(mesh.get(), rules, options.match);
  const ReadOptions read_options = MakeReadOptions(options);
  ReadPlan plan(tessera_read_plan_create(checkpoint.get(), map.get(), read_options.get(), &error));
  Check(plan != nullptr, error);

  const size_t num_pieces = tessera_read_plan_num_pieces(plan.get(), nullptr);
  std::unique_ptr<PieceHashes> hashes;
  if (options.sha256) hashes = std::make_unique<PieceHashes>(FirstHolders(plan.get(), num_pieces));
  ProgressBar bar;
  const bool terminal = isatty(STDERR_FILENO) == 1;
  int64_t bytes_read = 0;
  const bool ok = tessera_read_plan_stream(plan.get(), hashes ? PieceHashes::Deliver : Discard, hashes.get(),
                                           terminal ? ProgressBar::Draw : nullptr, &bar, &bytes_read, &error);
  if (terminal) Print(stderr, "\n");
  Check(ok, error);

  std::string out;
  for (size_t piece = 0; piece < num_pieces; ++piece) {
    const size_t tensor = tessera_read_plan_piece_tensor(plan.get(), piece, nullptr);
    out += "cpu:" + std::to_string(tessera_read_plan_piece_device(plan.get(), piece, nullptr)) + " " +
           tessera_checkpoint_tensor_name(checkpoint.get(), tensor, nullptr) + " ";
    out += hashes ? hashes->Hex(piece)
                  : BoxText(plan.get(), piece) + " " +
                        std::to_string(tessera_read_plan_piece_size(plan.get(), piece, nullptr));
    out += "\n";
  }
  out += "read " + std::to_string(bytes_read) + " bytes\n";
  Print(stdout, out);
  return 0;
}

}  // namespace tessera_cli
