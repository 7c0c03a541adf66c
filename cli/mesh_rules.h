// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The mesh and the layout map of a --mesh spec and a rules file, through the
// C ABI, for every command that takes --mesh and --rules.
#ifndef TESSERA_CLI_MESH_RULES_H_
#define TESSERA_CLI_MESH_RULES_H_

#include "cli/handles.h"
#include "cli/plan_options.h"
#include "cli/rules.h"

namespace tessera_cli {

// The mesh over "cpu:0".."cpu:N-1" (devices this process lacks are
// simulated). InputError "--mesh '<text>': <library message>".
Mesh CreateMesh(const MeshSpec& spec);

// The layout of `axes` on `mesh`; NULL with `*error` set when the library
// refuses it.
Layout CreateLayout(const std::vector<AxisGroup>& axes, const tessera_mesh* mesh, tessera_error** error);

// One rule per line of `rules`, in order, on `mesh`. InputError
// "<source>:<line>: rule '<pattern>': <library message>".
LayoutMap CreateLayoutMap(const tessera_mesh* mesh, const RuleSet& rules, tessera_key_match_t match);

}  // namespace tessera_cli

#endif  // TESSERA_CLI_MESH_RULES_H_
