// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// tessera/experimental/dtensor_layout.h: DTensor layouts of every type.
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "capi/guard.h"
#include "capi/handles.h"
#include "core/dtensor_layout.h"
#include "core/formats/dtensor_text.h"
#include "core/py_repr.h"

using tessera::DTensorLayout;
using tessera::DTensorMesh;
using tessera::capi::Guard;

namespace {

tessera_dtensor_layout* NewDTensorLayout(DTensorLayout layout) {
  return new tessera_dtensor_layout{std::move(layout)};
}

// A transform's result as a new handle.
template <typename Transform>
tessera_dtensor_layout* Transformed(const tessera_dtensor_layout* layout,
                                    tessera_error** out_error, Transform&& transform) {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_dtensor_layout*> {
    TESSERA_CAPI_REQUIRE(layout);
    TESSERA_ASSIGN_OR_RETURN(DTensorLayout result, transform(layout->impl));
    return NewDTensorLayout(std::move(result));
  });
}

// The layouts of a handle array, each checked non-NULL.
absl::StatusOr<std::vector<DTensorLayout>> Layouts(const tessera_dtensor_layout* const* layouts,
                                                   size_t num_layouts) {
  TESSERA_CAPI_REQUIRE_ARRAY(layouts, num_layouts);
  std::vector<DTensorLayout> out;
  for (size_t i = 0; i < num_layouts; ++i) {
    if (layouts[i] == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("Argument 'layouts' entry ", i, " is NULL; expected a valid pointer"));
    }
    out.push_back(layouts[i]->impl);
  }
  return out;
}

std::vector<std::string> Strings(const char* const* items, size_t n) {
  return std::vector<std::string>(items, items + n);
}

}  // namespace

tessera_dtensor_layout* tessera_dtensor_layout_parse(const char* text,
                                                    tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_dtensor_layout*> {
    TESSERA_CAPI_REQUIRE(text);
    TESSERA_ASSIGN_OR_RETURN(DTensorLayout layout, DTensorLayout::Parse(text));
    return NewDTensorLayout(std::move(layout));
  });
}

tessera_dtensor_layout* tessera_dtensor_layout_create(tessera_dtensor_layout_type_t type,
                                                     const char* const* specs, size_t num_specs,
                                                     const tessera_dtensor_mesh* mesh,
                                                     tessera_error** out_error) noexcept {
  static_assert(TESSERA_DTENSOR_LAYOUT_EMPTY == static_cast<int>(DTensorLayout::Type::kEmpty));
  static_assert(TESSERA_DTENSOR_LAYOUT_STATIC == static_cast<int>(DTensorLayout::Type::kStatic));
  static_assert(TESSERA_DTENSOR_LAYOUT_PARTED == static_cast<int>(DTensorLayout::Type::kParted));
  static_assert(TESSERA_DTENSOR_LAYOUT_SINGLE_DEVICE ==
                static_cast<int>(DTensorLayout::Type::kSingleDevice));
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_dtensor_layout*> {
    TESSERA_CAPI_REQUIRE(mesh);
    TESSERA_CAPI_REQUIRE_ARRAY(specs, num_specs);
    for (size_t i = 0; i < num_specs; ++i) {
      if (specs[i] == nullptr) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Argument 'specs' entry ", i, " is NULL; expected a sharding spec"));
      }
    }
    if (type < TESSERA_DTENSOR_LAYOUT_EMPTY || type > TESSERA_DTENSOR_LAYOUT_SINGLE_DEVICE) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Argument 'type' is ", static_cast<int>(type),
          "; expected a tessera_dtensor_layout_type_t value (0 to 3)"));
    }
    const auto layout_type = static_cast<DTensorLayout::Type>(type);
    TESSERA_ASSIGN_OR_RETURN(
        DTensorLayout layout,
        layout_type == DTensorLayout::Type::kStatic
            ? DTensorLayout::FromPython(Strings(specs, num_specs), mesh->impl)
            : DTensorLayout::Create(layout_type, Strings(specs, num_specs), mesh->impl));
    return NewDTensorLayout(std::move(layout));
  });
}

