/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/*
 * One process of a multi-process cluster test: plain C99 on the public C ABI
 * only, the way a customer's program uses it.
 *
 *   cluster_worker [option=value ...] -- step [step ...]
 *
 * Options configure tessera_cluster_options (detection is always "none", so
 * the test's environment never leaks a launcher in):
 *   addr=HOST:PORT  bind=HOST:PORT  n=N  id=K  job=ID  token=SECRET
 *   hb=INTERVAL_MS,TIMEOUT_MS  init_timeout=MS  shutdown_timeout=MS
 *   rpc_timeout=MS  recoverable=0|1  dup_fails_job=0|1
 *   kv_limits=MAX_VALUE_BYTES,MAX_STORE_BYTES  partition=INDEX
 *   tls_cert=F tls_key=F tls_ca=F tls_name=NAME  alarm=SECONDS (default 60)
 *   conn=HANDSHAKE_TIMEOUT_MS,IDLE_TIMEOUT_MS
 *
 * Steps run in order; each prints "B <i> <name>" before it starts and one
 * result line when it ends, so the test driver can follow and time them:
 *   R <i> <name> ok ms=<elapsed> [key=value ...]
 *   R <i> <name> err ms=<elapsed> code=<CODE> reason=<n> source=<n>
 *       missing=<ids> arrived=<ids> msg=<message, newlines as spaces>
 * A failed step does not stop the run: later steps report their own result.
 *
 *   init                    tessera_runtime_initialize (process 0 hosts the coordinator)
 *   connect                 tessera_client_connect (coordinator runs elsewhere)
 *   barrier:ID:MS[:P,P..]   tessera_client_barrier (participants optional)
 *   cancel_barrier:ID
 *   set:KEY:VALUE[:over]    tessera_client_kv_set
 *   get:KEY:MS / tryget:KEY  value=... on success
 *   list:PREFIX             keys=k1,k2,...
 *   del:KEY[:rec]
 *   inc:KEY:DELTA:TIMES     TIMES increments; last=<final value seen>
 *   cas:KEY:EXPECTED|-:DESIRED   swapped=0|1 current=...
 *   agree:MS:P,P..          live=<ids>
 *   devices                 count= ids=<global:process:ordinal,...> fp=
 *   events:MS               one "E kind= pid= code= gen= msg=" line per event
 *                           until none arrives for MS
 *   report:MESSAGE          tessera_client_report_error (INTERNAL)
 *   sleep:MS  shutdown  destroy  exit:CODE
 *   setn:KEY:BYTES[:KEY_BYTES]  tessera_client_kv_set of BYTES bytes 'v'; with
 *                           KEY_BYTES, KEY padded with 'k' to that length;
 *                           ms= times the call only (not the allocation)
 *   getn:KEY:MS             tessera_client_kv_wait; size= and intact=1 when
 *                           every byte is 'v'
 *   fill:PREFIX:COUNT:BYTES  COUNT keys PREFIX/0.. of BYTES bytes each; set=
 *   count:PREFIX            listloop:PREFIX:1
 *   listloop:PREFIX:TIMES    TIMES listings; entries= bytes= of the last, max_ms=
 */
#define _POSIX_C_SOURCE 200809L

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tessera/tessera.h"
#include "tessera/client.h"
#include "tessera/experimental/cluster.h"
#include "tessera/cluster.h"
#include "tessera/log.h"

#define MAX_FIELDS 8
#define MAX_IDS 64

static tessera_client* g_client = NULL;

/* Every library log line goes to stderr, debug included, so the driver can
 * check what the library says (e.g. that no token is ever printed). */
static void log_to_stderr(tessera_log_level_t level, const char* message, size_t size, void* user_data) {
  (void)user_data;
  fprintf(stderr, "log[%d] %.*s\n", (int)level, (int)size, message);
}

static int64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Splits `text` in place at `sep`; returns the number of fields. */
static int split(char* text, char sep, char** fields, int max) {
  int count = 0;
  char* cursor = text;
  while (count < max) {
    char* next = strchr(cursor, sep);
    fields[count++] = cursor;
    if (next == NULL) break;
    *next = '\0';
    cursor = next + 1;
  }
  return count;
}

