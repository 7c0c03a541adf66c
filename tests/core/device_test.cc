// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Devices: platform names, the Keras string form, parsing, local discovery
// through TESSERA_CPU_DEVICE_COUNT and an installed job-wide list.
#include "core/device.h"

#include <cstdint>
#include <cstdio>
#include <cstring>

#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/device_discovery.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/testing.h"

namespace tessera {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::SizeIs;
using testing::Cpu;
using testing::kCpuDeviceCountEnv;
using testing::ScopedCpuDevices;
using testing::ScopedEnv;
using testing::StatusIs;
using testing::Unwrap;

Device MakeDevice(int64_t id, Platform platform, int64_t process, int64_t ordinal) {
  Device device;
  device.id = id;
  device.platform = platform;
  device.process_index = process;
  device.local_ordinal = ordinal;
  return device;
}

// Restores local discovery after tests that install a global list.
class GlobalDevicesTest : public ::testing::Test {
 protected:
  void TearDown() override { SetGlobalDevices(std::nullopt); }
};

TEST(PlatformNameTest, NamesEachPlatformInLowerCase) {
  EXPECT_EQ(PlatformName(Platform::kCpu), "cpu");
  EXPECT_EQ(PlatformName(Platform::kGpu), "gpu");
  EXPECT_EQ(PlatformName(Platform::kTpu), "tpu");
}

TEST(ParsePlatformTest, AcceptsEachPlatformName) {
  EXPECT_EQ(Unwrap(ParsePlatform("cpu")), Platform::kCpu);
  EXPECT_EQ(Unwrap(ParsePlatform("gpu")), Platform::kGpu);
  EXPECT_EQ(Unwrap(ParsePlatform("tpu")), Platform::kTpu);
}

TEST(ParsePlatformTest, IgnoresCase) {
  EXPECT_EQ(Unwrap(ParsePlatform("GPU")), Platform::kGpu);
  EXPECT_EQ(Unwrap(ParsePlatform("Tpu")), Platform::kTpu);
}

TEST(ParsePlatformTest, AcceptsCudaAsGpu) {
  EXPECT_EQ(Unwrap(ParsePlatform("cuda")), Platform::kGpu);
  EXPECT_EQ(Unwrap(ParsePlatform("CUDA")), Platform::kGpu);
}

TEST(ParsePlatformTest, RejectsAnUnknownNameNamingIt) {
  EXPECT_THAT(ParsePlatform("npu"), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("npu")));
}

TEST(ParsePlatformTest, RejectsAnEmptyName) {
  EXPECT_THAT(ParsePlatform(""), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("Device type ''")));
}

TEST(DeviceTest, ToStringIsPlatformColonGlobalId) {
  EXPECT_EQ(MakeDevice(3, Platform::kGpu, 1, 0).ToString(), "gpu:3");
  EXPECT_EQ(MakeDevice(0, Platform::kCpu, 0, 0).ToString(), "cpu:0");
  EXPECT_EQ(MakeDevice(12, Platform::kTpu, 2, 4).ToString(), "tpu:12");
}

TEST(DeviceTest, EqualityComparesEveryField) {
  const Device base = MakeDevice(3, Platform::kGpu, 1, 2);
  EXPECT_EQ(base, MakeDevice(3, Platform::kGpu, 1, 2));
  EXPECT_NE(base, MakeDevice(4, Platform::kGpu, 1, 2));
  EXPECT_NE(base, MakeDevice(3, Platform::kCpu, 1, 2));
  EXPECT_NE(base, MakeDevice(3, Platform::kGpu, 0, 2));
  EXPECT_NE(base, MakeDevice(3, Platform::kGpu, 1, 0));
  Device placed = MakeDevice(3, Platform::kTpu, 1, 2);
  placed.coords = ChipCoords{1, 2, 3};
  Device moved = placed;
  moved.coords = ChipCoords{1, 2, 0};
  EXPECT_NE(placed, moved);
  moved.coords.reset();
  EXPECT_NE(placed, moved);
  moved = placed;
  moved.core_on_chip = 1;
  EXPECT_NE(placed, moved);
}

TEST(ParseDeviceTest, ResolvesAListedDevice) {
  ScopedCpuDevices cpus(8);
  EXPECT_EQ(Unwrap(ParseDevice("cpu:3")), Cpu(3));
}

TEST(ParseDeviceTest, PlatformWithoutIdMeansIdZero) {
  ScopedCpuDevices cpus(8);
  EXPECT_EQ(Unwrap(ParseDevice("cpu")), Cpu(0));
}

// Tessera plans over simulated devices: an unlisted id is not an error (Keras's
// JAX backend says "Device not found"), it belongs to process 0.
TEST(ParseDeviceTest, UnlistedDeviceBelongsToProcessZeroWithOrdinalEqualToId) {
  ScopedCpuDevices cpus(1);
  EXPECT_EQ(Unwrap(ParseDevice("cpu:99")), Cpu(99));
  EXPECT_EQ(Unwrap(ParseDevice("gpu:5")), MakeDevice(5, Platform::kGpu, 0, 5));
}