tessera_dtensor_layout* tessera_dtensor_layout_from_device(const char* device,
                                                          tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_dtensor_layout*> {
    TESSERA_CAPI_REQUIRE(device);
    TESSERA_ASSIGN_OR_RETURN(DTensorLayout layout, DTensorLayout::FromDevice(device));
    return NewDTensorLayout(std::move(layout));
  });
}

tessera_buffer* tessera_dtensor_layout_to_text(const tessera_dtensor_layout* layout,
                                              tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_buffer*> {
    TESSERA_CAPI_REQUIRE(layout);
    return tessera::capi::NewBuffer(layout->impl.ToString());
  });
}

void tessera_dtensor_layout_destroy(tessera_dtensor_layout* layout) noexcept { delete layout; }

tessera_layout* tessera_dtensor_layout_to_layout(const tessera_dtensor_layout* layout,
                                                tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_layout*> {
    TESSERA_CAPI_REQUIRE(layout);
    TESSERA_ASSIGN_OR_RETURN(tessera::TensorLayout converted,
                             tessera::ToTensorLayout(layout->impl));
    return tessera::capi::NewLayout(std::move(converted));
  });
}

tessera_dtensor_layout_type_t tessera_dtensor_layout_type(const tessera_dtensor_layout* layout,
                                                          tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(layout, static_cast<tessera_dtensor_layout_type_t>(layout->impl.type()));
}

size_t tessera_dtensor_layout_num_dims(const tessera_dtensor_layout* layout,
                                       tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(layout, layout->impl.rank());
}

const char* tessera_dtensor_layout_spec(const tessera_dtensor_layout* layout, size_t index,
                                       tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET_AT(layout, index, layout->impl.rank(), "the layout's rank",
                             layout->impl.specs()[index].c_str());
}

tessera_dtensor_mesh* tessera_dtensor_layout_mesh(const tessera_dtensor_layout* layout,
                                                 tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_dtensor_mesh*> {
    TESSERA_CAPI_REQUIRE(layout);
    return tessera::capi::NewDTensorMesh(layout->impl.mesh());
  });
}

bool tessera_dtensor_layout_equal(const tessera_dtensor_layout* a, const tessera_dtensor_layout* b,
                                  tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<bool> {
    TESSERA_CAPI_REQUIRE(a);
    TESSERA_CAPI_REQUIRE(b);
    return a->impl == b->impl;
  });
}

// ---- Transforms -------------------------------------------------------------

tessera_dtensor_layout* tessera_dtensor_layout_to_device_type(const tessera_dtensor_layout* layout,
                                                             const char* device_type,
                                                             tessera_error** out_error) noexcept {
  return Transformed(layout, out_error,
                     [&](const DTensorLayout& l) -> absl::StatusOr<DTensorLayout> {
                       TESSERA_CAPI_REQUIRE(device_type);
                       return l.ToDeviceType(device_type);
                     });
}

tessera_dtensor_layout* tessera_dtensor_layout_to_parted(const tessera_dtensor_layout* layout,
                                                        tessera_error** out_error) noexcept {
  return Transformed(layout, out_error, [](const DTensorLayout& l) { return l.ToParted(); });
}

tessera_dtensor_layout* tessera_dtensor_layout_truncate(const tessera_dtensor_layout* layout,
                                                       size_t split, bool end,
                                                       tessera_error** out_error) noexcept {
  return Transformed(layout, out_error,
                     [&](const DTensorLayout& l) { return l.Truncate(split, end); });
}

tessera_dtensor_layout* tessera_dtensor_layout_left_pad(const tessera_dtensor_layout* layout,
                                                       size_t num_dims,
                                                       tessera_error** out_error) noexcept {
  return Transformed(layout, out_error, [&](const DTensorLayout& l) {
    return absl::StatusOr<DTensorLayout>(l.LeftPad(num_dims));
  });
}