static size_t parse_ids(const char* text, size_t* ids, size_t max) {
  size_t count = 0;
  const char* cursor = text;
  while (cursor != NULL && *cursor != '\0' && count < max) {
    char* end = NULL;
    ids[count++] = (size_t)strtoull(cursor, &end, 10);
    cursor = (end != NULL && *end == ',') ? end + 1 : NULL;
  }
  return count;
}

static void print_message(const char* message) {
  const char* c;
  for (c = message; c != NULL && *c != '\0'; ++c) putchar(*c == '\n' || *c == '\r' ? ' ' : *c);
}

static void print_ok_begin(int index, const char* name, int64_t start) {
  printf("R %d %s ok ms=%lld", index, name, (long long)(now_ms() - start));
}

static void print_error(int index, const char* name, int64_t start, tessera_error* error) {
  size_t i;
  printf("R %d %s err ms=%lld code=%s reason=%d source=%lld missing=", index, name, (long long)(now_ms() - start),
         tessera_code_name(tessera_error_code(error)), (int)tessera_error_reason(error, NULL),
         (long long)tessera_error_source_process(error, NULL));
  for (i = 0; i < tessera_error_num_missing(error, NULL); ++i) {
    printf("%s%lld", i ? "," : "", (long long)tessera_error_missing_process(error, i, NULL));
  }
  printf(" arrived=");
  for (i = 0; i < tessera_error_num_arrived(error, NULL); ++i) {
    printf("%s%lld", i ? "," : "", (long long)tessera_error_arrived_process(error, i, NULL));
  }
  printf(" msg=");
  print_message(tessera_error_message(error));
  printf("\n");
  tessera_error_destroy(error);
}

static int64_t int_field(char** fields, int count, int index, int64_t fallback) {
  return index < count ? strtoll(fields[index], NULL, 10) : fallback;
}

static tessera_cluster_options* options_from_args(int argc, char** argv, int* next, unsigned* alarm_s) {
  tessera_cluster_options* options = tessera_cluster_options_create();
  tessera_error* error = NULL;
  bool ok = tessera_cluster_options_set_detection(options, "none", &error);
  const char* tls_cert = NULL;
  const char* tls_key = NULL;
  const char* tls_ca = NULL;
  int i;
  for (i = 1; i < argc && ok; ++i) {
    char* arg = argv[i];
    char* value = strchr(arg, '=');
    if (strcmp(arg, "--") == 0) break;
    if (value == NULL) {
      fprintf(stderr, "worker: option without '=': %s\n", arg);
      exit(2);
    }
    *value++ = '\0';
    if (strcmp(arg, "addr") == 0) {
      ok = tessera_cluster_options_set_coordinator_address(options, value, &error);
    } else if (strcmp(arg, "bind") == 0) {
      ok = tessera_cluster_options_set_bind_address(options, value, &error);
    } else if (strcmp(arg, "n") == 0) {
      ok = tessera_cluster_options_set_num_processes(options, strtoll(value, NULL, 10), &error);
    } else if (strcmp(arg, "id") == 0) {
      ok = tessera_cluster_options_set_process_index(options, strtoll(value, NULL, 10), &error);
    } else if (strcmp(arg, "job") == 0) {
      ok = tessera_cluster_options_set_job_id(options, value, &error);
    } else if (strcmp(arg, "token") == 0) {
      ok = tessera_cluster_options_set_job_token(options, value, &error);
    } else if (strcmp(arg, "hb") == 0) {
      char* parts[2] = {value, value};
      int count = split(value, ',', parts, 2);
      ok = tessera_cluster_options_set_heartbeat(options, strtoll(parts[0], NULL, 10),
                                                 strtoll(parts[count - 1], NULL, 10), &error);
    } else if (strcmp(arg, "init_timeout") == 0) {
      ok = tessera_cluster_options_set_init_timeout_ms(options, strtoll(value, NULL, 10), &error);
    } else if (strcmp(arg, "shutdown_timeout") == 0) {
      ok = tessera_cluster_options_set_shutdown_timeout_ms(options, strtoll(value, NULL, 10), &error);
    } else if (strcmp(arg, "rpc_timeout") == 0) {
      ok = tessera_cluster_options_set_rpc_timeout_ms(options, strtoll(value, NULL, 10), &error);
    } else if (strcmp(arg, "recoverable") == 0) {
      ok = tessera_cluster_options_set_recoverable(options, strcmp(value, "1") == 0, &error);
    } else if (strcmp(arg, "dup_fails_job") == 0) {
      ok = tessera_cluster_options_set_fail_job_on_duplicate_id(options, strcmp(value, "1") == 0, &error);
    } else if (strcmp(arg, "kv_limits") == 0) {
      char* parts[2] = {value, value};
      int count = split(value, ',', parts, 2);
      ok = tessera_cluster_options_set_kv_limits(options, strtoll(parts[0], NULL, 10),
                                                 strtoll(parts[count - 1], NULL, 10), &error);
    } else if (strcmp(arg, "partition") == 0) {
      ok = tessera_cluster_options_set_partition_index(options, strtoll(value, NULL, 10), &error);
    } else if (strcmp(arg, "tls_cert") == 0) {
      tls_cert = value;
    } else if (strcmp(arg, "tls_key") == 0) {
      tls_key = value;
    } else if (strcmp(arg, "tls_ca") == 0) {
      tls_ca = value;
    } else if (strcmp(arg, "tls_name") == 0) {
      ok = tessera_cluster_options_set_tls_server_name(options, value, &error);
    } else if (strcmp(arg, "alarm") == 0) {
      *alarm_s = (unsigned)strtoul(value, NULL, 10);
    } else if (strcmp(arg, "conn") == 0) {
      char* parts[2] = {value, value};
      int count = split(value, ',', parts, 2);
      ok = tessera_cluster_options_set_connection_timeouts(options, strtoll(parts[0], NULL, 10),
                                                           strtoll(parts[count - 1], NULL, 10), &error);
    } else {
      fprintf(stderr, "worker: unknown option %s\n", arg);
      exit(2);
    }
  }
  if (ok && (tls_cert != NULL || tls_key != NULL || tls_ca != NULL)) {
    ok = tessera_cluster_options_set_tls(options, tls_cert, tls_key, tls_ca, &error);
  }
  if (!ok) {
    print_error(0, "options", now_ms(), error);
  }
  *next = i + 1;
  return options;
}