TEST(ParseDeviceTest, RejectsANegativeId) {
  EXPECT_THAT(ParseDevice("cpu:-1"), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("cpu:-1")));
}

TEST(ParseDeviceTest, RejectsANonNumericId) {
  EXPECT_THAT(ParseDevice("cpu:abc"), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("cpu:abc")));
  EXPECT_THAT(ParseDevice("cpu:1x"), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("cpu:1x")));
}

TEST(ParseDeviceTest, RejectsAnEmptyId) {
  EXPECT_THAT(ParseDevice("cpu:"), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("cpu:")));
}

TEST(ParseDeviceTest, RejectsAnIdBeyondInt64) {
  EXPECT_THAT(ParseDevice("cpu:99999999999999999999"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("99999999999999999999")));
}

TEST(ParseDeviceTest, RejectsMoreThanOneColon) {
  EXPECT_THAT(ParseDevice("cpu:1:2"), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("cpu:1:2")));
}

TEST(ParseDeviceTest, RejectsAnUnknownPlatform) {
  EXPECT_THAT(ParseDevice("npu:0"), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("npu")));
}

TEST(ParseDeviceTest, RejectsAnEmptyString) {
  EXPECT_THAT(ParseDevice(""), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("Device ''")));
}

TEST(ParseDevicesTest, ParsesEveryEntryInOrder) {
  ScopedCpuDevices cpus(8);
  const std::vector<std::string> names = {"cpu:2", "cpu:0", "cpu:7"};
  EXPECT_THAT(Unwrap(ParseDevices(names)), ElementsAre(Cpu(2), Cpu(0), Cpu(7)));
}

TEST(ParseDevicesTest, ErrorNamesTheArgumentAndTheEntryIndex) {
  const std::vector<std::string> names = {"cpu:0", "cpu:1", "cpu:x"};
  EXPECT_THAT(ParseDevices(names),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("'devices' entry 2")));
}

TEST(AssignProcessesTest, OrdinalsCountWithinEachProcessAndPlatform) {
  const std::vector<Device> devices = {MakeDevice(0, Platform::kGpu, 0, 0), MakeDevice(1, Platform::kGpu, 0, 1),
                                       MakeDevice(2, Platform::kGpu, 0, 2), MakeDevice(3, Platform::kCpu, 0, 3)};
  EXPECT_THAT(Unwrap(AssignProcesses(devices, {1, 0, 1, 1})),
              ElementsAre(MakeDevice(0, Platform::kGpu, 1, 0), MakeDevice(1, Platform::kGpu, 0, 0),
                          MakeDevice(2, Platform::kGpu, 1, 1), MakeDevice(3, Platform::kCpu, 1, 0)));
}

TEST(AssignProcessesTest, NeedsOneProcessPerDevice) {
  const std::vector<Device> devices = {MakeDevice(0, Platform::kGpu, 0, 0), MakeDevice(1, Platform::kGpu, 0, 1)};
  EXPECT_THAT(AssignProcesses(devices, {0}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "1 process indices for 2 devices; expected one per device"));
}

TEST(AssignProcessesTest, RefusesANegativeProcessNamingTheEntry) {
  const std::vector<Device> devices = {MakeDevice(0, Platform::kGpu, 0, 0), MakeDevice(1, Platform::kGpu, 0, 1)};
  EXPECT_THAT(AssignProcesses(devices, {0, -1}),
              StatusIs(absl::StatusCode::kInvalidArgument, "process index -1 (entry 1); expected at least 0"));
}

TEST(ListDevicesTest, WithoutTheVariableListsOneCpuDevice) {
  ScopedEnv env(kCpuDeviceCountEnv, std::nullopt);
  SetGlobalDevices(std::nullopt);
  EXPECT_THAT(Unwrap(ListDevices()), ElementsAre(Cpu(0)));
}

TEST(ListDevicesTest, VariableSetsTheCpuDeviceCount) {
  ScopedCpuDevices cpus(4);
  EXPECT_THAT(Unwrap(ListDevices()), ElementsAre(Cpu(0), Cpu(1), Cpu(2), Cpu(3)));
}

TEST(ListDevicesTest, VariableIsReadOnEachCall) {
  {
    ScopedCpuDevices cpus(2);
    EXPECT_THAT(Unwrap(ListDevices()), SizeIs(2));
  }
  ScopedCpuDevices cpus(5);
  EXPECT_THAT(Unwrap(ListDevices()), SizeIs(5));
}

TEST(ListDevicesTest, CpuTypeListsTheCpuDevices) {
  ScopedCpuDevices cpus(3);
  EXPECT_THAT(Unwrap(ListDevices("cpu")), ElementsAre(Cpu(0), Cpu(1), Cpu(2)));
}

TEST(ListDevicesTest, TypeIgnoresCase) {
  ScopedCpuDevices cpus(3);
  EXPECT_THAT(Unwrap(ListDevices("CPU")), SizeIs(3));
}

