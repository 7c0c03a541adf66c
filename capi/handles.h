// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The definitions behind the opaque C handles. Private to capi/.
//
// Immutable objects hold the core's shared pointers, so a handle is one
// reference: destroying a mesh handle while a layout still uses the mesh only
// drops that reference (the "destroy order never matters" rule). The layout
// map is the one mutable object and holds its core value directly.
#ifndef TESSERA_CAPI_HANDLES_H_
#define TESSERA_CAPI_HANDLES_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "core/dataset_plan.h"
#include "core/device.h"
#include "core/dtensor_config.h"
#include "core/formats/dtensor_text.h"
#include "core/distribution.h"
#include "core/layout.h"
#include "core/layout_map.h"
#include "core/mesh.h"
#include "tessera/tessera.h"

namespace tessera::capi {

// A cluster error's structured detail (core/cluster/error_detail.h), copied
// out of the status so tessera_error_* accessors need no protobuf.
struct ErrorDetail {
  int32_t reason = 0;  // tessera_error_reason_t
  int64_t source_process = -1;
  std::vector<int64_t> missing;
  std::vector<int32_t> missing_states;  // tessera_task_state_t
  std::vector<std::string> missing_waiting_at;
  std::vector<int64_t> arrived;
};

}  // namespace tessera::capi

struct tessera_error {
  tessera_code_t code;
  std::string message;
  tessera::capi::ErrorDetail detail = {};
};

// std::string keeps a NUL after its bytes, which tessera_buffer_data promises.
struct tessera_buffer {
  std::string bytes;
};

struct tessera_device {
  tessera::Device impl;
  std::string name;  // impl.ToString(), kept for tessera_device_name's lifetime
};

struct tessera_device_list {
  std::vector<tessera::Device> impl;
};

struct tessera_mesh {
  tessera::MeshPtr impl;
};

struct tessera_layout {
  tessera::LayoutPtr impl;
};

struct tessera_dtensor_mesh {
  tessera::DTensorMesh impl;
  std::string device_type;  // impl.device_type(), kept for the accessor's lifetime
  std::vector<std::string> hosts;  // DTensorMeshHosts(impl), for tessera_dtensor_mesh_host
};

struct tessera_dtensor_layout {
  tessera::DTensorLayout impl;
};

struct tessera_dtensor_config {
  tessera::DTensorConfig impl;
  // Read once, so the borrowed strings live as long as the handle.
  absl::StatusOr<std::vector<std::string>> jobs;
  absl::StatusOr<std::string> job_name;
};

struct tessera_layout_map {
  tessera::LayoutMap impl;
};

struct tessera_distribution {
  tessera::DistributionPtr impl;
};

struct tessera_distribution_options {
  tessera::DistributionOptions impl;
};

struct tessera_dataset_plan {
  tessera::DatasetPlan impl;
};

namespace tessera::capi {

// New handles, each one owned reference for the caller.
inline tessera_device* NewDevice(const Device& device) {
  return new tessera_device{device, device.ToString()};
}
inline tessera_mesh* NewMesh(MeshPtr mesh) { return new tessera_mesh{std::move(mesh)}; }
inline tessera_layout* NewLayout(LayoutPtr layout) {
  return new tessera_layout{std::move(layout)};
}
inline tessera_layout* NewLayout(TensorLayout layout) {
  return NewLayout(std::make_shared<const TensorLayout>(std::move(layout)));
}
inline tessera_buffer* NewBuffer(std::string bytes) { return new tessera_buffer{std::move(bytes)}; }
inline tessera_dtensor_mesh* NewDTensorMesh(DTensorMesh mesh) {
  std::string type = mesh.device_type();
  std::vector<std::string> hosts = DTensorMeshHosts(mesh);
  return new tessera_dtensor_mesh{std::move(mesh), std::move(type), std::move(hosts)};
}

// The core pointer of an optional handle argument (nullptr when it is NULL).
inline MeshPtr MeshOrNull(const tessera_mesh* mesh) {
  return mesh == nullptr ? nullptr : mesh->impl;
}

// A dataset plan's global_batch_size argument as the core's rows: SIZE_MAX
// (TESSERA_DATASET_UNKNOWN_BATCH_NUM_EXAMPLES) is unknown, -1; other values
// above INT64_MAX are OUT_OF_RANGE.
inline absl::StatusOr<int64_t> GlobalBatchRows(size_t global_batch_size) {
  if (global_batch_size == static_cast<size_t>(-1)) return int64_t{-1};
  if (global_batch_size > static_cast<size_t>(INT64_MAX)) {
    return absl::OutOfRangeError(absl::StrCat("Argument 'global_batch_size' is ", global_batch_size,
                                              "; expected at most ", INT64_MAX,
                                              " or TESSERA_DATASET_UNKNOWN_BATCH_NUM_EXAMPLES"));
  }
  return static_cast<int64_t>(global_batch_size);
}

}  // namespace tessera::capi

#endif  // TESSERA_CAPI_HANDLES_H_