static void print_ids(const char* label, const size_t* ids, size_t count) {
  size_t i;
  printf(" %s=", label);
  for (i = 0; i < count; ++i) printf("%s%zu", i ? "," : "", ids[i]);
}

static void print_buffer(const char* label, const tessera_buffer* buffer) {
  printf(" %s=%.*s", label, (int)tessera_buffer_size(buffer), tessera_buffer_data(buffer));
}

static void step_join(int index, const char* name, const tessera_cluster_options* options, bool host) {
  int64_t start = now_ms();
  tessera_error* error = NULL;
  g_client = host ? tessera_runtime_initialize(options, &error) : tessera_client_connect(options, &error);
  if (g_client == NULL) {
    print_error(index, name, start, error);
    return;
  }
  print_ok_begin(index, name, start);
  printf(" id=%lld n=%lld gen=%lld fp=%llu addr=%s\n", (long long)tessera_client_process_index(g_client, NULL),
         (long long)tessera_client_num_processes(g_client, NULL), (long long)tessera_client_topology_generation(g_client, NULL),
         (unsigned long long)tessera_client_topology_fingerprint(g_client, NULL),
         tessera_client_coordinator_address(g_client, NULL));
}

static void step_devices(int index, const char* name) {
  int64_t start = now_ms();
  tessera_error* error = NULL;
  tessera_device_list* list = tessera_client_devices(g_client, &error);
  size_t i;
  if (list == NULL) {
    print_error(index, name, start, error);
    return;
  }
  print_ok_begin(index, name, start);
  printf(" count=%zu ids=", tessera_device_list_num_devices(list, NULL));
  for (i = 0; i < tessera_device_list_num_devices(list, NULL); ++i) {
    tessera_device* device = tessera_device_list_device(list, i, NULL);
    printf("%s%lld:%lld:%lld", i ? "," : "", (long long)tessera_device_id(device, NULL),
           (long long)tessera_device_process_index(device, NULL), (long long)tessera_device_local_ordinal(device, NULL));
    tessera_device_destroy(device);
  }
  printf(" fp=%llu\n", (unsigned long long)tessera_client_topology_fingerprint(g_client, NULL));
  tessera_device_list_destroy(list);
}

