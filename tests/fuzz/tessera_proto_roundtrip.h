// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The property both Tessera message targets check, for one message type:
// an accepted message writes bytes and JSON that read back to an object
// writing the very same bytes (the canonical form is a fixed point).
#ifndef TESSERA_TESTS_FUZZ_TESSERA_PROTO_ROUNDTRIP_H_
#define TESSERA_TESTS_FUZZ_TESSERA_PROTO_ROUNDTRIP_H_

#include <string>

#include "core/formats/tessera_proto.h"
#include "tests/fuzz/fuzz_check.h"

namespace tessera::fuzz {

// Reading functions for one message type.
template <typename Object>
struct ProtoFormat {
  absl::StatusOr<Object> (*from_bytes)(absl::string_view);
  absl::StatusOr<Object> (*from_json)(absl::string_view);
};

template <typename Object, typename ToBytes, typename ToJson>
void CheckRoundTrip(const absl::StatusOr<Object>& read, const ProtoFormat<Object>& format,
                    ToBytes to_bytes, ToJson to_json) {
  if (!read.ok()) {
    CheckRejection(read.status());
    return;
  }
  const std::string bytes = MustParse(to_bytes(*read));
  Check(MustParse(to_bytes(MustParse(format.from_bytes(bytes)))) == bytes);
  const std::string json = MustParse(to_json(*read));
  const Object from_json = MustParse(format.from_json(json));
  Check(MustParse(to_json(from_json)) == json);
  Check(MustParse(to_bytes(from_json)) == bytes);
}

// Reads `input` as bytes (`json` false) or JSON of the message type chosen by
// `selector`, and checks the round trip.
inline void FuzzTesseraMessage(uint8_t selector, absl::string_view input, bool json) {
  auto pick = [&](auto format, auto to_bytes, auto to_json) {
    CheckRoundTrip(json ? format.from_json(input) : format.from_bytes(input), format, to_bytes,
                   to_json);
  };
  // Objects behind shared pointers are written through the pointer.
  auto deref = [](auto write) { return [write](const auto& p) { return write(*p); }; };
  auto value = [](auto write) { return [write](const auto& v) { return write(v); }; };
  switch (selector % 4) {
    case 0:
      pick(ProtoFormat<MeshPtr>{MeshFromProtoBytes, MeshFromJson},
           deref(MeshToProtoBytes), deref(MeshToJson));
      break;
    case 1:
      pick(ProtoFormat<TensorLayout>{LayoutFromProtoBytes, LayoutFromJson},
           value(LayoutToProtoBytes), value(LayoutToJson));
      break;
    case 2:
      pick(ProtoFormat<LayoutMap>{LayoutMapFromProtoBytes, LayoutMapFromJson},
           value(LayoutMapToProtoBytes), value(LayoutMapToJson));
      break;
    default:
      pick(ProtoFormat<DistributionPtr>{DistributionFromProtoBytes, DistributionFromJson},
           deref(DistributionToProtoBytes), deref(DistributionToJson));
      break;
  }
}

}  // namespace tessera::fuzz

#endif  // TESSERA_TESTS_FUZZ_TESSERA_PROTO_ROUNDTRIP_H_
