// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// DTensor mesh and layout text: parse errors (message, byte offset, token),
// round trips, Create's checks, and the conversions to and from DeviceMesh
// and TensorLayout. The D vectors are in tests/conformance/dtensor_text_test.cc.
#include "core/formats/dtensor_text.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/testing.h"

namespace tessera {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;
using testing::CpuMesh;
using testing::Layout;
using testing::StatusIs;
using testing::Unwrap;

using Type = DTensorLayout::Type;
constexpr absl::StatusCode kInvalid = absl::StatusCode::kInvalidArgument;

const std::string kDev0 = "/job:localhost/task:0/device:CPU:0";
const std::string kDev1 = "/job:localhost/task:0/device:CPU:1";
const std::string kDevs = kDev0 + "," + kDev1;
const std::string kMeshX2 = "|x=2|0,1|0,1|" + kDevs;  // 13 bytes before the devices

absl::Status MeshError(const std::string& text) { return ParseDTensorMesh(text).status(); }
absl::Status LayoutError(const std::string& text) { return DTensorLayout::Parse(text).status(); }

// ---------------------------------------------------------------------------
// Mesh parse errors: every path names the byte offset and the token.

TEST(DTensorMeshParse, NonCanonicalIdNamesOffsetAndToken) {
  EXPECT_THAT(MeshError("|x=2|0,01|0,1|" + kDevs),
              StatusIs(kInvalid, "Invalid entry in global_device_ids; expected a non-negative "
                                 "decimal integer below 2^63 (at byte 7: '01')"));
}

TEST(DTensorMeshParse, NegativeLocalIdIsRejected) {
  EXPECT_THAT(MeshError("|x=2|0,1|0,-1|" + kDevs),
              StatusIs(kInvalid, HasSubstr("local_device_ids; expected a non-negative decimal "
                                           "integer below 2^63 (at byte 11: '-1')")));
}

TEST(DTensorMeshParse, IdAboveInt64IsRejected) {
  EXPECT_THAT(MeshError("|x=1|9223372036854775808|0|" + kDev0),
              StatusIs(kInvalid, HasSubstr("(at byte 5: '9223372036854775808')")));
}

TEST(DTensorMeshParse, EmptyListEntryNamesItsOffset) {
  EXPECT_THAT(MeshError("|x=2|0,,1|0,1|" + kDevs),
              StatusIs(kInvalid, "Empty entry in global_device_ids; expected a comma-separated "
                                 "list (at byte 7: '')"));
}

TEST(DTensorMeshParse, DimensionWithoutEqualsSign) {
  EXPECT_THAT(MeshError("|x|0|0|" + kDev0),
              StatusIs(kInvalid, "Invalid mesh dimension; expected <name>=<size> with a "
                                 "non-negative decimal size (at byte 1: 'x')"));
}

TEST(DTensorMeshParse, DimensionWithoutName) {
  EXPECT_THAT(MeshError("|x=1,=2|0,1|0,1|" + kDevs),
              StatusIs(kInvalid, HasSubstr("(at byte 5: '=2')")));
}

TEST(DTensorMeshParse, DimensionSizeNotANumber) {
  EXPECT_THAT(MeshError("|x=two|0,1|0,1|" + kDevs),
              StatusIs(kInvalid, HasSubstr("(at byte 1: 'x=two')")));
}

TEST(DTensorMeshParse, TooFewPartsPointsAtTheEnd) {
  EXPECT_THAT(MeshError("|x=2|0,1|0,1"),
              StatusIs(kInvalid, "Expected either 5, 6, 7 or 3 mesh parts but found4 "
                                 "(at byte 12: '')"));
}

TEST(DTensorMeshParse, TooManyPartsPointsAtTheFirstExtraPart) {
  EXPECT_THAT(MeshError(kMeshX2 + "|" + kDevs + "|use_xla_spmd|more"),
              StatusIs(kInvalid, StartsWith("Expected either 5, 6, 7 or 3 mesh parts but found8 "
                                            "(at byte " +
                                            std::to_string(kMeshX2.size() + 1 + kDevs.size() +
                                                           13) +
                                            ": '|more')")));
}

TEST(DTensorMeshParse, BadSeventhPartNamesItsOffset) {
  const std::string prefix = kMeshX2 + "|" + kDev0 + "|";
  EXPECT_THAT(MeshError(prefix + "spmd"),
              StatusIs(kInvalid, "Expected string use_xla_spmdas the 7th argument but got: spmd "
                                 "(at byte " + std::to_string(prefix.size()) + ": 'spmd')"));
}

TEST(DTensorMeshParse, ShorthandNeedsStarAndType) {
  EXPECT_THAT(MeshError("|x=2|CPU"),
              StatusIs(kInvalid, "Invalid mesh shorthand; expected '*<device type>' as the third "
                                 "part (at byte 5: 'CPU')"));
  EXPECT_THAT(MeshError("|x=2|*"), StatusIs(kInvalid, HasSubstr("(at byte 5: '*')")));
}

TEST(DTensorMeshParse, ShorthandCannotExpandPastTheLimit) {
  EXPECT_THAT(MeshError("|x=1000,y=1000|*CPU"),
              StatusIs(kInvalid, "Mesh shorthand expands to more than 131072 devices "
                                 "(at byte 1: 'x=1000,y=1000')"));
  EXPECT_THAT(MeshError("|x=9223372036854775807,y=2|*CPU"),
              StatusIs(kInvalid, StartsWith("Mesh shorthand expands to more than")));
}

TEST(DTensorMeshParse, OnePartThatIsNoDeviceIsInvalid) {
  EXPECT_THAT(MeshError("garbage"),
              StatusIs(kInvalid, "Input string is invalid: garbage (at byte 0: 'garbage')"));
  EXPECT_THAT(MeshError(""), StatusIs(kInvalid, "Input string is invalid:  (at byte 0: '')"));
}

TEST(DTensorMeshParse, UnparsableLocalDeviceNamesIt) {
  // No device index after the type.
  EXPECT_THAT(MeshError("|x=1|0|0|/job:localhost/task:0/device:CPU"),
              StatusIs(kInvalid, "Failed to parse local_devices "
                                 "(at byte 9: '/job:localhost/task:0/device:CPU')"));
}

TEST(DTensorMeshParse, DeviceWithoutTaskNamesIt) {
  EXPECT_THAT(MeshError("|x=1|0|0|/job:localhost/device:CPU:0"),
              StatusIs(kInvalid, StartsWith("Failed to either identify host or device type "
                                            "(at byte 9: ")));
}

TEST(DTensorMeshParse, UnparsableGlobalDeviceNamesIt) {
  EXPECT_THAT(MeshError(kMeshX2 + "|" + kDev0 + ",cpu:1"),
              StatusIs(kInvalid, "Failed to parse global_devices (at byte " +
                                     std::to_string(kMeshX2.size() + 1 + kDev0.size() + 1) +
                                     ": 'cpu:1')"));
}

TEST(DTensorMeshParse, SecondDeviceTypeNamesTheFirstDeviceOfIt) {
  EXPECT_THAT(MeshError("|x=2|0,1|0,1|" + kDev0 + ",/job:localhost/task:0/device:GPU:0"),
              StatusIs(kInvalid, HasSubstr("Found 2 (at byte " +
                                           std::to_string(13 + kDev0.size() + 1) + ": ")));
}

TEST(DTensorMeshParse, RepeatedDimensionNamesTheSecond) {
  EXPECT_THAT(MeshError("|x=2,x=1|0,1|0,1|" + kDevs),
              StatusIs(kInvalid, "repeated mesh dimension x (at byte 5: 'x=1')"));
}

TEST(DTensorMeshParse, ReservedDimensionNamesIt) {
  EXPECT_THAT(MeshError("|y=1,match=2|0,1|0,1|" + kDevs),
              StatusIs(kInvalid, "mesh dimension name match is reserved (at byte 5: 'match=2')"));
}

TEST(DTensorMeshParse, CountMismatchPointsAtTheGlobalIds) {
  EXPECT_THAT(MeshError("name|x=2|0,1|0|"),
              StatusIs(kInvalid, HasSubstr("not meeting requirements (at byte 9: '0,1')")));
}

TEST(DTensorMeshParse, UnevenClustersPointAtTheLocalIds) {
  EXPECT_THAT(MeshError("|x=3|0,1,2|0,1|" + kDevs),
              StatusIs(kInvalid, HasSubstr("ids 2 (at byte 11: '0,1')")));
}

TEST(DTensorMeshParse, SizeMismatchPointsAtTheDims) {
  EXPECT_THAT(MeshError("|x=2,y=2|0,1|0,1|" + kDevs),
              StatusIs(kInvalid, "mesh size doesn't match number of devices "
                                 "(at byte 1: 'x=2,y=2')"));
}

TEST(DTensorMeshParse, LocalDeviceNamedTwiceListsEveryOccurrence) {
  EXPECT_THAT(MeshError("|x=2|0,1|0,1|" + kDev0 + "," + kDev0),
              StatusIs(kInvalid, "Duplicate devices found in mesh specification ['" + kDev0 +
                                     "', '" + kDev0 + "']. (at byte " +
                                     std::to_string(13 + kDev0.size() + 1) + ": '" + kDev0 +
                                     "')"));
}

TEST(DTensorMeshParse, RepeatedHostCpuIsADuplicateToo) {
  // DTensor lets one host CPU repeat; Tessera refuses every repeated device.
  EXPECT_THAT(MeshError("|x=3|0,1,2|0,1,2|" + kDev0 + "," + kDev0 + "," + kDev0),
              StatusIs(kInvalid, HasSubstr("Duplicate devices found in mesh specification")));
}

TEST(DTensorMeshParse, DeviceWithAndWithoutReplicaZeroIsOneDevice) {
  EXPECT_THAT(MeshError("|x=2|0,1|0,1|" + kDev0 + ",/job:localhost/replica:0/task:0/device:CPU:0"),
              StatusIs(kInvalid, HasSubstr("Duplicate devices found in mesh specification")));
}

TEST(DTensorMeshParse, GlobalDeviceNamedTwiceIsADuplicate) {
  EXPECT_THAT(MeshError(kMeshX2 + "|" + kDev1 + "," + kDev1),
              StatusIs(kInvalid, HasSubstr("Duplicate devices found in mesh specification")));
}

TEST(DTensorMeshParse, GlobalIdListedTwiceNamesBothEntries) {
  EXPECT_THAT(MeshError("|x=2|0,0|0,0|" + kDevs),
              StatusIs(kInvalid, "Argument 'global_ids' lists device id 0 twice (entries 0 and "
                                 "1); expected each device once (at byte 5: '0,0')"));
}

TEST(DTensorMeshParse, LocalIdListedTwiceIsRejected) {
  EXPECT_THAT(MeshError("|x=2|0,1|1,1|" + kDevs),
              StatusIs(kInvalid, HasSubstr("Argument 'local_ids' lists device id 1 twice")));
}

TEST(DTensorMeshParse, LongTokensAreCutInTheMessage) {
  const std::string name(100, 'n');
  EXPECT_THAT(MeshError("|" + name + "|0|0|" + kDev0),
              StatusIs(kInvalid, HasSubstr("(at byte 1: '" + std::string(64, 'n') + "'...)")));
}

TEST(DTensorMeshParse, ControlCharactersAreEscapedInTheToken) {
  EXPECT_THAT(MeshError("|x=\n|0|0|" + kDev0), StatusIs(kInvalid, HasSubstr("'x=\\n'")));
}

// ---------------------------------------------------------------------------
// Mesh round trips and values.

TEST(DTensorMeshText, RemoteMeshRoundTrips) {
  const DTensorMesh mesh = Unwrap(ParseDTensorMesh("|x=2|0,1||"));
  EXPECT_THAT(mesh.local_ids(), ::testing::IsEmpty());
  EXPECT_EQ(mesh.device_type(), "");
  EXPECT_EQ(mesh.ToString(), "|x=2|0,1||");
}

TEST(DTensorMeshText, GlobalDevicesInTheSixthPartRoundTrip) {
  const std::string text = kMeshX2 + "|" + kDevs;
  const DTensorMesh mesh = Unwrap(ParseDTensorMesh(text));
  EXPECT_THAT(mesh.global_devices(), ElementsAre(kDev0, kDev1));
  EXPECT_FALSE(mesh.use_xla_spmd());
  EXPECT_EQ(mesh.ToString(), text);
}

TEST(DTensorMeshText, EmptySeventhPartIsDroppedWhenPrinted) {
  const std::string text = kMeshX2 + "|" + kDevs;
  EXPECT_EQ(Unwrap(ParseDTensorMesh(text + "|")).ToString(), text);
}

TEST(DTensorMeshText, NameIsKeptVerbatim) {
  const DTensorMesh mesh = Unwrap(ParseDTensorMesh("my mesh,a=b" + kMeshX2));
  EXPECT_EQ(mesh.name(), "my mesh,a=b");
  EXPECT_EQ(mesh.ToString(), "my mesh,a=b" + kMeshX2);
}

TEST(DTensorMeshText, CreatePrintsWhatParseReads) {
  DTensorMesh::Fields f;
  f.name = "m";
  f.dims = {{"a", 2}, {"b", 1}};
  f.global_ids = {4, 5};
  f.local_ids = {5};
  f.local_devices = {"/job:w/replica:1/task:3/device:GPU:0"};
  f.use_xla_spmd = true;
  const DTensorMesh mesh = Unwrap(DTensorMesh::Create(f));
  EXPECT_EQ(mesh.ToString(), "m|a=2,b=1|4,5|5|/job:w/replica:1/task:3/device:GPU:0|use_xla_spmd");
  EXPECT_EQ(Unwrap(ParseDTensorMesh(mesh.ToString())), mesh);
  EXPECT_EQ(mesh.device_type(), "GPU");
}

TEST(DTensorMeshCreate, NameWithBarIsRejected) {
  DTensorMesh::Fields f;
  f.name = "a|b";
  EXPECT_THAT(DTensorMesh::Create(f), StatusIs(kInvalid, HasSubstr("contains '|'")));
}

TEST(DTensorMeshCreate, DimensionNameWithCommaIsRejected) {
  DTensorMesh::Fields f;
  f.dims = {{"a,b", 1}};
  EXPECT_THAT(DTensorMesh::Create(f),
              StatusIs(kInvalid, "Mesh dimension 0 'a,b'=1 is not valid; expected a non-empty "
                                 "name without '|', ',' or '=' and a size >= 0"));
}

TEST(DTensorMeshCreate, NegativeIdIsRejected) {
  DTensorMesh::Fields f;
  f.dims = {{"x", 1}};
  f.global_ids = f.local_ids = {-3};
  f.local_devices = {kDev0};
  EXPECT_THAT(DTensorMesh::Create(f),
              StatusIs(kInvalid, "Mesh device id -3 is negative; expected ids >= 0"));
}

TEST(DTensorMeshCreate, DeviceWithCommaIsRejected) {
  DTensorMesh::Fields f;
  f.dims = {{"x", 1}};
  f.global_ids = f.local_ids = {0};
  f.local_devices = {kDev0 + ",x"};
  EXPECT_THAT(DTensorMesh::Create(f), StatusIs(kInvalid, HasSubstr("contains '|' or ','")));
}

TEST(DTensorMeshCreate, DeviceNamedTwiceIsRejected) {
  DTensorMesh::Fields f;
  f.dims = {{"x", 2}};
  f.global_ids = f.local_ids = {0, 1};
  f.local_devices = {kDev1, kDev1};
  EXPECT_THAT(DTensorMesh::Create(f),
              StatusIs(kInvalid, "Duplicate devices found in mesh specification ['" + kDev1 +
                                     "', '" + kDev1 + "']."));
}

DTensorMesh::Fields PythonFields(std::vector<int64_t> ids, std::vector<std::string> devices) {
  DTensorMesh::Fields f;
  f.dims = {{"x", static_cast<int64_t>(ids.size())}};
  f.global_ids = f.local_ids = std::move(ids);
  f.local_devices = std::move(devices);
  return f;
}

TEST(DTensorMeshCreateAsPython, NonConsecutiveIdsPrintAsNumpyDoes) {
  DTensorMesh::Fields f = PythonFields({10, 1}, {kDev0, kDev1});
  EXPECT_THAT(DTensorMesh::CreateAsPython(f),
              StatusIs(kInvalid, "global_device_ids must sequentially increase: [10  1]"));
}

TEST(DTensorMeshCreateAsPython, TwoDimensionalIdsPrintRowByRow) {
  DTensorMesh::Fields f = PythonFields({1, 0, 2, 3}, {kDev0, kDev1, kDev0, kDev1});
  f.dims = {{"a", 2}, {"b", 2}};
  EXPECT_THAT(DTensorMesh::CreateAsPython(f),
              StatusIs(kInvalid, "global_device_ids must sequentially increase: [[1 0]\n [2 3]]"));
}

TEST(DTensorMeshCreateAsPython, NoDevicesIsPythonsError) {
  EXPECT_THAT(DTensorMesh::CreateAsPython(PythonFields({0}, {})),
              StatusIs(kInvalid, "Empty list of devices not allowed."));
}

TEST(DTensorMeshCreateAsPython, MoreLocalIdsThanDevices) {
  DTensorMesh::Fields f = PythonFields({0, 1}, {kDev0});
  EXPECT_THAT(DTensorMesh::CreateAsPython(f),
              StatusIs(kInvalid,
                       "Variable local_device_ids does not have same size as local_devices."));
}

TEST(DTensorMeshCreateAsPython, DeviceWithoutTypeIsPythonsError) {
  EXPECT_THAT(DTensorMesh::CreateAsPython(PythonFields({0}, {"/job:localhost/task:0"})),
              StatusIs(kInvalid, "device_type is required"));
}

TEST(DTensorMeshCreateAsPython, XlaSpmdOnCpuNamesTheType) {
  DTensorMesh::Fields f = PythonFields({0}, {kDev0});
  f.use_xla_spmd = true;
  EXPECT_THAT(DTensorMesh::CreateAsPython(f),
              StatusIs(kInvalid, "XLA SPMD is not currently not supported for CPU mesh."));
}

TEST(DTensorMeshCoords, WrapAroundTheMesh) {
  const DTensorMesh mesh = Unwrap(ParseDTensorMesh("|a=2,b=4,c=2|*CPU"));
  EXPECT_THAT(mesh.Coords(21), ElementsAre(0, 2, 1));
  EXPECT_THAT(mesh.Coords(-1), ElementsAre(1, 3, 1));
}

// TF 2.21's host_mesh is ToDeviceType("CPU"): DeviceNameUtils::FullName
// prints the replica (0 when unnamed).
TEST(DTensorMeshHostMesh, KeepsTasksAndIndicesAndNamesReplicaZero) {
  const DTensorMesh tpu = Unwrap(ParseDTensorMesh(
      "n|x=2|0,1|0,1|/job:w/task:1/device:TPU:0,/job:w/task:1/device:TPU:1|use_xla_spmd"));
  EXPECT_EQ(Unwrap(tpu.HostMesh()).ToString(),
            "|x=2|0,1|0,1|/job:w/replica:0/task:1/device:CPU:0,/job:w/replica:0/task:1/device:CPU:1");
}

// As TF 2.21 (found by the dtensor differential): a CPU mesh's host mesh
// drops its name and global devices too; it is not the mesh itself.
TEST(DTensorMeshHostMesh, OfANamedCpuMeshDropsTheNameAndGlobalDevices) {
  const DTensorMesh cpu = Unwrap(ParseDTensorMesh(
      "nm|x=2|0,1|0,1|/job:localhost/replica:0/task:0/device:CPU:0,/job:localhost/replica:0/task:0/device:CPU:1"
      "|/job:localhost/replica:0/task:0/device:CPU:0,/job:localhost/replica:0/task:0/device:CPU:1"));
  EXPECT_EQ(Unwrap(cpu.HostMesh()).ToString(),
            "|x=2|0,1|0,1|/job:localhost/replica:0/task:0/device:CPU:0,/job:localhost/replica:0/task:0/device:CPU:1");
}

TEST(DTensorMeshHostMesh, EmptyMeshHasNone) {
  EXPECT_THAT(DTensorMesh().HostMesh(), StatusIs(kInvalid, HasSubstr("empty or single-device")));
}

TEST(DTensorMeshCreate, SingleDeviceWithBarIsRejected) {
  EXPECT_THAT(DTensorMesh::SingleDevice("/job:a/task:0/device:CPU:0|"),
              StatusIs(kInvalid, StartsWith("Input string is invalid: ")));
}

// ---------------------------------------------------------------------------
// Layout parse errors.

TEST(DTensorLayoutParse, OnePartPointsAtTheEnd) {
  EXPECT_THAT(LayoutError("sharding_specs:x,"),
              StatusIs(kInvalid, "Expected 2 items but found 1sharding_specs:x, (at byte 17: '')"));
}

TEST(DTensorLayoutParse, ThirdPartPointsAtTheSecondSpace) {
  EXPECT_THAT(LayoutError("sharding_specs:x, mesh:a b"),
              StatusIs(kInvalid, "Expected 2 items but found 3sharding_specs:x, "
                                 "(at byte 24: ' b')"));
}

TEST(DTensorLayoutParse, UnknownPrefixPointsAtTheStart) {
  EXPECT_THAT(LayoutError("specs:x, mesh:empty_mesh"),
              StatusIs(kInvalid, HasSubstr("in specs:x, mesh:empty_mesh (at byte 0: 'specs:x,')")));
}

TEST(DTensorLayoutParse, MaximalMustSayTrue) {
  EXPECT_THAT(LayoutError("maximal:false, mesh:" + kDev0),
              StatusIs(kInvalid, "Invalid single-device layout; expected 'maximal:true,' "
                                 "(at byte 0: 'maximal:false,')"));
}

TEST(DTensorLayoutParse, MissingTrailingCommaNamesTheSpec) {
  EXPECT_THAT(LayoutError("parted:x,y mesh:" + kMeshX2),
              StatusIs(kInvalid, "Sharding spec is not followed by ','; expected every spec to "
                                 "end with a comma (at byte 9: 'y')"));
}

TEST(DTensorLayoutParse, UnknownSpecNamesItsOffset) {
  EXPECT_THAT(LayoutError("sharding_specs:x,z, mesh:" + kMeshX2),
              StatusIs(kInvalid, "sharding spec (z) refers to mesh dimension not contained in "
                                 "mesh " + kMeshX2 + " (at byte 17: 'z')"));
}

TEST(DTensorLayoutParse, RepeatedSpecNamesTheSecond) {
  EXPECT_THAT(LayoutError("sharding_specs:unsharded,x,x, mesh:" + kMeshX2),
              StatusIs(kInvalid, HasSubstr("dimension x (at byte 27: 'x')")));
}

TEST(DTensorLayoutParse, ScalarAmongOthersNamesIt) {
  EXPECT_THAT(LayoutError("sharding_specs:x,scalar, mesh:" + kMeshX2),
              StatusIs(kInvalid, "A scalar sharding_spec can only be used as a single "
                                 "sharding_spec instruction, not as part of list of "
                                 "sharding_specs as attempted here with 2 sharding_specs "
                                 "(at byte 17: 'scalar')"));
}

TEST(DTensorLayoutParse, MeshErrorsCountFromTheLayoutsStart) {
  // "sharding_specs:x, mesh:" is 23 bytes; the bad id is 7 bytes into the mesh.
  EXPECT_THAT(LayoutError("sharding_specs:x, mesh:|x=2|0,01|0,1|" + kDevs),
              StatusIs(kInvalid, HasSubstr("(at byte 30: '01')")));
}

TEST(DTensorLayoutParse, TypeMismatchPointsAtTheMesh) {
  EXPECT_THAT(LayoutError("maximal:true, mesh:" + kMeshX2),
              StatusIs(kInvalid, HasSubstr("not single device (at byte 19: '|x=2|")));
}

// A text that parses prints to text that parses back to the same value; one
// that does not is INVALID_ARGUMENT. Checked on every prefix of a text that
// uses every field, and on the text with each byte replaced by a separator.
void ExpectParsesStablyOrIsInvalid(const std::string& text) {
  const absl::StatusOr<DTensorLayout> parsed = DTensorLayout::Parse(text);
  if (!parsed.ok()) {
    EXPECT_EQ(parsed.status().code(), kInvalid) << text;
    return;
  }
  EXPECT_EQ(Unwrap(DTensorLayout::Parse(parsed->ToString())), *parsed) << text;
}

const std::string kEveryField =
    "parted:x,unsharded, mesh:pod" + kMeshX2 + "|" + kDevs + "|use_xla_spmd";

TEST(DTensorLayoutParse, EveryPrefixParsesStablyOrIsInvalid) {
  for (size_t n = 0; n <= kEveryField.size(); ++n) {
    ExpectParsesStablyOrIsInvalid(kEveryField.substr(0, n));
  }
}

TEST(DTensorLayoutParse, EverySeparatorSubstitutionParsesStablyOrIsInvalid) {
  for (size_t i = 0; i < kEveryField.size(); ++i) {
    for (char c : std::string("|,: =*/\xff")) {
      std::string text = kEveryField;
      text[i] = c;
      ExpectParsesStablyOrIsInvalid(text);
    }
  }
}

// ---------------------------------------------------------------------------
// Layout values.

TEST(DTensorLayoutText, PartedRoundTrips) {
  const std::string text = "parted:unsharded,x, mesh:" + kMeshX2;
  EXPECT_EQ(Unwrap(DTensorLayout::Parse(text)).ToString(), text);
}

TEST(DTensorLayoutText, EmptyLayoutRoundTrips) {
  const DTensorLayout layout = Unwrap(DTensorLayout::Parse("empty_layout"));
  EXPECT_EQ(layout.type(), Type::kEmpty);
  EXPECT_TRUE(layout.mesh().is_empty());
  EXPECT_EQ(layout.ToString(), "empty_layout");
}

TEST(DTensorLayoutCreate, SingleDeviceLayoutHasNoSpecs) {
  const DTensorMesh mesh = Unwrap(DTensorMesh::SingleDevice(kDev0));
  EXPECT_THAT(DTensorLayout::Create(Type::kSingleDevice, {"unsharded"}, mesh),
              StatusIs(kInvalid, "Argument 'specs' has 1 entries; expected none for an empty or "
                                 "single-device layout"));
}

TEST(DTensorLayoutCreate, MeshWithASpaceCannotBePrinted) {
  const DTensorMesh mesh = Unwrap(ParseDTensorMesh("my mesh" + kMeshX2));
  EXPECT_THAT(DTensorLayout::Create(Type::kStatic, {"x"}, mesh),
              StatusIs(kInvalid, HasSubstr("contains ' '; DTensor's layout text cannot carry it")));
}

// ---------------------------------------------------------------------------
// Conversions.

const std::string kCpu2x4Text =
    "|batch=2,model=4|0,1,2,3,4,5,6,7|0,1,2,3,4,5,6,7|"
    "/job:localhost/replica:0/task:0/device:CPU:0,/job:localhost/replica:0/task:0/device:CPU:1,"
    "/job:localhost/replica:0/task:0/device:CPU:2,/job:localhost/replica:0/task:0/device:CPU:3,"
    "/job:localhost/replica:0/task:0/device:CPU:4,/job:localhost/replica:0/task:0/device:CPU:5,"
    "/job:localhost/replica:0/task:0/device:CPU:6,/job:localhost/replica:0/task:0/device:CPU:7";

TEST(DTensorConversion, OneProcessMeshPrintsAsLocalhost) {
  const MeshPtr mesh = CpuMesh({2, 4}, {"batch", "model"});
  EXPECT_EQ(Unwrap(ToDTensorMesh(*mesh)).ToString(), kCpu2x4Text);
}

TEST(DTensorConversion, OneProcessMeshRoundTrips) {
  const MeshPtr mesh = CpuMesh({2, 4}, {"batch", "model"});
  EXPECT_EQ(*Unwrap(ToDeviceMesh(Unwrap(ToDTensorMesh(*mesh)))), *mesh);
}

// Two processes of 2 TPUs each; devices 10..13 keep their ids.
MeshPtr TwoProcessTpuMesh() {
  std::vector<Device> devices;
  for (int64_t i = 0; i < 4; ++i) devices.push_back(Device{10 + i, Platform::kTpu, i / 2, i % 2});
  return Unwrap(DeviceMesh::Create({4}, {"x"}, devices));
}

TEST(DTensorConversion, SecondProcessSeesItsDevicesAsLocal) {
  DTensorMeshOptions options;
  options.name = "m";
  options.process_index = 1;
  EXPECT_EQ(Unwrap(ToDTensorMesh(*TwoProcessTpuMesh(), options)).ToString(),
            "m|x=4|10,11,12,13|12,13|/job:worker/replica:0/task:1/device:TPU:0,"
            "/job:worker/replica:0/task:1/device:TPU:1");
}

TEST(DTensorConversion, OtherClientsFollowDTensorsEqualBlocks) {
  DTensorMeshOptions options;
  options.process_index = 1;
  const MeshPtr mesh = TwoProcessTpuMesh();
  EXPECT_EQ(*Unwrap(ToDeviceMesh(Unwrap(ToDTensorMesh(*mesh, options)))), *mesh);
}

TEST(DTensorConversion, GlobalDevicesPlaceEveryId) {
  const MeshPtr mesh = Unwrap(ToDeviceMesh(Unwrap(ParseDTensorMesh(
      "|x=2|0,1|0|/job:a/task:0/device:GPU:0|/job:a/task:5/device:GPU:3,"
      "/job:a/task:0/device:GPU:0"))));
  EXPECT_EQ(mesh->devices()[0], (Device{0, Platform::kGpu, 5, 3}));
  EXPECT_EQ(mesh->devices()[1], (Device{1, Platform::kGpu, 0, 0}));
}

TEST(DTensorConversion, ProcessWithoutDevicesGivesARemoteMesh) {
  DTensorMeshOptions options;
  options.process_index = 7;
  EXPECT_EQ(Unwrap(ToDTensorMesh(*CpuMesh({2}, {"x"}), options)).ToString(), "|x=2|0,1||");
}

TEST(DTensorConversion, ReservedAxisNameIsRejected) {
  EXPECT_THAT(ToDTensorMesh(*CpuMesh({2}, {"unsharded"})),
              StatusIs(kInvalid, "mesh dimension name unsharded is reserved"));
}

TEST(DTensorConversion, SingleDeviceMeshHasNoTesseraMesh) {
  EXPECT_THAT(ToDeviceMesh(Unwrap(DTensorMesh::SingleDevice(kDev0))),
              StatusIs(kInvalid, HasSubstr("is an empty or single-device DTensor mesh")));
}

TEST(DTensorConversion, RemoteMeshHasNoDeviceType) {
  EXPECT_THAT(ToDeviceMesh(Unwrap(ParseDTensorMesh("|x=2|0,1||"))),
              StatusIs(kInvalid, HasSubstr("names no devices (a remote mesh)")));
}

TEST(DTensorConversion, UnknownDeviceTypeIsRejected) {
  EXPECT_THAT(ToDeviceMesh(Unwrap(ParseDTensorMesh("|x=1|*XPU"))),
              StatusIs(kInvalid, "Argument 'mesh' has device type 'XPU'; expected CPU, GPU or "
                                 "TPU"));
}

TEST(DTensorConversion, LayoutPrintsUnshardedAndAxes) {
  const TensorLayout layout = Layout({"model", ""}, CpuMesh({2, 4}, {"batch", "model"}));
  EXPECT_EQ(Unwrap(ToDTensorLayout(layout)).ToString(),
            "sharding_specs:model,unsharded, mesh:" + kCpu2x4Text);
}

TEST(DTensorConversion, AxisGroupCannotBePrinted) {
  const TensorLayout layout = Layout({"", "batch+model"}, CpuMesh({2, 4}, {"batch", "model"}));
  EXPECT_THAT(ToDTensorLayout(layout),
              StatusIs(kInvalid, "Argument 'layout' dimension 1 is split over the axis group "
                                 "('batch', 'model'); DTensor allows one mesh axis or unsharded "
                                 "per dimension"));
}

TEST(DTensorConversion, LayoutWithoutMeshCannotBePrinted) {
  EXPECT_THAT(ToDTensorLayout(Layout({"x"})),
              StatusIs(kInvalid, "Argument 'layout' has no mesh; DTensor's layout text needs one"));
}

TEST(DTensorConversion, LayoutOverAGivenDTensorMeshKeepsItsName) {
  const DTensorMesh dmesh = Unwrap(ParseDTensorMesh("named" + kCpu2x4Text));
  const TensorLayout layout = Layout({"batch"}, Unwrap(ToDeviceMesh(dmesh)));
  EXPECT_EQ(Unwrap(ToDTensorLayout(layout, dmesh)).ToString(),
            "sharding_specs:batch, mesh:named" + kCpu2x4Text);
}

TEST(DTensorConversion, LayoutOverADifferentDTensorMeshIsRejected) {
  const TensorLayout layout = Layout({"x"}, CpuMesh({2}, {"x"}));
  const DTensorMesh other = Unwrap(ParseDTensorMesh("|x=2|1,0|1,0|" + kDevs));
  EXPECT_THAT(ToDTensorLayout(layout, other),
              StatusIs(kInvalid, HasSubstr("; expected the layout's mesh")));
}

TEST(DTensorConversion, StaticLayoutBecomesATensorLayout) {
  const TensorLayout layout = Unwrap(
      ToTensorLayout(Unwrap(DTensorLayout::Parse("sharding_specs:unsharded,model, mesh:" +
                                                 kCpu2x4Text))));
  EXPECT_EQ(layout, Layout({"", "model"}, CpuMesh({2, 4}, {"batch", "model"})));
}

TEST(DTensorConversion, PartedLayoutHasNoTesseraLayout) {
  EXPECT_THAT(ToTensorLayout(Unwrap(DTensorLayout::Parse("parted:x, mesh:" + kMeshX2))),
              StatusIs(kInvalid, HasSubstr("is not a static layout")));
}

TEST(DTensorConversion, AnySpecNamesItsDimension) {
  EXPECT_THAT(ToTensorLayout(Unwrap(DTensorLayout::Parse("sharding_specs:x,any, mesh:" + kMeshX2))),
              StatusIs(kInvalid, "Argument 'layout' dimension 1 has sharding spec 'any'; Tessera "
                                 "layouts need a mesh dimension or unsharded"));
}

}  // namespace
}  // namespace tessera
