// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// JAX Mesh text: a description that makes a mesh (over up to 4,096 CPU
// devices; larger ones are not built) prints as Mesh(...) text that parses to
// the same shape and axis names.
#include <vector>

#include "core/formats/jax_spec.h"
#include "tests/fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tessera;
  auto description = ParseJaxMesh(fuzz::AsText(data, size));
  if (!description.ok()) {
    fuzz::CheckRejection(description.status());
    return 0;
  }
  int64_t count = 1;
  for (int64_t dim : description->shape) {
    if (dim < 1 || count > 4096 / dim) return 0;
    count *= dim;
  }
  std::vector<Device> devices(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) devices[static_cast<size_t>(i)].id = i;
  auto mesh = DeviceMesh::Create(description->shape, description->axis_names, devices);
  if (!mesh.ok()) {
    fuzz::CheckRejection(mesh.status());
    return 0;
  }
  const JaxMeshDescription again = fuzz::MustParse(ParseJaxMesh(JaxMeshText(**mesh)));
  fuzz::Check(again.shape == description->shape);
  fuzz::Check(again.axis_names == description->axis_names);
  return 0;
}
