// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Writes the HTML report of a handmade plan whose devices have capacities,
// for the layout test (check_report.py): `tessera plan` itself states no
// capacity yet, so the capacity bars are drawn from this Plan.
//   cpu:0  40 MiB of weights, capacity 80 MiB
//   cpu:1  40 MiB of weights, a 60 MiB peak, capacity 80 MiB
//   cpu:2 100 MiB of weights, capacity 80 MiB: 20 MiB over
//   cpu:3  20 MiB of weights, capacity 40 MiB (a smaller device)
#include <cstdio>
#include <exception>

#include "cli/html_report.h"
#include "cli/plan.h"
#include "cli/plan_options.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: html_report_fixture OUT.html\n");
    return 2;
  }
  constexpr int64_t kMiB = 1024 * 1024;
  tessera_cli::PlanOptions options;
  options.mesh = tessera_cli::ParseMeshSpec("model=4");
  tessera_cli::Plan plan;
  plan.mesh = "<DeviceMesh shape=(4,), axis_names=['model']>";
  plan.devices = "cpu:0 .. cpu:3 (handmade)";
  plan.rules = plan.variables = plan.check = "-";
  struct Device {
    int64_t bytes, peak, capacity;
  };
  const Device devices[] = {
      {40 * kMiB, 0, 80 * kMiB},
      {40 * kMiB, 60 * kMiB, 80 * kMiB},
      {100 * kMiB, 0, 80 * kMiB},
      {20 * kMiB, 0, 40 * kMiB},
  };
  for (int i = 0; i < 4; ++i) {
    tessera_cli::DeviceTotal total;
    total.device = "cpu:" + std::to_string(i);
    total.coordinates = "model=" + std::to_string(i);
    total.bytes = devices[i].bytes;
    total.peak_bytes = devices[i].peak;
    total.capacity_bytes = devices[i].capacity;
    plan.totals.push_back(total);
  }
  try {
    tessera_cli::WriteHtmlReport(plan, options, argv[1]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "html_report_fixture: %s\n", e.what());
    return 1;
  }
  return 0;
}