tessera_dtensor_layout* tessera_dtensor_layout_reduce_dims(const tessera_dtensor_layout* layout,
                                                          const int64_t* dims, size_t num_dims,
                                                          bool keep_dims,
                                                          tessera_error** out_error) noexcept {
  return Transformed(layout, out_error,
                     [&](const DTensorLayout& l) -> absl::StatusOr<DTensorLayout> {
                       TESSERA_CAPI_REQUIRE_ARRAY(dims, num_dims);
                       return l.WithReducedDims(absl::MakeConstSpan(dims, num_dims), keep_dims);
                     });
}

tessera_dtensor_layout* tessera_dtensor_layout_remove_dims(const tessera_dtensor_layout* layout,
                                                          const size_t* dims, size_t num_dims,
                                                          tessera_error** out_error) noexcept {
  return Transformed(layout, out_error,
                     [&](const DTensorLayout& l) -> absl::StatusOr<DTensorLayout> {
                       TESSERA_CAPI_REQUIRE_ARRAY(dims, num_dims);
                       std::vector<int64_t> positions;
                       for (size_t i = 0; i < num_dims; ++i) {
                         // Positions past int64 match no axis, as Python's `in`.
                         if (dims[i] <= static_cast<size_t>(INT64_MAX)) {
                           positions.push_back(static_cast<int64_t>(dims[i]));
                         }
                       }
                       return l.Delete(positions);
                     });
}

tessera_dtensor_layout* tessera_dtensor_layout_transpose_2d(const tessera_dtensor_layout* layout,
                                                           tessera_error** out_error) noexcept {
  return Transformed(layout, out_error, [](const DTensorLayout& l) { return l.Transposed2D(); });
}

tessera_dtensor_layout* tessera_dtensor_layout_concatenate(const tessera_dtensor_layout* a,
                                                          const tessera_dtensor_layout* b,
                                                          tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_dtensor_layout*> {
    TESSERA_CAPI_REQUIRE(a);
    TESSERA_CAPI_REQUIRE(b);
    TESSERA_ASSIGN_OR_RETURN(DTensorLayout result,
                             tessera::ConcatenateDTensorLayouts(a->impl, b->impl));
    return NewDTensorLayout(std::move(result));
  });
}

tessera_dtensor_layout* tessera_dtensor_layout_most_sharded(
    const tessera_dtensor_layout* const* layouts, size_t num_layouts,
    tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_dtensor_layout*> {
    TESSERA_ASSIGN_OR_RETURN(std::vector<DTensorLayout> all, Layouts(layouts, num_layouts));
    TESSERA_ASSIGN_OR_RETURN(DTensorLayout result, tessera::MostShardedDTensorLayout(all));
    return NewDTensorLayout(std::move(result));
  });
}

tessera_dtensor_layout* tessera_dtensor_layout_least_sharded(
    const tessera_dtensor_layout* const* layouts, size_t num_layouts,
    tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_dtensor_layout*> {
    TESSERA_ASSIGN_OR_RETURN(std::vector<DTensorLayout> all, Layouts(layouts, num_layouts));
    TESSERA_ASSIGN_OR_RETURN(DTensorLayout result, tessera::LeastShardedDTensorLayout(all));
    return NewDTensorLayout(std::move(result));
  });
}

// ---- Queries ----------------------------------------------------------------

size_t tessera_dtensor_layout_num_shards_per_dim(const tessera_dtensor_layout* layout, int64_t* out,
                                                 size_t capacity,
                                                 tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<size_t> {
    TESSERA_CAPI_REQUIRE(layout);
    TESSERA_CAPI_REQUIRE_ARRAY(out, capacity);
    return tessera::capi::CopyOut(out, capacity, layout->impl.NumShards());
  });
}

bool tessera_dtensor_layout_is_fully_replicated(const tessera_dtensor_layout* layout,
                                                tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(layout, layout->impl.IsFullyReplicated());
}

bool tessera_dtensor_layout_is_last_dim_replicated(const tessera_dtensor_layout* layout,
                                                   tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(layout, layout->impl.IsLastDimReplicated());
}

bool tessera_dtensor_layout_is_batch_parallel(const tessera_dtensor_layout* layout,
                                              tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(layout, layout->impl.IsBatchParallel());
}