static void step_events(int index, const char* name, int64_t quiet_ms) {
  int64_t start = now_ms();
  int printed = 0;
  /* Bounded: at most 1000 events, each wait at most quiet_ms. */
  while (printed < 1000) {
    tessera_error* error = NULL;
    tessera_event* event = tessera_client_event_wait(g_client, quiet_ms, &error);
    if (event == NULL) {
      if (tessera_error_code(error) != TESSERA_DEADLINE_EXCEEDED) {
        print_error(index, name, start, error);
        return;
      }
      tessera_error_destroy(error);
      break;
    }
    printf("E kind=%d pid=%lld state=%d code=%s gen=%lld msg=", (int)tessera_event_kind(event, NULL),
           (long long)tessera_event_process_index(event, NULL), (int)tessera_event_task_state(event, NULL),
           tessera_code_name(tessera_event_code(event, NULL)), (long long)tessera_event_generation(event, NULL));
    print_message(tessera_event_message(event, NULL));
    printf("\n");
    tessera_event_destroy(event);
    ++printed;
  }
  print_ok_begin(index, name, start);
  printf(" events=%d\n", printed);
}

/* Key-value steps with generated sizes (the error tests' limits): each
 * returns true, as run_step does for a step that does not exit. */
static bool step_setn(int index, const char* name, const char* key, int64_t bytes, int64_t key_bytes) {
  size_t key_size = key_bytes >= 0 ? (size_t)key_bytes : strlen(key);
  char* full_key = malloc(key_size + 1);
  char* value = malloc(bytes > 0 ? (size_t)bytes : 1);
  tessera_error* error = NULL;
  int64_t start;
  bool ok;
  if (full_key == NULL || value == NULL) {
    fprintf(stderr, "worker: out of memory for setn\n");
    exit(2);
  }
  memset(full_key, 'k', key_size);
  memcpy(full_key, key, strlen(key) < key_size ? strlen(key) : key_size);
  full_key[key_size] = '\0';
  memset(value, 'v', bytes > 0 ? (size_t)bytes : 1);
  start = now_ms();
  ok = tessera_client_kv_set(g_client, full_key, value, (size_t)bytes, true, &error);
  if (ok) {
    print_ok_begin(index, name, start);
    printf("\n");
  } else {
    print_error(index, name, start, error);
  }
  free(value);
  free(full_key);
  return true;
}

static bool step_getn(int index, const char* name, const char* key, int64_t timeout_ms) {
  int64_t start = now_ms();
  tessera_error* error = NULL;
  tessera_buffer* value = tessera_client_kv_wait(g_client, key, timeout_ms, &error);
  const char* data;
  size_t size;
  size_t i;
  int intact = 1;
  if (value == NULL) {
    print_error(index, name, start, error);
    return true;
  }
  data = (const char*)tessera_buffer_data(value);
  size = tessera_buffer_size(value);
  for (i = 0; i < size && intact; ++i) intact = data[i] == 'v';
  print_ok_begin(index, name, start);
  printf(" size=%zu intact=%d\n", size, intact);
  tessera_buffer_destroy(value);
  return true;
}

static bool step_fill(int index, const char* name, const char* prefix, int64_t count, int64_t bytes) {
  int64_t start = now_ms();
  char* value = malloc(bytes > 0 ? (size_t)bytes : 1);
  char key[512];
  int64_t i;
  if (value == NULL) {
    fprintf(stderr, "worker: out of memory for fill\n");
    exit(2);
  }
  memset(value, 'v', bytes > 0 ? (size_t)bytes : 1);
  for (i = 0; i < count; ++i) {
    tessera_error* error = NULL;
    snprintf(key, sizeof key, "%s/%lld", prefix, (long long)i);
    if (!tessera_client_kv_set(g_client, key, value, (size_t)bytes, true, &error)) {
      print_error(index, name, start, error);
      free(value);
      return true;
    }
  }
  print_ok_begin(index, name, start);
  printf(" set=%lld\n", (long long)count);
  free(value);
  return true;
}

/* Lists PREFIX `times` times; entries= and bytes= of the last listing,
 * max_ms= of the slowest. */
