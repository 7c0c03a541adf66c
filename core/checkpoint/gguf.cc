// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/checkpoint/gguf.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_format.h"
#include "core/checkpoint/gguf_types.h"

namespace tessera::checkpoint {
namespace {

constexpr uint32_t kMaxDims = 4;          // GGML_MAX_DIMS
constexpr uint32_t kDefaultAlignment = 32;  // GGUF_DEFAULT_ALIGNMENT
constexpr int kMaxArrayDepth = 64;        // keeps the recursion's stack bounded
constexpr uint64_t kShownElements = 16;

enum ValueType : uint32_t {
  kU8 = 0,
  kI8 = 1,
  kU16 = 2,
  kI16 = 3,
  kU32 = 4,
  kI32 = 5,
  kF32 = 6,
  kBool = 7,
  kString = 8,
  kArray = 9,
  kU64 = 10,
  kI64 = 11,
  kF64 = 12,
};

// The fewest bytes a value of `type` occupies: bounds an array's count by the
// bytes left in the file before anything walks it.
uint64_t MinValueBytes(uint32_t type) {
  switch (type) {
    case kU8: case kI8: case kBool: return 1;
    case kU16: case kI16: return 2;
    case kU32: case kI32: case kF32: return 4;
    case kU64: case kI64: case kF64: case kString: return 8;  // a string: its u64 length
    default: return 12;  // an array: element type and count
  }
}

class Parser {
 public:
  Parser(absl::string_view file_name, absl::string_view bytes, uint64_t file_size)
      : file_name_(file_name), bytes_(bytes), file_size_(file_size) {}

  absl::StatusOr<GgufHeader> Parse();

 private:
  absl::Status Error(uint64_t offset, absl::string_view what) const {
    return absl::InvalidArgumentError(absl::StrCat(file_name_, ": byte ", offset, ": ", what));
  }

  // OK when `n` more bytes are there to read; INVALID_ARGUMENT when the file
  // ends first, OUT_OF_RANGE when only the prefix given does.
  absl::Status Need(uint64_t n, absl::string_view what) const {
    if (n > file_size_ - std::min(pos_, file_size_)) {
      return Error(pos_, absl::StrCat("the file ends (at byte ", file_size_, ") inside ", what));
    }
    if (n > bytes_.size() - pos_) {
      return absl::OutOfRangeError(absl::StrCat(file_name_, ": the header continues past the first ",
                                                bytes_.size(), " bytes"));
    }
    return absl::OkStatus();
  }

  template <typename T>
  absl::StatusOr<T> Read(absl::string_view what) {
    if (absl::Status s = Need(sizeof(T), what); !s.ok()) return s;
    T value;
    std::memcpy(&value, bytes_.data() + pos_, sizeof(T));  // GGUF is little-endian, as are our hosts
    pos_ += sizeof(T);
    return value;
  }

  absl::StatusOr<absl::string_view> ReadString(absl::string_view what) {
    const uint64_t at = pos_;
    absl::StatusOr<uint64_t> length = Read<uint64_t>(what);
    if (!length.ok()) return length.status();
    if (*length > file_size_ - pos_) {
      return Error(at, absl::StrCat(what, " has length ", *length, " but only ", file_size_ - pos_,
                                    " bytes of the file follow"));
    }
    if (absl::Status s = Need(*length, what); !s.ok()) return s;
    absl::string_view text = bytes_.substr(pos_, *length);
    pos_ += *length;
    return text;
  }

  absl::Status ReadValue(uint32_t type, uint64_t type_at, int depth, std::string* out);
  absl::Status ReadArray(int depth, std::string* out);

