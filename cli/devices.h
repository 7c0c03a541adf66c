// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// `tessera devices`: this process's devices as local discovery finds them
// (platform, ordinal, kind, physical id, PCI bus id, memory), which provider
// found the accelerators, and why NVML found none. Only the public C ABI.
#ifndef TESSERA_CLI_DEVICES_H_
#define TESSERA_CLI_DEVICES_H_

#include <string>
#include <vector>

namespace tessera_cli {

extern const char kDevicesHelp[];

// The report for the arguments after "devices" (the help text for -h or
// --help); throws InputError for an unknown argument or when discovery fails
// (a malformed TESSERA_DEVICES).
std::string DevicesReport(const std::vector<std::string>& args);

}  // namespace tessera_cli

#endif  // TESSERA_CLI_DEVICES_H_
