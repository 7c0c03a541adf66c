// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Owners for the C ABI's handles and errors, so no path through the CLI can
// forget a _destroy. The CLI uses only the public C headers (ARCHITECTURE.md:
// the CLI is the C ABI's first user).
#ifndef TESSERA_CLI_HANDLES_H_
#define TESSERA_CLI_HANDLES_H_

#include <memory>
#include <stdexcept>
#include <string>

#include "tessera/tessera.h"

namespace tessera_cli {

template <typename T, void (*Destroy)(T*)>
struct Destroyer {
  void operator()(T* handle) const { Destroy(handle); }
};

using Mesh = std::unique_ptr<tessera_mesh, Destroyer<tessera_mesh, tessera_mesh_destroy>>;
using Device = std::unique_ptr<tessera_device, Destroyer<tessera_device, tessera_device_destroy>>;
using Layout = std::unique_ptr<tessera_layout, Destroyer<tessera_layout, tessera_layout_destroy>>;
using LayoutMap =
    std::unique_ptr<tessera_layout_map, Destroyer<tessera_layout_map, tessera_layout_map_destroy>>;
using Buffer = std::unique_ptr<tessera_buffer, Destroyer<tessera_buffer, tessera_buffer_destroy>>;
using Error = std::unique_ptr<tessera_error, Destroyer<tessera_error, tessera_error_destroy>>;
using Sharding =
    std::unique_ptr<tessera_sharding, Destroyer<tessera_sharding, tessera_sharding_destroy>>;

// Bad input from the user (an argument, a file, a line): printed as
// "tessera plan: <message>" with exit status 2.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The message of `error`, which this call destroys. Tessera's messages already
// name the argument and the value, so the CLI only adds where it came from.
inline std::string TakeMessage(tessera_error* error) {
  Error owned(error);
  return owned ? tessera_error_message(owned.get()) : "unknown error";
}

}  // namespace tessera_cli

#endif  // TESSERA_CLI_HANDLES_H_
