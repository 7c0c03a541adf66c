// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The `tessera` command. Built only on the public C ABI.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "cli/devices.h"
#include "cli/handles.h"
#include "cli/html_report.h"
#include "cli/load.h"
#include "cli/reshard.h"
#include "cli/capacity.h"
#include "cli/plan.h"
#include "cli/plan_checkpoint.h"
#include "cli/plan_json.h"
#include "cli/plan_options.h"
#include "cli/plan_search.h"
#include "cli/report.h"
#include "cli/rules.h"
#include "cli/show.h"
#include "cli/text_input.h"
#include "cli/variables.h"
#include "tessera/tessera.h"

#if TESSERA_HAS_CLUSTER
#include "cli/coordinator.h"
#include "cli/status.h"
#endif

namespace tessera_cli {
namespace {

constexpr int kExitOk = 0;
constexpr int kExitFlagged = 1;
constexpr int kExitUsage = 2;

const char kHelp[] = R"(Usage: tessera <command> [options]

Tessera plans how tensors are spread over accelerators.

Commands:
  plan        show how a model's variables are split over a device mesh
  devices     list this process's devices and how they were found
  show        draw how one tensor is split over a device mesh
  load        read one process's shards of a checkpoint (safetensors, GGUF)
  reshard     plan (and --verify) restoring a sharded checkpoint on another mesh
)"
#if TESSERA_HAS_CLUSTER
                     R"(  coordinator serve a multi-host job's coordinator until the job ends
  status      show who is stuck where in a running job (asks its coordinator)
)"
#endif
                     R"(
Options:
  -h, --help  show this help
  --version   print the version of the Tessera library

Run 'tessera plan --help' for the options of plan, 'tessera load --help' for
those of load.
)";

void Print(std::FILE* stream, const std::string& text) {
  std::fwrite(text.data(), 1, text.size(), stream);
}

int RunPlan(const std::vector<std::string>& args) {
  PlanOptions options = ParsePlanOptions(args);
  if (options.help) {
    Print(stdout, kPlanHelp);
    return kExitOk;
  }
  if (options.search > 0) {
    Search search = SearchMeshes(options);
    Print(stdout, options.json ? SearchJson(search) : FormatSearch(search));
    return search.fitting > 0 ? kExitOk : kExitFlagged;
  }
  Plan plan;
  if (!options.checkpoint_path.empty()) {
    plan = MakeCheckpointPlan(options);
  } else {
    RuleSet rules = options.rules_path.empty()
                        ? DefaultRules()
                        : ParseRules(ReadFile(options.rules_path, "--rules"), options.rules_path);
    VariableSet variables =
        options.vars_path.empty()
            ? DefaultVariables()
            : ParseVariables(ReadFile(options.vars_path, "--vars"), options.vars_path);
    plan = MakePlan(options, rules, variables);
    const Capacities capacities = ResolveCapacities(options, options.mesh.num_devices);
    plan.capacity = capacities.source;
    ApplyCapacities(capacities.bytes, &plan);
  }
  if (!options.html_path.empty()) WriteHtmlReport(plan, options, options.html_path);
  Print(stdout, options.json ? PlanJson(plan) : FormatPlan(plan));
  return plan.flagged > 0 || plan.not_fitting > 0 ? kExitFlagged : kExitOk;
}

int Run(const std::vector<std::string>& args) {
  if (args.empty()) {
    Print(stderr, kHelp);
    return kExitUsage;
  }
  const std::string& command = args[0];
  if (command == "-h" || command == "--help") {
    Print(stdout, kHelp);
    return kExitOk;
  }
  if (command == "--version") {
    Print(stdout, std::string("tessera ") + tessera_version_string() + "\n");
    return kExitOk;
  }
  if (command == "plan") {
    try {
      return RunPlan(std::vector<std::string>(args.begin() + 1, args.end()));
    } catch (const InputError& e) {
      Print(stderr, std::string("tessera plan: ") + e.what() + "\n");
      return kExitUsage;
    }
  }
  if (command == "coordinator") {
#if TESSERA_HAS_CLUSTER
    return RunCoordinator(std::vector<std::string>(args.begin() + 1, args.end()));
#else
    Print(stderr, "tessera coordinator: this Tessera was built without the cluster API "
                  "(-Dcluster=disabled); rebuild with -Dcluster=enabled to serve a coordinator\n");
    return kExitUsage;
#endif
  }
  if (command == "load") {
    try {
      return RunLoad(std::vector<std::string>(args.begin() + 1, args.end()));
    } catch (const InputError& e) {
      Print(stderr, std::string("tessera load: ") + e.what() + "\n");
      return kExitUsage;
    }
  }
  if (command == "reshard") {
    try {
      return RunReshard(std::vector<std::string>(args.begin() + 1, args.end()));
    } catch (const InputError& e) {
      Print(stderr, std::string("tessera reshard: ") + e.what() + "\n");
      return kExitUsage;
    }
  }
  if (command == "status") {
#if TESSERA_HAS_CLUSTER
    return RunStatus(std::vector<std::string>(args.begin() + 1, args.end()));
#else
    Print(stderr, "tessera status: this Tessera was built without the cluster API "
                  "(-Dcluster=disabled); rebuild with -Dcluster=enabled to ask a coordinator\n");
    return kExitUsage;
#endif
  }
  if (command == "devices") {
    try {
      Print(stdout, DevicesReport(std::vector<std::string>(args.begin() + 1, args.end())));
      return kExitOk;
    } catch (const InputError& e) {
      Print(stderr, std::string("tessera devices: ") + e.what() + "\n");
      return kExitUsage;
    }
  }
  if (command == "show") {
    try {
      Print(stdout, ShowReport(std::vector<std::string>(args.begin() + 1, args.end())));
      return kExitOk;
    } catch (const InputError& e) {
      Print(stderr, std::string("tessera show: ") + e.what() + "\n");
      return kExitUsage;
    }
  }
  Print(stderr, "tessera: unknown command '" + command + "' (see 'tessera --help')\n");
  return kExitUsage;
}

}  // namespace
}  // namespace tessera_cli

int main(int argc, char** argv) {
  try {
    return tessera_cli::Run(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tessera: %s\n", e.what());
    return tessera_cli::kExitUsage;
  }
}