TEST(ListDevicesTest, KnownPlatformWithoutDevicesYieldsAnEmptyList) {
  ScopedCpuDevices cpus(3);
  EXPECT_THAT(Unwrap(ListDevices("gpu")), IsEmpty());
  EXPECT_THAT(Unwrap(ListDevices("tpu")), IsEmpty());
}

TEST(ListDevicesTest, RejectsAnUnknownType) {
  EXPECT_THAT(ListDevices("npu"), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("npu")));
}

TEST(ListDevicesTest, RejectsANonNumericCount) {
  ScopedEnv env(kCpuDeviceCountEnv, "abc");
  SetGlobalDevices(std::nullopt);
  EXPECT_THAT(ListDevices(), StatusIs(absl::StatusCode::kInvalidArgument,
                                      ::testing::AllOf(HasSubstr(kCpuDeviceCountEnv), HasSubstr("abc"))));
}

TEST(ListDevicesTest, RejectsANegativeCount) {
  ScopedEnv env(kCpuDeviceCountEnv, "-3");
  SetGlobalDevices(std::nullopt);
  EXPECT_THAT(ListDevices(), StatusIs(absl::StatusCode::kInvalidArgument,
                                      ::testing::AllOf(HasSubstr(kCpuDeviceCountEnv), HasSubstr("-3"))));
}

TEST(ListDevicesTest, RejectsAZeroCount) {
  ScopedEnv env(kCpuDeviceCountEnv, "0");
  SetGlobalDevices(std::nullopt);
  EXPECT_THAT(ListDevices(), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(kCpuDeviceCountEnv)));
}

TEST(ListDevicesTest, AcceptsTheLargestCount) {
  ScopedCpuDevices cpus(kMaxCpuDeviceCount);
  EXPECT_EQ(Unwrap(GetDeviceCount("cpu")), kMaxCpuDeviceCount);
}

TEST(ListDevicesTest, RejectsACountAboveTheLargest) {
  ScopedCpuDevices cpus(kMaxCpuDeviceCount + 1);
  EXPECT_THAT(ListDevices(), StatusIs(absl::StatusCode::kInvalidArgument,
                                      HasSubstr(std::to_string(kMaxCpuDeviceCount + 1))));
}

TEST(GetDeviceCountTest, CountsTheListedDevices) {
  ScopedCpuDevices cpus(8);
  EXPECT_EQ(Unwrap(GetDeviceCount()), 8);
  EXPECT_EQ(Unwrap(GetDeviceCount("cpu")), 8);
  EXPECT_EQ(Unwrap(GetDeviceCount("gpu")), 0);
}

TEST(GetDeviceCountTest, RejectsAnUnknownType) {
  EXPECT_THAT(GetDeviceCount("npu"), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("npu")));
}

TEST_F(GlobalDevicesTest, InstalledListReplacesLocalDiscovery) {
  ScopedCpuDevices cpus(8);
  SetGlobalDevices(std::vector<Device>{MakeDevice(0, Platform::kCpu, 0, 0),
                                       MakeDevice(1, Platform::kCpu, 1, 0)});
  EXPECT_THAT(Unwrap(ListDevices()), ElementsAre(MakeDevice(0, Platform::kCpu, 0, 0),
                                                 MakeDevice(1, Platform::kCpu, 1, 0)));
}

TEST_F(GlobalDevicesTest, DefaultTypePrefersAccelerators) {
  SetGlobalDevices(std::vector<Device>{MakeDevice(0, Platform::kCpu, 0, 0),
                                       MakeDevice(0, Platform::kGpu, 0, 0),
                                       MakeDevice(1, Platform::kGpu, 0, 1)});
  EXPECT_THAT(Unwrap(ListDevices()), ElementsAre(MakeDevice(0, Platform::kGpu, 0, 0),
                                                 MakeDevice(1, Platform::kGpu, 0, 1)));
  EXPECT_THAT(Unwrap(ListDevices("cpu")), ElementsAre(MakeDevice(0, Platform::kCpu, 0, 0)));
}

TEST_F(GlobalDevicesTest, CountNeverSumsPlatforms) {
  SetGlobalDevices(std::vector<Device>{MakeDevice(0, Platform::kCpu, 0, 0),
                                       MakeDevice(0, Platform::kGpu, 0, 0),
                                       MakeDevice(1, Platform::kGpu, 0, 1)});
  EXPECT_EQ(Unwrap(GetDeviceCount()), 2);
  EXPECT_EQ(Unwrap(GetDeviceCount("cpu")), 1);
}

TEST_F(GlobalDevicesTest, ParseDeviceTakesProcessAndOrdinalFromTheInstalledList) {
  SetGlobalDevices(std::vector<Device>{MakeDevice(0, Platform::kGpu, 0, 0),
                                       MakeDevice(1, Platform::kGpu, 0, 1),
                                       MakeDevice(2, Platform::kGpu, 1, 0),
                                       MakeDevice(3, Platform::kGpu, 1, 1)});
  EXPECT_EQ(Unwrap(ParseDevice("gpu:3")), MakeDevice(3, Platform::kGpu, 1, 1));
}

