// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// tessera/client.h: a process's membership in a job.
#include "tessera/client.h"
#include "tessera/experimental/cluster.h"

#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "capi/client_handles.h"
#include "capi/cluster_handles.h"
#include "capi/guard.h"
#include "capi/handles.h"
#include "core/cluster/runtime.h"
#include "core/status_macros.h"

namespace tessera::capi {
namespace {

using cluster::Client;
using cluster::ClientEvent;

absl::StatusOr<absl::Duration> Timeout(int64_t timeout_ms, const char* name) {
  if (timeout_ms < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("Argument '", name, "' must be >= 0, got ", timeout_ms));
  }
  return absl::Milliseconds(timeout_ms);
}

absl::Status CheckKey(const char* key, const char* name) {
  TESSERA_RETURN_IF_ERROR(CheckNotNull(key, name));
  if (key[0] == '\0') {
    return absl::InvalidArgumentError(
        absl::StrCat("Argument '", name, "' is \"\"; expected a non-empty \"/\"-separated key"));
  }
  return absl::OkStatus();
}

absl::Status CheckClient(const tessera_client* client) {
  TESSERA_RETURN_IF_ERROR(CheckNotNull(client, "client"));
  if (client->impl == nullptr) return absl::InvalidArgumentError("Argument 'client' is not connected");
  return absl::OkStatus();
}

// Process ids as the coordinator takes them: 0 <= id < num_processes.
absl::StatusOr<std::vector<int64_t>> ProcessIds(const Client& client, const size_t* ids,
                                                size_t count, const char* name,
                                                const char* count_name) {
  TESSERA_RETURN_IF_ERROR(CheckArray(ids, count, name, count_name));
  std::vector<int64_t> result;
  result.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    if (ids[i] >= static_cast<size_t>(client.num_processes())) {
      return absl::InvalidArgumentError(absl::StrCat("Argument '", name, "[", i, "]' is ", ids[i],
                                                     "; expected less than ",
                                                     client.num_processes(), " (num_processes)"));
    }
    result.push_back(ids[i]);
  }
  return result;
}

std::string Bytes(const void* data, size_t size) {
  return size == 0 ? std::string() : std::string(static_cast<const char*>(data), size);
}

// The same bytes without a copy (a value over the limit is refused unread).
absl::string_view BytesView(const void* data, size_t size) {
  return size == 0 ? absl::string_view() : absl::string_view(static_cast<const char*>(data), size);
}

cluster::ClusterOptions OptionsOf(const tessera_cluster_options* options) {
  return options == nullptr ? cluster::ClusterOptions{} : options->impl;
}

}  // namespace
}  // namespace tessera::capi

using tessera::capi::CheckArray;
using tessera::capi::CheckClient;
using tessera::capi::CheckKey;
using tessera::capi::CheckNotNull;
using tessera::capi::Guard;
using tessera::capi::GuardOr;

tessera_client* tessera_client_connect(const tessera_cluster_options* options,
                                       tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_client*> {
    TESSERA_ASSIGN_OR_RETURN(tessera::cluster::ClusterConfig config,
                             tessera::cluster::ResolveConfig(tessera::capi::OptionsOf(options)));
    TESSERA_ASSIGN_OR_RETURN(std::unique_ptr<tessera::cluster::Client> client,
                             tessera::cluster::Client::Connect(config));
    return new tessera_client{std::move(client)};
  });
}

size_t tessera_client_process_index(const tessera_client* client,
                                    tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET_IF(CheckClient(client), client->impl->process_id());
}

size_t tessera_client_num_processes(const tessera_client* client,
                                    tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET_IF(CheckClient(client), client->impl->num_processes());
}

uint64_t tessera_client_topology_fingerprint(const tessera_client* client,
                                             tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET_IF(CheckClient(client), client->impl->fingerprint());
}

int64_t tessera_client_topology_generation(const tessera_client* client,
                                           tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET_IF(CheckClient(client), client->impl->generation());
}

const char* tessera_client_coordinator_address(const tessera_client* client,
                                               tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET_IF(CheckClient(client), client->impl->coordinator_address().c_str());
}

tessera_device_list* tessera_client_devices(const tessera_client* client,
                                            tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_device_list*> {
    TESSERA_RETURN_IF_ERROR(CheckClient(client));
    TESSERA_ASSIGN_OR_RETURN(std::vector<tessera::Device> devices, client->impl->Devices());
    return new tessera_device_list{std::move(devices)};
  });
}

// ---- key-value store --------------------------------------------------------

bool tessera_client_kv_set(tessera_client* client, const char* key, const void* value, size_t size,
                           bool allow_overwrite, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_RETURN_IF_ERROR(CheckClient(client));
    TESSERA_RETURN_IF_ERROR(CheckKey(key, "key"));
    TESSERA_CAPI_REQUIRE_ARRAY(value, size);
    return client->impl->KvSet(key, tessera::capi::BytesView(value, size), allow_overwrite);
  });
}

