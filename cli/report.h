// Printing a plan as text.
#ifndef TESSERA_CLI_REPORT_H_
#define TESSERA_CLI_REPORT_H_

#include <string>

#include "cli/plan.h"

namespace tessera_cli {

// The header, the variable table, the per-device totals and the summary line.
std::string FormatPlan(const Plan& plan);

}  // namespace tessera_cli

#endif  // TESSERA_CLI_REPORT_H_