TEST_F(GlobalDevicesTest, NulloptReturnsToLocalDiscovery) {
  ScopedCpuDevices cpus(2);
  SetGlobalDevices(std::vector<Device>{MakeDevice(0, Platform::kGpu, 0, 0)});
  SetGlobalDevices(std::nullopt);
  EXPECT_THAT(Unwrap(ListDevices()), ElementsAre(Cpu(0), Cpu(1)));
}

// ---------------------------------------------------------------------------
// Local discovery providers (core/device_discovery.h).

LocalDeviceInfo Info(Platform platform, int64_t ordinal, std::string kind,
                     std::string physical_id = "", int64_t memory = 0, std::string pci = "") {
  return LocalDeviceInfo{platform, ordinal, std::move(kind), std::move(physical_id), memory,
                         std::move(pci), std::nullopt, 0};
}

TEST(ParseDeviceListSpecTest, EmptySpecIsAnEmptyList) {
  EXPECT_THAT(Unwrap(ParseDeviceListSpec("")), IsEmpty());
}

TEST(ParseDeviceListSpecTest, CountShorthandGivesConsecutiveOrdinals) {
  EXPECT_THAT(Unwrap(ParseDeviceListSpec("gpu*3")),
              ElementsAre(Info(Platform::kGpu, 0, "gpu"), Info(Platform::kGpu, 1, "gpu"),
                          Info(Platform::kGpu, 2, "gpu")));
}

TEST(ParseDeviceListSpecTest, ReadsKindPhysicalIdAndMemory) {
  EXPECT_THAT(Unwrap(ParseDeviceListSpec("gpu:NVIDIA H100 80GB HBM3:GPU-abc:85520809984")),
              ElementsAre(Info(Platform::kGpu, 0, "NVIDIA H100 80GB HBM3", "GPU-abc",
                               85520809984)));
}

TEST(ParseDeviceListSpecTest, OrdinalsCountPerPlatform) {
  EXPECT_THAT(Unwrap(ParseDeviceListSpec("gpu,cpu,CUDA,tpu")),
              ElementsAre(Info(Platform::kGpu, 0, "gpu"), Info(Platform::kCpu, 0, "cpu"),
                          Info(Platform::kGpu, 1, "gpu"), Info(Platform::kTpu, 0, "tpu")));
}

TEST(ParseDeviceListSpecTest, RejectsAnUnknownPlatformNamingTheEntry) {
  EXPECT_THAT(ParseDeviceListSpec("gpu,xpu*2"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Environment variable TESSERA_DEVICES entry 1 'xpu*2': platform 'xpu' is "
                       "unknown; expected cpu, gpu (or cuda) or tpu"));
}

TEST(ParseDeviceListSpecTest, RejectsABadCount) {
  EXPECT_THAT(ParseDeviceListSpec("gpu*0"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Environment variable TESSERA_DEVICES entry 0 'gpu*0': count '0' is not a "
                       "device count; expected '*' and an integer from 1 to 1048576"));
  EXPECT_THAT(ParseDeviceListSpec("gpu*"), StatusIs(absl::StatusCode::kInvalidArgument,
                                                    HasSubstr("count '' is not a device count")));
}

TEST(ParseDeviceListSpecTest, RejectsAPhysicalIdOnSeveralDevices) {
  EXPECT_THAT(ParseDeviceListSpec("gpu*2:A100:GPU-1"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Environment variable TESSERA_DEVICES entry 0 'gpu*2:A100:GPU-1': a "
                       "physical id names one device, but the count is 2"));
}

TEST(ParseDeviceListSpecTest, RejectsANonNumericMemory) {
  EXPECT_THAT(ParseDeviceListSpec("gpu:A100:GPU-1:80GB"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Environment variable TESSERA_DEVICES entry 0 'gpu:A100:GPU-1:80GB': "
                       "memory '80GB' is not a size; expected decimal bytes below 2^63"));
}

TEST(ParseDeviceListSpecTest, RejectsTooManyFields) {
  EXPECT_THAT(ParseDeviceListSpec("gpu:a:b:1:extra"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("entry 0 'gpu:a:b:1:extra': too many ':'")));
}

// Where each device of `spec` sits: "x.y.z/core", or "-" without coordinates.
std::vector<std::string> Places(const std::string& spec) {
  std::vector<std::string> out;
  for (const LocalDeviceInfo& d : Unwrap(ParseDeviceListSpec(spec))) {
    out.push_back(d.coords ? absl::StrCat((*d.coords)[0], ".", (*d.coords)[1], ".", (*d.coords)[2], "/",
                                          d.core_on_chip)
                           : "-");
  }
  return out;
}

TEST(ParseDeviceListSpecTest, TpuWithoutAPlaceHasNoCoordinates) {
  EXPECT_THAT(Places("tpu*2:TPU v4"), ElementsAre("-", "-"));
}

TEST(ParseDeviceListSpecTest, PositionPlacesOneDevice) {
  EXPECT_THAT(Places("tpu:TPU v4@1.2.3,tpu:TPU v3@0.0.0.1"), ElementsAre("1.2.3/0", "0.0.0/1"));
  EXPECT_EQ(Unwrap(ParseDeviceListSpec("tpu:TPU v4@1.2.3"))[0].kind, "TPU v4");
}

