// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/checkpoint/safetensors.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <numeric>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "core/checkpoint/json.h"

namespace tessera::checkpoint {
namespace {

struct Dtype {
  absl::string_view name;
  int bits;
};

// Every dtype of the format, in the crate's order (ascending alignment).
constexpr Dtype kDtypes[] = {
    {"BOOL", 8},         {"F4", 4},           {"F6_E2M3", 6},     {"F6_E3M2", 6},     {"U8", 8},
    {"I8", 8},           {"F8_E5M2", 8},      {"F8_E4M3", 8},     {"F8_E8M0", 8},     {"F8_E4M3FNUZ", 8},
    {"F8_E5M2FNUZ", 8},  {"I16", 16},         {"U16", 16},        {"F16", 16},        {"BF16", 16},
    {"I32", 32},         {"U32", 32},         {"F32", 32},        {"C64", 64},        {"F64", 64},
    {"I64", 64},         {"U64", 64},
};

const Dtype* FindDtype(absl::string_view name) {
  for (const Dtype& dtype : kDtypes) {
    if (dtype.name == name) return &dtype;
  }
  return nullptr;
}

std::string DtypeNames() {
  return absl::StrJoin(kDtypes, ", ", [](std::string* out, const Dtype& d) { absl::StrAppend(out, d.name); });
}

absl::Status FileError(absl::string_view file, uint64_t offset, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat(file, ": byte ", offset, ": ", what));
}

std::string Quoted(absl::string_view name) { return absl::StrCat("`", absl::CHexEscape(name), "`"); }

// A non-negative JSON integer, or the error naming `what` at the value.
absl::StatusOr<uint64_t> NonNegative(absl::string_view file, const json::Value& value, absl::string_view what) {
  if (value.kind == json::Value::Kind::kInteger && value.integer >= 0) return static_cast<uint64_t>(value.integer);
  std::string found = value.kind == json::Value::Kind::kInteger ? absl::StrCat(value.integer)
                                                                 : std::string(value.KindName());
  if (value.kind == json::Value::Kind::kNumber) found = absl::StrCat("a number (", value.number, ")");
  return FileError(file, value.offset, absl::StrCat(what, " is ", found, ", expected a non-negative integer"));
}

struct HeaderTensor {
  Tensor tensor;
  uint64_t key_offset = 0;
  uint64_t offsets_offset = 0;  // of the data_offsets array
  uint64_t begin = 0;
  uint64_t end = 0;
  int bits = 0;
};

absl::StatusOr<HeaderTensor> ParseTensorInfo(absl::string_view file, const json::Member& member) {
  HeaderTensor out;
  out.key_offset = member.key_offset;
  out.tensor.name = member.key;
  const std::string name = Quoted(member.key);
  const json::Value& info = member.value;
  if (info.kind != json::Value::Kind::kObject) {
    return FileError(file, info.offset,
                     absl::StrCat("tensor ", name, " is ", info.KindName(),
                                  ", expected an object with dtype, shape and data_offsets"));
  }
  for (absl::string_view field : {"dtype", "shape", "data_offsets"}) {
    if (info.Find(field) == nullptr) {
      return FileError(file, info.offset, absl::StrCat("tensor ", name, " has no `", field, "`"));
    }
  }
  // Other fields are ignored, as the crate's TensorInfo ignores them.

  const json::Value& dtype = *info.Find("dtype");
  if (dtype.kind != json::Value::Kind::kString) {
    return FileError(file, dtype.offset,
                     absl::StrCat("tensor ", name, " dtype is ", dtype.KindName(), ", expected a string"));
  }
  const Dtype* known = FindDtype(dtype.string);
  if (known == nullptr) {
    return FileError(file, dtype.offset,
                     absl::StrCat("tensor ", name, " has unknown dtype ", Quoted(dtype.string),
                                  ", expected one of ", DtypeNames()));
  }
  out.bits = known->bits;
  out.tensor.type = *SafetensorsElementType(known->name);

  const json::Value& shape = *info.Find("shape");
  if (shape.kind != json::Value::Kind::kArray) {
    return FileError(file, shape.offset,
                     absl::StrCat("tensor ", name, " shape is ", shape.KindName(), ", expected an array"));
  }
  for (size_t i = 0; i < shape.array.size(); ++i) {
    absl::StatusOr<uint64_t> dim =
        NonNegative(file, shape.array[i], absl::StrCat("tensor ", name, " shape[", i, "]"));
    if (!dim.ok()) return dim.status();
    out.tensor.shape.push_back(static_cast<int64_t>(*dim));
  }

  const json::Value& offsets = *info.Find("data_offsets");
  out.offsets_offset = offsets.offset;
  if (offsets.kind != json::Value::Kind::kArray || offsets.array.size() != 2) {
    const std::string found = offsets.kind == json::Value::Kind::kArray
                                  ? absl::StrCat("an array of ", offsets.array.size())
                                  : std::string(offsets.KindName());
    return FileError(file, offsets.offset,
                     absl::StrCat("tensor ", name, " data_offsets is ", found, ", expected [begin, end]"));
  }
  absl::StatusOr<uint64_t> begin = NonNegative(file, offsets.array[0], absl::StrCat("tensor ", name, " begin"));
  if (!begin.ok()) return begin.status();
  absl::StatusOr<uint64_t> end = NonNegative(file, offsets.array[1], absl::StrCat("tensor ", name, " end"));
  if (!end.ok()) return end.status();
  out.begin = *begin;
  out.end = *end;
  return out;
}

std::string ShapeText(const std::vector<int64_t>& shape) { return absl::StrCat("[", absl::StrJoin(shape, ", "), "]"); }

// The crate's validate(): sorted by (begin, end), the tensors tile the data
// area from 0, each exactly the size its dtype and shape give. Returns the
// data area's length.
absl::StatusOr<uint64_t> CheckDataArea(absl::string_view file, const std::vector<HeaderTensor>& tensors) {
  std::vector<size_t> order(tensors.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return std::make_pair(tensors[a].begin, tensors[a].end) < std::make_pair(tensors[b].begin, tensors[b].end);
  });
  uint64_t start = 0;
  for (size_t index : order) {
    const HeaderTensor& t = tensors[index];
    const std::string name = Quoted(t.tensor.name);
    const std::string range = absl::StrCat("data_offsets [", t.begin, ", ", t.end, "]");
    if (t.end < t.begin) {
      return FileError(file, t.offsets_offset,
                       absl::StrCat("invalid offset for tensor ", name, ": ", range, " end before they begin"));
    }
    if (t.begin > start) {
      return FileError(file, t.offsets_offset,
                       absl::StrCat("invalid offset for tensor ", name, ": ", range, " leave bytes [", start, ", ",
                                    t.begin, ") of the data area to no tensor"));
    }
    if (t.begin < start) {
      return FileError(file, t.offsets_offset,
                       absl::StrCat("invalid offset for tensor ", name, ": ", range,
                                    " overlap the tensor before, which ends at ", start));
    }
    start = t.end;
    uint64_t elements = 1;
    for (int64_t dim : t.tensor.shape) {
      if (__builtin_mul_overflow(elements, static_cast<uint64_t>(dim), &elements)) {
        return FileError(file, t.offsets_offset,
                         absl::StrCat("tensor ", name, " shape ", ShapeText(t.tensor.shape),
                                      ": overflow computing buffer size from shape and/or element type"));
      }
    }
    uint64_t bits;
    if (__builtin_mul_overflow(elements, static_cast<uint64_t>(t.bits), &bits)) {
      return FileError(file, t.offsets_offset,
                       absl::StrCat("tensor ", name, " shape ", ShapeText(t.tensor.shape),
                                    ": overflow computing buffer size from shape and/or element type"));
    }
    if (bits % 8 != 0) {
      return FileError(file, t.offsets_offset,
                       absl::StrCat("tensor ", name, ": ", elements, " ", t.tensor.type.name, " elements are ", bits,
                                    " bits, which do not end on a byte boundary"));
    }
    if (t.end - t.begin != bits / 8) {
      return FileError(file, t.offsets_offset,
                       absl::StrCat("invalid shape, data type, or offset for tensor ", name, ": ", t.tensor.type.name,
                                    " ", ShapeText(t.tensor.shape), " is ", bits / 8, " bytes, ", range, " hold ",
                                    t.end - t.begin));
    }
  }
  return start;
}

