/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/* The resharding plan through the C ABI (tessera/reshard.h) on meshes with
 * several processes: an exact plan with an uneven chunk layout, a replicated
 * dimension and an axis group against mesh order, and on random small cases
 * a plan whose boxes cover every destination element exactly once, each from
 * a device that holds it, with totals equal to the bytes of its transfers. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fixtures.h"
#include "harness.h"

/* A mesh of `shape` (axes a, b, c) over devices `ids`, device i owned by
 * process processes[i], through the mesh JSON. */
static tessera_mesh* mesh_with_processes(const int64_t* shape, size_t rank, const int64_t* ids,
                                         const int64_t* processes, size_t count) {
  char json[4096];
  size_t used = 0, i;
  static const char* const names[] = {"\"a\"", "\"b\"", "\"c\""};
  used += (size_t)snprintf(json + used, sizeof json - used, "{\"shape\":[");
  for (i = 0; i < rank; ++i) {
    used += (size_t)snprintf(json + used, sizeof json - used, "%s\"%lld\"", i ? "," : "",
                             (long long)shape[i]);
  }
  used += (size_t)snprintf(json + used, sizeof json - used, "],\"axisNames\":[");
  for (i = 0; i < rank; ++i) {
    used += (size_t)snprintf(json + used, sizeof json - used, "%s%s", i ? "," : "", names[i]);
  }
  used += (size_t)snprintf(json + used, sizeof json - used, "],\"devices\":[");
  for (i = 0; i < count; ++i) {
    used += (size_t)snprintf(json + used, sizeof json - used,
                             "%s{\"id\":\"%lld\",\"processIndex\":\"%lld\"}", i ? "," : "",
                             (long long)ids[i], (long long)processes[i]);
  }
  snprintf(json + used, sizeof json - used, "]}");
  return tessera_mesh_from_json(json, NULL);
}

/* --- An exact plan. */

static void uneven_grouped_rows_with_a_replicated_column_dimension(void) {
  /* Source: (6, 2) over (('b', 'a'), None) on (2, 2) a, b, chunk-flat: device
   * (a, b) holds rows of shard 2b + a: [0,2) [4,6) [2,4) [6,6) for devices
   * 0..3 (ids 0..3, processes 0, 0, 1, 1). Destination: ('x', None) on 2
   * devices, ids 3 (process 1) and 0 (process 0): rows [0,3) and [3,6). */
  tessera_error* err = NULL;
  const int64_t square[] = {2, 2}, line[] = {2}, dims[] = {6, 2};
  const int64_t source_ids[] = {0, 1, 2, 3}, source_processes[] = {0, 0, 1, 1};
  const int64_t destination_ids[] = {3, 0}, destination_processes[] = {1, 0};
  const char* const grouped[] = {"b", "a"};
  const size_t group_sizes[] = {2, 0};
  const char* const rows[] = {"a", NULL};
  tessera_mesh* a_mesh = mesh_with_processes(square, 2, source_ids, source_processes, 4);
  tessera_mesh* b_mesh = mesh_with_processes(line, 1, destination_ids, destination_processes, 2);
  tessera_layout* a_layout = tessera_layout_create_grouped(grouped, 2, group_sizes, 2, a_mesh, &err);
  tessera_layout* b_layout = tessera_layout_create(rows, 2, b_mesh, &err);
  tessera_sharding* a = tessera_sharding_create(a_layout, dims, 2, TESSERA_SHARD_MODE_CHUNK_FLAT, &err);
  tessera_sharding* b = tessera_sharding_create(b_layout, dims, 2, TESSERA_SHARD_MODE_CHUNK_FLAT, &err);
  tessera_reshard_plan* plan = tessera_reshard_plan_create(a, b, 4, &err);
  static const size_t expected_source[] = {0, 2, 2, 1};
  static const size_t expected_destination[] = {0, 0, 1, 1};
  static const int64_t expected_bytes[] = {16, 8, 8, 16};
  static const tessera_transfer_locality_t expected_locality[] = {
      TESSERA_TRANSFER_CROSS_PROCESS, TESSERA_TRANSFER_SAME_PROCESS,
      TESSERA_TRANSFER_CROSS_PROCESS, TESSERA_TRANSFER_SAME_PROCESS};
  static const int64_t expected_ranges[4][4] = {{0, 2, 0, 2}, {2, 3, 0, 2}, {3, 4, 0, 2}, {4, 6, 0, 2}};
  size_t i;
  int64_t total = -1;
  ASSERT_OK(err);
  ASSERT_NOT_NULL(plan);
  ASSERT_EQ(4, tessera_reshard_plan_num_transfers(plan, NULL));
  for (i = 0; i < 4; ++i) {
    size_t source = 99, destination = 99;
    int64_t bytes = -1, ranges[4];
    tessera_transfer_locality_t locality = TESSERA_TRANSFER_SAME_DEVICE;
    ASSERT_TRUE(tessera_reshard_plan_transfer(plan, i, &source, &destination, &bytes, &locality, &err));
    ASSERT_EQ(expected_source[i], source);
    ASSERT_EQ(expected_destination[i], destination);
    ASSERT_EQ(expected_bytes[i], bytes);
    ASSERT_EQ(expected_locality[i], locality);
    ASSERT_EQ(4, tessera_reshard_plan_transfer_ranges(plan, i, ranges, 4, &err));
    ASSERT_TRUE(memcmp(expected_ranges[i], ranges, sizeof ranges) == 0);
  }
  ASSERT_TRUE(tessera_reshard_plan_total_bytes(plan, TESSERA_TRANSFER_SAME_DEVICE, &total, &err));
  ASSERT_EQ(0, total);
  ASSERT_TRUE(tessera_reshard_plan_total_bytes(plan, TESSERA_TRANSFER_SAME_PROCESS, &total, &err));
  ASSERT_EQ(24, total);
  ASSERT_TRUE(tessera_reshard_plan_total_bytes(plan, TESSERA_TRANSFER_CROSS_PROCESS, &total, &err));
  ASSERT_EQ(24, total);
  ASSERT_OK(err);
  tessera_reshard_plan_destroy(plan);
  tessera_sharding_destroy(a);
  tessera_sharding_destroy(b);
  tessera_layout_destroy(a_layout);
  tessera_layout_destroy(b_layout);
  tessera_mesh_destroy(a_mesh);
  tessera_mesh_destroy(b_mesh);
}

