// Devices: platform names, the Keras string form, parsing, local discovery
// through TESSERA_CPU_DEVICE_COUNT and an installed job-wide list.
#include "core/device.h"

#include <optional>
#include <string>
#include <vector>

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

}  // namespace
}  // namespace tessera
