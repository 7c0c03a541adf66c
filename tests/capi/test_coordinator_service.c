/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

#define _POSIX_C_SOURCE 200809L
/* tessera/experimental/coordinator_service.h: the coordinator's /metrics
 * address option and port (issue 14). The scrape itself, parsed by
 * prometheus_client, is tests/cluster/check_metrics.py. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "harness.h"

/* Options for a coordinator of two processes on 127.0.0.1:0. */
static tessera_cluster_options* loopback_options(void) {
  tessera_cluster_options* options = tessera_cluster_options_create();
  tessera_cluster_options_set_detection(options, "none", NULL);
  tessera_cluster_options_set_bind_address(options, "127.0.0.1:0", NULL);
  tessera_cluster_options_set_num_processes(options, 2, NULL);
  tessera_cluster_options_set_job_id(options, "capi-metrics", NULL);
  tessera_cluster_options_set_job_token(options, "token", NULL);
  return options;
}

/* The answer of 127.0.0.1:port to one GET /metrics, at most `capacity` - 1 bytes. */
static void http_get_metrics(int port, char* out, size_t capacity) {
  static const char request[] = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
  struct sockaddr_in address;
  size_t used = 0;
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  out[0] = '\0';
  memset(&address, 0, sizeof address);
  address.sin_family = AF_INET;
  address.sin_port = htons((uint16_t)port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (fd < 0) return;
  if (connect(fd, (struct sockaddr*)&address, sizeof address) == 0 &&
      send(fd, request, sizeof request - 1, 0) == (ssize_t)(sizeof request - 1)) {
    ssize_t n;
    while (used + 1 < capacity && (n = recv(fd, out + used, capacity - 1 - used, 0)) > 0) used += (size_t)n;
  }
  out[used] = '\0';
  close(fd);
}

static void metrics_are_off_by_default(void) {
  tessera_cluster_options* options = loopback_options();
  tessera_error* err = NULL;
  tessera_coordinator* coordinator = tessera_coordinator_start(options, &err);
  ASSERT_OK(err);
  ASSERT_NOT_NULL(coordinator);
  ASSERT_EQ(0, tessera_coordinator_metrics_port(coordinator, &err));
  ASSERT_ERROR(err, TESSERA_FAILED_PRECONDITION,
               "the coordinator serves no metrics: its options set no metrics address "
               "(tessera_cluster_options_set_metrics_bind)");
  tessera_coordinator_destroy(coordinator);
  tessera_cluster_options_destroy(options);
}

static void metrics_on_port_zero_serve_on_a_free_port(void) {
  tessera_cluster_options* options = loopback_options();
  tessera_error* err = NULL;
  char answer[16384];
  ASSERT_TRUE(tessera_cluster_options_set_metrics_bind(options, "127.0.0.1:0", &err));
  tessera_coordinator* coordinator = tessera_coordinator_start(options, &err);
  ASSERT_OK(err);
  ASSERT_NOT_NULL(coordinator);
  int port = tessera_coordinator_metrics_port(coordinator, &err);
  ASSERT_OK(err);
  ASSERT_TRUE(port > 0);
  ASSERT_TRUE(port != tessera_coordinator_port(coordinator, NULL));
  http_get_metrics(port, answer, sizeof answer);
  ASSERT_TRUE(strncmp(answer, "HTTP/1.1 200 OK\r\n", 17) == 0);
  ASSERT_NOT_NULL(strstr(answer, "\r\n\r\n# HELP tessera_coordinator_processes_expected "));
  ASSERT_NOT_NULL(strstr(answer, "\ntessera_coordinator_processes_expected 2\n"));
  tessera_coordinator_destroy(coordinator);
  tessera_cluster_options_destroy(options);
}

static void metrics_address_in_use_refuses_to_start_naming_it(void) {
  struct sockaddr_in address;
  socklen_t length = sizeof address;
  char text[64];
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  tessera_cluster_options* options = loopback_options();
  tessera_error* err = NULL;
  memset(&address, 0, sizeof address);
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_TRUE(bind(fd, (struct sockaddr*)&address, sizeof address) == 0);
  ASSERT_TRUE(listen(fd, 1) == 0);
  ASSERT_TRUE(getsockname(fd, (struct sockaddr*)&address, &length) == 0);
  snprintf(text, sizeof text, "127.0.0.1:%d", (int)ntohs(address.sin_port));
  ASSERT_TRUE(tessera_cluster_options_set_metrics_bind(options, text, &err));
  ASSERT_NULL(tessera_coordinator_start(options, &err));
  {
    char expected[128];
    snprintf(expected, sizeof expected, "metrics bind %s: Address already in use", text);
    ASSERT_ERROR(err, TESSERA_UNAVAILABLE, expected);
  }
  close(fd);
  tessera_cluster_options_destroy(options);
}

static void metrics_address_without_port_is_invalid_argument(void) {
  tessera_cluster_options* options = tessera_cluster_options_create();
  tessera_error* err = NULL;
  ASSERT_FALSE(tessera_cluster_options_set_metrics_bind(options, "127.0.0.1", &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'address' must be HOST:PORT (port 0: any free port), got '127.0.0.1'");
  tessera_cluster_options_destroy(options);
}

static void null_arguments_are_invalid_argument_naming_them(void) {
  tessera_cluster_options* options = tessera_cluster_options_create();
  tessera_error* err = NULL;
  ASSERT_FALSE(tessera_cluster_options_set_metrics_bind(NULL, "127.0.0.1:0", &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'options' is NULL");
  ASSERT_FALSE(tessera_cluster_options_set_metrics_bind(options, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'address' is NULL");
  ASSERT_EQ(0, tessera_coordinator_metrics_port(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'coordinator' is NULL");
  tessera_cluster_options_destroy(options);
}

int main(int argc, char** argv) {
  static const harness_test tests[] = {
      HARNESS_TEST(metrics_are_off_by_default),
      HARNESS_TEST(metrics_on_port_zero_serve_on_a_free_port),
      HARNESS_TEST(metrics_address_in_use_refuses_to_start_naming_it),
      HARNESS_TEST(metrics_address_without_port_is_invalid_argument),
      HARNESS_TEST(null_arguments_are_invalid_argument_naming_them),
  };
  return harness_main(argc, argv, tests, HARNESS_COUNT(tests));
}