  std::string file_name_;
  absl::string_view bytes_;
  uint64_t file_size_;
  uint64_t pos_ = 0;
};

absl::Status Parser::ReadValue(uint32_t type, uint64_t type_at, int depth, std::string* out) {
  switch (type) {
#define TESSERA_GGUF_INTEGER(kind, T)                         \
  case kind: {                                                 \
    absl::StatusOr<T> v = Read<T>("a " #T " value");          \
    if (!v.ok()) return v.status();                            \
    absl::StrAppend(out, static_cast<int64_t>(*v));            \
    return absl::OkStatus();                                   \
  }
    TESSERA_GGUF_INTEGER(kU8, uint8_t)
    TESSERA_GGUF_INTEGER(kI8, int8_t)
    TESSERA_GGUF_INTEGER(kU16, uint16_t)
    TESSERA_GGUF_INTEGER(kI16, int16_t)
    TESSERA_GGUF_INTEGER(kU32, uint32_t)
    TESSERA_GGUF_INTEGER(kI32, int32_t)
    TESSERA_GGUF_INTEGER(kI64, int64_t)
#undef TESSERA_GGUF_INTEGER
    case kU64: {
      absl::StatusOr<uint64_t> v = Read<uint64_t>("a uint64_t value");
      if (!v.ok()) return v.status();
      absl::StrAppend(out, *v);
      return absl::OkStatus();
    }
    case kF32: {
      absl::StatusOr<float> v = Read<float>("a float value");
      if (!v.ok()) return v.status();
      absl::StrAppend(out, absl::StrFormat("%.9g", *v));
      return absl::OkStatus();
    }
    case kF64: {
      absl::StatusOr<double> v = Read<double>("a double value");
      if (!v.ok()) return v.status();
      absl::StrAppend(out, absl::StrFormat("%.17g", *v));
      return absl::OkStatus();
    }
    case kBool: {
      const uint64_t at = pos_;
      absl::StatusOr<uint8_t> v = Read<uint8_t>("a bool value");
      if (!v.ok()) return v.status();
      if (*v > 1) return Error(at, absl::StrCat("bool value ", *v, " is neither 0 nor 1"));
      absl::StrAppend(out, *v ? "true" : "false");
      return absl::OkStatus();
    }
    case kString: {
      absl::StatusOr<absl::string_view> v = ReadString("a string value");
      if (!v.ok()) return v.status();
      absl::StrAppend(out, *v);
      return absl::OkStatus();
    }
    case kArray:
      return ReadArray(depth + 1, out);
    default:
      return Error(type_at, absl::StrCat("value type ", type, " is not a GGUF type (0 to 12)"));
  }
}

absl::Status Parser::ReadArray(int depth, std::string* out) {
  const uint64_t type_at = pos_;
  if (depth > kMaxArrayDepth) {
    return Error(type_at, absl::StrCat("arrays nest deeper than ", kMaxArrayDepth, " levels"));
  }
  absl::StatusOr<uint32_t> type = Read<uint32_t>("an array's element type");
  if (!type.ok()) return type.status();
  if (*type > kF64) {
    return Error(type_at, absl::StrCat("array element type ", *type, " is not a GGUF type (0 to 12)"));
  }
  const uint64_t count_at = pos_;
  absl::StatusOr<uint64_t> count = Read<uint64_t>("an array's length");
  if (!count.ok()) return count.status();
  if (*count > (file_size_ - pos_) / MinValueBytes(*type)) {
    return Error(count_at, absl::StrCat("array of ", *count, " elements does not fit in the ",
                                        file_size_ - pos_, " bytes of the file that follow"));
  }
  out->push_back('[');
  // Elided elements are still walked (their lengths move the cursor), into a
  // scratch string that is cleared each time so a long array stays cheap.
  std::string scratch;
  for (uint64_t i = 0; i < *count; ++i) {
    if (i < kShownElements) {
      if (i > 0) out->append(", ");
      if (absl::Status s = ReadValue(*type, type_at, depth, out); !s.ok()) return s;
    } else {
      scratch.clear();
      if (absl::Status s = ReadValue(*type, type_at, depth, &scratch); !s.ok()) return s;
    }
  }
  if (*count > kShownElements) absl::StrAppend(out, ", ... (", *count, " elements)");
  out->push_back(']');
  return absl::OkStatus();
}

bool IsPowerOfTwo(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

struct TensorField {
  uint64_t name_at;
  uint64_t offset_at;
};

absl::StatusOr<GgufHeader> Parser::Parse() {
  GgufHeader header;
  Checkpoint& checkpoint = header.checkpoint;
  checkpoint.format = "gguf";
  checkpoint.files.push_back(File{std::string(file_name_), file_size_});

  if (absl::Status s = Need(4, "the magic"); !s.ok()) return s;
  if (bytes_.substr(0, 4) != "GGUF") {
    return Error(0, absl::StrCat("magic is \"", absl::CHexEscape(bytes_.substr(0, 4)),
                                 "\", not \"GGUF\": not a GGUF file"));
  }
  pos_ = 4;
  absl::StatusOr<uint32_t> version = Read<uint32_t>("the version");
  if (!version.ok()) return version.status();
  if (*version == 1) {
    return Error(4, "GGUF version 1 (32-bit counts) is not supported; expected version 2 or 3");
  }
  if (*version != 2 && *version != 3) {
    if ((*version & 0xFFFF) == 0 && (*version >> 16) != 0) {
      return Error(4, absl::StrCat("version reads as ", *version,
                                   ": a big-endian GGUF file, which is not supported"));
    }
    return Error(4, absl::StrCat("GGUF version ", *version, " is not supported; expected version 2 or 3"));
  }
  absl::StatusOr<uint64_t> tensor_count = Read<uint64_t>("the tensor count");
  if (!tensor_count.ok()) return tensor_count.status();
  absl::StatusOr<uint64_t> kv_count = Read<uint64_t>("the key/value count");
  if (!kv_count.ok()) return kv_count.status();
  // A key/value takes at least 13 bytes (key length, type, one byte), a
  // tensor info at least 24 (name length, n_dims, type, offset).
  if (*kv_count > (file_size_ - pos_) / 13) {
    return Error(16, absl::StrCat("key/value count ", *kv_count, " does not fit in the ", file_size_ - pos_,
                                  " bytes of the file that follow"));
  }
  if (*tensor_count > (file_size_ - pos_) / 24) {
    return Error(8, absl::StrCat("tensor count ", *tensor_count, " does not fit in the ", file_size_ - pos_,
                                 " bytes of the file that follow"));
  }

  uint64_t alignment = kDefaultAlignment;
  absl::flat_hash_set<std::string> keys;
  header.metadata_offset = pos_;
  for (uint64_t i = 0; i < *kv_count; ++i) {
    const uint64_t key_at = pos_;
    absl::StatusOr<absl::string_view> key = ReadString("a metadata key");
    if (!key.ok()) return key.status();
    if (!keys.insert(std::string(*key)).second) {
      return Error(key_at, absl::StrCat("metadata key \"", *key, "\" appears twice"));
    }
    const uint64_t type_at = pos_;
    absl::StatusOr<uint32_t> type = Read<uint32_t>("a metadata value type");
    if (!type.ok()) return type.status();
    const uint64_t value_at = pos_;
    MetadataEntry entry{std::string(*key), ""};
    if (absl::Status s = ReadValue(*type, type_at, 0, &entry.value); !s.ok()) return s;
    if (*key == "general.alignment") {
      if (*type != kU32) {
        return Error(type_at, absl::StrCat("general.alignment has value type ", *type, "; expected 4 (uint32)"));
      }
      uint32_t value;
      std::memcpy(&value, bytes_.data() + value_at, sizeof value);
      if (!IsPowerOfTwo(value)) {
        return Error(value_at, absl::StrCat("general.alignment is ", value, "; expected a power of two"));
      }
      alignment = value;
    }
    checkpoint.metadata.push_back(std::move(entry));
    header.value_offsets.push_back(value_at);
  }

  std::vector<TensorField> fields;
  absl::flat_hash_set<std::string> names;
  for (uint64_t i = 0; i < *tensor_count; ++i) {
    Tensor tensor;
    TensorField field;
    field.name_at = pos_;
    absl::StatusOr<absl::string_view> name = ReadString("a tensor name");
    if (!name.ok()) return name.status();
    tensor.name = std::string(*name);
    if (!names.insert(tensor.name).second) {
      return Error(field.name_at, absl::StrCat("tensor name \"", tensor.name, "\" appears twice"));
    }
    const uint64_t dims_at = pos_;
    absl::StatusOr<uint32_t> n_dims = Read<uint32_t>("a tensor's dimension count");
    if (!n_dims.ok()) return n_dims.status();
    if (*n_dims > kMaxDims) {
      return Error(dims_at, absl::StrCat("tensor \"", tensor.name, "\" has ", *n_dims,
                                         " dimensions; GGUF allows at most ", kMaxDims));
    }
    std::vector<int64_t> ne(*n_dims);
    uint64_t elements = 1;
    bool overflow = false;
    for (uint32_t d = 0; d < *n_dims; ++d) {
      const uint64_t ne_at = pos_;
      absl::StatusOr<int64_t> n = Read<int64_t>("a tensor's dimension");
      if (!n.ok()) return n.status();
      if (*n < 0) {
        return Error(ne_at, absl::StrCat("tensor \"", tensor.name, "\" has dimension ", *n, " (ne[", d,
                                         "]); dimensions are not negative"));
      }
      ne[d] = *n;
      if (*n != 0 && elements > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) /
                                    static_cast<uint64_t>(*n)) {
        overflow = true;
      }
      elements *= static_cast<uint64_t>(*n);
    }
    const uint64_t type_at = pos_;
    absl::StatusOr<uint32_t> type_id = Read<uint32_t>("a tensor's type");
    if (!type_id.ok()) return type_id.status();
    field.offset_at = pos_;
    absl::StatusOr<uint64_t> offset = Read<uint64_t>("a tensor's offset");
    if (!offset.ok()) return offset.status();
    if (overflow && std::find(ne.begin(), ne.end(), 0) == ne.end()) {
      return Error(dims_at, absl::StrCat("tensor \"", tensor.name, "\" has more than 2^63 elements"));
    }
    std::optional<ElementType> type = GgmlType(*type_id);
    if (!type) {
      return Error(type_at, absl::StrCat("tensor \"", tensor.name, "\" has type ", *type_id,
                                         ", which is not a ggml type"));
    }
    const int64_t row = ne.empty() ? 1 : ne[0];
    if (row % type->block_elements != 0) {
      return Error(dims_at, absl::StrCat("tensor \"", tensor.name, "\" of type ", type->name, " has ", row,
                                         " elements per row (ne[0]), not a multiple of its block of ",
                                         type->block_elements));
    }
    const uint64_t blocks = elements / static_cast<uint64_t>(type->block_elements);
    if (blocks > std::numeric_limits<uint64_t>::max() / static_cast<uint64_t>(type->block_bytes)) {
      return Error(dims_at, absl::StrCat("tensor \"", tensor.name, "\" has more bytes than 2^64"));
    }
    tensor.size = blocks * static_cast<uint64_t>(type->block_bytes);
    tensor.type = *std::move(type);
    tensor.shape.assign(ne.rbegin(), ne.rend());
    tensor.offset = *offset;  // relative to the data section until it is known
    checkpoint.tensors.push_back(std::move(tensor));
    fields.push_back(field);
    header.tensor_offsets.push_back(field.name_at);
  }

  // The data section starts at the header's end, aligned up.
  const uint64_t header_end = pos_;
  const uint64_t data_start = (header_end + alignment - 1) / alignment * alignment;
  for (size_t i = 0; i < checkpoint.tensors.size(); ++i) {
    Tensor& tensor = checkpoint.tensors[i];
    if (tensor.offset % alignment != 0) {
      return Error(fields[i].offset_at, absl::StrCat("tensor \"", tensor.name, "\" has offset ", tensor.offset,
                                                     ", not a multiple of the alignment ", alignment));
    }
    if (tensor.offset > file_size_ || data_start > file_size_ - tensor.offset ||
        tensor.size > file_size_ - data_start - tensor.offset) {
      return Error(fields[i].offset_at,
                   absl::StrCat("tensor \"", tensor.name, "\" (", tensor.size, " bytes at offset ", tensor.offset,
                                " of the data section starting at byte ", data_start,
                                ") ends past the end of the file (", file_size_, " bytes)"));
    }
    tensor.offset += data_start;
  }
  std::vector<size_t> order(checkpoint.tensors.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const Tensor& x = checkpoint.tensors[a];
    const Tensor& y = checkpoint.tensors[b];
    return std::make_pair(x.offset, x.size) < std::make_pair(y.offset, y.size);
  });
  std::optional<size_t> furthest;  // the tensor ending last among those before
  for (size_t i : order) {
    const Tensor& tensor = checkpoint.tensors[i];
    if (tensor.size == 0) continue;
    if (furthest) {
      const Tensor& before = checkpoint.tensors[*furthest];
      if (before.offset + before.size > tensor.offset) {
        return Error(fields[i].offset_at,
                     absl::StrCat("tensor \"", tensor.name, "\" (bytes ", tensor.offset, " to ",
                                  tensor.offset + tensor.size, ") overlaps tensor \"", before.name, "\" (bytes ",
                                  before.offset, " to ", before.offset + before.size, ")"));
      }
    }
    if (!furthest || tensor.offset + tensor.size >
                         checkpoint.tensors[*furthest].offset + checkpoint.tensors[*furthest].size) {
      furthest = i;
    }
  }
  return header;
}

}  // namespace

absl::StatusOr<GgufHeader> ParseGgufHeaderWithOffsets(absl::string_view file_name, absl::string_view bytes,
                                                      uint64_t file_size) {
  if (bytes.size() > file_size) {
    return absl::InvalidArgumentError(absl::StrCat(file_name, ": ", bytes.size(),
                                                   " bytes given of a file of ", file_size, " bytes"));
  }
  return Parser(file_name, bytes, file_size).Parse();
}

absl::StatusOr<Checkpoint> ParseGgufHeader(absl::string_view file_name, absl::string_view bytes,
                                           uint64_t file_size) {
  absl::StatusOr<GgufHeader> header = ParseGgufHeaderWithOffsets(file_name, bytes, file_size);
  if (!header.ok()) return header.status();
  return std::move(header->checkpoint);
}

absl::StatusOr<Checkpoint> ReadGgufFile(const std::string& path) {
  absl::StatusOr<GgufHeader> header = ReadGgufHeader(path);
  if (!header.ok()) return header.status();
  return std::move(header->checkpoint);
}

absl::StatusOr<GgufHeader> ReadGgufHeader(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const int error = errno;
    return absl::ErrnoToStatus(error, absl::StrCat("cannot open GGUF file ", path));
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    const int error = errno;
    return absl::ErrnoToStatus(error, absl::StrCat("cannot stat GGUF file ", path));
  }
  const uint64_t file_size = static_cast<uint64_t>(st.st_size);
  std::string prefix;
  uint64_t want = std::min(kGgufFirstRead, file_size);
  for (;;) {
    // Bytes already read stay; only the new tail [prefix.size(), want) is read.
    uint64_t have = prefix.size();
    prefix.resize(want);
    while (have < want) {
      const ssize_t n = ::pread(fd, prefix.data() + have, want - have, static_cast<off_t>(have));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        const int error = errno;
        return absl::ErrnoToStatus(error, absl::StrCat("cannot read GGUF file ", path));
      }
      if (n == 0) return absl::DataLossError(absl::StrCat(path, ": the file shrank while it was read"));
      have += static_cast<uint64_t>(n);
    }
    absl::StatusOr<GgufHeader> header = ParseGgufHeaderWithOffsets(path, prefix, file_size);
    if (!absl::IsOutOfRange(header.status()) || want == file_size) return header;
    want = want > file_size / 2 ? file_size : want * 2;
  }
}

}  // namespace tessera::checkpoint
