// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// tessera/layout.h: tensor layouts.
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "capi/enums.h"
#include "capi/guard.h"
#include "capi/handles.h"
#include "core/layout.h"

using tessera::capi::CheckIndex;
using tessera::capi::Guard;
using tessera::capi::MeshOrNull;

namespace {

// Splits the concatenated `names` into one group per dimension, checking that
// the group sizes account for every name exactly once.
absl::StatusOr<std::vector<tessera::AxisGroup>> SplitIntoGroups(
    const std::vector<std::string>& names, const size_t* group_sizes, size_t num_dims) {
  std::vector<tessera::AxisGroup> groups;
  groups.reserve(num_dims);
  size_t used = 0;
  for (size_t d = 0; d < num_dims; ++d) {
    const size_t left = names.size() - used;
    if (group_sizes[d] > left) {  // compared before adding, so no overflow
      return absl::InvalidArgumentError(absl::StrCat(
          "Argument 'group_sizes' adds up to more than 'num_axis_names' (", names.size(),
          "): group_sizes[", d, "] is ", group_sizes[d], " with ", left, " names left"));
    }
    groups.emplace_back(names.begin() + used, names.begin() + used + group_sizes[d]);
    used += group_sizes[d];
  }
  if (used != names.size()) {
    return absl::InvalidArgumentError(absl::StrCat("Argument 'group_sizes' adds up to ", used,
                                                   "; expected 'num_axis_names' (",
                                                   names.size(), ")"));
  }
  return groups;
}

absl::Status CheckDim(const tessera_layout* layout, size_t dim) {
  return CheckIndex(dim, layout->impl->rank(), "dim", "the layout's rank");
}

}  // namespace

tessera_layout* tessera_layout_create(const char* const* axes, size_t num_axes,
                                      const tessera_mesh* mesh, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_layout*> {
    TESSERA_CAPI_REQUIRE_ARRAY(axes, num_axes);
    std::vector<tessera::AxisGroup> groups(num_axes);
    for (size_t d = 0; d < num_axes; ++d) {
      // NULL and "" both mean a replicated dimension (Keras's None).
      if (axes[d] != nullptr && axes[d][0] != '\0') groups[d].emplace_back(axes[d]);
    }
    TESSERA_ASSIGN_OR_RETURN(tessera::TensorLayout layout,
                             tessera::TensorLayout::Create(std::move(groups), MeshOrNull(mesh)));
    return tessera::capi::NewLayout(std::move(layout));
  });
}

tessera_layout* tessera_layout_create_grouped(const char* const* axis_names,
                                              size_t num_axis_names, const size_t* group_sizes,
                                              size_t num_dims, const tessera_mesh* mesh,
                                              tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_layout*> {
    TESSERA_ASSIGN_OR_RETURN(
        std::vector<std::string> names,
        tessera::capi::CopyStrings(axis_names, num_axis_names, "axis_names", "num_axis_names"));
    TESSERA_CAPI_REQUIRE_ARRAY(group_sizes, num_dims);
    TESSERA_ASSIGN_OR_RETURN(std::vector<tessera::AxisGroup> groups,
                             SplitIntoGroups(names, group_sizes, num_dims));
    TESSERA_ASSIGN_OR_RETURN(tessera::TensorLayout layout,
                             tessera::TensorLayout::Create(std::move(groups), MeshOrNull(mesh)));
    return tessera::capi::NewLayout(std::move(layout));
  });
}

tessera_layout* tessera_layout_create_replicated(size_t rank, const tessera_mesh* mesh,
                                                 tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_layout*> {
    TESSERA_ASSIGN_OR_RETURN(tessera::TensorLayout layout,
                             tessera::TensorLayout::Replicated(rank, MeshOrNull(mesh)));
    return tessera::capi::NewLayout(std::move(layout));
  });
}