struct ParsedFile {
  Checkpoint checkpoint;
  std::vector<uint64_t> key_offsets;  // per tensor, of its name in the header
};

absl::StatusOr<ParsedFile> ParseHeader(absl::string_view file, absl::string_view bytes, uint64_t file_size) {
  if (file_size < 8) {
    return FileError(file, 0,
                     absl::StrCat("header too small: the file is ", file_size,
                                  " bytes, shorter than the 8-byte header length"));
  }
  if (bytes.size() < 8) {
    return FileError(file, 0, absl::StrCat("only ", bytes.size(), " bytes given, fewer than the 8-byte header length"));
  }
  uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = (n << 8) | static_cast<unsigned char>(bytes[i]);
  if (n > kSafetensorsMaxHeaderBytes) {
    return FileError(file, 0,
                     absl::StrCat("header too large: the header length is ", n, " bytes, over the limit of ",
                                  kSafetensorsMaxHeaderBytes));
  }
  if (8 + n > file_size) {
    return FileError(file, 0,
                     absl::StrCat("invalid header length: the header length ", n, " runs past the end of the file (",
                                  file_size, " bytes)"));
  }
  if (bytes.size() < 8 + n) {
    return FileError(file, 0, absl::StrCat("only ", bytes.size(), " bytes given, fewer than the 8 + ", n,
                                           " of the length and the header"));
  }
  const absl::string_view header = bytes.substr(8, n);
  if (const size_t bad = json::FirstInvalidUtf8(header); bad != header.size()) {
    return FileError(file, 8 + bad, "invalid UTF-8 in header");
  }
  json::Error error;
  absl::StatusOr<json::Value> root = json::Parse(header, 8, &error);
  if (!root.ok()) return FileError(file, error.offset, absl::StrCat("invalid JSON in header: ", error.what));
  if (root->kind != json::Value::Kind::kObject) {
    return FileError(file, root->offset, absl::StrCat("the header is ", root->KindName(), ", expected an object"));
  }

  ParsedFile out;
  Checkpoint& checkpoint = out.checkpoint;
  checkpoint.format = "safetensors";
  checkpoint.files.push_back(File{std::string(file), file_size});
  std::vector<HeaderTensor> tensors;
  for (const json::Member& member : root->object) {
    if (member.key == "__metadata__") {
      const json::Value& metadata = member.value;
      if (metadata.kind == json::Value::Kind::kNull) continue;  // the crate's Option: absent
      if (metadata.kind != json::Value::Kind::kObject) {
        return FileError(file, metadata.offset,
                         absl::StrCat("__metadata__ is ", metadata.KindName(), ", expected an object of strings"));
      }
      for (const json::Member& entry : metadata.object) {
        if (entry.value.kind != json::Value::Kind::kString) {
          return FileError(file, entry.value.offset,
                           absl::StrCat("__metadata__ value of ", Quoted(entry.key), " is ", entry.value.KindName(),
                                        ", expected a string"));
        }
        checkpoint.metadata.push_back(MetadataEntry{entry.key, entry.value.string});
      }
      continue;
    }
    absl::StatusOr<HeaderTensor> tensor = ParseTensorInfo(file, member);
    if (!tensor.ok()) return tensor.status();
    tensors.push_back(*std::move(tensor));
  }
  absl::StatusOr<uint64_t> data_bytes = CheckDataArea(file, tensors);
  if (!data_bytes.ok()) return data_bytes.status();
  const uint64_t data_start = 8 + n;
  if (data_start + *data_bytes != file_size) {
    return FileError(file, data_start + *data_bytes,
                     absl::StrCat("incomplete metadata, file not fully covered: the tensors' data ends at byte ",
                                  data_start + *data_bytes, " but the file is ", file_size, " bytes"));
  }
  for (HeaderTensor& t : tensors) {
    t.tensor.offset = data_start + t.begin;
    t.tensor.size = t.end - t.begin;
    out.key_offsets.push_back(t.key_offset);
    checkpoint.tensors.push_back(std::move(t.tensor));
  }
  return out;
}

