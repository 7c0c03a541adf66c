// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// tessera/torch.h: PyTorch DTensor placements.
#include <string>

#include "capi/guard.h"
#include "capi/handles.h"
#include "core/formats/torch_placements.h"

using tessera::capi::Guard;

tessera_buffer* tessera_layout_to_torch_placements(const tessera_layout* layout,
                                                   tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_buffer*> {
    TESSERA_CAPI_REQUIRE(layout);
    TESSERA_ASSIGN_OR_RETURN(std::string text, tessera::LayoutToTorchPlacementsText(*layout->impl));
    return tessera::capi::NewBuffer(std::move(text));
  });
}

tessera_layout* tessera_layout_from_torch_placements(const char* text, const tessera_mesh* mesh,
                                                     size_t rank,
                                                     tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_layout*> {
    TESSERA_CAPI_REQUIRE(text);
    TESSERA_CAPI_REQUIRE(mesh);
    TESSERA_ASSIGN_OR_RETURN(tessera::TensorLayout layout,
                             tessera::LayoutFromTorchPlacementsText(text, mesh->impl, rank));
    return tessera::capi::NewLayout(std::move(layout));
  });
}