TEST(ParseDeviceListSpecTest, BlockVariesCoreThenXThenYThenZ) {
  EXPECT_THAT(Places("tpu*8@2x2x2"),
              ElementsAre("0.0.0/0", "1.0.0/0", "0.1.0/0", "1.1.0/0", "0.0.1/0", "1.0.1/0", "0.1.1/0", "1.1.1/0"));
  EXPECT_THAT(Places("tpu*4:TPU v3@2x1x1x2"), ElementsAre("0.0.0/0", "0.0.0/1", "1.0.0/0", "1.0.0/1"));
}

TEST(ParseDeviceListSpecTest, BlockStartsAtItsCorner) {
  EXPECT_THAT(Places("tpu*4:TPU v4@2x2x1+0.0.1,tpu*2:TPU v4@2x1x1+4.5.6"),
              ElementsAre("0.0.1/0", "1.0.1/0", "0.1.1/0", "1.1.1/0", "4.5.6/0", "5.5.6/0"));
}

TEST(ParseDeviceListSpecTest, PlacedDevicesKeepTheirCoordinatesAsDevices) {
  const std::vector<Device> devices = ToLocalDevices(Unwrap(ParseDeviceListSpec("tpu*2:TPU v4@1x1x1x2+3.4.5")));
  ASSERT_EQ(devices.size(), 2u);
  EXPECT_EQ(devices[1].coords, (ChipCoords{3, 4, 5}));
  EXPECT_EQ(devices[1].core_on_chip, 1);
  EXPECT_EQ(devices[1].id, 1);
}

TEST(ParseDeviceListSpecTest, ListedTpusCarryTheirCoordinates) {
  ScopedEnv devices("TESSERA_DEVICES", "tpu*4:TPU v4@2x2x1");
  const std::vector<Device> tpus = Unwrap(ListDevices("tpu"));
  ASSERT_EQ(tpus.size(), 4u);
  EXPECT_EQ(tpus[3].coords, (ChipCoords{1, 1, 0}));
  EXPECT_EQ(Unwrap(ParseDevice("tpu:3")).coords, (ChipCoords{1, 1, 0}));
}

TEST(ParseDeviceListSpecTest, RejectsBadPlaces) {
  const std::pair<const char*, const char*> cases[] = {
      {"gpu@0.0.0", "Environment variable TESSERA_DEVICES entry 0 'gpu@0.0.0': a place ('@...') is for tpu devices "
                    "only, not gpu"},
      {"tpu@1.2", "Environment variable TESSERA_DEVICES entry 0 'tpu@1.2': place '1.2' is not a position; expected "
                  "'@<x>.<y>.<z>[.<core>]' for one device or '@<X>x<Y>x<Z>[x<cores>][+<x>.<y>.<z>]' for a block"},
      {"tpu@1.-2.3", "Environment variable TESSERA_DEVICES entry 0 'tpu@1.-2.3': place '1.-2.3' is not a position; "
                     "expected '@<x>.<y>.<z>[.<core>]' for one device or '@<X>x<Y>x<Z>[x<cores>][+<x>.<y>.<z>]' "
                     "for a block"},
      {"tpu*4@2x0x2", "Environment variable TESSERA_DEVICES entry 0 'tpu*4@2x0x2': place '2x0x2' is not a block of "
                      "chips (sizes >= 1); expected '@<x>.<y>.<z>[.<core>]' for one device or "
                      "'@<X>x<Y>x<Z>[x<cores>][+<x>.<y>.<z>]' for a block"},
      {"tpu*4@2x2x1+1.1", "Environment variable TESSERA_DEVICES entry 0 'tpu*4@2x2x1+1.1': place '2x2x1+1.1' has a "
                          "corner that is not '<x>.<y>.<z>'; expected '@<x>.<y>.<z>[.<core>]' for one device or "
                          "'@<X>x<Y>x<Z>[x<cores>][+<x>.<y>.<z>]' for a block"},
      {"tpu*8:TPU v4@4x4x4", "Environment variable TESSERA_DEVICES entry 0 'tpu*8:TPU v4@4x4x4': the place '4x4x4' "
                             "holds 64 devices, but the count is 8"},
      {"tpu*2@1.1.1", "Environment variable TESSERA_DEVICES entry 0 'tpu*2@1.1.1': the place '1.1.1' holds 1 device, "
                      "but the count is 2"},
      {"tpu@4294967296x4294967296x4294967296",
       "Environment variable TESSERA_DEVICES entry 0 'tpu@4294967296x4294967296x4294967296': the place "
       "'4294967296x4294967296x4294967296' holds too many devices, but the count is 1"},
      {"tpu@1x1x2+0.0.9223372036854775807",
       "Environment variable TESSERA_DEVICES entry 0 'tpu@1x1x2+0.0.9223372036854775807': the place "
       "'1x1x2+0.0.9223372036854775807' holds 2 devices, but the count is 1"},
      {"tpu*2@1x1x2+0.0.9223372036854775807",
       "Environment variable TESSERA_DEVICES entry 0 'tpu*2@1x1x2+0.0.9223372036854775807': the place "
       "'1x1x2+0.0.9223372036854775807' reaches past 2^63"},
  };
  for (const auto& [spec, message] : cases) {
    EXPECT_THAT(ParseDeviceListSpec(spec), StatusIs(absl::StatusCode::kInvalidArgument, message)) << spec;
  }
}

