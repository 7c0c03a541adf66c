/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/* dlclose of libtessera while its threads run: the library stays mapped.
 *
 * A runtime that loads the library with dlopen may close it while a job's
 * threads are still inside it: Mono unloads its P/Invoke libraries when it
 * shuts down, before the process exits, and a C# program may return from
 * Main with its coordinator and client left to the runtime. Unmapped, the
 * library's code under those threads is gone and the next heartbeat or
 * accepted connection jumps into nothing (a rare SIGSEGV at exit). The
 * library is linked -z nodelete, so dlclose leaves it in place.
 *
 * Usage: capi_test_unload path/to/libtessera.so.0
 * Exit status 0: the threads ran on for two seconds after dlclose and the
 * process exited normally. */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "tessera/client.h"
#include "tessera/cluster.h"
#include "tessera/coordinator.h"

typedef tessera_cluster_options* (*options_create_fn)(void);
typedef bool (*set_string_fn)(tessera_cluster_options*, const char*, tessera_error**);
typedef bool (*set_size_fn)(tessera_cluster_options*, size_t, tessera_error**);
typedef bool (*set_heartbeat_fn)(tessera_cluster_options*, int64_t, int64_t, tessera_error**);
typedef void (*options_destroy_fn)(tessera_cluster_options*);
typedef tessera_coordinator* (*coordinator_start_fn)(const tessera_cluster_options*, tessera_error**);
typedef int (*coordinator_port_fn)(const tessera_coordinator*, tessera_error**);
typedef tessera_client* (*client_connect_fn)(const tessera_cluster_options*, tessera_error**);
typedef const char* (*error_message_fn)(const tessera_error*);

/* The job's handles, left open as a runtime that shuts down leaves them;
   globals, so a leak checker sees them as held. */
static tessera_coordinator* coordinator;
static tessera_client* client;

static void* symbol(void* library, const char* name) {
  void* address = dlsym(library, name);
  if (address == NULL) fprintf(stderr, "dlsym %s: %s\n", name, dlerror());
  return address;
}

/* Options of a one-process job with a fast heartbeat, so the library's
   threads are busy while the test waits. */
static tessera_cluster_options* job_options(void* library, const char* address) {
  tessera_cluster_options* options = ((options_create_fn)symbol(library, "tessera_cluster_options_create"))();
  set_string_fn set_string;
  set_string = (set_string_fn)symbol(library, "tessera_cluster_options_set_detection");
  set_string(options, "none", NULL);
  set_string = (set_string_fn)symbol(library, "tessera_cluster_options_set_job_id");
  set_string(options, "unload-job", NULL);
  set_string = (set_string_fn)symbol(library, "tessera_cluster_options_set_job_token");
  set_string(options, "unload-token", NULL);
  set_string = (set_string_fn)symbol(library, address == NULL ? "tessera_cluster_options_set_bind_address"
                                                              : "tessera_cluster_options_set_coordinator_address");
  set_string(options, address == NULL ? "127.0.0.1:0" : address, NULL);
  ((set_size_fn)symbol(library, "tessera_cluster_options_set_num_processes"))(options, 1, NULL);
  ((set_size_fn)symbol(library, "tessera_cluster_options_set_process_index"))(options, 0, NULL);
  ((set_heartbeat_fn)symbol(library, "tessera_cluster_options_set_heartbeat"))(options, 20, 2000, NULL);
  return options;
}

int main(int argc, char** argv) {
  void* library;
  options_destroy_fn destroy;
  error_message_fn message;
  tessera_cluster_options* options;
  tessera_error* err = NULL;
  char address[64];
  struct timespec two_seconds = {2, 0};
  if (argc != 2) {
    fprintf(stderr, "usage: %s path/to/libtessera.so.0\n", argv[0]);
    return 2;
  }
  library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) {
    fprintf(stderr, "dlopen: %s\n", dlerror());
    return 1;
  }
  destroy = (options_destroy_fn)symbol(library, "tessera_cluster_options_destroy");
  message = (error_message_fn)symbol(library, "tessera_error_message");

  options = job_options(library, NULL);
  coordinator = ((coordinator_start_fn)symbol(library, "tessera_coordinator_start"))(options, &err);
  destroy(options);
  if (coordinator == NULL) {
    fprintf(stderr, "coordinator: %s\n", message(err));
    return 1;
  }
  snprintf(address, sizeof address, "127.0.0.1:%d",
           ((coordinator_port_fn)symbol(library, "tessera_coordinator_port"))(coordinator, NULL));
  options = job_options(library, address);
  client = ((client_connect_fn)symbol(library, "tessera_client_connect"))(options, &err);
  destroy(options);
  if (client == NULL) {
    fprintf(stderr, "client: %s\n", message(err));
    return 1;
  }

  /* Only the library's last reference goes. */
  if (dlclose(library) != 0) {
    fprintf(stderr, "dlclose: %s\n", dlerror());
    return 1;
  }
  nanosleep(&two_seconds, NULL);  /* a hundred heartbeats after the close */
  printf("threads ran on after dlclose\n");
  return 0;
}