tessera_layout* tessera_layout_with_mesh(const tessera_layout* layout, const tessera_mesh* mesh,
                                         tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_layout*> {
    TESSERA_CAPI_REQUIRE(layout);
    TESSERA_CAPI_REQUIRE(mesh);
    TESSERA_ASSIGN_OR_RETURN(tessera::TensorLayout with_mesh, layout->impl->WithMesh(mesh->impl));
    return tessera::capi::NewLayout(std::move(with_mesh));
  });
}

void tessera_layout_destroy(tessera_layout* layout) noexcept { delete layout; }

size_t tessera_layout_num_dims(const tessera_layout* layout, tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(layout, layout->impl->rank());
}

tessera_mesh* tessera_layout_mesh(const tessera_layout* layout,
                                  tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_mesh*> {
    TESSERA_CAPI_REQUIRE(layout);
    if (layout->impl->mesh() == nullptr) return static_cast<tessera_mesh*>(nullptr);
    return tessera::capi::NewMesh(layout->impl->mesh());
  });
}

bool tessera_layout_dim_num_axes(const tessera_layout* layout, size_t dim, size_t* out,
                             tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(layout);
    TESSERA_CAPI_REQUIRE(out);
    TESSERA_RETURN_IF_ERROR(CheckDim(layout, dim));
    *out = layout->impl->axes()[dim].size();
    return absl::OkStatus();
  });
}

const char* tessera_layout_dim_axis(const tessera_layout* layout, size_t dim, size_t position,
                                tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<const char*> {
    TESSERA_CAPI_REQUIRE(layout);
    TESSERA_RETURN_IF_ERROR(CheckDim(layout, dim));
    const tessera::AxisGroup& group = layout->impl->axes()[dim];
    const std::string what = absl::StrCat("the number of axes of dimension ", dim);
    TESSERA_RETURN_IF_ERROR(CheckIndex(position, group.size(), "position", what.c_str()));
    return group[position].c_str();
  });
}

bool tessera_layout_dim_num_shards(const tessera_layout* layout, size_t dim, size_t* out,
                                   tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(layout);
    TESSERA_CAPI_REQUIRE(out);
    TESSERA_ASSIGN_OR_RETURN(const int64_t count, layout->impl->ShardCount(dim));
    *out = static_cast<size_t>(count);  // a product of mesh extents, >= 1
    return absl::OkStatus();
  });
}

bool tessera_layout_check_shape(const tessera_layout* layout, const int64_t* dims,
                                size_t num_dims, tessera_shape_check_t mode,
                                tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(layout);
    TESSERA_CAPI_REQUIRE_ARRAY(dims, num_dims);
    TESSERA_ASSIGN_OR_RETURN(
        tessera::ShapeCheck check,
        tessera::capi::ToCoreEnum<tessera::ShapeCheck>(mode, tessera::capi::kShapeCheckNames,
                                                       "mode"));
    return layout->impl->CheckShape(absl::MakeConstSpan(dims, num_dims), check);
  });
}

size_t tessera_layout_max_shard_shape(const tessera_layout* layout, const int64_t* dims,
                                      size_t num_dims, int64_t* out, size_t capacity,
                                      tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<size_t> {
    TESSERA_CAPI_REQUIRE(layout);
    TESSERA_CAPI_REQUIRE_ARRAY(dims, num_dims);
    TESSERA_CAPI_REQUIRE_ARRAY(out, capacity);
    return tessera::capi::CopyOut(out, capacity,
                                  layout->impl->MaxShardShape(absl::MakeConstSpan(dims, num_dims)));
  });
}

bool tessera_layout_equal(const tessera_layout* a, const tessera_layout* b) noexcept {
  if (a == nullptr || b == nullptr) return a == b;  // NULL equals only NULL (tessera.h)
  return *a->impl == *b->impl;
}

tessera_buffer* tessera_layout_to_string(const tessera_layout* layout,
                                         tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_buffer*> {
    TESSERA_CAPI_REQUIRE(layout);
    return tessera::capi::NewBuffer(layout->impl->ToString());
  });
}
