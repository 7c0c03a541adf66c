// The mesh and the layout map of a --mesh spec and a rules file, through the
// C ABI. `tessera load` builds them here; `tessera plan` still has its own
// copies in cli/plan.cc (issue 12: another branch changes plan.cc, so the
// move of those to this file is left to the merge).
#ifndef TESSERA_CLI_MESH_RULES_H_
#define TESSERA_CLI_MESH_RULES_H_

#include "cli/handles.h"
#include "cli/plan_options.h"
#include "cli/rules.h"

namespace tessera_cli {

// The mesh over "cpu:0".."cpu:N-1" (devices this process lacks are
// simulated). InputError "--mesh '<text>': <library message>".
Mesh CreateMesh(const MeshSpec& spec);

// One rule per line of `rules`, in order, on `mesh`. InputError
// "<source>:<line>: rule '<pattern>': <library message>".
LayoutMap CreateLayoutMap(const tessera_mesh* mesh, const RuleSet& rules, tessera_key_match_t match);

}  // namespace tessera_cli

#endif  // TESSERA_CLI_MESH_RULES_H_