TEST(ParseDeviceListSpecTest, RejectsAnEmptyEntry) {
  EXPECT_THAT(ParseDeviceListSpec("gpu,,gpu"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("entry 1 '': platform '' is unknown")));
}

TEST(DiscoverLocalTest, ExplicitListGivesAcceleratorsThenTheCpuProvidersDevices) {
  ScopedCpuDevices cpus(2);
  ScopedEnv devices("TESSERA_DEVICES", "gpu*2");
  const LocalDiscovery found = Unwrap(DiscoverLocal());
  EXPECT_EQ(found.provider, DiscoveryProvider::kExplicit);
  EXPECT_THAT(found.devices,
              ElementsAre(Info(Platform::kGpu, 0, "gpu"), Info(Platform::kGpu, 1, "gpu"),
                          Info(Platform::kCpu, 0, "cpu"), Info(Platform::kCpu, 1, "cpu")));
}

TEST(DiscoverLocalTest, ExplicitCpuEntriesReplaceTheCpuProvider) {
  ScopedCpuDevices cpus(4);
  ScopedEnv devices("TESSERA_DEVICES", "cpu:host,gpu");
  EXPECT_THAT(Unwrap(DiscoverLocalDevices()),
              ElementsAre(Info(Platform::kGpu, 0, "gpu"), Info(Platform::kCpu, 0, "host")));
}

TEST(DiscoverLocalTest, EmptyExplicitListMeansNoAccelerators) {
  ScopedCpuDevices cpus(1);
  ScopedEnv devices("TESSERA_DEVICES", "");
  const LocalDiscovery found = Unwrap(DiscoverLocal());
  EXPECT_EQ(found.provider, DiscoveryProvider::kExplicit);
  EXPECT_THAT(found.devices, ElementsAre(Info(Platform::kCpu, 0, "cpu")));
}

TEST(DiscoverLocalTest, MalformedExplicitListFailsListDevices) {
  ScopedEnv devices("TESSERA_DEVICES", "gpu*x");
  EXPECT_THAT(ListDevices(), StatusIs(absl::StatusCode::kInvalidArgument,
                                      HasSubstr("TESSERA_DEVICES entry 0 'gpu*x'")));
}

TEST(DiscoverLocalTest, ListDevicesPrefersDiscoveredAccelerators) {
  ScopedCpuDevices cpus(3);
  ScopedEnv devices("TESSERA_DEVICES", "gpu*2");
  EXPECT_THAT(Unwrap(ListDevices()), ElementsAre(MakeDevice(0, Platform::kGpu, 0, 0),
                                                 MakeDevice(1, Platform::kGpu, 0, 1)));
  EXPECT_EQ(Unwrap(GetDeviceCount("cpu")), 3);
}

TEST(DiscoveryProviderNameTest, NamesEachProvider) {
  EXPECT_EQ(DiscoveryProviderName(DiscoveryProvider::kExplicit), "explicit");
  EXPECT_EQ(DiscoveryProviderName(DiscoveryProvider::kNvml), "nvml");
  EXPECT_EQ(DiscoveryProviderName(DiscoveryProvider::kCpu), "cpu");
}

// CUDA_VISIBLE_DEVICES (CUDA's rule) over three GPUs.
std::vector<NvmlGpu> ThreeGpus() {
  return {NvmlGpu{"A100", "GPU-aaaa1111", "00000000:01:00.0", 100},
          NvmlGpu{"A100", "GPU-aaaa2222", "00000000:02:00.0", 100},
          NvmlGpu{"A100", "GPU-bbbb3333", "00000000:03:00.0", 100}};
}

TEST(CudaVisibleDevicesTest, UnsetKeepsEveryGpuInOrder) {
  EXPECT_THAT(ApplyCudaVisibleDevices(ThreeGpus(), nullptr), ElementsAre(0, 1, 2));
}

TEST(CudaVisibleDevicesTest, IndicesSelectAndReorder) {
  EXPECT_THAT(ApplyCudaVisibleDevices(ThreeGpus(), "2, 0"), ElementsAre(2, 0));
}

TEST(CudaVisibleDevicesTest, EmptyValueHidesEveryGpuWithoutAStopEntry) {
  std::string stopped = "unchanged";
  EXPECT_THAT(ApplyCudaVisibleDevices(ThreeGpus(), "", &stopped), IsEmpty());
  EXPECT_EQ(stopped, "");
}