/* --- Random plans, checked element by element. */

static uint32_t g_state = 20261202u;
static uint32_t next_random(uint32_t bound) {
  g_state = g_state * 1664525u + 1013904223u;
  return (g_state >> 8) % bound;
}

/* A mesh of rank 1-3 (sizes 1-3) over ids first..first+n-1, processes of 1-2
 * devices in blocks or strided, and a sharding of `dims` on it: each axis on
 * a random dimension or unused, groups in random order; flat or nested. */
static tessera_sharding* random_sharding(const int64_t* dims, size_t rank, int64_t first) {
  int64_t shape[3], ids[27], processes[27];
  const char* names[3] = {"a", "b", "c"};
  const char* order[3];
  const char* grouped[3];
  size_t group_sizes[3] = {0, 0, 0}, mesh_rank = 1 + next_random(3), count = 1, i, d, k, used = 0;
  const bool strided = next_random(2) == 0;
  const int64_t per_process = 1 + next_random(2);
  tessera_mesh* mesh;
  tessera_layout* layout;
  tessera_sharding* sharding;
  for (i = 0; i < mesh_rank; ++i) {
    shape[i] = 1 + next_random(3);
    count *= (size_t)shape[i];
    order[i] = names[i];
  }
  for (i = 0; i < count; ++i) {
    ids[i] = first + (int64_t)i;
    processes[i] = strided ? (int64_t)i % per_process : ((int64_t)i + first) / per_process;
  }
  mesh = mesh_with_processes(shape, mesh_rank, ids, processes, count);
  for (i = mesh_rank; i-- > 1;) { /* shuffle the axes */
    const size_t j = next_random((uint32_t)i + 1);
    const char* t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  {
    size_t dim_of[3];
    for (i = 0; i < mesh_rank; ++i) dim_of[i] = next_random((uint32_t)rank + 1);
    for (d = 0; d < rank; ++d) {
      for (k = 0; k < mesh_rank; ++k) {
        if (dim_of[k] == d) {
          grouped[used++] = order[k];
          ++group_sizes[d];
        }
      }
    }
  }
  layout = tessera_layout_create_grouped(grouped, used, group_sizes, rank, mesh, NULL);
  sharding = tessera_sharding_create(layout, dims, rank,
                                     next_random(2) ? TESSERA_SHARD_MODE_CHUNK_FLAT
                                                    : TESSERA_SHARD_MODE_CHUNK_NESTED,
                                     NULL);
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
  return sharding;
}

/* Whether `box` lies inside `outer` (both start/stop pairs). */
static bool inside(const int64_t* box, const int64_t* outer, size_t rank) {
  size_t d;
  for (d = 0; d < rank; ++d) {
    if (box[2 * d] < outer[2 * d] || box[2 * d + 1] > outer[2 * d + 1]) return false;
  }
  return true;
}

static void random_plans_cover_each_destination_element_once_from_a_holder(void) {
  int trial;
  size_t checked = 0;
  for (trial = 0; trial < 300; ++trial) {
    tessera_error* err = NULL;
    int64_t dims[2], totals[3] = {0, 0, 0}, total;
    const size_t rank = 1 + next_random(2);
    /* counts[device][row][column], the destination's 27 devices at most. */
    static unsigned char counts[27][6][6];
    size_t d, i, n, device, devices;
    tessera_sharding *a, *b;
    tessera_reshard_plan* plan;
    for (d = 0; d < rank; ++d) dims[d] = next_random(7);
    a = random_sharding(dims, rank, 0);
    b = random_sharding(dims, rank, next_random(12));
    ASSERT_NOT_NULL(a);
    ASSERT_NOT_NULL(b);
    plan = tessera_reshard_plan_create(a, b, 2, &err);
    ASSERT_OK(err);
    memset(counts, 0, sizeof counts);
    n = tessera_reshard_plan_num_transfers(plan, NULL);
    for (i = 0; i < n; ++i) {
      size_t source, destination;
      int64_t bytes, box[4] = {0, 1, 0, 1}, from[4], to[4], row, column, elements = 1;
      tessera_transfer_locality_t locality;
      ASSERT_TRUE(tessera_reshard_plan_transfer(plan, i, &source, &destination, &bytes, &locality, &err));
      ASSERT_EQ(2 * rank, tessera_reshard_plan_transfer_ranges(plan, i, box, 4, &err));
      ASSERT_EQ(2 * rank, tessera_sharding_device_ranges(a, source, from, 4, &err));
      ASSERT_EQ(2 * rank, tessera_sharding_device_ranges(b, destination, to, 4, &err));
      ASSERT_TRUE(inside(box, from, rank)); /* the source holds it */
      ASSERT_TRUE(inside(box, to, rank));
      for (d = 0; d < rank; ++d) elements *= box[2 * d + 1] - box[2 * d];
      ASSERT_EQ(2 * elements, bytes);
      totals[locality] += bytes;
      for (row = box[0]; row < box[1]; ++row) {
        for (column = box[2]; column < box[3]; ++column) ++counts[destination][row][column];
      }
    }
    devices = tessera_sharding_num_devices(b, NULL);
    for (device = 0; device < devices; ++device) {
      int64_t to[4] = {0, 1, 0, 1}, row, column;
      ASSERT_EQ(2 * rank, tessera_sharding_device_ranges(b, device, to, 4, &err));
      for (row = 0; row < 6; ++row) {
        for (column = 0; column < 6; ++column) {
          const bool wanted = row >= to[0] && row < to[1] && column >= to[2] && column < to[3];
          ASSERT_EQ(wanted ? 1 : 0, counts[device][row][column]);
          checked += wanted ? 1 : 0;
        }
      }
    }
    ASSERT_TRUE(tessera_reshard_plan_total_bytes(plan, TESSERA_TRANSFER_SAME_DEVICE, &total, &err));
    ASSERT_EQ(totals[0], total);
    ASSERT_TRUE(tessera_reshard_plan_total_bytes(plan, TESSERA_TRANSFER_SAME_PROCESS, &total, &err));
    ASSERT_EQ(totals[1], total);
    ASSERT_TRUE(tessera_reshard_plan_total_bytes(plan, TESSERA_TRANSFER_CROSS_PROCESS, &total, &err));
    ASSERT_EQ(totals[2], total);
    tessera_reshard_plan_destroy(plan);
    tessera_sharding_destroy(a);
    tessera_sharding_destroy(b);
  }
  ASSERT_TRUE(checked > 3000); /* the draw reaches many elements */
}

int main(int argc, char** argv) {
  static const harness_test tests[] = {
      HARNESS_TEST(uneven_grouped_rows_with_a_replicated_column_dimension),
      HARNESS_TEST(random_plans_cover_each_destination_element_once_from_a_holder),
  };
  return harness_main(argc, argv, tests, HARNESS_COUNT(tests));
}
