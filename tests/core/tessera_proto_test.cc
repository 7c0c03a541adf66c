// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Tessera's protobuf and JSON: exact round trips, the pinned JSON text, and
// every invalid message with its code and the field it names.
#include "core/formats/tessera_proto.h"

#include <string>
#include <vector>

#include "core/distribution.h"
#include "tessera/v1/distribution.pb.h"
#include "tessera/v1/layout.pb.h"
#include "tessera/v1/layout_map.pb.h"
#include "tessera/v1/mesh.pb.h"
#include "tests/core/testing.h"

namespace tessera {
namespace {

using ::testing::HasSubstr;
using testing::CpuMesh;
using testing::IsOk;
using testing::Layout;
using testing::StatusIs;
using testing::Unwrap;

constexpr auto kInvalid = absl::StatusCode::kInvalidArgument;

// A 2x2 mesh "data" x "model" over GPUs 4-7, two processes.
MeshPtr GpuMesh() {
  std::vector<Device> devices;
  for (int64_t i = 0; i < 4; ++i) {
    devices.push_back(Device{4 + i, Platform::kGpu, i / 2, i % 2});
  }
  return Unwrap(DeviceMesh::Create({2, 2}, {"data", "model"}, devices));
}

LayoutMap SampleMap() {
  LayoutMap map(GpuMesh(), KeyMatch::kFullMatch);
  EXPECT_THAT(map.Set("dense.*kernel", Layout({"", "model"})), IsOk());
  EXPECT_THAT(map.Set("bias", Layout({"data+model"})), IsOk());
  // A rule on another mesh keeps it.
  EXPECT_THAT(map.Set("emb", Layout({"x"}, CpuMesh({2}, {"x"}))), IsOk());
  return map;
}

// --- Round trips -----------------------------------------------------------

TEST(TesseraProtoTest, MeshBytesRoundTripExactly) {
  const std::string bytes = Unwrap(MeshToProtoBytes(*GpuMesh()));
  const MeshPtr back = Unwrap(MeshFromProtoBytes(bytes));
  EXPECT_EQ(*back, *GpuMesh());
  EXPECT_EQ(Unwrap(MeshToProtoBytes(*back)), bytes);
}

TEST(TesseraProtoTest, MeshJsonRoundTripsExactly) {
  const std::string json = Unwrap(MeshToJson(*GpuMesh()));
  const MeshPtr back = Unwrap(MeshFromJson(json));
  EXPECT_EQ(*back, *GpuMesh());
  EXPECT_EQ(Unwrap(MeshToJson(*back)), json);
}

TEST(TesseraProtoTest, LayoutWithMeshRoundTripsExactly) {
  const TensorLayout layout = Layout({"data+model", ""}, GpuMesh());
  const std::string bytes = Unwrap(LayoutToProtoBytes(layout));
  EXPECT_EQ(Unwrap(LayoutFromProtoBytes(bytes)), layout);
  EXPECT_EQ(Unwrap(LayoutToProtoBytes(Unwrap(LayoutFromProtoBytes(bytes)))), bytes);
  const std::string json = Unwrap(LayoutToJson(layout));
  EXPECT_EQ(Unwrap(LayoutToJson(Unwrap(LayoutFromJson(json)))), json);
}

TEST(TesseraProtoTest, LayoutWithoutMeshStaysWithoutMesh) {
  const TensorLayout back = Unwrap(LayoutFromJson(Unwrap(LayoutToJson(Layout({"a", ""})))));
  EXPECT_EQ(back.mesh(), nullptr);
  EXPECT_EQ(back, Layout({"a", ""}));
}

TEST(TesseraProtoTest, ScalarLayoutRoundTripsAsEmptyMessage) {
  const TensorLayout scalar = Layout({});
  EXPECT_EQ(Unwrap(LayoutToProtoBytes(scalar)), "");
  EXPECT_EQ(Unwrap(LayoutFromProtoBytes("")), scalar);
}

TEST(TesseraProtoTest, LayoutMapRoundTripsRulesInOrder) {
  const LayoutMap map = SampleMap();
  const std::string bytes = Unwrap(LayoutMapToProtoBytes(map));
  const LayoutMap back = Unwrap(LayoutMapFromProtoBytes(bytes));
  ASSERT_EQ(back.size(), 3u);
  EXPECT_EQ(back.match(), KeyMatch::kFullMatch);
  EXPECT_EQ(*back.mesh(), *GpuMesh());
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(back.key(i), map.key(i));
    EXPECT_EQ(*back.layout(i), *map.layout(i));
  }
  EXPECT_EQ(Unwrap(LayoutMapToProtoBytes(back)), bytes);
  const std::string json = Unwrap(LayoutMapToJson(map));
  EXPECT_EQ(Unwrap(LayoutMapToJson(Unwrap(LayoutMapFromJson(json)))), json);
}

TEST(TesseraProtoTest, LayoutMapRuleOmitsTheMapsMeshOnly) {
  const v1::LayoutMap proto = ToProto(SampleMap());
  EXPECT_FALSE(proto.rules(0).layout().has_mesh());
  EXPECT_FALSE(proto.rules(1).layout().has_mesh());
  EXPECT_TRUE(proto.rules(2).layout().has_mesh());
}

TEST(TesseraProtoTest, LayoutMapRuleRepeatingTheMapsMeshIsWrittenBackWithoutIt) {
  v1::LayoutMap proto = ToProto(SampleMap());
  *proto.mutable_rules(0)->mutable_layout()->mutable_mesh() = proto.mesh();
  const LayoutMap back = Unwrap(FromProto(proto));
  EXPECT_FALSE(ToProto(back).rules(0).layout().has_mesh());
}

TEST(TesseraProtoTest, DataParallelRecordsMeshAndOptions) {
  DistributionOptions options;
  options.auto_shard_dataset = false;
  options.shape_check = ShapeCheck::kChunk;
  options.dataset_mode = DatasetMode::kKeras30;
  const DistributionPtr dp = Unwrap(Distribution::DataParallel(GpuMesh(), options));
  const std::string bytes = Unwrap(DistributionToProtoBytes(*dp));
  const DistributionPtr back = Unwrap(DistributionFromProtoBytes(bytes));
  EXPECT_EQ(back->kind(), DistributionKind::kDataParallel);
  EXPECT_EQ(*back->mesh(), *GpuMesh());
  EXPECT_FALSE(back->options().auto_shard_dataset);
  EXPECT_EQ(back->options().shape_check, ShapeCheck::kChunk);
  EXPECT_EQ(back->options().dataset_mode, DatasetMode::kKeras30);
  EXPECT_EQ(Unwrap(DistributionToProtoBytes(*back)), bytes);
}

TEST(TesseraProtoTest, ModelParallelRecordsMapAndBatchAxis) {
  const DistributionPtr mp = Unwrap(Distribution::ModelParallel(SampleMap(), "model"));
  const std::string json = Unwrap(DistributionToJson(*mp));
  const DistributionPtr back = Unwrap(DistributionFromJson(json));
  EXPECT_EQ(back->kind(), DistributionKind::kModelParallel);
  EXPECT_EQ(back->batch_dim_name(), "model");
  EXPECT_EQ(back->layout_map()->size(), 3u);
  EXPECT_EQ(Unwrap(DistributionToJson(*back)), json);
}

TEST(TesseraProtoTest, ModelParallelWithEmptyBatchAxisIsWrittenBackNamed) {
  v1::Distribution proto = ToProto(*Unwrap(Distribution::ModelParallel(SampleMap())));
  proto.mutable_model_parallel()->clear_batch_dim_name();
  const DistributionPtr back = Unwrap(FromProto(proto));
  EXPECT_EQ(ToProto(*back).model_parallel().batch_dim_name(), "data");
}

TEST(TesseraProtoTest, DistributionProcessComesFromTheRuntime) {
  DistributionOptions options;
  options.process = ProcessInfo{4, 3};
  const DistributionPtr dp = Unwrap(Distribution::DataParallel(GpuMesh(), options));
  const DistributionPtr back = Unwrap(DistributionFromProtoBytes(Unwrap(DistributionToProtoBytes(*dp))));
  EXPECT_EQ(back->num_processes(), 1);
  EXPECT_EQ(back->process_id(), 0);
}

// --- Pinned JSON text --------------------------------------------------------

TEST(TesseraProtoTest, MeshJsonTextIsPinned) {
  const MeshPtr mesh = CpuMesh({2}, {"x"});
  EXPECT_EQ(Unwrap(MeshToJson(*mesh)),
            R"({"shape":["2"],"axisNames":["x"],"devices":[{},{"id":"1","localOrdinal":"1"}]})");
}

TEST(TesseraProtoTest, GpuMeshJsonTextIsPinned) {
  EXPECT_EQ(Unwrap(MeshToJson(*GpuMesh())),
            R"({"shape":["2","2"],"axisNames":["data","model"],"devices":[)"
            R"({"id":"4","platform":"PLATFORM_GPU"},)"
            R"({"id":"5","platform":"PLATFORM_GPU","localOrdinal":"1"},)"
            R"({"id":"6","platform":"PLATFORM_GPU","processIndex":"1"},)"
            R"({"id":"7","platform":"PLATFORM_GPU","processIndex":"1","localOrdinal":"1"}]})");
}

TEST(TesseraProtoTest, LayoutJsonTextIsPinned) {
  EXPECT_EQ(Unwrap(LayoutToJson(Layout({"a+b", ""}))), R"({"dims":[{"axes":["a","b"]},{}]})");
}

TEST(TesseraProtoTest, JsonAcceptsProtoFieldNames) {
  const MeshPtr mesh = Unwrap(MeshFromJson(
      R"({"shape":["1"],"axis_names":["x"],"devices":[{"id":"3","local_ordinal":"3"}]})"));
  EXPECT_EQ(mesh->axis_names(), std::vector<std::string>{"x"});
  EXPECT_EQ(mesh->devices()[0].id, 3);
}

// --- Invalid messages --------------------------------------------------------

TEST(TesseraProtoTest, GarbageBytesAreRejected) {
  EXPECT_THAT(MeshFromProtoBytes("\xff\xff\xff"),
              StatusIs(kInvalid, "Invalid tessera.v1.Mesh bytes: the 3 bytes are not a valid "
                                 "tessera.v1.Mesh message"));
}

TEST(TesseraProtoTest, UnknownFieldIsRejectedWithItsPath) {
  v1::Layout proto = ToProto(Layout({"x"}, CpuMesh({2}, {"x"})));
  proto.mutable_mesh()->mutable_devices(1)->GetReflection()
      ->MutableUnknownFields(proto.mutable_mesh()->mutable_devices(1))->AddVarint(9, 1);
  std::string bytes;
  ASSERT_TRUE(proto.SerializeToString(&bytes));
  EXPECT_THAT(LayoutFromProtoBytes(bytes),
              StatusIs(kInvalid, "Invalid tessera.v1.Layout bytes: field "
                                 "'mesh.devices[1].<field 9>' is unknown to this version; "
                                 "expected only the fields of tessera/v1"));
}

TEST(TesseraProtoTest, InvalidJsonIsRejected) {
  EXPECT_THAT(MeshFromJson("{\"shape\": [2"), StatusIs(kInvalid, HasSubstr("Invalid tessera.v1.Mesh JSON: ")));
}

TEST(TesseraProtoTest, UnknownJsonFieldIsRejected) {
  EXPECT_THAT(MeshFromJson(R"({"shap":["1"]})"),
              StatusIs(kInvalid, ::testing::AllOf(HasSubstr("Invalid tessera.v1.Mesh JSON: "),
                                                  HasSubstr("shap"))));
}

TEST(TesseraProtoTest, DuplicateAxisNamesAreRejected) {
  EXPECT_THAT(MeshFromJson(R"({"shape":["1","1"],"axisNames":["x","x"],"devices":[{}]})"),
              StatusIs(kInvalid, "tessera.v1.Mesh: Argument 'axis_names' ['x', 'x'] names axis "
                                 "'x' twice (entries 0 and 1); expected distinct names"));
}

TEST(TesseraProtoTest, NestedMeshErrorNamesTheField) {
  EXPECT_THAT(LayoutFromJson(R"({"dims":[{}],"mesh":{"shape":["2"],"axisNames":["x"],"devices":[{}]}})"),
              StatusIs(kInvalid, HasSubstr("tessera.v1.Layout field 'mesh': Shape does not match "
                                           "the number of devices.")));
}

TEST(TesseraProtoTest, UnknownAxisInLayoutIsRejected) {
  v1::Layout proto = ToProto(Layout({"x"}, CpuMesh({2}, {"x"})));
  proto.mutable_dims(0)->set_axes(0, "y");
  EXPECT_THAT(FromProto(proto), StatusIs(kInvalid, ::testing::StartsWith(
                                                       "tessera.v1.Layout: Invalid axis names")));
}

TEST(TesseraProtoTest, BadPlatformNumberIsRejected) {
  v1::Mesh proto = ToProto(*CpuMesh({2}, {"x"}));
  proto.mutable_devices(1)->set_platform(static_cast<v1::Platform>(7));
  EXPECT_THAT(FromProto(proto),
              StatusIs(kInvalid, "tessera.v1.Mesh field 'devices[1].platform': value 7 is not a "
                                 "Platform; expected PLATFORM_CPU (0), PLATFORM_GPU (1) or "
                                 "PLATFORM_TPU (2)"));
}

TEST(TesseraProtoTest, NegativeDeviceIdIsRejected) {
  v1::Mesh proto = ToProto(*CpuMesh({2}, {"x"}));
  proto.mutable_devices(0)->set_id(-1);
  EXPECT_THAT(FromProto(proto), StatusIs(kInvalid, "tessera.v1.Mesh field 'devices[0].id': "
                                                   "value -1 is negative; expected >= 0"));
}

TEST(TesseraProtoTest, BadKeyMatchNumberIsRejected) {
  v1::LayoutMap proto = ToProto(SampleMap());
  proto.set_match(static_cast<v1::KeyMatch>(-3));
  EXPECT_THAT(FromProto(proto),
              StatusIs(kInvalid, "tessera.v1.LayoutMap field 'match': value -3 is not a "
                                 "KeyMatch; expected KEY_MATCH_SEARCH (0) or KEY_MATCH_FULL (1)"));
}

TEST(TesseraProtoTest, BadShapeCheckNumberIsRejected) {
  v1::Distribution proto = ToProto(*Unwrap(Distribution::DataParallel(GpuMesh())));
  proto.set_shape_check(static_cast<v1::ShapeCheck>(2));
  EXPECT_THAT(FromProto(proto), StatusIs(kInvalid, HasSubstr("field 'shape_check': value 2 is not a ShapeCheck")));
}

TEST(TesseraProtoTest, BadDatasetModeNumberIsRejected) {
  v1::Distribution proto = ToProto(*Unwrap(Distribution::DataParallel(GpuMesh())));
  proto.set_dataset_mode(static_cast<v1::DatasetMode>(5));
  EXPECT_THAT(FromProto(proto), StatusIs(kInvalid, HasSubstr("field 'dataset_mode': value 5 is not a DatasetMode")));
}

TEST(TesseraProtoTest, InvalidPatternInLayoutMapNamesTheRule) {
  v1::LayoutMap proto = ToProto(SampleMap());
  proto.mutable_rules(1)->set_key("(unclosed");
  EXPECT_THAT(FromProto(proto),
              StatusIs(kInvalid, ::testing::StartsWith("tessera.v1.LayoutMap field 'rules[1]': ")));
}

TEST(TesseraProtoTest, DuplicateKeyInLayoutMapIsAlreadyExists) {
  v1::LayoutMap proto = ToProto(SampleMap());
  proto.mutable_rules(1)->set_key("dense.*kernel");
  EXPECT_THAT(FromProto(proto), StatusIs(absl::StatusCode::kAlreadyExists,
                                         HasSubstr("tessera.v1.LayoutMap field 'rules[1]': ")));
}

TEST(TesseraProtoTest, RuleWithoutLayoutIsRejected) {
  v1::LayoutMap proto = ToProto(SampleMap());
  proto.mutable_rules(2)->clear_layout();
  EXPECT_THAT(FromProto(proto),
              StatusIs(kInvalid, "tessera.v1.LayoutMap field 'rules[2].layout': is missing"));
}

TEST(TesseraProtoTest, DistributionWithoutPolicyIsRejected) {
  EXPECT_THAT(DistributionFromProtoBytes(""),
              StatusIs(kInvalid, "tessera.v1.Distribution field 'policy': is not set; expected "
                                 "data_parallel or model_parallel"));
}

TEST(TesseraProtoTest, DataParallelWithoutMeshIsRejected) {
  EXPECT_THAT(DistributionFromJson(R"({"dataParallel":{}})"),
              StatusIs(kInvalid, "tessera.v1.Distribution field 'data_parallel.mesh': is missing"));
}

TEST(TesseraProtoTest, ModelParallelWithoutMapIsRejected) {
  EXPECT_THAT(DistributionFromJson(R"({"modelParallel":{}})"),
              StatusIs(kInvalid, "tessera.v1.Distribution field 'model_parallel.layout_map': is missing"));
}

TEST(TesseraProtoTest, ModelParallelMapWithoutMeshIsRejected) {
  EXPECT_THAT(DistributionFromJson(R"({"modelParallel":{"layoutMap":{}}})"),
              StatusIs(kInvalid, "tessera.v1.Distribution field 'model_parallel.layout_map.mesh': "
                                 "is missing; ModelParallel needs the map's mesh"));
}

TEST(TesseraProtoTest, ModelParallelUnknownBatchAxisNamesThePolicy) {
  v1::Distribution proto = ToProto(*Unwrap(Distribution::ModelParallel(SampleMap())));
  proto.mutable_model_parallel()->set_batch_dim_name("nope");
  EXPECT_THAT(FromProto(proto),
              StatusIs(kInvalid, HasSubstr("tessera.v1.Distribution field 'model_parallel': ")));
}

TEST(TesseraProtoTest, NonUtf8NameCannotBeWritten) {
  const MeshPtr mesh = CpuMesh({1}, {"\xff"});
  EXPECT_THAT(MeshToProtoBytes(*mesh),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       "Cannot write tessera.v1.Mesh: field 'axis_names[0]' is not valid UTF-8; "
                       "expected UTF-8 text (protobuf strings)"));
  EXPECT_THAT(MeshToJson(*mesh), StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr("axis_names[0]")));
}

}  // namespace
}  // namespace tessera
