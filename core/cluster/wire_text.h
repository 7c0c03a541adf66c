// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Text users give that the coordinator protocol carries in protobuf strings
// (keys, list prefixes, barrier ids, reported error messages). Protobuf
// requires UTF-8 there: a string that is not fails to parse at the other
// end, which gRPC reports as UNIMPLEMENTED with no message. So identifiers
// are checked before they are sent (and by the coordinator again, its
// request fields being bytes), and free text is escaped instead.
#ifndef TESSERA_CORE_CLUSTER_WIRE_TEXT_H_
#define TESSERA_CORE_CLUSTER_WIRE_TEXT_H_

#include <cstddef>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace tessera::cluster {

// The longest identifier (key, list prefix, barrier id, job id), in bytes as
// given.
// 4 KiB is Linux's PATH_MAX: room for any sensible slash path, while a
// listing of many keys and every message naming one stay small. (etcd,
// Consul, ZooKeeper and jax's coordination service bound keys only by their
// request sizes, 1.5 MiB and up: a key that large is a value in the wrong
// place.)
inline constexpr size_t kMaxIdBytes = 4096;

// INVALID_ARGUMENT unless `text`, the argument `argument` ("key", "prefix",
// "barrier_id", "job_id"), is UTF-8 of at most kMaxIdBytes; the message shows the
// text's start escaped (ShownText) and what is expected.
absl::Status CheckWireId(absl::string_view argument, absl::string_view text);

// `text` in double quotes, bytes outside printable ASCII (and '"', '\') as
// \xNN, so that a message stays text whatever `text` holds; the first 64
// bytes only, then "...".
std::string ShownText(absl::string_view text);

// `text` when it is UTF-8, else every byte outside printable ASCII as \xNN
// (what a reported error message becomes rather than being lost).
std::string AsWireText(absl::string_view text);

}  // namespace tessera::cluster

#endif  // TESSERA_CORE_CLUSTER_WIRE_TEXT_H_
