// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/formats/tessera_proto.h"

#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/stubs/common.h>
#include <google/protobuf/util/json_util.h>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "tessera/v1/distribution.pb.h"
#include "tessera/v1/layout.pb.h"
#include "tessera/v1/layout_map.pb.h"
#include "tessera/v1/mesh.pb.h"

namespace tessera {
namespace {

namespace pb = google::protobuf;

// Where in which message a value sits: errors name both, as
// "tessera.v1.LayoutMap field 'rules[1].layout.mesh': ...".
struct FieldPath {
  absl::string_view message;  // the outermost message's full name
  std::string path;           // "" for the message itself

  FieldPath Child(absl::string_view field) const {
    return {message, path.empty() ? std::string(field) : absl::StrCat(path, ".", field)};
  }
  FieldPath Index(size_t i) const { return {message, absl::StrCat(path, "[", i, "]")}; }

  // `cause` with this place in front of its message, keeping its code.
  absl::Status Wrap(const absl::Status& cause) const {
    const std::string where =
        path.empty() ? std::string(message) : absl::StrCat(message, " field '", path, "'");
    return absl::Status(cause.code(), absl::StrCat(where, ": ", cause.message()));
  }
  absl::Status Invalid(absl::string_view detail) const {
    return Wrap(absl::InvalidArgumentError(detail));
  }
};

// The names of an enum's values for an error: "PLATFORM_CPU (0), PLATFORM_GPU (1) or ...".
std::string EnumChoices(const pb::EnumDescriptor& descriptor) {
  std::string out;
  for (int i = 0; i < descriptor.value_count(); ++i) {
    const pb::EnumValueDescriptor& value = *descriptor.value(i);
    if (i > 0) out += i + 1 == descriptor.value_count() ? " or " : ", ";
    absl::StrAppend(&out, value.name(), " (", value.number(), ")");
  }
  return out;
}

// Proto3 enums are open: a number outside the enum parses and must be
// rejected here.
template <typename CoreEnum>
absl::StatusOr<CoreEnum> EnumFromProto(int number, const pb::EnumDescriptor& descriptor,
                                       const FieldPath& field) {
  if (descriptor.FindValueByNumber(number) == nullptr) {
    return field.Invalid(absl::StrCat("value ", number, " is not a ", descriptor.name(),
                                      "; expected ", EnumChoices(descriptor)));
  }
  return static_cast<CoreEnum>(number);  // the core enums share the numbers
}

absl::Status CheckNonNegative(int64_t value, const FieldPath& field) {
  if (value < 0) return field.Invalid(absl::StrCat("value ", value, " is negative; expected >= 0"));
  return absl::OkStatus();
}

absl::StatusOr<Device> DeviceFromProto(const v1::Device& proto, const FieldPath& field) {
  TESSERA_RETURN_IF_ERROR(CheckNonNegative(proto.id(), field.Child("id")));
  TESSERA_RETURN_IF_ERROR(CheckNonNegative(proto.process_index(), field.Child("process_index")));
  TESSERA_RETURN_IF_ERROR(CheckNonNegative(proto.local_ordinal(), field.Child("local_ordinal")));
  Device device;
  device.id = proto.id();
  device.process_index = proto.process_index();
  device.local_ordinal = proto.local_ordinal();
  TESSERA_ASSIGN_OR_RETURN(device.platform,
                           EnumFromProto<Platform>(proto.platform(), *v1::Platform_descriptor(),
                                                   field.Child("platform")));
  return device;
}

absl::StatusOr<MeshPtr> MeshFrom(const v1::Mesh& proto, const FieldPath& field) {
  std::vector<Device> devices;
  devices.reserve(static_cast<size_t>(proto.devices_size()));
  for (int i = 0; i < proto.devices_size(); ++i) {
    TESSERA_ASSIGN_OR_RETURN(
        Device device, DeviceFromProto(proto.devices(i), field.Child("devices").Index(i)));
    devices.push_back(device);
  }
  auto mesh = DeviceMesh::Create({proto.shape().begin(), proto.shape().end()},
                                 {proto.axis_names().begin(), proto.axis_names().end()},
                                 std::move(devices));
  if (!mesh.ok()) return field.Wrap(mesh.status());
  return mesh;
}

// A layout without a mesh when the message has none.
absl::StatusOr<TensorLayout> LayoutFrom(const v1::Layout& proto, const FieldPath& field) {
  std::vector<AxisGroup> axes;
  axes.reserve(static_cast<size_t>(proto.dims_size()));
  for (const v1::AxisGroup& group : proto.dims()) {
    axes.emplace_back(group.axes().begin(), group.axes().end());
  }
  MeshPtr mesh;
  if (proto.has_mesh()) {
    TESSERA_ASSIGN_OR_RETURN(mesh, MeshFrom(proto.mesh(), field.Child("mesh")));
  }
  auto layout = TensorLayout::Create(std::move(axes), std::move(mesh));
  if (!layout.ok()) return field.Wrap(layout.status());
  return layout;
}

absl::StatusOr<LayoutMap> LayoutMapFrom(const v1::LayoutMap& proto, const FieldPath& field) {
  MeshPtr mesh;
  if (proto.has_mesh()) {
    TESSERA_ASSIGN_OR_RETURN(mesh, MeshFrom(proto.mesh(), field.Child("mesh")));
  }
  TESSERA_ASSIGN_OR_RETURN(const KeyMatch match,
                           EnumFromProto<KeyMatch>(proto.match(), *v1::KeyMatch_descriptor(),
                                                   field.Child("match")));
  LayoutMap map(std::move(mesh), match);
  for (int i = 0; i < proto.rules_size(); ++i) {
    const v1::LayoutRule& rule = proto.rules(i);
    const FieldPath rule_field = field.Child("rules").Index(i);
    if (!rule.has_layout()) return rule_field.Child("layout").Invalid("is missing");
    TESSERA_ASSIGN_OR_RETURN(TensorLayout layout,
                             LayoutFrom(rule.layout(), rule_field.Child("layout")));
    // Set gives a meshless layout the map's mesh and checks the key.
    const absl::Status set = map.Set(rule.key(), std::move(layout));
    if (!set.ok()) return rule_field.Wrap(set);
  }
  return map;
}

absl::StatusOr<DistributionOptions> OptionsFrom(const v1::Distribution& proto,
                                                const FieldPath& field) {
  DistributionOptions options;
  options.auto_shard_dataset = proto.auto_shard_dataset();
  TESSERA_ASSIGN_OR_RETURN(options.shape_check,
                           EnumFromProto<ShapeCheck>(proto.shape_check(),
                                                     *v1::ShapeCheck_descriptor(),
                                                     field.Child("shape_check")));
  TESSERA_ASSIGN_OR_RETURN(options.dataset_mode,
                           EnumFromProto<DatasetMode>(proto.dataset_mode(),
                                                      *v1::DatasetMode_descriptor(),
                                                      field.Child("dataset_mode")));
  return options;  // no process: the rebuilt distribution asks the runtime
}

absl::StatusOr<DistributionPtr> DistributionFrom(const v1::Distribution& proto,
                                                 const FieldPath& field) {
  TESSERA_ASSIGN_OR_RETURN(const DistributionOptions options, OptionsFrom(proto, field));
  absl::StatusOr<DistributionPtr> distribution;
  switch (proto.policy_case()) {
    case v1::Distribution::kDataParallel: {
      const FieldPath dp = field.Child("data_parallel");
      if (!proto.data_parallel().has_mesh()) return dp.Child("mesh").Invalid("is missing");
      TESSERA_ASSIGN_OR_RETURN(MeshPtr mesh, MeshFrom(proto.data_parallel().mesh(), dp.Child("mesh")));
      distribution = Distribution::DataParallel(std::move(mesh), options);
      if (!distribution.ok()) return dp.Wrap(distribution.status());
      return distribution;
    }
    case v1::Distribution::kModelParallel: {
      const FieldPath mp = field.Child("model_parallel");
      const v1::ModelParallel& model = proto.model_parallel();
      if (!model.has_layout_map()) return mp.Child("layout_map").Invalid("is missing");
      // The constructor's FAILED_PRECONDITION fits a call, not a message.
      if (!model.layout_map().has_mesh()) {
        return mp.Child("layout_map.mesh").Invalid("is missing; ModelParallel needs the map's mesh");
      }
      TESSERA_ASSIGN_OR_RETURN(const LayoutMap map,
                               LayoutMapFrom(model.layout_map(), mp.Child("layout_map")));
      distribution = Distribution::ModelParallel(map, model.batch_dim_name(), options);
      if (!distribution.ok()) return mp.Wrap(distribution.status());
      return distribution;
    }
    case v1::Distribution::POLICY_NOT_SET:
      break;
  }
  return field.Child("policy").Invalid("is not set; expected data_parallel or model_parallel");
}

// Visits `message` and every message inside it, depth first, with its path
// ("rules[0].layout"); stops at the first non-empty answer of `visit`.
template <typename Visit>
std::optional<std::string> FindInTree(const pb::Message& message, const std::string& path,
                                      const Visit& visit) {
  if (auto found = visit(message, path)) return found;
  const pb::Reflection& reflection = *message.GetReflection();
  std::vector<const pb::FieldDescriptor*> fields;
  reflection.ListFields(message, &fields);
  for (const pb::FieldDescriptor* field : fields) {
    if (field->cpp_type() != pb::FieldDescriptor::CPPTYPE_MESSAGE) continue;
    const std::string name = path.empty() ? field->name() : absl::StrCat(path, ".", field->name());
    if (!field->is_repeated()) {
      if (auto found = FindInTree(reflection.GetMessage(message, field), name, visit)) return found;
      continue;
    }
    for (int i = 0; i < reflection.FieldSize(message, field); ++i) {
      auto found = FindInTree(reflection.GetRepeatedMessage(message, field, i),
                              absl::StrCat(name, "[", i, "]"), visit);
      if (found) return found;
    }
  }
  return std::nullopt;
}

std::string Join(const std::string& path, absl::string_view field) {
  return path.empty() ? std::string(field) : absl::StrCat(path, ".", field);
}

// The first field this version does not know: "rules[0].layout.<field 9>".
std::optional<std::string> FirstUnknownField(const pb::Message& root) {
  return FindInTree(root, "", [](const pb::Message& message, const std::string& path)
                                  -> std::optional<std::string> {
    const pb::UnknownFieldSet& unknown = message.GetReflection()->GetUnknownFields(message);
    if (unknown.field_count() == 0) return std::nullopt;
    return Join(path, absl::StrCat("<field ", unknown.field(0).number(), ">"));
  });
}

// The first string that is not UTF-8 ("axis_names[1]"): protobuf's proto3
// strings must be, or the bytes would not parse back.
std::optional<std::string> FirstNonUtf8String(const pb::Message& root) {
  return FindInTree(root, "", [](const pb::Message& message, const std::string& path)
                                  -> std::optional<std::string> {
    const pb::Reflection& reflection = *message.GetReflection();
    const pb::Descriptor& descriptor = *message.GetDescriptor();
    for (int f = 0; f < descriptor.field_count(); ++f) {
      const pb::FieldDescriptor* field = descriptor.field(f);
      if (field->type() != pb::FieldDescriptor::TYPE_STRING) continue;
      if (!field->is_repeated()) {
        if (!pb::internal::IsStructurallyValidUTF8(reflection.GetString(message, field))) {
          return Join(path, field->name());
        }
        continue;
      }
      for (int i = 0; i < reflection.FieldSize(message, field); ++i) {
        if (!pb::internal::IsStructurallyValidUTF8(
                reflection.GetRepeatedString(message, field, i))) {
          return Join(path, absl::StrCat(field->name(), "[", i, "]"));
        }
      }
    }
    return std::nullopt;
  });
}

template <typename Proto>
absl::StatusOr<Proto> ParseBytes(absl::string_view bytes) {
  Proto proto;
  const std::string& type = Proto::descriptor()->full_name();
  if (bytes.size() > static_cast<size_t>(std::numeric_limits<int>::max()) ||
      !proto.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return absl::InvalidArgumentError(
        absl::StrCat("Invalid ", type, " bytes: the ", bytes.size(),
                     " bytes are not a valid ", type, " message"));
  }
  if (auto unknown = FirstUnknownField(proto)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Invalid ", type, " bytes: field '", *unknown,
        "' is unknown to this version; expected only the fields of tessera/v1"));
  }
  return proto;
}