TEST(CudaVisibleDevicesTest, InvalidIndexEndsTheList) {
  std::string stopped;
  EXPECT_THAT(ApplyCudaVisibleDevices(ThreeGpus(), "1,7,0", &stopped), ElementsAre(1));
  EXPECT_EQ(stopped, "7");
}

TEST(CudaVisibleDevicesTest, NegativeIndexEndsTheList) {
  std::string stopped;
  EXPECT_THAT(ApplyCudaVisibleDevices(ThreeGpus(), "0,-1,2", &stopped), ElementsAre(0));
  EXPECT_EQ(stopped, "-1");
}

TEST(CudaVisibleDevicesTest, UniqueUuidPrefixSelectsAGpu) {
  EXPECT_THAT(ApplyCudaVisibleDevices(ThreeGpus(), "GPU-bbbb,GPU-aaaa1111"), ElementsAre(2, 0));
}

TEST(CudaVisibleDevicesTest, AmbiguousUuidPrefixEndsTheList) {
  std::string stopped;
  EXPECT_THAT(ApplyCudaVisibleDevices(ThreeGpus(), "2,GPU-aaaa", &stopped), ElementsAre(2));
  EXPECT_EQ(stopped, "GPU-aaaa");
}

TEST(CudaVisibleDevicesTest, RepeatedGpuEndsTheList) {
  std::string stopped;
  EXPECT_THAT(ApplyCudaVisibleDevices(ThreeGpus(), "0,GPU-aaaa1,1", &stopped), ElementsAre(0));
  EXPECT_EQ(stopped, "GPU-aaaa1");
}

// A fake NVML with two GPUs; `fail_*` make single calls fail.
struct FakeNvml {
  static inline int init_result = 0;
  static inline int name_result = 0;
  static inline int inits = 0;
  static inline int shutdowns = 0;
  static void Reset() { init_result = name_result = inits = shutdowns = 0; }

  static int Init() { ++inits; return init_result; }
  static int Shutdown() { ++shutdowns; return 0; }
  static const char* ErrorString(int code) {
    return code == 9 ? "Driver Not Loaded" : "Unknown Error";
  }
  static int Count(unsigned int* count) { *count = 2; return 0; }
  static int Handle(unsigned int index, void** handle) {
    *handle = reinterpret_cast<void*>(static_cast<uintptr_t>(index + 1));
    return 0;
  }
  static unsigned Index(void* handle) {
    return static_cast<unsigned>(reinterpret_cast<uintptr_t>(handle)) - 1;
  }
  static int Name(void* handle, char* out, unsigned int size) {
    if (name_result != 0) return name_result;
    std::snprintf(out, size, "NVIDIA H100 80GB HBM3 #%u", Index(handle));
    return 0;
  }
  static int Uuid(void* handle, char* out, unsigned int size) {
    std::snprintf(out, size, "GPU-%u0000000-1111", Index(handle));
    return 0;
  }
  static int Memory(void* handle, unsigned long long* memory) {
    memory[0] = 85520809984ULL + Index(handle);
    memory[1] = memory[2] = 0;
    return 0;
  }
  static int Pci(void* handle, void* pci) {
    // nvmlPciInfo_t: 16-byte legacy id, five unsigned ints, then the 32-byte bus id.
    char* bus_id = static_cast<char*>(pci) + 16 + 5 * sizeof(unsigned int);
    std::snprintf(bus_id, 32, "00000000:%02u:00.0", 0x17 + Index(handle));
    return 0;
  }
  static NvmlFunctions Functions() {
    NvmlFunctions f;
    f.init = &Init;
    f.shutdown = &Shutdown;
    f.error_string = &ErrorString;
    f.device_get_count = &Count;
    f.device_get_handle_by_index = &Handle;
    f.device_get_name = &Name;
    f.device_get_uuid = &Uuid;
    f.device_get_memory_info = &Memory;
    f.device_get_pci_info = &Pci;
    return f;
  }
  static absl::StatusOr<NvmlFunctions> Loader() { return Functions(); }
  static absl::StatusOr<NvmlFunctions> MissingLoader() {
    return absl::UnavailableError("libnvidia-ml.so.1 could not be loaded: not here");
  }
};

class NvmlTest : public ::testing::Test {
 protected:
  void SetUp() override { FakeNvml::Reset(); }
  void TearDown() override { SetNvmlLoaderForTesting(nullptr); }
};

TEST_F(NvmlTest, ReadsNamesUuidsMemoryAndPciBusIds) {
  const std::vector<NvmlGpu> gpus = Unwrap(ReadNvmlGpus(FakeNvml::Functions()));
  ASSERT_THAT(gpus, SizeIs(2));
  EXPECT_EQ(gpus[1].name, "NVIDIA H100 80GB HBM3 #1");
  EXPECT_EQ(gpus[1].uuid, "GPU-10000000-1111");
  EXPECT_EQ(gpus[1].memory_bytes, 85520809985);
  EXPECT_EQ(gpus[1].pci_bus_id, "00000000:24:00.0");
  EXPECT_EQ(FakeNvml::inits, 1);
  EXPECT_EQ(FakeNvml::shutdowns, 1);
}