tessera_buffer* tessera_client_kv_wait(tessera_client* client, const char* key, int64_t timeout_ms,
                                      tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_buffer*> {
    TESSERA_RETURN_IF_ERROR(CheckClient(client));
    TESSERA_RETURN_IF_ERROR(CheckKey(key, "key"));
    TESSERA_ASSIGN_OR_RETURN(absl::Duration timeout, tessera::capi::Timeout(timeout_ms, "timeout_ms"));
    TESSERA_ASSIGN_OR_RETURN(std::string value, client->impl->KvGet(key, timeout));
    return tessera::capi::NewBuffer(std::move(value));
  });
}

tessera_buffer* tessera_client_kv_lookup(tessera_client* client, const char* key,
                                          tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_buffer*> {
    TESSERA_RETURN_IF_ERROR(CheckClient(client));
    TESSERA_RETURN_IF_ERROR(CheckKey(key, "key"));
    TESSERA_ASSIGN_OR_RETURN(std::string value, client->impl->KvTryGet(key));
    return tessera::capi::NewBuffer(std::move(value));
  });
}

tessera_kv_list* tessera_client_kv_list(tessera_client* client, const char* prefix,
                                        tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_kv_list*> {
    TESSERA_RETURN_IF_ERROR(CheckClient(client));
    TESSERA_CAPI_REQUIRE(prefix);
    TESSERA_ASSIGN_OR_RETURN(std::vector<tessera::cluster::KvEntry> entries,
                             client->impl->KvList(prefix));
    return new tessera_kv_list{std::move(entries)};
  });
}

bool tessera_client_kv_remove(tessera_client* client, const char* key, bool recursive,
                              tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_RETURN_IF_ERROR(CheckClient(client));
    TESSERA_RETURN_IF_ERROR(CheckKey(key, "key"));
    return client->impl->KvDelete(key, recursive);
  });
}

bool tessera_client_kv_increment(tessera_client* client, const char* key, int64_t delta,
                                 int64_t* out_value, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_RETURN_IF_ERROR(CheckClient(client));
    TESSERA_RETURN_IF_ERROR(CheckKey(key, "key"));
    TESSERA_CAPI_REQUIRE(out_value);
    TESSERA_ASSIGN_OR_RETURN(*out_value, client->impl->KvIncrement(key, delta));
    return absl::OkStatus();
  });
}

bool tessera_client_kv_compare_and_swap(tessera_client* client, const char* key,
                                        const void* expected, size_t expected_size,
                                        const void* desired, size_t desired_size,
                                        bool* out_swapped, tessera_buffer** out_current,
                                        tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_RETURN_IF_ERROR(CheckClient(client));
    TESSERA_RETURN_IF_ERROR(CheckKey(key, "key"));
    TESSERA_CAPI_REQUIRE_ARRAY(desired, desired_size);
    TESSERA_CAPI_REQUIRE(out_swapped);
    // NULL `expected` means "only if absent", so a non-zero size with it is
    // a mistake rather than an empty value.
    if (expected == nullptr && expected_size != 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Argument 'expected' is NULL (only if absent) but 'expected_size' is ", expected_size,
          "; expected 0"));
    }
    std::optional<std::string> expected_value;
    if (expected != nullptr) expected_value = tessera::capi::Bytes(expected, expected_size);
    TESSERA_ASSIGN_OR_RETURN(
        tessera::cluster::CompareAndSwapResult result,
        client->impl->KvCompareAndSwap(key, expected_value,
                                       tessera::capi::Bytes(desired, desired_size)));
    if (out_current != nullptr) {
      *out_current = result.current.has_value() ? tessera::capi::NewBuffer(std::move(*result.current))
                                                : nullptr;
    }
    *out_swapped = result.swapped;
    return absl::OkStatus();
  });
}

size_t tessera_kv_list_num_entries(const tessera_kv_list* list,
                                   tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(list, list->impl.size());
}

const char* tessera_kv_list_key(const tessera_kv_list* list, size_t index,
                                tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET_AT(list, index, list->impl.size(), "the list's entries",
                            list->impl[index].key.c_str());
}

size_t tessera_kv_list_value(const tessera_kv_list* list, size_t index, void* out,
                             size_t capacity, tessera_error** out_error) noexcept {
  return TESSERA_CAPI_ARRAY_IF(
      tessera::capi::CheckNotNullAndIndex(
          list, "list", index, "index", [&]() -> size_t { return list->impl.size(); },
          "the list's entries"),
      absl::string_view(list->impl[index].value));
}

void tessera_kv_list_destroy(tessera_kv_list* list) noexcept { delete list; }

// ---- barriers and agreement ---------------------------------------------------

bool tessera_client_barrier(tessera_client* client, const char* barrier_id, int64_t timeout_ms,
                            const size_t* participants, size_t num_participants,
                            tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_RETURN_IF_ERROR(CheckClient(client));
    TESSERA_RETURN_IF_ERROR(CheckKey(barrier_id, "barrier_id"));
    TESSERA_ASSIGN_OR_RETURN(absl::Duration timeout, tessera::capi::Timeout(timeout_ms, "timeout_ms"));
    TESSERA_ASSIGN_OR_RETURN(std::vector<int64_t> ids,
                             tessera::capi::ProcessIds(*client->impl, participants, num_participants,
                                                       "participants", "num_participants"));
    return client->impl->Barrier(barrier_id, timeout, ids);
  });
}

