// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Keras conformance: the current distribution's scopes (keras_cases.md K13,
// K157) and the repr strings keras.md §1.4-§1.6 quotes.
#include <stdexcept>
#include <string>
#include <vector>

#include "core/distribution.h"
#include "core/layout.h"
#include "core/mesh.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/testing.h"

namespace tessera {
namespace {

using ::testing::ElementsAre;
using testing::CpuMesh;
using testing::Layout;
using testing::Unwrap;

class KerasScopeTest : public ::testing::Test {
 protected:
  void TearDown() override { SetDefaultDistribution(nullptr); }

  // D = DeviceMesh((4, 2), ["batch", "model"], devs(8)); Keras's test builds
  // the internal base class, which Tessera does not expose: DataParallel(D).
  DistributionPtr OnD() { return Unwrap(Distribution::DataParallel(d_)); }

  MeshPtr d_ = CpuMesh({4, 2}, {"batch", "model"});
  // DataParallel on a 2-D mesh warns; keep that out of the test output.
  testing::ScopedLogCapture log_;
};

// K13: nested scopes; distribution() reads None, d1, d2, d1, None.
TEST_F(KerasScopeTest, K13_NestedScopesRestoreInOrder) {
  DistributionPtr d1 = OnD();
  DistributionPtr d2 = OnD();
  std::vector<DistributionPtr> seen = {CurrentDistribution()};
  {
    DistributionScope scope1(d1);
    seen.push_back(CurrentDistribution());
    {
      DistributionScope scope2(d2);
      seen.push_back(CurrentDistribution());
    }
    seen.push_back(CurrentDistribution());
  }
  seen.push_back(CurrentDistribution());
  EXPECT_THAT(seen, ElementsAre(nullptr, d1, d2, d1, nullptr));
}

// K157: an exception inside the scope still restores the previous value.
TEST_F(KerasScopeTest, K157_ExceptionInsideTheScopeRestoresThePreviousValue) {
  DistributionPtr previous = OnD();
  SetDefaultDistribution(previous);
  try {
    DistributionScope scope(OnD());
    throw std::runtime_error("raised inside the scope");
  } catch (const std::runtime_error&) {
  }
  EXPECT_EQ(CurrentDistribution(), previous);
}

// keras.md §1.4-§1.6: the reprs a Keras user sees.
TEST(KerasReprConformanceTest, DeviceMesh) {
  EXPECT_EQ(CpuMesh({4, 2}, {"batch", "model"})->ToString(),
            "<DeviceMesh shape=(4, 2), axis_names=['batch', 'model']>");
}

TEST(KerasReprConformanceTest, TensorLayout) {
  EXPECT_EQ(Layout({"data", ""}, CpuMesh({4, 2}, {"data", "model"})).ToString(),
            "<TensorLayout axes=('data', None), device_mesh=<DeviceMesh shape=(4, 2), "
            "axis_names=['data', 'model']>>");
}

TEST(KerasReprConformanceTest, DataParallel) {
  EXPECT_EQ(Unwrap(Distribution::DataParallel(CpuMesh({8}, {"batch"})))->ToString(),
            "<DataParallel device_mesh=<DeviceMesh shape=(8,), axis_names=['batch']>>");
}

}  // namespace
}  // namespace tessera
