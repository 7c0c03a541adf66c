// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// `tessera show`: one tensor's sharding over a mesh drawn in the terminal, as
// jax.debug.visualize_array_sharding draws it. Only the public C ABI.
#ifndef TESSERA_CLI_SHOW_H_
#define TESSERA_CLI_SHOW_H_

#include <string>
#include <vector>

namespace tessera_cli {

// What to print for the arguments after "show": the picture, or the help
// text for -h or --help. InputError for bad options, a layout or shape the
// library refuses, or a checkpoint it cannot read.
std::string ShowReport(const std::vector<std::string>& args);

}  // namespace tessera_cli

#endif  // TESSERA_CLI_SHOW_H_