bool tessera_client_cancel_barrier(tessera_client* client, const char* barrier_id,
                                   tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_RETURN_IF_ERROR(CheckClient(client));
    TESSERA_RETURN_IF_ERROR(CheckKey(barrier_id, "barrier_id"));
    return client->impl->CancelBarrier(barrier_id);
  });
}

size_t tessera_client_agree_live_processes(tessera_client* client, const size_t* candidates,
                                           size_t num_candidates, int64_t timeout_ms,
                                           size_t* out, size_t capacity,
                                           tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<size_t> {
    TESSERA_RETURN_IF_ERROR(CheckClient(client));
    TESSERA_CAPI_REQUIRE(candidates);
    if (num_candidates == 0) {
      return absl::InvalidArgumentError(
          "Argument 'num_candidates' is 0; expected at least 1 candidate (this process)");
    }
    TESSERA_CAPI_REQUIRE_ARRAY(out, capacity);
    TESSERA_ASSIGN_OR_RETURN(absl::Duration timeout, tessera::capi::Timeout(timeout_ms, "timeout_ms"));
    TESSERA_ASSIGN_OR_RETURN(std::vector<int64_t> ids,
                             tessera::capi::ProcessIds(*client->impl, candidates, num_candidates,
                                                       "candidates", "num_candidates"));
    TESSERA_ASSIGN_OR_RETURN(tessera::cluster::LiveProcesses live,
                             client->impl->AgreeLiveProcesses(ids, timeout));
    return tessera::capi::CopyOut(out, capacity, live.live);
  });
}

// ---- failures and events --------------------------------------------------------

bool tessera_client_report_error(tessera_client* client, tessera_code_t code, const char* message,
                                 tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_RETURN_IF_ERROR(CheckClient(client));
    const int32_t raw = tessera::capi::RawEnum(code);
    if (raw <= TESSERA_OK || raw > TESSERA_UNAUTHENTICATED) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Argument 'code' is ", raw, "; expected an error code (1..", TESSERA_UNAUTHENTICATED,
          ", not TESSERA_OK)"));
    }
    return client->impl->ReportError(static_cast<absl::StatusCode>(raw),
                                     message == nullptr ? "" : message);
  });
}

bool tessera_client_set_event_callback(tessera_client* client, tessera_event_fn callback,
                                       void* user_data, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_RETURN_IF_ERROR(CheckClient(client));
    if (callback == nullptr) {
      client->impl->SetEventCallback(nullptr);
      return absl::OkStatus();
    }
    client->impl->SetEventCallback([callback, user_data](const tessera::cluster::ClientEvent& event) {
      // The wrapper lives for the call only, as the header promises.
      const tessera_event wrapper{event};
      callback(&wrapper, user_data);
    });
    return absl::OkStatus();
  });
}

tessera_event* tessera_client_event_wait(tessera_client* client, int64_t timeout_ms,
                                         tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_event*> {
    TESSERA_RETURN_IF_ERROR(CheckClient(client));
    TESSERA_ASSIGN_OR_RETURN(absl::Duration timeout, tessera::capi::Timeout(timeout_ms, "timeout_ms"));
    TESSERA_ASSIGN_OR_RETURN(tessera::cluster::ClientEvent event, client->impl->NextEvent(timeout));
    return new tessera_event{std::move(event)};
  });
}

tessera_event_kind_t tessera_event_kind(const tessera_event* event,
                                        tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(event, static_cast<tessera_event_kind_t>(event->impl.kind));
}

size_t tessera_event_process_index(const tessera_event* event, tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(event, tessera::capi::ProcessIndex(event->impl.process_id));
}

tessera_task_state_t tessera_event_task_state(const tessera_event* event,
                                              tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(event, tessera::capi::TaskState(event->impl.task_state));
}

tessera_code_t tessera_event_code(const tessera_event* event, tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(event, static_cast<tessera_code_t>(event->impl.code));
}

const char* tessera_event_message(const tessera_event* event, tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(event, event->impl.message.c_str());
}

int64_t tessera_event_generation(const tessera_event* event, tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(event, event->impl.generation);
}

int64_t tessera_event_version(const tessera_event* event, tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(event, event->impl.version);
}

void tessera_event_destroy(tessera_event* event) noexcept { delete event; }

// ---- ending ---------------------------------------------------------------------

void tessera_client_cancel_all(tessera_client* client) noexcept {
  if (client == nullptr || client->impl == nullptr) return;
  client->impl->CancelAll();
}

bool tessera_client_shutdown(tessera_client* client, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_RETURN_IF_ERROR(CheckClient(client));
    return client->impl->Shutdown();
  });
}

void tessera_client_destroy(tessera_client* client) noexcept {
  try {
    delete client;
  } catch (...) {
    // Destruction never throws in practice; nothing may cross the ABI.
  }
}