absl::Status IoError(int error, absl::string_view what, absl::string_view path) {
  return absl::ErrnoToStatus(error, absl::StrCat("cannot ", what, " ", path));
}

// Reads bytes [offset, offset + length) of `fd`; fewer only at the end of the file.
absl::StatusOr<std::string> ReadAt(int fd, const std::string& path, uint64_t offset, uint64_t length) {
  std::string out(length, '\0');
  uint64_t done = 0;
  while (done < length) {
    const ssize_t got = pread(fd, out.data() + done, length - done, static_cast<off_t>(offset + done));
    if (got < 0) {
      if (errno == EINTR) continue;
      return IoError(errno, "read", path);
    }
    if (got == 0) break;
    done += static_cast<uint64_t>(got);
  }
  out.resize(done);
  return out;
}

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() {
    if (fd_ >= 0) close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

absl::StatusOr<ParsedFile> ReadFileHeader(const std::string& path) {
  Fd fd(open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) return IoError(errno, "open", path);
  struct stat st;
  if (fstat(fd.get(), &st) != 0) return IoError(errno, "stat", path);
  if (!S_ISREG(st.st_mode)) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": not a regular file"));
  }
  const auto size = static_cast<uint64_t>(st.st_size);
  absl::StatusOr<std::string> bytes = ReadAt(fd.get(), path, 0, 8);
  if (!bytes.ok()) return bytes.status();
  if (bytes->size() == 8) {
    uint64_t n = 0;
    for (int i = 7; i >= 0; --i) n = (n << 8) | static_cast<unsigned char>((*bytes)[i]);
    // Only a length the parser will accept is worth reading; otherwise it
    // reports the length from these 8 bytes.
    if (n <= kSafetensorsMaxHeaderBytes && 8 + n <= size) {
      absl::StatusOr<std::string> header = ReadAt(fd.get(), path, 8, n);
      if (!header.ok()) return header.status();
      bytes->append(*header);
    }
  }
  return ParseHeader(path, *bytes, size);
}