bool tessera_dtensor_layout_is_batch_parallel_over(const tessera_dtensor_layout* layout,
                                                   size_t num_non_batch_dims,
                                                   tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<bool> {
    TESSERA_CAPI_REQUIRE(layout);
    return layout->impl.IsBatchParallel(num_non_batch_dims);
  });
}

bool tessera_dtensor_layout_is_equivalent(const tessera_dtensor_layout* a,
                                          const tessera_dtensor_layout* b,
                                          tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<bool> {
    TESSERA_CAPI_REQUIRE(a);
    TESSERA_CAPI_REQUIRE(b);
    return a->impl.IsEquivalent(b->impl);
  });
}

bool tessera_dtensor_layout_is_equivalent_ignoring_type(const tessera_dtensor_layout* a,
                                                        const tessera_dtensor_layout* b,
                                                        tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<bool> {
    TESSERA_CAPI_REQUIRE(a);
    TESSERA_CAPI_REQUIRE(b);
    return a->impl.IsEquivalentIgnoringType(b->impl);
  });
}

tessera_dtensor_mesh* tessera_dtensor_layout_reduced_mesh(const tessera_dtensor_layout* layout,
                                                         tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_dtensor_mesh*> {
    TESSERA_CAPI_REQUIRE(layout);
    TESSERA_ASSIGN_OR_RETURN(DTensorMesh reduced, layout->impl.ReducedMesh());
    return tessera::capi::NewDTensorMesh(std::move(reduced));
  });
}

tessera_buffer* tessera_dtensor_layout_shard_vector_text(const tessera_dtensor_layout* layout,
                                                        tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_buffer*> {
    TESSERA_CAPI_REQUIRE(layout);
    TESSERA_ASSIGN_OR_RETURN(tessera::DTensorShardVector shards, layout->impl.ShardVector());
    return tessera::capi::NewBuffer(shards.ToString());
  });
}

tessera_buffer* tessera_dtensor_layout_host_shard_vector_text(const tessera_dtensor_layout* layout,
                                                             const char* host,
                                                             tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_buffer*> {
    TESSERA_CAPI_REQUIRE(layout);
    TESSERA_CAPI_REQUIRE(host);
    TESSERA_ASSIGN_OR_RETURN(auto map, layout->impl.HostShardMap());
    const auto it = map.find(host);
    if (it == map.end()) {
      std::vector<std::string> hosts;
      for (const auto& [name, shards] : map) hosts.push_back(name);
      return absl::NotFoundError(absl::StrCat(
          "Argument 'host' ", tessera::PyStrRepr(host),
          " holds no device of the layout's reduced mesh; its hosts are [",
          absl::StrJoin(hosts, ", "), "]"));
    }
    return tessera::capi::NewBuffer(it->second.ToString());
  });
}

bool tessera_dtensor_layout_shard_vector_equal(const tessera_dtensor_layout* a,
                                               const tessera_dtensor_layout* b,
                                               tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<bool> {
    TESSERA_CAPI_REQUIRE(a);
    TESSERA_CAPI_REQUIRE(b);
    TESSERA_ASSIGN_OR_RETURN(tessera::DTensorShardVector x, a->impl.ShardVector());
    TESSERA_ASSIGN_OR_RETURN(tessera::DTensorShardVector y, b->impl.ShardVector());
    return x == y;
  });
}

size_t tessera_dtensor_layout_offset_to_shard(const tessera_dtensor_layout* layout, size_t offset,
                                              int64_t* out, size_t capacity,
                                              tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<size_t> {
    TESSERA_CAPI_REQUIRE(layout);
    TESSERA_CAPI_REQUIRE_ARRAY(out, capacity);
    return tessera::capi::CopyOut(out, capacity, layout->impl.OffsetToShard(offset));
  });
}

bool tessera_dtensor_layout_offset_tuple_to_global_index(const tessera_dtensor_layout* layout,
                                                         const int64_t* offsets,
                                                         size_t num_offsets, int64_t* out,
                                                         tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(layout);
    TESSERA_CAPI_REQUIRE_ARRAY(offsets, num_offsets);
    TESSERA_CAPI_REQUIRE(out);
    TESSERA_ASSIGN_OR_RETURN(
        *out, layout->impl.OffsetTupleToGlobalIndex(absl::MakeConstSpan(offsets, num_offsets)));
    return absl::OkStatus();
  });
}

