// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Printing a plan as text.
#ifndef TESSERA_CLI_REPORT_H_
#define TESSERA_CLI_REPORT_H_

#include <string>
#include <vector>

#include "cli/plan.h"

namespace tessera_cli {

struct Column {
  std::string title;
  bool right_aligned;
};

// Columns padded to their widest cell; the last column is not padded, so long
// messages in it do not widen the table.
std::string FormatTable(const std::vector<Column>& columns, const std::vector<std::vector<std::string>>& rows);

// "121.09 MiB".
std::string Mebibytes(int64_t bytes);

// "fits", "does not fit", or "-" when the capacity is unknown (-1).
std::string Verdict(const DeviceTotal& total);

// The header, the variable table, the per-device totals and the summary line.
std::string FormatPlan(const Plan& plan);

}  // namespace tessera_cli

#endif  // TESSERA_CLI_REPORT_H_
