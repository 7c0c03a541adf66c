// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/planning/attention_shape.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "core/checkpoint/json.h"
#include "core/status_macros.h"

namespace tessera::planning {
namespace {

constexpr int64_t kNone = -1;

absl::Status NotPositive(absl::string_view where, absl::string_view key, absl::string_view value) {
  return absl::InvalidArgumentError(
      absl::StrCat(where, ": '", key, "' is ", value, "; expected a whole number >= 1"));
}

// GGUF metadata values are rendered as text (core/checkpoint/gguf.h).
absl::StatusOr<int64_t> MetadataCount(const checkpoint::Checkpoint& checkpoint, const std::string& key) {
  for (const checkpoint::MetadataEntry& entry : checkpoint.metadata) {
    if (entry.key != key) continue;
    int64_t value = 0;
    if (!absl::SimpleAtoi(entry.value, &value) || value < 1) {
      return NotPositive("GGUF metadata", key, entry.value);
    }
    return value;
  }
  return kNone;
}

std::string MetadataText(const checkpoint::Checkpoint& checkpoint, absl::string_view key) {
  for (const checkpoint::MetadataEntry& entry : checkpoint.metadata) {
    if (entry.key == key) return entry.value;
  }
  return "";
}

absl::StatusOr<std::optional<AttentionShape>> FromGguf(const checkpoint::Checkpoint& checkpoint) {
  const std::string arch = MetadataText(checkpoint, "general.architecture");
  if (arch.empty()) return std::nullopt;
  TESSERA_ASSIGN_OR_RETURN(int64_t layers, MetadataCount(checkpoint, arch + ".block_count"));
  TESSERA_ASSIGN_OR_RETURN(int64_t heads, MetadataCount(checkpoint, arch + ".attention.head_count"));
  TESSERA_ASSIGN_OR_RETURN(int64_t kv_heads, MetadataCount(checkpoint, arch + ".attention.head_count_kv"));
  TESSERA_ASSIGN_OR_RETURN(int64_t key_length, MetadataCount(checkpoint, arch + ".attention.key_length"));
  TESSERA_ASSIGN_OR_RETURN(int64_t width, MetadataCount(checkpoint, arch + ".embedding_length"));
  if (kv_heads == kNone) kv_heads = heads;
  int64_t head_dim = key_length;
  if (head_dim == kNone && width != kNone && heads != kNone) head_dim = width / heads;
  if (layers == kNone || kv_heads == kNone || head_dim == kNone || head_dim < 1) return std::nullopt;
  return AttentionShape{layers, kv_heads, head_dim, "GGUF metadata (" + arch + ".*)"};
}

// The integer member `key` of `config`, kNone when absent.
absl::StatusOr<int64_t> ConfigCount(const checkpoint::json::Value& config, absl::string_view key,
                                    const std::string& path) {
  const checkpoint::json::Value* value = config.Find(key);
  if (value == nullptr || value->kind == checkpoint::json::Value::Kind::kNull) return kNone;
  if (value->kind != checkpoint::json::Value::Kind::kInteger || value->integer < 1) {
    return NotPositive(absl::StrCat(path, ": byte ", value->offset), key,
                       value->kind == checkpoint::json::Value::Kind::kInteger
                           ? std::to_string(value->integer)
                           : std::string(value->KindName()));
  }
  return value->integer;
}

absl::StatusOr<int64_t> FirstCount(const checkpoint::json::Value& config, absl::string_view key,
                                   absl::string_view fallback, const std::string& path) {
  TESSERA_ASSIGN_OR_RETURN(int64_t value, ConfigCount(config, key, path));
  if (value != kNone) return value;
  return ConfigCount(config, fallback, path);
}

absl::StatusOr<std::optional<AttentionShape>> FromConfigJson(const checkpoint::Checkpoint& checkpoint) {
  if (checkpoint.files.empty()) return std::nullopt;
  const std::filesystem::path dir = std::filesystem::path(checkpoint.files[0].path).parent_path();
  const std::string path = (dir / "config.json").string();
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream text;
  text << in.rdbuf();
  checkpoint::json::Error error;
  absl::StatusOr<checkpoint::json::Value> config = checkpoint::json::Parse(text.str(), 0, &error);
  if (!config.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": byte ", error.offset, ": ", error.what));
  }
  if (config->kind != checkpoint::json::Value::Kind::kObject) return std::nullopt;
  TESSERA_ASSIGN_OR_RETURN(int64_t layers, FirstCount(*config, "num_hidden_layers", "n_layer", path));
  TESSERA_ASSIGN_OR_RETURN(int64_t heads, FirstCount(*config, "num_attention_heads", "n_head", path));
  TESSERA_ASSIGN_OR_RETURN(int64_t kv_heads, ConfigCount(*config, "num_key_value_heads", path));
  TESSERA_ASSIGN_OR_RETURN(int64_t head_dim, ConfigCount(*config, "head_dim", path));
  TESSERA_ASSIGN_OR_RETURN(int64_t width, FirstCount(*config, "hidden_size", "n_embd", path));
  if (kv_heads == kNone) kv_heads = heads;
  if (head_dim == kNone && width != kNone && heads != kNone) head_dim = width / heads;
  if (layers == kNone || kv_heads == kNone || head_dim == kNone || head_dim < 1) return std::nullopt;
  return AttentionShape{layers, kv_heads, head_dim, path};
}

}  // namespace

absl::StatusOr<std::optional<AttentionShape>> ReadAttentionShape(const checkpoint::Checkpoint& checkpoint) {
  if (checkpoint.format == "gguf") return FromGguf(checkpoint);
  return FromConfigJson(checkpoint);
}

}  // namespace tessera::planning