template <typename Proto>
absl::StatusOr<Proto> ParseJson(absl::string_view json) {
  Proto proto;
  const pb::util::Status parsed = pb::util::JsonStringToMessage(
      pb::StringPiece(json.data(), json.size()), &proto, pb::util::JsonParseOptions());
  if (!parsed.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("Invalid ", Proto::descriptor()->full_name(),
                                                   " JSON: ", std::string(parsed.message())));
  }
  return proto;
}

// FAILED_PRECONDITION naming the first string of the object that protobuf
// cannot carry (strings must be UTF-8).
absl::Status CheckStrings(const pb::Message& message) {
  if (auto bad = FirstNonUtf8String(message)) {
    return absl::FailedPreconditionError(absl::StrCat(
        "Cannot write ", message.GetDescriptor()->full_name(), ": field '", *bad,
        "' is not valid UTF-8; expected UTF-8 text (protobuf strings)"));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> Serialize(const pb::Message& message) {
  TESSERA_RETURN_IF_ERROR(CheckStrings(message));
  std::string bytes;
  {
    pb::io::StringOutputStream stream(&bytes);
    pb::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    message.SerializeToCodedStream(&coded);
  }  // the coded stream flushes into `bytes` when it goes
  return bytes;
}

absl::StatusOr<std::string> Json(const pb::Message& message) {
  TESSERA_RETURN_IF_ERROR(CheckStrings(message));
  std::string json;
  const pb::util::Status printed =
      pb::util::MessageToJsonString(message, &json, pb::util::JsonPrintOptions());
  if (!printed.ok()) {
    return absl::InternalError(absl::StrCat("Cannot write ", message.GetDescriptor()->full_name(),
                                            " JSON: ", std::string(printed.message())));
  }
  return json;
}

FieldPath Top(const pb::Descriptor* descriptor) { return {descriptor->full_name(), ""}; }

}  // namespace

v1::Mesh ToProto(const DeviceMesh& mesh) {
  v1::Mesh proto;
  proto.mutable_shape()->Add(mesh.shape().begin(), mesh.shape().end());
  for (const std::string& name : mesh.axis_names()) proto.add_axis_names(name);
  for (const Device& device : mesh.devices()) {
    v1::Device* d = proto.add_devices();
    d->set_id(device.id);
    d->set_platform(static_cast<v1::Platform>(device.platform));
    d->set_process_index(device.process_index);
    d->set_local_ordinal(device.local_ordinal);
  }
  return proto;
}

v1::Layout ToProto(const TensorLayout& layout) {
  v1::Layout proto;
  for (const AxisGroup& group : layout.axes()) {
    v1::AxisGroup* g = proto.add_dims();
    for (const std::string& axis : group) g->add_axes(axis);
  }
  if (layout.mesh() != nullptr) *proto.mutable_mesh() = ToProto(*layout.mesh());
  return proto;
}

v1::LayoutMap ToProto(const LayoutMap& map) {
  v1::LayoutMap proto;
  if (map.mesh() != nullptr) *proto.mutable_mesh() = ToProto(*map.mesh());
  proto.set_match(static_cast<v1::KeyMatch>(map.match()));
  for (size_t i = 0; i < map.size(); ++i) {
    v1::LayoutRule* rule = proto.add_rules();
    rule->set_key(map.key(i));
    const TensorLayout& layout = *map.layout(i);
    *rule->mutable_layout() = ToProto(layout);
    const bool maps_mesh = map.mesh() != nullptr && layout.mesh() != nullptr &&
                           *layout.mesh() == *map.mesh();
    if (maps_mesh) rule->mutable_layout()->clear_mesh();
  }
  return proto;
}

v1::Distribution ToProto(const Distribution& distribution) {
  v1::Distribution proto;
  if (distribution.kind() == DistributionKind::kDataParallel) {
    *proto.mutable_data_parallel()->mutable_mesh() = ToProto(*distribution.mesh());
  } else {
    v1::ModelParallel* model = proto.mutable_model_parallel();
    *model->mutable_layout_map() = ToProto(*distribution.layout_map());
    model->set_batch_dim_name(distribution.batch_dim_name());
  }
  const DistributionOptions& options = distribution.options();
  proto.set_auto_shard_dataset(options.auto_shard_dataset);
  proto.set_shape_check(static_cast<v1::ShapeCheck>(options.shape_check));
  proto.set_dataset_mode(static_cast<v1::DatasetMode>(options.dataset_mode));
  return proto;
}

absl::StatusOr<MeshPtr> FromProto(const v1::Mesh& proto) {
  return MeshFrom(proto, Top(v1::Mesh::descriptor()));
}
absl::StatusOr<TensorLayout> FromProto(const v1::Layout& proto) {
  return LayoutFrom(proto, Top(v1::Layout::descriptor()));
}
absl::StatusOr<LayoutMap> FromProto(const v1::LayoutMap& proto) {
  return LayoutMapFrom(proto, Top(v1::LayoutMap::descriptor()));
}
absl::StatusOr<DistributionPtr> FromProto(const v1::Distribution& proto) {
  return DistributionFrom(proto, Top(v1::Distribution::descriptor()));
}

absl::StatusOr<std::string> MeshToProtoBytes(const DeviceMesh& mesh) { return Serialize(ToProto(mesh)); }
absl::StatusOr<std::string> LayoutToProtoBytes(const TensorLayout& layout) { return Serialize(ToProto(layout)); }
absl::StatusOr<std::string> LayoutMapToProtoBytes(const LayoutMap& map) { return Serialize(ToProto(map)); }
absl::StatusOr<std::string> DistributionToProtoBytes(const Distribution& distribution) {
  return Serialize(ToProto(distribution));
}

absl::StatusOr<MeshPtr> MeshFromProtoBytes(absl::string_view bytes) {
  TESSERA_ASSIGN_OR_RETURN(const v1::Mesh proto, ParseBytes<v1::Mesh>(bytes));
  return FromProto(proto);
}
absl::StatusOr<TensorLayout> LayoutFromProtoBytes(absl::string_view bytes) {
  TESSERA_ASSIGN_OR_RETURN(const v1::Layout proto, ParseBytes<v1::Layout>(bytes));
  return FromProto(proto);
}
absl::StatusOr<LayoutMap> LayoutMapFromProtoBytes(absl::string_view bytes) {
  TESSERA_ASSIGN_OR_RETURN(const v1::LayoutMap proto, ParseBytes<v1::LayoutMap>(bytes));
  return FromProto(proto);
}
absl::StatusOr<DistributionPtr> DistributionFromProtoBytes(absl::string_view bytes) {
  TESSERA_ASSIGN_OR_RETURN(const v1::Distribution proto, ParseBytes<v1::Distribution>(bytes));
  return FromProto(proto);
}

absl::StatusOr<std::string> MeshToJson(const DeviceMesh& mesh) { return Json(ToProto(mesh)); }
absl::StatusOr<std::string> LayoutToJson(const TensorLayout& layout) { return Json(ToProto(layout)); }
absl::StatusOr<std::string> LayoutMapToJson(const LayoutMap& map) { return Json(ToProto(map)); }
absl::StatusOr<std::string> DistributionToJson(const Distribution& distribution) {
  return Json(ToProto(distribution));
}

absl::StatusOr<MeshPtr> MeshFromJson(absl::string_view json) {
  TESSERA_ASSIGN_OR_RETURN(const v1::Mesh proto, ParseJson<v1::Mesh>(json));
  return FromProto(proto);
}
absl::StatusOr<TensorLayout> LayoutFromJson(absl::string_view json) {
  TESSERA_ASSIGN_OR_RETURN(const v1::Layout proto, ParseJson<v1::Layout>(json));
  return FromProto(proto);
}
absl::StatusOr<LayoutMap> LayoutMapFromJson(absl::string_view json) {
  TESSERA_ASSIGN_OR_RETURN(const v1::LayoutMap proto, ParseJson<v1::LayoutMap>(json));
  return FromProto(proto);
}
absl::StatusOr<DistributionPtr> DistributionFromJson(absl::string_view json) {
  TESSERA_ASSIGN_OR_RETURN(const v1::Distribution proto, ParseJson<v1::Distribution>(json));
  return FromProto(proto);
}

}  // namespace tessera