bool EscapesDirectory(absl::string_view name) {
  if (name.empty() || name.front() == '/' || name.find('\0') != absl::string_view::npos) return true;
  for (absl::string_view part : absl::StrSplit(name, '/')) {
    if (part == "..") return true;
  }
  return false;
}

}  // namespace

absl::StatusOr<ElementType> SafetensorsElementType(absl::string_view dtype) {
  const Dtype* known = FindDtype(dtype);
  if (known == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown safetensors dtype ", Quoted(dtype), ", expected one of ", DtypeNames()));
  }
  // The smallest run of elements that fills whole bytes.
  const int64_t elements = 8 / std::gcd(8, known->bits);
  return ElementType{std::string(known->name), elements, elements * known->bits / 8};
}

absl::StatusOr<Checkpoint> ParseSafetensorsHeader(absl::string_view file_name, absl::string_view bytes,
                                                  uint64_t file_size) {
  absl::StatusOr<ParsedFile> parsed = ParseHeader(file_name, bytes, file_size);
  if (!parsed.ok()) return parsed.status();
  return std::move(parsed->checkpoint);
}

absl::StatusOr<Checkpoint> ReadSafetensorsFile(const std::string& path) {
  absl::StatusOr<ParsedFile> parsed = ReadFileHeader(path);
  if (!parsed.ok()) return parsed.status();
  return std::move(parsed->checkpoint);
}