static void step_list_loop(int index, const char* name, const char* prefix, int64_t times) {
  int64_t start = now_ms();
  int64_t slowest = 0;
  size_t entries = 0;
  size_t bytes = 0;
  int64_t t;
  for (t = 0; t < times; ++t) {
    int64_t began = now_ms();
    tessera_error* error = NULL;
    tessera_kv_list* list = tessera_client_kv_list(g_client, prefix, &error);
    size_t i;
    if (list == NULL) {
      print_error(index, name, start, error);
      return;
    }
    entries = tessera_kv_list_num_entries(list, NULL);
    bytes = 0;
    for (i = 0; i < entries; ++i) bytes += tessera_kv_list_value(list, i, NULL, 0, NULL);
    tessera_kv_list_destroy(list);
    if (now_ms() - began > slowest) slowest = now_ms() - began;
  }
  print_ok_begin(index, name, start);
  printf(" entries=%zu bytes=%zu max_ms=%lld\n", entries, bytes, (long long)slowest);
}

/* Runs one step; returns false for "exit". */
static bool run_step(int index, char* step, const tessera_cluster_options* options, int* exit_code) {
  char* f[MAX_FIELDS];
  int count = split(step, ':', f, MAX_FIELDS);
  const char* name = f[0];
  int64_t start = now_ms();
  tessera_error* error = NULL;
  printf("B %d %s\n", index, name);
  if (strcmp(name, "init") == 0 || strcmp(name, "connect") == 0) {
    step_join(index, name, options, strcmp(name, "init") == 0);
    return true;
  }
  if (strcmp(name, "sleep") == 0) {
    struct timespec ts;
    int64_t ms = int_field(f, count, 1, 0);
    ts.tv_sec = (time_t)(ms / 1000);
    ts.tv_nsec = (long)(ms % 1000) * 1000000L;
    nanosleep(&ts, NULL);
    print_ok_begin(index, name, start);
    printf("\n");
    return true;
  }
  if (strcmp(name, "exit") == 0) {
    *exit_code = (int)int_field(f, count, 1, 0);
    return false;
  }
  if (strcmp(name, "destroy") == 0) {
    tessera_client_destroy(g_client);
    g_client = NULL;
    print_ok_begin(index, name, start);
    printf("\n");
    return true;
  }
  if (strcmp(name, "devices") == 0) {
    step_devices(index, name);
    return true;
  }
  if (strcmp(name, "events") == 0) {
    step_events(index, name, int_field(f, count, 1, 200));
    return true;
  }
  if (strcmp(name, "barrier") == 0 && count >= 3) {
    size_t ids[MAX_IDS];
    size_t n = count >= 4 ? parse_ids(f[3], ids, MAX_IDS) : 0;
    if (!tessera_client_barrier(g_client, f[1], strtoll(f[2], NULL, 10), ids, n, &error)) {
      print_error(index, name, start, error);
      return true;
    }
  } else if (strcmp(name, "cancel_barrier") == 0 && count >= 2) {
    if (!tessera_client_cancel_barrier(g_client, f[1], &error)) {
      print_error(index, name, start, error);
      return true;
    }
  } else if (strcmp(name, "set") == 0 && count >= 3) {
    bool overwrite = count >= 4 && strcmp(f[3], "over") == 0;
    if (!tessera_client_kv_set(g_client, f[1], f[2], strlen(f[2]), overwrite, &error)) {
      print_error(index, name, start, error);
      return true;
    }
  } else if ((strcmp(name, "get") == 0 && count >= 3) || (strcmp(name, "tryget") == 0 && count >= 2)) {
    tessera_buffer* value = strcmp(name, "get") == 0
                                ? tessera_client_kv_wait(g_client, f[1], strtoll(f[2], NULL, 10), &error)
                                : tessera_client_kv_lookup(g_client, f[1], &error);
    if (value == NULL) {
      print_error(index, name, start, error);
      return true;
    }
    print_ok_begin(index, name, start);
    print_buffer("value", value);
    printf("\n");
    tessera_buffer_destroy(value);
    return true;
  } else if (strcmp(name, "list") == 0 && count >= 2) {
    tessera_kv_list* list = tessera_client_kv_list(g_client, f[1], &error);
    size_t i;
    if (list == NULL) {
      print_error(index, name, start, error);
      return true;
    }
    print_ok_begin(index, name, start);
    printf(" keys=");
    for (i = 0; i < tessera_kv_list_num_entries(list, NULL); ++i) printf("%s%s", i ? "," : "", tessera_kv_list_key(list, i, NULL));
    printf("\n");
    tessera_kv_list_destroy(list);
    return true;
  } else if (strcmp(name, "del") == 0 && count >= 2) {
    if (!tessera_client_kv_remove(g_client, f[1], count >= 3 && strcmp(f[2], "rec") == 0, &error)) {
      print_error(index, name, start, error);
      return true;
    }
  } else if (strcmp(name, "inc") == 0 && count >= 4) {
    int64_t times = strtoll(f[3], NULL, 10);
    int64_t value = 0;
    int64_t i;
    for (i = 0; i < times; ++i) {
      if (!tessera_client_kv_increment(g_client, f[1], strtoll(f[2], NULL, 10), &value, &error)) {
        print_error(index, name, start, error);
        return true;
      }
    }
    print_ok_begin(index, name, start);
    printf(" last=%lld\n", (long long)value);
    return true;
  } else if (strcmp(name, "cas") == 0 && count >= 4) {
    bool swapped = false;
    tessera_buffer* current = NULL;
    const char* expected = strcmp(f[2], "-") == 0 ? NULL : f[2];
    if (!tessera_client_kv_compare_and_swap(g_client, f[1], expected, expected ? strlen(expected) : 0, f[3],
                                            strlen(f[3]), &swapped, &current, &error)) {
      print_error(index, name, start, error);
      return true;
    }
    print_ok_begin(index, name, start);
    printf(" swapped=%d", swapped ? 1 : 0);
    if (current != NULL) print_buffer("current", current);
    printf("\n");
    tessera_buffer_destroy(current);
    return true;
  } else if (strcmp(name, "agree") == 0 && count >= 3) {
    size_t candidates[MAX_IDS];
    size_t live[MAX_IDS];
    size_t n = parse_ids(f[2], candidates, MAX_IDS);
    size_t live_count =
        tessera_client_agree_live_processes(g_client, candidates, n, strtoll(f[1], NULL, 10), live, MAX_IDS, &error);
    if (error != NULL) {
      print_error(index, name, start, error);
      return true;
    }
    print_ok_begin(index, name, start);
    print_ids("live", live, live_count);
    printf("\n");
    return true;
  } else if (strcmp(name, "report") == 0 && count >= 2) {
    if (!tessera_client_report_error(g_client, TESSERA_INTERNAL, f[1], &error)) {
      print_error(index, name, start, error);
      return true;
    }
  } else if (strcmp(name, "shutdown") == 0) {
    if (!tessera_client_shutdown(g_client, &error)) {
      print_error(index, name, start, error);
      return true;
    }
  } else if (strcmp(name, "setn") == 0 && count >= 3) {
    return step_setn(index, name, f[1], strtoll(f[2], NULL, 10), count >= 4 ? strtoll(f[3], NULL, 10) : -1);
  } else if (strcmp(name, "getn") == 0 && count >= 3) {
    return step_getn(index, name, f[1], strtoll(f[2], NULL, 10));
  } else if (strcmp(name, "fill") == 0 && count >= 4) {
    return step_fill(index, name, f[1], strtoll(f[2], NULL, 10), strtoll(f[3], NULL, 10));
  } else if (strcmp(name, "count") == 0 && count >= 2) {
    step_list_loop(index, name, f[1], 1);
    return true;
  } else if (strcmp(name, "listloop") == 0 && count >= 3) {
    step_list_loop(index, name, f[1], strtoll(f[2], NULL, 10));
    return true;
  } else {
    fprintf(stderr, "worker: bad step %s (%d fields)\n", name, count);
    *exit_code = 2;
    return false;
  }
  print_ok_begin(index, name, start);
  printf("\n");
  return true;
}

int main(int argc, char** argv) {
  int next = 1;
  unsigned alarm_s = 60;
  int exit_code = 0;
  int i;
  tessera_cluster_options* options;
  /* Line-buffered: the driver reacts to each line as it is printed. */
  setvbuf(stdout, NULL, _IOLBF, 0);
  tessera_log_set_callback(log_to_stderr, NULL, TESSERA_LOG_DEBUG, NULL);
  options = options_from_args(argc, argv, &next, &alarm_s);
  /* A worker never outlives a broken test: SIGALRM's default action ends it. */
  alarm(alarm_s);
  for (i = next; i < argc; ++i) {
    if (!run_step(i - next, argv[i], options, &exit_code)) break;
  }
  tessera_client_destroy(g_client);
  tessera_cluster_options_destroy(options);
  printf("X %d\n", exit_code);
  return exit_code;
}