size_t tessera_dtensor_layout_local_shape_from_global(const tessera_dtensor_layout* layout,
                                                      const int64_t* global_shape,
                                                      size_t num_dims, int64_t* out,
                                                      size_t capacity,
                                                      tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<size_t> {
    TESSERA_CAPI_REQUIRE(layout);
    TESSERA_CAPI_REQUIRE_ARRAY(global_shape, num_dims);
    TESSERA_CAPI_REQUIRE_ARRAY(out, capacity);
    return tessera::capi::CopyOut(
        out, capacity,
        layout->impl.LocalShapeFromGlobalShape(absl::MakeConstSpan(global_shape, num_dims)));
  });
}

size_t tessera_dtensor_layout_global_shape_from_local(const tessera_dtensor_layout* layout,
                                                      const int64_t* local_shape, size_t num_dims,
                                                      const int64_t* local_shapes,
                                                      size_t num_local_shapes, int64_t* out,
                                                      size_t capacity,
                                                      tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<size_t> {
    TESSERA_CAPI_REQUIRE(layout);
    TESSERA_CAPI_REQUIRE_ARRAY(local_shape, num_dims);
    TESSERA_CAPI_REQUIRE_ARRAY(out, capacity);
    std::vector<std::vector<int64_t>> shapes;
    if (local_shapes != nullptr) {
      for (size_t k = 0; k < num_local_shapes; ++k) {
        shapes.emplace_back(local_shapes + k * num_dims, local_shapes + (k + 1) * num_dims);
      }
    } else if (num_local_shapes != 0) {
      return tessera::capi::CheckArray(local_shapes, num_local_shapes, "local_shapes",
                                       "num_local_shapes");
    }
    return tessera::capi::CopyOut(
        out, capacity,
        layout->impl.GlobalShapeFromLocalShape(absl::MakeConstSpan(local_shape, num_dims),
                                               local_shapes != nullptr ? &shapes : nullptr));
  });
}

bool tessera_dtensor_layout_is_dynamic_extent(int64_t extent) noexcept {
  return tessera::IsDTensorDynamicSize(extent);
}

// ---- DTensor mesh queries ----------------------------------------------------

tessera_dtensor_mesh* tessera_dtensor_mesh_to_device_type(const tessera_dtensor_mesh* mesh,
                                                         const char* device_type,
                                                         tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_dtensor_mesh*> {
    TESSERA_CAPI_REQUIRE(mesh);
    TESSERA_CAPI_REQUIRE(device_type);
    TESSERA_ASSIGN_OR_RETURN(DTensorMesh converted,
                             tessera::DTensorMeshToDeviceType(mesh->impl, device_type));
    return tessera::capi::NewDTensorMesh(std::move(converted));
  });
}

bool tessera_dtensor_mesh_dim_lookup(const tessera_dtensor_mesh* mesh, const char* name,
                                     size_t* out, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(mesh);
    TESSERA_CAPI_REQUIRE(name);
    TESSERA_CAPI_REQUIRE(out);
    TESSERA_ASSIGN_OR_RETURN(*out, mesh->impl.DimIndex(name));
    return absl::OkStatus();
  });
}

size_t tessera_dtensor_mesh_device_location(const tessera_dtensor_mesh* mesh, size_t offset,
                                            int64_t* out, size_t capacity,
                                            tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<size_t> {
    TESSERA_CAPI_REQUIRE(mesh);
    TESSERA_CAPI_REQUIRE_ARRAY(out, capacity);
    return tessera::capi::CopyOut(out, capacity,
                                  tessera::DTensorMeshDeviceLocation(mesh->impl, offset));
  });
}

size_t tessera_dtensor_mesh_num_hosts(const tessera_dtensor_mesh* mesh,
                                      tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(mesh, mesh->hosts.size());
}

const char* tessera_dtensor_mesh_host(const tessera_dtensor_mesh* mesh, size_t index,
                                     tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET_AT(mesh, index, mesh->hosts.size(), "the number of hosts",
                             mesh->hosts[index].c_str());
}