absl::StatusOr<Checkpoint> ReadSafetensorsIndex(const std::string& index_path) {
  std::string text;
  {
    Fd fd(open(index_path.c_str(), O_RDONLY | O_CLOEXEC));
    if (fd.get() < 0) return IoError(errno, "open", index_path);
    struct stat st;
    if (fstat(fd.get(), &st) != 0) return IoError(errno, "stat", index_path);
    // An index lists names, far below the limit on one file's header.
    if (static_cast<uint64_t>(st.st_size) > kSafetensorsMaxHeaderBytes) {
      return FileError(index_path, 0,
                       absl::StrCat("the index is ", st.st_size, " bytes, over the limit of ",
                                    kSafetensorsMaxHeaderBytes));
    }
    absl::StatusOr<std::string> bytes = ReadAt(fd.get(), index_path, 0, static_cast<uint64_t>(st.st_size));
    if (!bytes.ok()) return bytes.status();
    text = *std::move(bytes);
  }
  if (const size_t bad = json::FirstInvalidUtf8(text); bad != text.size()) {
    return FileError(index_path, bad, "invalid UTF-8 in index");
  }
  json::Error error;
  absl::StatusOr<json::Value> root = json::Parse(text, 0, &error);
  if (!root.ok()) return FileError(index_path, error.offset, absl::StrCat("invalid JSON in index: ", error.what));
  if (root->kind != json::Value::Kind::kObject) {
    return FileError(index_path, root->offset, absl::StrCat("the index is ", root->KindName(), ", expected an object"));
  }
  const json::Value* weight_map = root->Find("weight_map");
  if (weight_map == nullptr) return FileError(index_path, root->offset, "the index has no `weight_map`");
  if (weight_map->kind != json::Value::Kind::kObject) {
    return FileError(index_path, weight_map->offset,
                     absl::StrCat("weight_map is ", weight_map->KindName(), ", expected an object"));
  }

  Checkpoint model;
  model.format = "safetensors";
  if (const json::Value* metadata = root->Find("metadata"); metadata != nullptr) {
    if (metadata->kind != json::Value::Kind::kObject) {
      return FileError(index_path, metadata->offset,
                       absl::StrCat("metadata is ", metadata->KindName(), ", expected an object"));
    }
    for (const json::Member& entry : metadata->object) {
      const json::Value& v = entry.value;
      std::string value;
      if (v.kind == json::Value::Kind::kString) {
        value = v.string;
      } else if (v.kind == json::Value::Kind::kInteger) {
        value = absl::StrCat(v.integer);
      } else if (v.kind == json::Value::Kind::kNumber) {
        value = absl::StrCat(v.number);
      } else {
        return FileError(index_path, v.offset,
                         absl::StrCat("metadata value of ", Quoted(entry.key), " is ", v.KindName(),
                                      ", expected a string or a number"));
      }
      model.metadata.push_back(MetadataEntry{entry.key, std::move(value)});
    }
  }

  // file name -> the weight_map entries naming it.
  std::map<std::string, std::vector<const json::Member*>> files;
  absl::flat_hash_map<std::string, const json::Member*> entries;
  for (const json::Member& entry : weight_map->object) {
    if (entry.value.kind != json::Value::Kind::kString) {
      return FileError(index_path, entry.value.offset,
                       absl::StrCat("weight_map value of ", Quoted(entry.key), " is ", entry.value.KindName(),
                                    ", expected a file name"));
    }
    if (EscapesDirectory(entry.value.string)) {
      return FileError(index_path, entry.value.offset,
                       absl::StrCat("weight_map puts tensor ", Quoted(entry.key), " in ", Quoted(entry.value.string),
                                    ", which is not a relative path inside the index's directory"));
    }
    files[entry.value.string].push_back(&entry);
    entries[entry.key] = &entry;
  }

  const size_t slash = index_path.rfind('/');
  const std::string directory = slash == std::string::npos ? "" : index_path.substr(0, slash + 1);
  for (const auto& [name, listed] : files) {
    const std::string path = directory + name;
    absl::StatusOr<ParsedFile> parsed = ReadFileHeader(path);
    if (!parsed.ok()) return parsed.status();
    Checkpoint& shard = parsed->checkpoint;
    absl::flat_hash_map<absl::string_view, size_t> in_file;
    for (size_t i = 0; i < shard.tensors.size(); ++i) {
      const std::string& tensor = shard.tensors[i].name;
      in_file[tensor] = i;
      auto it = entries.find(tensor);
      if (it == entries.end()) {
        return FileError(path, parsed->key_offsets[i],
                         absl::StrCat("tensor ", Quoted(tensor), " is not in the weight_map of ", index_path));
      }
      if (it->second->value.string != name) {
        return FileError(path, parsed->key_offsets[i],
                         absl::StrCat("tensor ", Quoted(tensor), " is in the weight_map of ", index_path, " under ",
                                      Quoted(it->second->value.string), ", not this file"));
      }
    }
    for (const json::Member* entry : listed) {
      if (!in_file.contains(entry->key)) {
        return FileError(index_path, entry->value.offset,
                         absl::StrCat("weight_map puts tensor ", Quoted(entry->key), " in ", Quoted(name),
                                      ", which does not contain it"));
      }
    }
    const size_t file_index = model.files.size();
    model.files.push_back(File{path, shard.files[0].size});
    for (Tensor& tensor : shard.tensors) {
      tensor.file_index = file_index;
      model.tensors.push_back(std::move(tensor));
    }
    for (MetadataEntry& entry : shard.metadata) {
      const bool present = std::any_of(model.metadata.begin(), model.metadata.end(), [&](const MetadataEntry& m) {
        return m.key == entry.key && m.value == entry.value;
      });
      if (!present) model.metadata.push_back(std::move(entry));
    }
  }
  return model;
}

}  // namespace tessera::checkpoint
