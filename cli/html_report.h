// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// `tessera plan --html FILE`: the plan as one self-contained HTML page (inline
// CSS; no script, font or image from anywhere): a memory bar per device
// against its capacity, each variable's shards as a grid of boxes (the
// picture `tessera show` draws), and the flagged variables.
#ifndef TESSERA_CLI_HTML_REPORT_H_
#define TESSERA_CLI_HTML_REPORT_H_

#include <string>

#include "cli/plan.h"
#include "cli/plan_options.h"

namespace tessera_cli {

// Sizes the layout test (tests/cli/check_report.py) measures in the
// rendered page, in CSS pixels.
constexpr int kBarWidthPx = 600;   // the longest bar: the scale's full length
constexpr int kGridWidthPx = 360;  // a variable's grid, all columns together

// The page for `plan`, made with `options` (the mesh the grids are drawn on
// and the shard check they follow).
std::string HtmlReport(const Plan& plan, const PlanOptions& options);

// Writes HtmlReport to `path`. InputError "--html '<path>': cannot write: <reason>".
void WriteHtmlReport(const Plan& plan, const PlanOptions& options, const std::string& path);

}  // namespace tessera_cli

#endif  // TESSERA_CLI_HTML_REPORT_H_
