// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/cluster/host_port.h"

#include <netdb.h>
#include <sys/socket.h>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "core/status_macros.h"

namespace tessera::cluster {
namespace {

absl::Status BadAddress(absl::string_view text, absl::string_view what, absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat(what, " must be \"host:port\" (IPv6 as \"[::1]:port\"), got \"",
                                                 text, "\": ", why));
}

bool AllDigits(absl::string_view text) {
  if (text.empty()) return false;
  for (char c : text) {
    if (!absl::ascii_isdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

}  // namespace

std::string HostPort::ToString() const {
  std::string out = absl::StrContains(host, ':') ? absl::StrCat("[", host, "]") : host;
  if (port) absl::StrAppend(&out, ":", *port);
  return out;
}

std::string AddressText(const std::optional<HostPort>& address) {
  return address ? address->ToString() : std::string();
}

HostPort WithBoundPort(HostPort address, int32_t port) {
  if (address.port.value_or(0) == 0) address.port = port;
  return address;
}

bool HostPort::IsLoopback() const {
  const std::string lower = absl::AsciiStrToLower(host);
  return lower == "localhost" || absl::EndsWith(lower, ".localhost") || absl::StartsWith(lower, "127.") ||
         lower == "::1" || lower == "0:0:0:0:0:0:0:1";
}

absl::StatusOr<int32_t> ParsePort(absl::string_view text, absl::string_view what, bool allow_zero) {
  int64_t port = -1;
  // Digits only: SimpleAtoi would accept "+80" and " 80".
  if (!AllDigits(text) || text.size() > 5 || !absl::SimpleAtoi(text, &port) || port > 65535 ||
      (port == 0 && !allow_zero)) {
    return absl::InvalidArgumentError(absl::StrCat(what, " must be a port number in ", allow_zero ? 0 : 1,
                                                   "..65535, got \"", text, "\""));
  }
  return static_cast<int32_t>(port);
}

absl::StatusOr<HostPort> ParseHostPort(absl::string_view text, absl::string_view what, bool allow_port_zero) {
  HostPort result;
  absl::string_view rest;
  if (absl::StartsWith(text, "[")) {
    const size_t close = text.find(']');
    if (close == absl::string_view::npos) return BadAddress(text, what, "'[' without ']'");
    result.host = std::string(text.substr(1, close - 1));
    rest = text.substr(close + 1);
    if (!rest.empty() && rest[0] != ':') return BadAddress(text, what, "text after ']' is not \":port\"");
  } else {
    const size_t colon = text.find(':');
    if (colon != absl::string_view::npos && text.find(':', colon + 1) != absl::string_view::npos) {
      return BadAddress(text, what, "an IPv6 address needs brackets");
    }
    result.host = std::string(text.substr(0, colon));
    if (colon != absl::string_view::npos) rest = text.substr(colon);
  }
  if (result.host.empty()) return BadAddress(text, what, "the host is empty");
  for (char c : result.host) {
    if (absl::ascii_isspace(static_cast<unsigned char>(c)) || c == '/' || c == ',' || c == '[' || c == ']') {
      return BadAddress(text, what, absl::StrCat("the host contains '", std::string(1, c), "'"));
    }
  }
  if (!rest.empty()) {  // ":port"
    absl::StatusOr<int32_t> port = ParsePort(rest.substr(1), what, allow_port_zero);
    if (!port.ok()) {
      return BadAddress(text, what, absl::StrCat("the port must be a number in ", allow_port_zero ? 0 : 1, "..65535"));
    }
    result.port = *port;
  }
  return result;
}

void AddrInfoFree::operator()(addrinfo* list) const { freeaddrinfo(list); }

absl::StatusOr<AddrInfoList> ResolveTcp(const HostPort& address, int flags) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = flags | AI_NUMERICSERV;
  const std::string port = std::to_string(address.port.value_or(0));
  const char* host = address.host.empty() ? nullptr : address.host.c_str();
  addrinfo* found = nullptr;
  if (int rc = getaddrinfo(host, port.c_str(), &hints, &found); rc != 0) {
    return absl::UnavailableError(gai_strerror(rc));
  }
  return AddrInfoList(found);
}

}  // namespace tessera::cluster
