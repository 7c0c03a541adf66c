#include "core/cluster/connect_retry.h"

#include <algorithm>

#include "absl/random/distributions.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace tessera::cluster {

absl::Duration Backoff::Cap() const {
  absl::Duration cap = initial_;
  for (int i = 0; i < attempts_ && cap < max_; ++i) cap *= 2;
  return std::min(cap, max_);
}

absl::Duration Backoff::Next(absl::BitGenRef gen) {
  const absl::Duration cap = Cap();
  ++attempts_;
  const double fraction = absl::Uniform(absl::IntervalClosedClosed, gen, 0.0, 1.0);
  return cap * fraction;
}

ConnectFailure ClassifyConnectFailure(const absl::Status& status) {
  if (status.ok()) return ConnectFailure::kNone;
  if (status.code() == absl::StatusCode::kDeadlineExceeded) return ConnectFailure::kNoResponse;
  if (status.code() != absl::StatusCode::kUnavailable) return ConnectFailure::kOther;
  const std::string message = absl::AsciiStrToLower(status.message());
  if (absl::StrContains(message, "connection refused")) return ConnectFailure::kRefused;
  if (absl::StrContains(message, "dns") ||
      absl::StrContains(message, "resolution failed") ||
      absl::StrContains(message, "resolve")) {
    return ConnectFailure::kDns;
  }
  if (absl::StrContains(message, "handshak") || absl::StrContains(message, "timed out") ||
      absl::StrContains(message, "timeout")) {
    return ConnectFailure::kNoResponse;
  }
  return ConnectFailure::kOther;
}

bool IsRetryableConnectError(const absl::Status& status) {
  return status.code() == absl::StatusCode::kUnavailable ||
         status.code() == absl::StatusCode::kDeadlineExceeded;
}

absl::Status RegistrationTimeoutError(const std::string& address, absl::Duration init_timeout,
                                      int attempts, const absl::Status& last_error) {
  const ConnectFailure failure = ClassifyConnectFailure(last_error);
  std::string cause;
  switch (failure) {
    case ConnectFailure::kRefused:
      cause = "connection refused (coordinator not up yet, or it failed to bind?)";
      break;
    case ConnectFailure::kDns:
      cause = absl::StrCat("the host name of '", address, "' did not resolve (DNS)");
      break;
    case ConnectFailure::kNoResponse:
      cause = "no response (firewall? wrong port?)";
      break;
    default:
      cause = "the coordinator could not be reached";
      break;
  }
  const std::string message = absl::StrCat(
      "could not register with the coordinator at ", address, " within ",
      absl::FormatDuration(init_timeout), " (", attempts, attempts == 1 ? " attempt" : " attempts",
      "): ", cause, "; last error: ", absl::StatusCodeToString(last_error.code()), ": ",
      last_error.message());
  if (failure == ConnectFailure::kNoResponse) return absl::DeadlineExceededError(message);
  return absl::UnavailableError(message);
}

}  // namespace tessera::cluster