TEST_F(NvmlTest, FailingInitNamesTheCallAndNvmlsText) {
  FakeNvml::init_result = 9;
  EXPECT_THAT(ReadNvmlGpus(FakeNvml::Functions()),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       "nvmlInit_v2 failed: Driver Not Loaded"));
}

TEST_F(NvmlTest, FailingDeviceCallNamesTheGpuAndStillShutsDown) {
  FakeNvml::name_result = 999;
  EXPECT_THAT(ReadNvmlGpus(FakeNvml::Functions()),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       "nvmlDeviceGetName (GPU 0) failed: Unknown Error"));
  EXPECT_EQ(FakeNvml::shutdowns, 1);
}

TEST_F(NvmlTest, IncompleteTableIsAnError) {
  NvmlFunctions f = FakeNvml::Functions();
  f.device_get_uuid = nullptr;
  EXPECT_THAT(ReadNvmlGpus(f), StatusIs(absl::StatusCode::kFailedPrecondition,
                                        "NVML function table is incomplete"));
}

TEST_F(NvmlTest, NamingDevicesExplicitlyDoesNotLoadNvml) {
  ScopedEnv explicit_list("TESSERA_DEVICES", std::nullopt);
  SetNvmlLoaderForTesting(&FakeNvml::Loader);
  EXPECT_THAT(Unwrap(ParseDevices({"gpu:0", "gpu:1"})),
              ElementsAre(MakeDevice(0, Platform::kGpu, 0, 0), MakeDevice(1, Platform::kGpu, 0, 1)));
  EXPECT_EQ(FakeNvml::inits, 0);
}

TEST_F(NvmlTest, DiscoveryReportsNvmlGpusThenCpus) {
  ScopedCpuDevices cpus(1);
  ScopedEnv explicit_list("TESSERA_DEVICES", std::nullopt);
  ScopedEnv visible("CUDA_VISIBLE_DEVICES", std::nullopt);
  SetNvmlLoaderForTesting(&FakeNvml::Loader);
  const LocalDiscovery found = Unwrap(DiscoverLocal());
  EXPECT_EQ(found.provider, DiscoveryProvider::kNvml);
  EXPECT_EQ(found.nvml_unavailable_reason, "");
  EXPECT_THAT(found.devices,
              ElementsAre(Info(Platform::kGpu, 0, "NVIDIA H100 80GB HBM3 #0", "GPU-00000000-1111",
                               85520809984, "00000000:23:00.0"),
                          Info(Platform::kGpu, 1, "NVIDIA H100 80GB HBM3 #1", "GPU-10000000-1111",
                               85520809985, "00000000:24:00.0"),
                          Info(Platform::kCpu, 0, "cpu")));
}

TEST_F(NvmlTest, CudaVisibleDevicesRenumbersTheVisibleGpus) {
  ScopedCpuDevices cpus(1);
  ScopedEnv explicit_list("TESSERA_DEVICES", std::nullopt);
  ScopedEnv visible("CUDA_VISIBLE_DEVICES", "GPU-1");
  SetNvmlLoaderForTesting(&FakeNvml::Loader);
  const std::vector<LocalDeviceInfo> found = Unwrap(DiscoverLocalDevices());
  ASSERT_THAT(found, SizeIs(2));
  EXPECT_EQ(found[0].physical_id, "GPU-10000000-1111");
  EXPECT_EQ(found[0].local_ordinal, 0);
}

TEST_F(NvmlTest, MissingNvmlMeansNoGpusWithTheReasonLogged) {
  ScopedCpuDevices cpus(1);
  ScopedEnv explicit_list("TESSERA_DEVICES", std::nullopt);
  testing::ScopedLogCapture logs;
  SetNvmlLoaderForTesting(&FakeNvml::MissingLoader);
  const LocalDiscovery found = Unwrap(DiscoverLocal());
  EXPECT_EQ(found.provider, DiscoveryProvider::kCpu);
  EXPECT_EQ(found.nvml_unavailable_reason, "libnvidia-ml.so.1 could not be loaded: not here");
  EXPECT_THAT(found.devices, ElementsAre(Info(Platform::kCpu, 0, "cpu")));
  EXPECT_THAT(logs.entries(),
              ElementsAre(std::make_pair(
                  LogLevel::kInfo, "No NVIDIA GPUs: libnvidia-ml.so.1 could not be loaded: not here")));
}

TEST_F(NvmlTest, HiddenGpusAreReportedAsTheReason) {
  ScopedCpuDevices cpus(1);
  ScopedEnv explicit_list("TESSERA_DEVICES", std::nullopt);
  ScopedEnv visible("CUDA_VISIBLE_DEVICES", "");
  SetNvmlLoaderForTesting(&FakeNvml::Loader);
  const LocalDiscovery found = Unwrap(DiscoverLocal());
  EXPECT_EQ(found.provider, DiscoveryProvider::kCpu);
  EXPECT_EQ(found.nvml_unavailable_reason, "CUDA_VISIBLE_DEVICES='' hides every GPU");
}

}  // namespace
}  // namespace tessera
