// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Tessera's own protobuf (proto/tessera/v1, package tessera.v1) and its JSON
// form (protobuf's JSON mapping) for meshes, layouts, layout maps and
// distributions.
//
// ToProto never fails. FromProto rebuilds the object through its normal
// constructor (DeviceMesh::Create, TensorLayout::Create, LayoutMap::Set,
// Distribution::DataParallel/ModelParallel), so every invariant of the core
// holds; it adds the checks only a message needs (enum numbers, missing
// sub-messages, negative device fields). Errors are INVALID_ARGUMENT (or the
// constructor's own code) and name the message and the field, for example
// "tessera.v1.Layout field 'mesh.devices[2].platform': ...".
//
// Round trips are exact: a message Tessera wrote, read back and written
// again, gives the same bytes (and the same JSON text). Tessera writes the
// canonical form of each message: a layout-map rule omits its mesh when it is
// the map's mesh, and a ModelParallel distribution names its batch axis. A
// message in another form that means the same (a rule repeating the map's
// mesh, an empty batch axis name) is accepted and written back canonically.
//
// Bytes and JSON with fields this version does not know are rejected rather
// than silently dropped (dropping them would break the round trip).
//
// A distribution's message records the policy (DataParallel or
// ModelParallel), the mesh or the layout map, the batch axis, auto-shard,
// shape check and dataset mode. The process count and id are NOT part of it:
// a rebuilt distribution reads them from the runtime (RuntimeProcessInfo), as
// a distribution constructed in this process would.
#ifndef TESSERA_CORE_FORMATS_TESSERA_PROTO_H_
#define TESSERA_CORE_FORMATS_TESSERA_PROTO_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/distribution.h"
#include "core/layout.h"
#include "core/layout_map.h"
#include "core/mesh.h"

// The generated messages (tessera/v1/*.pb.h). Declared, not included: the
// generated headers are on the include path of the core and its tests only,
// and callers of the bytes and JSON functions need none of them.
namespace tessera::v1 {
class Distribution;
class Layout;
class LayoutMap;
class Mesh;
}  // namespace tessera::v1

namespace tessera {

// Objects -> messages (callers include the .pb.h of the messages they use).
v1::Mesh ToProto(const DeviceMesh& mesh);
v1::Layout ToProto(const TensorLayout& layout);
v1::LayoutMap ToProto(const LayoutMap& map);
v1::Distribution ToProto(const Distribution& distribution);

// Messages -> objects, validated (see above).
absl::StatusOr<MeshPtr> FromProto(const v1::Mesh& proto);
absl::StatusOr<TensorLayout> FromProto(const v1::Layout& proto);
absl::StatusOr<LayoutMap> FromProto(const v1::LayoutMap& proto);
absl::StatusOr<DistributionPtr> FromProto(const v1::Distribution& proto);

// Serialized bytes (deterministic serialization). FAILED_PRECONDITION
// naming the field when a name or key is not UTF-8 (protobuf strings must be).
absl::StatusOr<std::string> MeshToProtoBytes(const DeviceMesh& mesh);
absl::StatusOr<std::string> LayoutToProtoBytes(const TensorLayout& layout);
absl::StatusOr<std::string> LayoutMapToProtoBytes(const LayoutMap& map);
absl::StatusOr<std::string> DistributionToProtoBytes(const Distribution& distribution);

// INVALID_ARGUMENT for bytes that are not a message of the type or carry
// unknown fields, then every check of FromProto.
absl::StatusOr<MeshPtr> MeshFromProtoBytes(absl::string_view bytes);
absl::StatusOr<TensorLayout> LayoutFromProtoBytes(absl::string_view bytes);
absl::StatusOr<LayoutMap> LayoutMapFromProtoBytes(absl::string_view bytes);
absl::StatusOr<DistributionPtr> DistributionFromProtoBytes(absl::string_view bytes);

// JSON through protobuf's JSON mapping: compact, lowerCamelCase field names,
// enums by name, 64-bit integers as strings, default values omitted; the
// UTF-8 error of the bytes above.
// {"shape":["2"],"axisNames":["x"],"devices":[{},{"id":"1","localOrdinal":"1"}]}
absl::StatusOr<std::string> MeshToJson(const DeviceMesh& mesh);
absl::StatusOr<std::string> LayoutToJson(const TensorLayout& layout);
absl::StatusOr<std::string> LayoutMapToJson(const LayoutMap& map);
absl::StatusOr<std::string> DistributionToJson(const Distribution& distribution);

// INVALID_ARGUMENT for text that is not JSON of the message (the parser's
// reason included; unknown fields are errors), then every check of FromProto.
// Field names may be lowerCamelCase or the .proto names.
absl::StatusOr<MeshPtr> MeshFromJson(absl::string_view json);
absl::StatusOr<TensorLayout> LayoutFromJson(absl::string_view json);
absl::StatusOr<LayoutMap> LayoutMapFromJson(absl::string_view json);
absl::StatusOr<DistributionPtr> DistributionFromJson(absl::string_view json);

}  // namespace tessera

#endif  // TESSERA_CORE_FORMATS_TESSERA_PROTO_H_
