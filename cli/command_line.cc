// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "cli/command_line.h"

#include <algorithm>

#include "cli/handles.h"

namespace tessera_cli {
namespace {

bool Contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

void ScanOptions(const std::vector<std::string>& args, const OptionTable& table,
                 const std::function<void(const std::string& flag)>& on_flag,
                 const std::function<void(const std::string& name, const std::string& value)>& on_value) {
  const std::string see = " (see 'tessera " + table.command + " --help')";
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "-h" || arg == "--help") {
      on_flag("--help");
      continue;
    }
    if (Contains(table.flags, arg)) {
      on_flag(arg);
      continue;
    }
    if (arg.rfind("--", 0) != 0) throw InputError("unexpected argument '" + arg + "'" + see);
    const size_t equals = arg.find('=');
    const std::string name = arg.substr(0, equals);
    if (!Contains(table.values, name)) throw InputError("unknown option '" + name + "'" + see);
    if (equals != std::string::npos) {
      on_value(name, arg.substr(equals + 1));
    } else if (i + 1 < args.size()) {
      on_value(name, args[++i]);
    } else {
      throw InputError("option '" + name + "' needs a value");
    }
  }
}

}  // namespace tessera_cli
