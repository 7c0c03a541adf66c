// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// How every `tessera` command reads its options: `--name VALUE` or
// `--name=VALUE`, a few flags that take no value, and -h/--help. One scanner,
// so that every command refuses a typo, a stray argument or a missing value
// with the same words.
#ifndef TESSERA_CLI_COMMAND_LINE_H_
#define TESSERA_CLI_COMMAND_LINE_H_

#include <functional>
#include <string>
#include <vector>

namespace tessera_cli {

struct OptionTable {
  std::string command;              // "plan": messages point to 'tessera plan --help'
  std::vector<std::string> flags;   // options without a value ("--json")
  std::vector<std::string> values;  // options with a value ("--mesh")
};

// Calls `on_flag("--help")` for -h or --help, `on_flag(name)` for each flag
// and `on_value(name, value)` for each option with a value, in order.
// InputError for an argument that is not an option, an unknown option
// (reported before a missing value, so a typo is named as one) and an option
// without its value.
void ScanOptions(const std::vector<std::string>& args, const OptionTable& table,
                 const std::function<void(const std::string& flag)>& on_flag,
                 const std::function<void(const std::string& name, const std::string& value)>& on_value);

}  // namespace tessera_cli

#endif  // TESSERA_CLI_COMMAND_LINE_H_
