/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/*
 * The one answer policy (tessera/tessera.h, "Errors"), walked over every
 * public function:
 *   - each function taking a handle, called with that handle NULL, returns its
 *     zero value and INVALID_ARGUMENT "Argument '<name>' is NULL; expected a
 *     valid pointer";
 *   - each function taking an index, called on a real object with
 *     index = count (the first value out of range), returns its zero value
 *     and OUT_OF_RANGE "Argument '<name>' is <count>; expected less than
 *     <count> (...)".
 * check_answer_policy.py fails when a header declares a function that these
 * tables do not list, so they cannot go stale. The other arguments are valid
 * placeholders: strings "x", zeroed scratch memory for pointers, 0 or 1 for
 * numbers, the 0 value of enums.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fixtures.h"
#include "harness.h"
#include "tessera/tessera.h"

/* Zeroed memory, aligned for any type, for the pointer arguments not under test. */
static union {
  int64_t i64;
  double f64;
  void* pointer;
  unsigned char bytes[4096];
} scratch_space;
#define scratch (scratch_space.bytes)
static const char* const strings[] = {"x", "x", "x", "x", "x", "x", "x", "x"};

/* Reports unless `err` has `code` and a message that is `expected` (or, when
 * !whole, starts with it); destroys err. */
static void expect_error(const char* function, tessera_error* err, tessera_code_t code,
                         const char* expected, int whole) {
  const char* message = tessera_error_message(err);
  if (err == NULL) {
    harness_fail(__FILE__, __LINE__, "%s: no error", function);
    return;
  }
  if (tessera_error_code(err) != code ||
      (whole ? strcmp(message, expected) : strncmp(message, expected, strlen(expected))) != 0) {
    harness_fail(__FILE__, __LINE__, "%s: expected %s \"%s\", got %s \"%s\"", function,
                 tessera_code_name(code), expected, tessera_code_name(tessera_error_code(err)),
                 message);
  }
  tessera_error_destroy(err);
}

/* ---- NULL handles: X(function, handle argument's name, arguments...) ---------- */

#define NULL_CASES(X) \
  X(tessera_mesh_options_set_devices, "options", NULL, NULL, 0) \
  X(tessera_mesh_options_set_device_kind, "options", NULL, NULL) \
  X(tessera_mesh_options_set_sort_granules_by_key, "options", NULL, false) \
  X(tessera_dtensor_mesh_options_set_name, "options", NULL, "x") \
  X(tessera_dtensor_mesh_options_set_devices, "options", NULL, NULL, 0) \
  X(tessera_dtensor_mesh_options_set_device_type, "options", NULL, "x") \
  X(tessera_dtensor_mesh_options_set_use_xla_spmd, "options", NULL, false) \
  X(tessera_copy_options_set_threads, "options", NULL, 0) \
  X(tessera_copy_options_set_verify_replicas, "options", NULL, false) \
  X(tessera_copy_options_set_process_index, "options", NULL, 0) \
  X(tessera_sharding_scatter, "sharding", NULL, (const void*)(void*)scratch, 0, 0, (void* const*)(void*)scratch, 1, (const tessera_copy_options*)(void*)scratch) \
  X(tessera_sharding_gather, "sharding", NULL, (const void* const*)(void*)scratch, 1, 0, NULL, 0, (const tessera_copy_options*)(void*)scratch) \
  X(tessera_sharding_shard_size, "sharding", NULL, 0, 0, (size_t*)(void*)scratch) \
  X(tessera_device_id, "device", NULL) \
  X(tessera_device_platform, "device", NULL) \
  X(tessera_device_process_index, "device", NULL) \
  X(tessera_device_local_ordinal, "device", NULL) \
  X(tessera_device_name, "device", NULL) \
  X(tessera_device_has_coordinates, "device", NULL) \
  X(tessera_device_coordinate, "device", NULL, 0, (int64_t*)(void*)scratch) \
  X(tessera_device_core_on_chip, "device", NULL) \
  X(tessera_device_list_num_devices, "list", NULL) \
  X(tessera_device_list_device, "list", NULL, 0) \
  X(tessera_local_devices_num_devices, "devices", NULL) \
  X(tessera_local_devices_provider, "devices", NULL) \
  X(tessera_local_devices_nvml_unavailable_reason, "devices", NULL) \
  X(tessera_local_devices_platform, "devices", NULL, 0, (tessera_platform_t*)(void*)scratch) \
  X(tessera_local_devices_ordinal, "devices", NULL, 0, (size_t*)(void*)scratch) \
  X(tessera_local_devices_memory_bytes, "devices", NULL, 0, (int64_t*)(void*)scratch) \
  X(tessera_local_devices_kind, "devices", NULL, 0) \
  X(tessera_local_devices_physical_id, "devices", NULL, 0) \
  X(tessera_local_devices_pci_bus_id, "devices", NULL, 0) \
  X(tessera_distribution_options_set_auto_shard_dataset, "options", NULL, false) \
  X(tessera_distribution_options_set_shape_check, "options", NULL, (tessera_shape_check_t)0) \
  X(tessera_distribution_options_set_process, "options", NULL, 1, 0) \
  X(tessera_distribution_create_data_parallel, "mesh", NULL, (const tessera_distribution_options*)(void*)scratch) \
  X(tessera_distribution_create_model_parallel, "layout_map", NULL, "x", (const tessera_distribution_options*)(void*)scratch) \
  X(tessera_distribution_kind, "distribution", NULL) \
  X(tessera_distribution_mesh, "distribution", NULL) \
  X(tessera_distribution_batch_dim_name, "distribution", NULL) \
  X(tessera_distribution_num_processes, "distribution", NULL) \
  X(tessera_distribution_process_index, "distribution", NULL) \
  X(tessera_distribution_num_model_replicas, "distribution", NULL) \
  X(tessera_distribution_num_data_shards, "distribution", NULL) \
  X(tessera_distribution_data_shard_id, "distribution", NULL) \
  X(tessera_distribution_data_layout, "distribution", NULL, (const int64_t*)(void*)scratch, 1) \
  X(tessera_distribution_variable_layout, "distribution", NULL, "x", (const int64_t*)(void*)scratch, 1, (const tessera_layout*)(void*)scratch) \
  X(tessera_distribution_tensor_layout, "distribution", NULL, "x") \
  X(tessera_distribution_plan_dataset, "distribution", NULL, 0) \
  X(tessera_distribution_to_string, "distribution", NULL) \
  X(tessera_dataset_plan_kind, "plan", NULL) \
  X(tessera_dataset_plan_global_batch_num_examples, "plan", NULL) \
  X(tessera_dataset_plan_per_process_batch_num_examples, "plan", NULL) \
  X(tessera_dataset_plan_num_shards, "plan", NULL) \
  X(tessera_dataset_plan_shard_index, "plan", NULL) \
  X(tessera_dataset_plan_num_rebatches, "plan", NULL) \
  X(tessera_dataset_plan_rebatch_num_examples, "plan", NULL, 0, (size_t*)(void*)scratch) \
  X(tessera_mesh_to_dtensor_text, "mesh", NULL) \
  X(tessera_layout_to_dtensor_text, "layout", NULL) \
  X(tessera_layout_to_dtensor_text_with_mesh, "layout", NULL, (const tessera_dtensor_mesh*)(void*)scratch) \
  X(tessera_dtensor_mesh_from_mesh, "mesh", NULL, "x", 0, false) \
  X(tessera_dtensor_mesh_to_mesh, "mesh", NULL) \
  X(tessera_dtensor_mesh_to_text, "mesh", NULL) \
  X(tessera_dtensor_mesh_kind, "mesh", NULL) \
  X(tessera_dtensor_mesh_name, "mesh", NULL) \
  X(tessera_dtensor_mesh_device_type, "mesh", NULL) \
  X(tessera_dtensor_mesh_single_device, "mesh", NULL) \
  X(tessera_dtensor_mesh_use_xla_spmd, "mesh", NULL) \
  X(tessera_dtensor_mesh_num_dims, "mesh", NULL) \
  X(tessera_dtensor_mesh_dim_name, "mesh", NULL, 0) \
  X(tessera_dtensor_mesh_dim_extent, "mesh", NULL, 0, (int64_t*)(void*)scratch) \
  X(tessera_dtensor_mesh_num_global_ids, "mesh", NULL) \
  X(tessera_dtensor_mesh_global_id, "mesh", NULL, 0, (int64_t*)(void*)scratch) \
  X(tessera_dtensor_mesh_num_local_ids, "mesh", NULL) \
  X(tessera_dtensor_mesh_local_id, "mesh", NULL, 0, (int64_t*)(void*)scratch) \
  X(tessera_dtensor_mesh_local_device, "mesh", NULL, 0) \
  X(tessera_dtensor_mesh_num_global_devices, "mesh", NULL) \
  X(tessera_dtensor_mesh_global_device, "mesh", NULL, 0) \
  X(tessera_distribution_scope_push, "distribution", NULL) \
  X(tessera_distribution_options_set_dataset_mode, "options", NULL, (tessera_dataset_mode_t)0) \
  X(tessera_layout_to_partition_spec, "layout", NULL) \
  X(tessera_mesh_to_jax_text, "mesh", NULL) \
  X(tessera_layout_with_mesh, "layout", NULL, (const tessera_mesh*)(void*)scratch) \
  X(tessera_layout_num_dims, "layout", NULL) \
  X(tessera_layout_mesh, "layout", NULL) \
  X(tessera_layout_dim_num_axes, "layout", NULL, 0, (size_t*)(void*)scratch) \
  X(tessera_layout_dim_axis, "layout", NULL, 0, 0) \
  X(tessera_layout_dim_num_shards, "layout", NULL, 0, (size_t*)(void*)scratch) \
  X(tessera_layout_check_shape, "layout", NULL, (const int64_t*)(void*)scratch, 1, (tessera_shape_check_t)0) \
  X(tessera_layout_max_shard_shape, "layout", NULL, (const int64_t*)(void*)scratch, 1, (int64_t*)(void*)scratch, 1) \
  X(tessera_layout_to_string, "layout", NULL) \
  X(tessera_layout_map_set, "map", NULL, "x", (const tessera_layout*)(void*)scratch) \
  X(tessera_layout_map_remove, "map", NULL, "x") \
  X(tessera_layout_map_lookup, "map", NULL, "x") \
  X(tessera_layout_map_lookup_rule, "map", NULL, "x", (size_t*)(void*)scratch) \
  X(tessera_layout_map_num_rules, "map", NULL) \
  X(tessera_layout_map_key, "map", NULL, 0) \
  X(tessera_layout_map_layout, "map", NULL, 0) \
  X(tessera_layout_map_mesh, "map", NULL) \
  X(tessera_layout_map_match, "map", NULL) \
  X(tessera_mesh_num_axes, "mesh", NULL) \
  X(tessera_mesh_num_devices, "mesh", NULL) \
  X(tessera_mesh_platform, "mesh", NULL) \
  X(tessera_mesh_axis_extent, "mesh", NULL, 0, (int64_t*)(void*)scratch) \
  X(tessera_mesh_axis_name, "mesh", NULL, 0) \
  X(tessera_mesh_axis_lookup, "mesh", NULL, "x", (size_t*)(void*)scratch) \
  X(tessera_mesh_axis_extent_lookup, "mesh", NULL, "x", (int64_t*)(void*)scratch) \
  X(tessera_mesh_device, "mesh", NULL, 0) \
  X(tessera_mesh_device_coordinates, "mesh", NULL, 0, (int64_t*)(void*)scratch, 1) \
  X(tessera_mesh_device_at, "mesh", NULL, (const int64_t*)(void*)scratch, 1, (int64_t*)(void*)scratch) \
  X(tessera_mesh_to_string, "mesh", NULL) \
  X(tessera_mesh_submesh, "mesh", NULL, strings, 1, 0) \
  X(tessera_mesh_flatten, "mesh", NULL, "x") \
  X(tessera_mesh_local_rank, "mesh", NULL, "x", 0, (int64_t*)(void*)scratch) \
  X(tessera_mesh_axis_groups, "mesh", NULL, "x", (int64_t*)(void*)scratch, 1) \
  X(tessera_mesh_to_proto, "mesh", NULL) \
  X(tessera_mesh_to_json, "mesh", NULL) \
  X(tessera_layout_to_proto, "layout", NULL) \
  X(tessera_layout_to_json, "layout", NULL) \
  X(tessera_layout_map_to_proto, "map", NULL) \
  X(tessera_layout_map_to_json, "map", NULL) \
  X(tessera_distribution_to_proto, "distribution", NULL) \
  X(tessera_distribution_to_json, "distribution", NULL) \
  X(tessera_reshard_plan_create, "source", NULL, (const tessera_sharding*)(void*)scratch, 0) \
  X(tessera_reshard_plan_num_transfers, "plan", NULL) \
  X(tessera_reshard_plan_num_dims, "plan", NULL) \
  X(tessera_reshard_plan_transfer, "plan", NULL, 0, (size_t*)(void*)scratch, (size_t*)(void*)scratch, (int64_t*)(void*)scratch, (tessera_transfer_locality_t*)(void*)scratch) \
  X(tessera_reshard_plan_transfer_ranges, "plan", NULL, 0, (int64_t*)(void*)scratch, 1) \
  X(tessera_reshard_plan_total_bytes, "plan", NULL, (tessera_transfer_locality_t)0, (int64_t*)(void*)scratch) \
  X(tessera_sharding_create, "layout", NULL, (const int64_t*)(void*)scratch, 1, (tessera_shard_mode_t)0) \
  X(tessera_sharding_num_dims, "sharding", NULL) \
  X(tessera_sharding_num_devices, "sharding", NULL) \
  X(tessera_sharding_device_ranges, "sharding", NULL, 0, (int64_t*)(void*)scratch, 1) \
  X(tessera_sharding_shard_shape, "sharding", NULL, 0, (int64_t*)(void*)scratch, 1) \
  X(tessera_sharding_replica_id, "sharding", NULL, 0, (size_t*)(void*)scratch) \
  X(tessera_sharding_device_in_process, "sharding", NULL, 0, 0, (bool*)(void*)scratch) \
  X(tessera_sharding_addressable_devices, "sharding", NULL, 0, (size_t*)(void*)scratch, 1) \
  X(tessera_sharding_index_map, "sharding", NULL, (int64_t*)(void*)scratch, 1) \
  X(tessera_sharding_num_distinct_shards, "sharding", NULL, (size_t*)(void*)scratch) \
  X(tessera_sharding_distinct_shard_ranges, "sharding", NULL, 0, (int64_t*)(void*)scratch, 1) \
  X(tessera_sharding_distinct_shard_num_devices, "sharding", NULL, 0, (size_t*)(void*)scratch) \
  X(tessera_sharding_distinct_shard_devices, "sharding", NULL, 0, (size_t*)(void*)scratch, 1) \
  X(tessera_sharding_max_shard_shape, "sharding", NULL, (int64_t*)(void*)scratch, 1) \
  X(tessera_sharding_is_fully_replicated, "sharding", NULL, (bool*)(void*)scratch) \
  X(tessera_layout_to_torch_placements, "layout", NULL) \
  X(tessera_layout_from_torch_placements, "mesh", "x", NULL, 0) \
  X(tessera_layout_to_hlo_sharding, "layout", NULL, 0, false) \
  X(tessera_layout_from_hlo_sharding, "mesh", "x", NULL, 0) \
  X(tessera_layout_to_op_sharding, "layout", NULL, 0, false) \
  X(tessera_layout_from_op_sharding, "mesh", (const void*)(void*)scratch, 1, NULL, 0) \
  X(tessera_xla_device_order, "mesh", NULL, (int64_t*)(void*)scratch, 1) \
  X(tessera_dtensor_config_options_set_variables, "options", NULL, NULL, 0) \
  X(tessera_dtensor_config_options_set_num_local_devices, "options", NULL, "CPU", 1) \
  X(tessera_dtensor_config_options_set_accelerators_initialized, "options", NULL, false) \
  X(tessera_dtensor_config_client_id, "config", NULL) \
  X(tessera_dtensor_config_num_clients, "config", NULL) \
  X(tessera_dtensor_config_job_name, "config", NULL) \
  X(tessera_dtensor_config_full_job_name, "config", NULL, 0) \
  X(tessera_dtensor_config_num_jobs, "config", NULL) \
  X(tessera_dtensor_config_job, "config", NULL, 0) \
  X(tessera_dtensor_config_heartbeat_enabled, "config", NULL) \
  X(tessera_dtensor_config_is_local_mode, "config", NULL) \
  X(tessera_dtensor_config_accelerators_initialized, "config", NULL) \
  X(tessera_dtensor_config_num_local_devices, "config", NULL, "CPU") \
  X(tessera_dtensor_config_num_global_devices, "config", NULL, "CPU") \
  X(tessera_dtensor_config_local_device, "config", NULL, "CPU", 0, 0) \
  X(tessera_dtensor_mesh_options_set_config, "options", NULL, (const tessera_dtensor_config*)(void*)scratch) \
  X(tessera_dtensor_mesh_create_distributed_legacy_with_config, "config", strings, (const int64_t*)(void*)scratch, 1, "x", NULL, NULL, NULL, "CPU", NULL) \
  X(tessera_dtensor_mesh_has_dim, "mesh", NULL, "x") \
  X(tessera_dtensor_mesh_equal, "a", NULL, (const tessera_dtensor_mesh*)(void*)scratch) \
  X(tessera_dtensor_mesh_dim_extent_lookup, "mesh", NULL, "x", (int64_t*)(void*)scratch) \
  X(tessera_dtensor_mesh_to_host_mesh, "mesh", NULL) \
  X(tessera_dtensor_mesh_coordinates, "mesh", NULL, 0, (int64_t*)(void*)scratch, 1) \
  X(tessera_dtensor_layout_create, "mesh", (tessera_dtensor_layout_type_t)0, strings, 0, NULL) \
  X(tessera_dtensor_layout_to_text, "layout", NULL) \
  X(tessera_dtensor_layout_to_layout, "layout", NULL) \
  X(tessera_dtensor_layout_type, "layout", NULL) \
  X(tessera_dtensor_layout_num_dims, "layout", NULL) \
  X(tessera_dtensor_layout_spec, "layout", NULL, 0) \
  X(tessera_dtensor_layout_mesh, "layout", NULL) \
  X(tessera_dtensor_layout_equal, "a", NULL, (const tessera_dtensor_layout*)(void*)scratch) \
  X(tessera_dtensor_layout_to_device_type, "layout", NULL, "x") \
  X(tessera_dtensor_layout_to_parted, "layout", NULL) \
  X(tessera_dtensor_layout_truncate, "layout", NULL, 0, false) \
  X(tessera_dtensor_layout_left_pad, "layout", NULL, 0) \
  X(tessera_dtensor_layout_reduce_dims, "layout", NULL, NULL, 0, false) \
  X(tessera_dtensor_layout_remove_dims, "layout", NULL, NULL, 0) \
  X(tessera_dtensor_layout_transpose_2d, "layout", NULL) \
  X(tessera_dtensor_layout_concatenate, "a", NULL, (const tessera_dtensor_layout*)(void*)scratch) \
  X(tessera_dtensor_layout_num_shards_per_dim, "layout", NULL, (int64_t*)(void*)scratch, 1) \
  X(tessera_dtensor_layout_is_fully_replicated, "layout", NULL) \
  X(tessera_dtensor_layout_is_last_dim_replicated, "layout", NULL) \
  X(tessera_dtensor_layout_is_batch_parallel, "layout", NULL) \
  X(tessera_dtensor_layout_is_batch_parallel_over, "layout", NULL, 0) \
  X(tessera_dtensor_layout_is_equivalent, "a", NULL, (const tessera_dtensor_layout*)(void*)scratch) \
  X(tessera_dtensor_layout_is_equivalent_ignoring_type, "a", NULL, (const tessera_dtensor_layout*)(void*)scratch) \
  X(tessera_dtensor_layout_reduced_mesh, "layout", NULL) \
  X(tessera_dtensor_layout_shard_vector_text, "layout", NULL) \
  X(tessera_dtensor_layout_host_shard_vector_text, "layout", NULL, "x") \
  X(tessera_dtensor_layout_offset_to_shard, "layout", NULL, 0, (int64_t*)(void*)scratch, 1) \
  X(tessera_dtensor_layout_offset_tuple_to_global_index, "layout", NULL, NULL, 0, (int64_t*)(void*)scratch) \
  X(tessera_dtensor_layout_local_shape_from_global, "layout", NULL, NULL, 0, (int64_t*)(void*)scratch, 1) \
  X(tessera_dtensor_layout_global_shape_from_local, "layout", NULL, NULL, 0, NULL, 0, (int64_t*)(void*)scratch, 1) \
  X(tessera_dtensor_mesh_to_device_type, "mesh", NULL, "x") \
  X(tessera_dtensor_mesh_dim_lookup, "mesh", NULL, "x", (size_t*)(void*)scratch) \
  X(tessera_dtensor_mesh_num_hosts, "mesh", NULL) \
  X(tessera_dtensor_mesh_host, "mesh", NULL, 0) \
  X(tessera_dtensor_layout_shard_vector_equal, "a", NULL, (const tessera_dtensor_layout*)(void*)scratch) \
  X(tessera_dtensor_mesh_device_location, "mesh", NULL, 0, (int64_t*)(void*)scratch, 1) \
  X(tessera_mesh_options_set_allow_split_physical_axes, "options", NULL, false) \
  X(tessera_mesh_options_set_contiguous_submeshes, "options", NULL, false) \
  X(tessera_hlo_sharding_from_layout, "layout", NULL, 0, NULL, 0) \
  X(tessera_hlo_sharding_to_text, "sharding", NULL) \
  X(tessera_hlo_sharding_to_layout, "sharding", NULL, (const tessera_mesh*)(void*)scratch, 2) \
  X(tessera_hlo_sharding_kind, "sharding", NULL) \
  X(tessera_hlo_sharding_maximal_device, "sharding", NULL, (int64_t*)(void*)scratch) \
  X(tessera_hlo_sharding_tile_dims, "sharding", NULL, (int64_t*)(void*)scratch, 1) \
  X(tessera_hlo_sharding_tile_devices, "sharding", NULL, (int64_t*)(void*)scratch, 1) \
  X(tessera_hlo_sharding_subgroup_types, "sharding", NULL, (int64_t*)(void*)scratch, 1) \
  X(tessera_distribution_interleave_num_shards, "distribution", NULL) \
  X(tessera_distribution_interleave_shard_index, "distribution", NULL) \
  X(tessera_dataset_plan_interleave_num_shards, "plan", NULL) \
  X(tessera_dataset_plan_interleave_shard_index, "plan", NULL) \
  X(tessera_distribution_plan_dataset_for_process, "distribution", NULL, 8, 0) \
  X(tessera_distribution_auto_shard_dataset, "distribution", NULL) \
  X(tessera_distribution_shape_check, "distribution", NULL) \
  X(tessera_distribution_dataset_mode, "distribution", NULL) \
  X(tessera_distribution_layout_map, "distribution", NULL) \
  X(tessera_distribution_is_batch_parallel, "distribution", NULL) \
  X(tessera_distribution_is_same, "a", NULL, NULL) \
  X(tessera_layout_to_shardy_text, "layout", NULL, NULL) \
  X(tessera_mesh_to_shardy_text, "mesh", NULL, NULL) \
  X(tessera_mesh_options_set_device_processes, "options", NULL, NULL, 0) \
  X(tessera_checkpoint_format, "checkpoint", NULL) \
  X(tessera_checkpoint_num_files, "checkpoint", NULL) \
  X(tessera_checkpoint_file_path, "checkpoint", NULL, 0) \
  X(tessera_checkpoint_file_size, "checkpoint", NULL, 0) \
  X(tessera_checkpoint_num_tensors, "checkpoint", NULL) \
  X(tessera_checkpoint_tensor_name, "checkpoint", NULL, 0) \
  X(tessera_checkpoint_tensor_element_type, "checkpoint", NULL, 0) \
  X(tessera_checkpoint_tensor_block_num_elements, "checkpoint", NULL, 0) \
  X(tessera_checkpoint_tensor_block_size, "checkpoint", NULL, 0) \
  X(tessera_checkpoint_tensor_shape, "checkpoint", NULL, 0, (int64_t*)(void*)scratch, 1) \
  X(tessera_checkpoint_tensor_file_index, "checkpoint", NULL, 0) \
  X(tessera_checkpoint_tensor_offset, "checkpoint", NULL, 0) \
  X(tessera_checkpoint_tensor_size, "checkpoint", NULL, 0) \
  X(tessera_checkpoint_tensor_lookup, "checkpoint", NULL, "x", (size_t*)(void*)scratch) \
  X(tessera_checkpoint_num_metadata_entries, "checkpoint", NULL) \
  X(tessera_checkpoint_metadata_key, "checkpoint", NULL, 0) \
  X(tessera_checkpoint_metadata_value, "checkpoint", NULL, 0) \
  X(tessera_checkpoint_metadata_lookup, "checkpoint", NULL, "x") \
  X(tessera_read_options_set_process, "options", NULL, 0, 1) \
  X(tessera_read_options_set_shard_mode, "options", NULL, TESSERA_SHARD_MODE_STRICT) \
  X(tessera_read_options_set_coalesce_gap, "options", NULL, 0) \
  X(tessera_read_options_set_threads, "options", NULL, 1) \
  X(tessera_read_options_set_staging_bytes, "options", NULL, 1) \
  X(tessera_read_plan_create, "checkpoint", NULL, (const tessera_layout_map*)(void*)scratch, NULL) \
  X(tessera_read_plan_num_pieces, "plan", NULL) \
  X(tessera_read_plan_piece_device, "plan", NULL, 0) \
  X(tessera_read_plan_piece_tensor, "plan", NULL, 0) \
  X(tessera_read_plan_piece_ranges, "plan", NULL, 0, (int64_t*)(void*)scratch, 1) \
  X(tessera_read_plan_piece_shape, "plan", NULL, 0, (int64_t*)(void*)scratch, 1) \
  X(tessera_read_plan_piece_size, "plan", NULL, 0) \
  X(tessera_read_plan_num_files, "plan", NULL) \
  X(tessera_read_plan_file_ranges, "plan", NULL, 0, (int64_t*)(void*)scratch, 1) \
  X(tessera_read_plan_total_bytes, "plan", NULL) \
  X(tessera_read_plan_execute, "plan", NULL, NULL, NULL, 0, NULL, NULL, NULL) \
  X(tessera_read_plan_stream, "plan", NULL, NULL, NULL, NULL, NULL, NULL) \
  X(tessera_checkpoint_plan_options_set_recipe, "options", NULL, TESSERA_PLAN_RECIPE_INFERENCE) \
  X(tessera_checkpoint_plan_options_set_dtype, "options", NULL, "x") \
  X(tessera_checkpoint_plan_options_set_kv_cache, "options", NULL, 0, 0) \
  X(tessera_checkpoint_plan_options_set_attention_shape, "options", NULL, 1, 1, 1) \
  X(tessera_checkpoint_plan_options_set_kv_dtype, "options", NULL, "x") \
  X(tessera_checkpoint_plan_options_set_capacity, "options", NULL, 0) \
  X(tessera_checkpoint_plan_options_set_device_capacities, "options", NULL, NULL, 0) \
  X(tessera_checkpoint_plan_options_set_shard_mode, "options", NULL, TESSERA_SHARD_MODE_STRICT) \
  X(tessera_checkpoint_plan_create, "checkpoint", NULL, (const tessera_layout_map*)(void*)scratch, NULL) \
  X(tessera_checkpoint_plan_num_tensors, "plan", NULL) \
  X(tessera_checkpoint_plan_tensor_element_type, "plan", NULL, 0) \
  X(tessera_checkpoint_plan_tensor_rule, "plan", NULL, 0, (size_t*)(void*)scratch) \
  X(tessera_checkpoint_plan_tensor_layout, "plan", NULL, 0) \
  X(tessera_checkpoint_plan_tensor_shard_shape, "plan", NULL, 0, (int64_t*)(void*)scratch, 1) \
  X(tessera_checkpoint_plan_tensor_shard_bytes, "plan", NULL, 0) \
  X(tessera_checkpoint_plan_tensor_problem, "plan", NULL, 0) \
  X(tessera_checkpoint_plan_num_parameters, "plan", NULL) \
  X(tessera_checkpoint_plan_weight_bytes, "plan", NULL) \
  X(tessera_checkpoint_plan_num_devices, "plan", NULL) \
  X(tessera_checkpoint_plan_device_term_bytes, "plan", NULL, 0, TESSERA_PLAN_TERM_WEIGHTS) \
  X(tessera_checkpoint_plan_device_peak_bytes, "plan", NULL, 0) \
  X(tessera_checkpoint_plan_device_capacity_bytes, "plan", NULL, 0) \
  X(tessera_checkpoint_plan_device_verdict, "plan", NULL, 0) \
  X(tessera_checkpoint_plan_kv_cache_sharding, "plan", NULL) \
  X(tessera_checkpoint_plan_search_create, "checkpoint", NULL, (const tessera_layout_map* const*)(void*)scratch, 1, NULL) \
  X(tessera_checkpoint_plan_search_num_candidates, "search", NULL) \
  X(tessera_checkpoint_plan_search_candidate_mesh_shape, "search", NULL, 0, (int64_t*)(void*)scratch, 1) \
  X(tessera_checkpoint_plan_search_candidate_layout_map, "search", NULL, 0) \
  X(tessera_checkpoint_plan_search_candidate_peak_bytes, "search", NULL, 0) \
  X(tessera_checkpoint_plan_search_candidate_problem, "search", NULL, 0) \
  X(tessera_save_options_set_process, "options", NULL, 0, 1) \
  X(tessera_save_options_set_shard_mode, "options", NULL, TESSERA_SHARD_MODE_STRICT) \
  X(tessera_save_options_set_chunk_size, "options", NULL, 1) \
  X(tessera_checkpoint_saver_add_tensor, "saver", NULL, "x", "x", (const tessera_layout*)(void*)scratch, NULL, 0) \
  X(tessera_checkpoint_saver_num_tensors, "saver", NULL) \
  X(tessera_checkpoint_saver_set_shard, "saver", NULL, 0, 0, NULL, 0) \
  X(tessera_checkpoint_saver_write, "saver", NULL) \
  X(tessera_checkpoint_saver_write_shards, "saver", NULL, NULL, 0, NULL, 0, NULL, NULL, 0) \
  X(tessera_checkpoint_saver_stream, "saver", NULL, NULL, NULL) \
  X(tessera_checkpoint_saver_finish, "saver", NULL) \
  X(tessera_checkpoint_index_num_processes, "checkpoint", NULL) \
  X(tessera_checkpoint_index_num_files, "checkpoint", NULL) \
  X(tessera_checkpoint_index_file_path, "checkpoint", NULL, 0) \
  X(tessera_checkpoint_index_num_tensors, "checkpoint", NULL) \
  X(tessera_checkpoint_index_tensor_name, "checkpoint", NULL, 0) \
  X(tessera_checkpoint_index_tensor_dtype, "checkpoint", NULL, 0) \
  X(tessera_checkpoint_index_tensor_shape, "checkpoint", NULL, 0, (int64_t*)(void*)scratch, 1) \
  X(tessera_checkpoint_index_tensor_sharding, "checkpoint", NULL, 0) \
  X(tessera_checkpoint_index_tensor_num_pieces, "checkpoint", NULL, 0) \
  X(tessera_checkpoint_index_piece_ranges, "checkpoint", NULL, 0, 0, (int64_t*)(void*)scratch, 1) \
  X(tessera_checkpoint_index_piece_file, "checkpoint", NULL, 0, 0) \
  X(tessera_restore_request_add_tensor, "request", NULL, "x", NULL, NULL, 0) \
  X(tessera_restore_plan_create, "checkpoint", NULL, (const tessera_layout_map*)(void*)scratch, NULL, NULL)

#if TESSERA_HAS_CLUSTER
#define NULL_CASES_CLUSTER(X) \
  X(tessera_client_process_index, "client", NULL) \
  X(tessera_client_num_processes, "client", NULL) \
  X(tessera_client_coordinator_address, "client", NULL) \
  X(tessera_client_devices, "client", NULL) \
  X(tessera_client_kv_set, "client", NULL, "x", (const void*)(void*)scratch, 1, false) \
  X(tessera_client_kv_wait, "client", NULL, "x", 0) \
  X(tessera_client_kv_lookup, "client", NULL, "x") \
  X(tessera_client_kv_list, "client", NULL, "x") \
  X(tessera_client_kv_remove, "client", NULL, "x", false) \
  X(tessera_kv_list_num_entries, "list", NULL) \
  X(tessera_kv_list_key, "list", NULL, 0) \
  X(tessera_kv_list_value, "list", NULL, 0, (void*)scratch, 1) \
  X(tessera_client_barrier, "client", NULL, "x", 0, (const size_t*)(void*)scratch, 1) \
  X(tessera_client_cancel_barrier, "client", NULL, "x") \
  X(tessera_client_report_error, "client", NULL, (tessera_code_t)0, "x") \
  X(tessera_client_set_event_callback, "client", NULL, NULL, NULL) \
  X(tessera_client_event_wait, "client", NULL, 0) \
  X(tessera_event_kind, "event", NULL) \
  X(tessera_event_process_index, "event", NULL) \
  X(tessera_event_task_state, "event", NULL) \
  X(tessera_event_code, "event", NULL) \
  X(tessera_event_message, "event", NULL) \
  X(tessera_error_reason, "error", NULL) \
  X(tessera_error_source_process, "error", NULL) \
  X(tessera_error_num_missing, "error", NULL) \
  X(tessera_error_missing_process, "error", NULL, 0) \
  X(tessera_error_missing_state, "error", NULL, 0) \
  X(tessera_error_missing_waiting_at, "error", NULL, 0) \
  X(tessera_error_num_arrived, "error", NULL) \
  X(tessera_error_arrived_process, "error", NULL, 0) \
  X(tessera_client_shutdown, "client", NULL) \
  X(tessera_cluster_options_set_coordinator_address, "options", NULL, "x") \
  X(tessera_cluster_options_set_bind_address, "options", NULL, "x") \
  X(tessera_cluster_options_set_num_processes, "options", NULL, 1) \
  X(tessera_cluster_options_set_process_index, "options", NULL, 0) \
  X(tessera_cluster_options_set_local_device_ids, "options", NULL, (const int64_t*)(void*)scratch, 1) \
  X(tessera_cluster_options_set_job_id, "options", NULL, "x") \
  X(tessera_cluster_options_set_job_token, "options", NULL, "x") \
  X(tessera_cluster_options_set_require_auth, "options", NULL, false) \
  X(tessera_cluster_options_set_tls, "options", NULL, "x", "x", "x") \
  X(tessera_cluster_options_set_tls_require_client_cert, "options", NULL, false) \
  X(tessera_cluster_options_set_tls_server_name, "options", NULL, "x") \
  X(tessera_cluster_options_set_init_timeout_ms, "options", NULL, 0) \
  X(tessera_cluster_options_set_heartbeat, "options", NULL, 0, 0) \
  X(tessera_cluster_options_set_shutdown_timeout_ms, "options", NULL, 0) \
  X(tessera_cluster_options_set_rpc_timeout_ms, "options", NULL, 0) \
  X(tessera_cluster_options_set_detection, "options", NULL, "x") \
  X(tessera_detection_source, "detection", NULL) \
  X(tessera_detection_coordinator_address, "detection", NULL) \
  X(tessera_detection_bind_address, "detection", NULL) \
  X(tessera_detection_num_processes, "detection", NULL) \
  X(tessera_detection_process_index, "detection", NULL) \
  X(tessera_detection_job_id, "detection", NULL) \
  X(tessera_detection_num_local_device_ids, "detection", NULL) \
  X(tessera_detection_local_device_id, "detection", NULL, 0) \
  X(tessera_detection_explanation, "detection", NULL) \
  X(tessera_coordinator_start, "options", NULL) \
  X(tessera_coordinator_port, "coordinator", NULL) \
  X(tessera_coordinator_wait, "coordinator", NULL, 0) \
  X(tessera_cluster_options_set_recoverable, "options", NULL, false) \
  X(tessera_cluster_options_set_fail_job_on_duplicate_id, "options", NULL, false) \
  X(tessera_cluster_options_set_partition_index, "options", NULL, 0) \
  X(tessera_cluster_options_set_kv_limits, "options", NULL, 0, 0) \
  X(tessera_cluster_options_set_tls_peer_uri_prefix, "options", NULL, "x") \
  X(tessera_cluster_options_set_tls_reload_interval_ms, "options", NULL, 0) \
  X(tessera_client_topology_fingerprint, "client", NULL) \
  X(tessera_client_topology_generation, "client", NULL) \
  X(tessera_client_agree_live_processes, "client", NULL, (const size_t*)(void*)scratch, 1, 0, (size_t*)(void*)scratch, 1) \
  X(tessera_client_kv_increment, "client", NULL, "x", 0, (int64_t*)(void*)scratch) \
  X(tessera_client_kv_compare_and_swap, "client", NULL, "x", (const void*)(void*)scratch, 0, (const void*)(void*)scratch, 0, (bool*)(void*)scratch, (tessera_buffer**)(void*)scratch) \
  X(tessera_event_generation, "event", NULL) \
  X(tessera_event_version, "event", NULL) \
  X(tessera_keras_initialize_options_set_job_addresses, "options", NULL, "x") \
  X(tessera_keras_initialize_options_set_num_processes, "options", NULL, 1) \
  X(tessera_keras_initialize_options_set_process_index, "options", NULL, 0) \
  X(tessera_keras_initialize_job_addresses, "resolution", NULL) \
  X(tessera_keras_initialize_num_job_addresses, "resolution", NULL) \
  X(tessera_keras_initialize_job_address, "resolution", NULL, 0) \
  X(tessera_keras_initialize_coordinator_address, "resolution", NULL) \
  X(tessera_keras_initialize_has_num_processes, "resolution", NULL) \
  X(tessera_keras_initialize_num_processes, "resolution", NULL) \
  X(tessera_keras_initialize_has_process_index, "resolution", NULL) \
  X(tessera_keras_initialize_process_index, "resolution", NULL) \
  X(tessera_cluster_options_set_connection_timeouts, "options", NULL, 10000, 300000) \
  X(tessera_cluster_options_set_metrics_bind, "options", NULL, "127.0.0.1:0") \
  X(tessera_coordinator_metrics_port, "coordinator", NULL) \
  X(tessera_job_status_query, "options", NULL, 1000) \
  X(tessera_job_status_job_state, "status", NULL) \
  X(tessera_job_status_num_processes, "status", NULL) \
  X(tessera_job_status_process_state, "status", NULL, 0) \
  X(tessera_job_status_process_ms_since_heartbeat, "status", NULL, 0) \
  X(tessera_job_status_process_waiting_on, "status", NULL, 0)
#else
#define NULL_CASES_CLUSTER(X)
#endif

/* Calls `fn` with its handle NULL; 1 when the result is the zero value. */
#define DEFINE_NULL_CALL(fn, argument, ...) \
  static int null_##fn(tessera_error** out_error) { return fn(__VA_ARGS__, out_error) == 0; }
NULL_CASES(DEFINE_NULL_CALL)
NULL_CASES_CLUSTER(DEFINE_NULL_CALL)

typedef struct null_case {
  const char* function;
  const char* argument;
  int (*call)(tessera_error** out_error);
} null_case;

#define NULL_CASE_ROW(fn, argument, ...) {#fn, argument, null_##fn},
static const null_case null_cases[] = {NULL_CASES(NULL_CASE_ROW) NULL_CASES_CLUSTER(NULL_CASE_ROW)};

static void every_null_handle_is_invalid_argument_naming_it(void) {
  size_t i;
  char expected[160];
  for (i = 0; i < HARNESS_COUNT(null_cases); ++i) {
    const null_case* c = &null_cases[i];
    tessera_error* err = NULL;
    const int zero = c->call(&err);
    snprintf(expected, sizeof expected, "Argument '%s' is NULL; expected a valid pointer",
             c->argument);
    if (!zero) harness_fail(__FILE__, __LINE__, "%s: not the zero value", c->function);
    expect_error(c->function, err, TESSERA_INVALID_ARGUMENT, expected, 1);
  }
}

/* ---- indices: X(function, index argument's name, count, arguments...) ---------- */

/* One real object of each kind, made before the tests run. */
static struct objects {
  tessera_mesh* mesh;
  tessera_mesh* line;
  tessera_layout* layout;
  tessera_layout_map* layout_map;
  tessera_device* tpu;
  tessera_device_list* device_list;
  tessera_local_devices* local_devices;
  tessera_distribution* distribution;
  tessera_dataset_plan* plan;
  tessera_dtensor_mesh* dtensor_mesh;
  tessera_sharding* sharding;
  tessera_reshard_plan* reshard_plan;
  tessera_hlo_sharding* hlo_sharding;
  tessera_error* error;
  tessera_dtensor_config* dtensor_config;
  tessera_checkpoint* checkpoint;
  tessera_read_plan* read_plan;
  tessera_checkpoint_plan* checkpoint_plan;
  tessera_checkpoint_plan_search* plan_search;
  tessera_checkpoint_index* checkpoint_index;
#if TESSERA_HAS_CLUSTER
  tessera_client* client;
  tessera_kv_list* kv_list;
  tessera_detection* detection;
  tessera_keras_initialize* keras_initialize;
  tessera_coordinator* coordinator;
  tessera_job_status* job_status;
#endif
  /* Out parameters. */
  int64_t i64;
  size_t size;
  bool flag;
  tessera_platform_t platform;
  tessera_transfer_locality_t locality;
  int64_t i64s[8];
  size_t sizes[8];
} o;

static size_t num_distinct_shards(void) {
  size_t n = 0;
  tessera_sharding_num_distinct_shards(o.sharding, &n, NULL);
  return n;
}

/* A DTensor layout for the index and array tables, made once (a DTensor
 * layout is immutable) and kept for the whole run. */
static const tessera_dtensor_layout* dtensor_layout(void) {
  static tessera_dtensor_layout* layout;
  if (layout == NULL) {
    layout = tessera_dtensor_layout_parse("sharding_specs:x,y, mesh:|x=2,y=2|*CPU", NULL);
  }
  return layout;
}

#define INDEX_CASES(X) \
  X(tessera_device_coordinate, "axis", 3, o.tpu, index, &o.i64) \
  X(tessera_device_list_device, "index", tessera_device_list_num_devices(o.device_list, NULL), o.device_list, index) \
  X(tessera_local_devices_platform, "index", tessera_local_devices_num_devices(o.local_devices, NULL), o.local_devices, index, &o.platform) \
  X(tessera_local_devices_ordinal, "index", tessera_local_devices_num_devices(o.local_devices, NULL), o.local_devices, index, &o.size) \
  X(tessera_local_devices_memory_bytes, "index", tessera_local_devices_num_devices(o.local_devices, NULL), o.local_devices, index, &o.i64) \
  X(tessera_local_devices_kind, "index", tessera_local_devices_num_devices(o.local_devices, NULL), o.local_devices, index) \
  X(tessera_local_devices_physical_id, "index", tessera_local_devices_num_devices(o.local_devices, NULL), o.local_devices, index) \
  X(tessera_local_devices_pci_bus_id, "index", tessera_local_devices_num_devices(o.local_devices, NULL), o.local_devices, index) \
  X(tessera_dataset_plan_rebatch_num_examples, "index", tessera_dataset_plan_num_rebatches(o.plan, NULL), o.plan, index, &o.size) \
  X(tessera_dtensor_mesh_dim_name, "index", tessera_dtensor_mesh_num_dims(o.dtensor_mesh, NULL), o.dtensor_mesh, index) \
  X(tessera_dtensor_mesh_dim_extent, "index", tessera_dtensor_mesh_num_dims(o.dtensor_mesh, NULL), o.dtensor_mesh, index, &o.i64) \
  X(tessera_dtensor_mesh_global_id, "index", tessera_dtensor_mesh_num_global_ids(o.dtensor_mesh, NULL), o.dtensor_mesh, index, &o.i64) \
  X(tessera_dtensor_mesh_local_id, "index", tessera_dtensor_mesh_num_local_ids(o.dtensor_mesh, NULL), o.dtensor_mesh, index, &o.i64) \
  X(tessera_dtensor_mesh_local_device, "index", tessera_dtensor_mesh_num_local_ids(o.dtensor_mesh, NULL), o.dtensor_mesh, index) \
  X(tessera_dtensor_mesh_global_device, "index", tessera_dtensor_mesh_num_global_devices(o.dtensor_mesh, NULL), o.dtensor_mesh, index) \
  X(tessera_layout_dim_num_axes, "dim", tessera_layout_num_dims(o.layout, NULL), o.layout, index, &o.size) \
  X(tessera_layout_dim_axis, "dim", tessera_layout_num_dims(o.layout, NULL), o.layout, index, 0) \
  X(tessera_layout_dim_num_shards, "dim", tessera_layout_num_dims(o.layout, NULL), o.layout, index, &o.size) \
  X(tessera_layout_map_key, "index", tessera_layout_map_num_rules(o.layout_map, NULL), o.layout_map, index) \
  X(tessera_layout_map_layout, "index", tessera_layout_map_num_rules(o.layout_map, NULL), o.layout_map, index) \
  X(tessera_mesh_axis_extent, "index", tessera_mesh_num_axes(o.mesh, NULL), o.mesh, index, &o.i64) \
  X(tessera_mesh_axis_name, "index", tessera_mesh_num_axes(o.mesh, NULL), o.mesh, index) \
  X(tessera_mesh_device, "index", tessera_mesh_num_devices(o.mesh, NULL), o.mesh, index) \
  X(tessera_reshard_plan_transfer, "index", tessera_reshard_plan_num_transfers(o.reshard_plan, NULL), o.reshard_plan, index, &o.size, &o.size, &o.i64, &o.locality) \
  X(tessera_reshard_plan_transfer_ranges, "index", tessera_reshard_plan_num_transfers(o.reshard_plan, NULL), o.reshard_plan, index, o.i64s, 8) \
  X(tessera_sharding_shard_size, "device_index", tessera_sharding_num_devices(o.sharding, NULL), o.sharding, index, 4, &o.size) \
  X(tessera_sharding_device_ranges, "device_index", tessera_sharding_num_devices(o.sharding, NULL), o.sharding, index, o.i64s, 8) \
  X(tessera_sharding_shard_shape, "device_index", tessera_sharding_num_devices(o.sharding, NULL), o.sharding, index, o.i64s, 8) \
  X(tessera_sharding_replica_id, "device_index", tessera_sharding_num_devices(o.sharding, NULL), o.sharding, index, &o.size) \
  X(tessera_sharding_device_in_process, "device_index", tessera_sharding_num_devices(o.sharding, NULL), o.sharding, index, 0, &o.flag) \
  X(tessera_sharding_distinct_shard_ranges, "shard", num_distinct_shards(), o.sharding, index, o.i64s, 8) \
  X(tessera_sharding_distinct_shard_num_devices, "shard", num_distinct_shards(), o.sharding, index, &o.size) \
  X(tessera_sharding_distinct_shard_devices, "shard", num_distinct_shards(), o.sharding, index, o.sizes, 8) \
  X(tessera_dtensor_config_job, "index", tessera_dtensor_config_num_jobs(o.dtensor_config, NULL), o.dtensor_config, index) \
  X(tessera_dtensor_config_local_device, "index", tessera_dtensor_config_num_local_devices(o.dtensor_config, "GPU", NULL), o.dtensor_config, "GPU", TESSERA_NO_INDEX, index) \
  X(tessera_dtensor_layout_spec, "index", tessera_dtensor_layout_num_dims(dtensor_layout(), NULL), dtensor_layout(), index) \
  X(tessera_dtensor_mesh_host, "index", tessera_dtensor_mesh_num_hosts(o.dtensor_mesh, NULL), o.dtensor_mesh, index) \
  X(tessera_checkpoint_file_path, "index", tessera_checkpoint_num_files(o.checkpoint, NULL), o.checkpoint, index) \
  X(tessera_checkpoint_file_size, "index", tessera_checkpoint_num_files(o.checkpoint, NULL), o.checkpoint, index) \
  X(tessera_checkpoint_tensor_name, "index", tessera_checkpoint_num_tensors(o.checkpoint, NULL), o.checkpoint, index) \
  X(tessera_checkpoint_tensor_element_type, "index", tessera_checkpoint_num_tensors(o.checkpoint, NULL), o.checkpoint, index) \
  X(tessera_checkpoint_tensor_block_num_elements, "index", tessera_checkpoint_num_tensors(o.checkpoint, NULL), o.checkpoint, index) \
  X(tessera_checkpoint_tensor_block_size, "index", tessera_checkpoint_num_tensors(o.checkpoint, NULL), o.checkpoint, index) \
  X(tessera_checkpoint_tensor_shape, "index", tessera_checkpoint_num_tensors(o.checkpoint, NULL), o.checkpoint, index, o.i64s, 8) \
  X(tessera_checkpoint_tensor_file_index, "index", tessera_checkpoint_num_tensors(o.checkpoint, NULL), o.checkpoint, index) \
  X(tessera_checkpoint_tensor_offset, "index", tessera_checkpoint_num_tensors(o.checkpoint, NULL), o.checkpoint, index) \
  X(tessera_checkpoint_tensor_size, "index", tessera_checkpoint_num_tensors(o.checkpoint, NULL), o.checkpoint, index) \
  X(tessera_checkpoint_metadata_key, "index", tessera_checkpoint_num_metadata_entries(o.checkpoint, NULL), o.checkpoint, index) \
  X(tessera_checkpoint_metadata_value, "index", tessera_checkpoint_num_metadata_entries(o.checkpoint, NULL), o.checkpoint, index) \
  X(tessera_read_plan_piece_device, "index", tessera_read_plan_num_pieces(o.read_plan, NULL), o.read_plan, index) \
  X(tessera_read_plan_piece_tensor, "index", tessera_read_plan_num_pieces(o.read_plan, NULL), o.read_plan, index) \
  X(tessera_read_plan_piece_ranges, "index", tessera_read_plan_num_pieces(o.read_plan, NULL), o.read_plan, index, o.i64s, 8) \
  X(tessera_read_plan_piece_shape, "index", tessera_read_plan_num_pieces(o.read_plan, NULL), o.read_plan, index, o.i64s, 8) \
  X(tessera_read_plan_piece_size, "index", tessera_read_plan_num_pieces(o.read_plan, NULL), o.read_plan, index) \
  X(tessera_read_plan_file_ranges, "index", tessera_read_plan_num_files(o.read_plan, NULL), o.read_plan, index, o.i64s, 8) \
  X(tessera_checkpoint_plan_tensor_element_type, "index", tessera_checkpoint_plan_num_tensors(o.checkpoint_plan, NULL), o.checkpoint_plan, index) \
  X(tessera_checkpoint_plan_tensor_rule, "index", tessera_checkpoint_plan_num_tensors(o.checkpoint_plan, NULL), o.checkpoint_plan, index, &o.size) \
  X(tessera_checkpoint_plan_tensor_layout, "index", tessera_checkpoint_plan_num_tensors(o.checkpoint_plan, NULL), o.checkpoint_plan, index) \
  X(tessera_checkpoint_plan_tensor_shard_shape, "index", tessera_checkpoint_plan_num_tensors(o.checkpoint_plan, NULL), o.checkpoint_plan, index, o.i64s, 8) \
  X(tessera_checkpoint_plan_tensor_shard_bytes, "index", tessera_checkpoint_plan_num_tensors(o.checkpoint_plan, NULL), o.checkpoint_plan, index) \
  X(tessera_checkpoint_plan_tensor_problem, "index", tessera_checkpoint_plan_num_tensors(o.checkpoint_plan, NULL), o.checkpoint_plan, index) \
  X(tessera_checkpoint_plan_device_term_bytes, "index", tessera_checkpoint_plan_num_devices(o.checkpoint_plan, NULL), o.checkpoint_plan, index, TESSERA_PLAN_TERM_WEIGHTS) \
  X(tessera_checkpoint_plan_device_peak_bytes, "index", tessera_checkpoint_plan_num_devices(o.checkpoint_plan, NULL), o.checkpoint_plan, index) \
  X(tessera_checkpoint_plan_device_capacity_bytes, "index", tessera_checkpoint_plan_num_devices(o.checkpoint_plan, NULL), o.checkpoint_plan, index) \
  X(tessera_checkpoint_plan_device_verdict, "index", tessera_checkpoint_plan_num_devices(o.checkpoint_plan, NULL), o.checkpoint_plan, index) \
  X(tessera_checkpoint_plan_search_candidate_mesh_shape, "index", tessera_checkpoint_plan_search_num_candidates(o.plan_search, NULL), o.plan_search, index, o.i64s, 8) \
  X(tessera_checkpoint_plan_search_candidate_layout_map, "index", tessera_checkpoint_plan_search_num_candidates(o.plan_search, NULL), o.plan_search, index) \
  X(tessera_checkpoint_plan_search_candidate_peak_bytes, "index", tessera_checkpoint_plan_search_num_candidates(o.plan_search, NULL), o.plan_search, index) \
  X(tessera_checkpoint_plan_search_candidate_problem, "index", tessera_checkpoint_plan_search_num_candidates(o.plan_search, NULL), o.plan_search, index) \
  X(tessera_checkpoint_index_file_path, "index", tessera_checkpoint_index_num_files(o.checkpoint_index, NULL), o.checkpoint_index, index) \
  X(tessera_checkpoint_index_tensor_name, "index", tessera_checkpoint_index_num_tensors(o.checkpoint_index, NULL), o.checkpoint_index, index) \
  X(tessera_checkpoint_index_tensor_dtype, "index", tessera_checkpoint_index_num_tensors(o.checkpoint_index, NULL), o.checkpoint_index, index) \
  X(tessera_checkpoint_index_tensor_shape, "index", tessera_checkpoint_index_num_tensors(o.checkpoint_index, NULL), o.checkpoint_index, index, o.i64s, 8) \
  X(tessera_checkpoint_index_tensor_sharding, "index", tessera_checkpoint_index_num_tensors(o.checkpoint_index, NULL), o.checkpoint_index, index) \
  X(tessera_checkpoint_index_tensor_num_pieces, "index", tessera_checkpoint_index_num_tensors(o.checkpoint_index, NULL), o.checkpoint_index, index) \
  X(tessera_checkpoint_index_piece_ranges, "index", tessera_checkpoint_index_num_tensors(o.checkpoint_index, NULL), o.checkpoint_index, index, 0, o.i64s, 8) \
  X(tessera_checkpoint_index_piece_file, "index", tessera_checkpoint_index_num_tensors(o.checkpoint_index, NULL), o.checkpoint_index, index, 0)

#if TESSERA_HAS_CLUSTER
#define INDEX_CASES_CLUSTER(X) \
  X(tessera_kv_list_key, "index", tessera_kv_list_num_entries(o.kv_list, NULL), o.kv_list, index) \
  X(tessera_kv_list_value, "index", tessera_kv_list_num_entries(o.kv_list, NULL), o.kv_list, index, o.sizes, 8) \
  X(tessera_error_missing_process, "index", tessera_error_num_missing(o.error, NULL), o.error, index) \
  X(tessera_error_missing_state, "index", tessera_error_num_missing(o.error, NULL), o.error, index) \
  X(tessera_error_missing_waiting_at, "index", tessera_error_num_missing(o.error, NULL), o.error, index) \
  X(tessera_error_arrived_process, "index", tessera_error_num_arrived(o.error, NULL), o.error, index) \
  X(tessera_detection_local_device_id, "index", tessera_detection_num_local_device_ids(o.detection, NULL), o.detection, index) \
  X(tessera_keras_initialize_job_address, "index", tessera_keras_initialize_num_job_addresses(o.keras_initialize, NULL), o.keras_initialize, index) \
  X(tessera_job_status_process_state, "index", tessera_job_status_num_processes(o.job_status, NULL), o.job_status, index) \
  X(tessera_job_status_process_ms_since_heartbeat, "index", tessera_job_status_num_processes(o.job_status, NULL), o.job_status, index) \
  X(tessera_job_status_process_waiting_on, "index", tessera_job_status_num_processes(o.job_status, NULL), o.job_status, index)
#else
#define INDEX_CASES_CLUSTER(X)
#endif

#define DEFINE_INDEX_CALL(fn, argument, count, ...)                     \
  static size_t count_##fn(void) { return (count); }                    \
  static int index_##fn(size_t index, tessera_error** out_error) {      \
    return fn(__VA_ARGS__, out_error) == 0;                             \
  }
INDEX_CASES(DEFINE_INDEX_CALL)
INDEX_CASES_CLUSTER(DEFINE_INDEX_CALL)

typedef struct index_case {
  const char* function;
  const char* argument;
  size_t (*count)(void);
  int (*call)(size_t index, tessera_error** out_error);
} index_case;

#define INDEX_CASE_ROW(fn, argument, ...) {#fn, argument, count_##fn, index_##fn},
static const index_case index_cases[] = {INDEX_CASES(INDEX_CASE_ROW) INDEX_CASES_CLUSTER(INDEX_CASE_ROW)};

static void every_index_at_the_count_is_out_of_range_naming_it(void) {
  size_t i;
  char expected[160];
  for (i = 0; i < HARNESS_COUNT(index_cases); ++i) {
    const index_case* c = &index_cases[i];
    tessera_error* err = NULL;
    const size_t count = c->count();
    const int zero = c->call(count, &err);
    snprintf(expected, sizeof expected, "Argument '%s' is %zu; expected less than %zu",
             c->argument, count, count);
    if (!zero) harness_fail(__FILE__, __LINE__, "%s: not the zero value", c->function);
    expect_error(c->function, err, TESSERA_OUT_OF_RANGE, expected, 0);
  }
}

/* ---- output arrays: X(function, the answer's length, element type, arguments
 * before `out`...) ---------------------------------------------------------------- */

/* tessera.h's one shape: (out, capacity) asks, fills, or refuses. */
static const int64_t max_shard_dims[] = {8, 8};
static const size_t only_process[] = {0};
static const int64_t torus_4x4x4[] = {4, 4, 4};
static const int64_t mesh_1x16x4[] = {1, 16, 4};

#define ARRAY_CASES(X) \
  X(tessera_layout_max_shard_shape, 2, int64_t, o.layout, max_shard_dims, 2) \
  X(tessera_mesh_device_coordinates, 2, int64_t, o.mesh, 5) \
  X(tessera_mesh_axis_groups, 8, int64_t, o.mesh, "batch") \
  X(tessera_reshard_plan_transfer_ranges, 4, int64_t, o.reshard_plan, 0) \
  X(tessera_sharding_device_ranges, 4, int64_t, o.sharding, 0) \
  X(tessera_sharding_shard_shape, 2, int64_t, o.sharding, 0) \
  X(tessera_sharding_addressable_devices, 8, size_t, o.sharding, 0) \
  X(tessera_sharding_index_map, 32, int64_t, o.sharding) \
  X(tessera_sharding_distinct_shard_ranges, 4, int64_t, o.sharding, 0) \
  X(tessera_sharding_distinct_shard_devices, 1, size_t, o.sharding, 0) \
  X(tessera_sharding_max_shard_shape, 2, int64_t, o.sharding) \
  X(tessera_xla_device_order, 8, int64_t, o.mesh) \
  X(tessera_dtensor_mesh_coordinates, 1, int64_t, o.dtensor_mesh, 3) \
  X(tessera_dtensor_layout_num_shards_per_dim, 2, int64_t, dtensor_layout()) \
  X(tessera_dtensor_layout_offset_to_shard, 2, int64_t, dtensor_layout(), 3) \
  X(tessera_dtensor_layout_local_shape_from_global, 2, int64_t, dtensor_layout(), max_shard_dims, 2) \
  X(tessera_dtensor_layout_global_shape_from_local, 2, int64_t, dtensor_layout(), max_shard_dims, 2, NULL, 0) \
  X(tessera_dtensor_mesh_device_location, 1, int64_t, o.dtensor_mesh, 1) \
  X(tessera_mesh_tpu_axis_assignment, 9, int64_t, torus_4x4x4, 3, mesh_1x16x4, 3, NULL) \
  X(tessera_hlo_sharding_tile_dims, 3, int64_t, o.hlo_sharding) \
  X(tessera_hlo_sharding_tile_devices, 8, int64_t, o.hlo_sharding) \
  X(tessera_hlo_sharding_subgroup_types, 1, int64_t, o.hlo_sharding) \
  X(tessera_interleave_batches, 5, size_t, 10, 2, 1, false) \
  X(tessera_interleave_batch_items, 15, size_t, 25, 10, 2, 0, false) \
  X(tessera_interleave_samples, 3, size_t, 10, 4, 2, false) \
  X(tessera_interleave_samples_shuffled, 3, size_t, 10, 4, 2, false, 0, 1) \
  X(tessera_checkpoint_tensor_shape, 2, int64_t, o.checkpoint, 0) \
  X(tessera_read_plan_piece_ranges, 4, int64_t, o.read_plan, 0) \
  X(tessera_read_plan_piece_shape, 2, int64_t, o.read_plan, 0) \
  X(tessera_read_plan_file_ranges, 2, int64_t, o.read_plan, 0) \
  X(tessera_checkpoint_plan_tensor_shard_shape, 2, int64_t, o.checkpoint_plan, 0) \
  X(tessera_checkpoint_plan_search_candidate_mesh_shape, 2, int64_t, o.plan_search, 0) \
  X(tessera_checkpoint_index_tensor_shape, 2, int64_t, o.checkpoint_index, 0) \
  X(tessera_checkpoint_index_piece_ranges, 4, int64_t, o.checkpoint_index, 0, 0)

#if TESSERA_HAS_CLUSTER
#define ARRAY_CASES_CLUSTER(X) \
  X(tessera_kv_list_value, 1, unsigned char, o.kv_list, 0) \
  X(tessera_client_agree_live_processes, 1, size_t, o.client, only_process, 1, 1000)
#else
#define ARRAY_CASES_CLUSTER(X)
#endif

#define DEFINE_ARRAY_CALL(fn, length, T, ...)                                              \
  static size_t array_##fn(void* out, size_t capacity, tessera_error** out_error) {        \
    return fn(__VA_ARGS__, (T*)out, capacity, out_error);                                  \
  }
ARRAY_CASES(DEFINE_ARRAY_CALL)
ARRAY_CASES_CLUSTER(DEFINE_ARRAY_CALL)

typedef struct array_case {
  const char* function;
  size_t length;
  size_t element_size;
  size_t (*call)(void* out, size_t capacity, tessera_error** out_error);
} array_case;

#define ARRAY_CASE_ROW(fn, length, T, ...) {#fn, length, sizeof(T), array_##fn},
static const array_case array_cases[] = {ARRAY_CASES(ARRAY_CASE_ROW) ARRAY_CASES_CLUSTER(ARRAY_CASE_ROW)};

/* Room for the longest answer, filled with a byte no answer here writes first. */
static unsigned char array_room[64 * sizeof(int64_t)];
static const unsigned char kUntouched = 0xA5;

/* Whether a call returned `expected` and stored no error; reports otherwise. */
static int answered(const array_case* c, const char* how, size_t expected, size_t got,
                    tessera_error* err) {
  if (err != NULL) {
    harness_fail(__FILE__, __LINE__, "%s (%s): unexpected error %s \"%s\"", c->function, how,
                 tessera_code_name(tessera_error_code(err)), tessera_error_message(err));
    tessera_error_destroy(err);
    return 0;
  }
  if (got != expected) {
    harness_fail(__FILE__, __LINE__, "%s (%s): returned %zu, expected %zu", c->function, how,
                 got, expected);
    return 0;
  }
  return 1;
}

static void every_array_without_room_answers_its_length(void) {
  size_t i;
  for (i = 0; i < HARNESS_COUNT(array_cases); ++i) {
    const array_case* c = &array_cases[i];
    tessera_error* err = NULL;
    const size_t got = c->call(NULL, 0, &err);
    answered(c, "NULL, 0", c->length, got, err);
  }
}

static void every_array_with_room_for_its_length_is_filled(void) {
  size_t i;
  for (i = 0; i < HARNESS_COUNT(array_cases); ++i) {
    const array_case* c = &array_cases[i];
    tessera_error* err = NULL;
    size_t got;
    memset(array_room, kUntouched, sizeof array_room);
    got = c->call(array_room, c->length, &err);
    if (!answered(c, "room for the length", c->length, got, err)) continue;
    /* One entry past the answer stays untouched: it writes exactly `length`. */
    if (array_room[c->length * c->element_size] != kUntouched) {
      harness_fail(__FILE__, __LINE__, "%s: wrote past %zu entries", c->function, c->length);
    }
  }
}

static void every_array_one_short_is_out_of_range_and_writes_nothing(void) {
  size_t i;
  char expected[160];
  for (i = 0; i < HARNESS_COUNT(array_cases); ++i) {
    const array_case* c = &array_cases[i];
    tessera_error* err = NULL;
    size_t got;
    memset(array_room, kUntouched, sizeof array_room);
    got = c->call(array_room, c->length - 1, &err);
    snprintf(expected, sizeof expected, "Argument 'capacity' is %zu; expected at least %zu",
             c->length - 1, c->length);
    if (got != 0) harness_fail(__FILE__, __LINE__, "%s: returned %zu, not 0", c->function, got);
    if (array_room[0] != kUntouched) harness_fail(__FILE__, __LINE__, "%s: wrote", c->function);
    expect_error(c->function, err, TESSERA_OUT_OF_RANGE, expected, 1);
  }
}

static void every_array_null_with_a_capacity_is_invalid_argument(void) {
  size_t i;
  for (i = 0; i < HARNESS_COUNT(array_cases); ++i) {
    const array_case* c = &array_cases[i];
    tessera_error* err = NULL;
    const size_t got = c->call(NULL, 1, &err);
    if (got != 0) harness_fail(__FILE__, __LINE__, "%s: returned %zu, not 0", c->function, got);
    expect_error(c->function, err, TESSERA_INVALID_ARGUMENT,
                 "Argument 'out' is NULL but 'capacity' is 1; expected an array of 1 entries", 1);
  }
}

/* Objects whose counts are not all 0, so an index below the count works. */
static void every_object_of_the_index_table_exists(void) {
  ASSERT_NOT_NULL(o.mesh);
  ASSERT_NOT_NULL(o.layout);
  ASSERT_NOT_NULL(o.layout_map);
  ASSERT_NOT_NULL(o.tpu);
  ASSERT_NOT_NULL(o.device_list);
  ASSERT_NOT_NULL(o.local_devices);
  ASSERT_NOT_NULL(o.plan);
  ASSERT_NOT_NULL(o.dtensor_mesh);
  ASSERT_NOT_NULL(o.sharding);
  ASSERT_NOT_NULL(o.reshard_plan);
  ASSERT_NOT_NULL(o.error);
  ASSERT_NOT_NULL(o.dtensor_config);
  ASSERT_NOT_NULL(o.checkpoint);
  ASSERT_NOT_NULL(o.read_plan);
  ASSERT_NOT_NULL(o.checkpoint_plan);
  ASSERT_NOT_NULL(o.plan_search);
  ASSERT_NOT_NULL(o.checkpoint_index);
  ASSERT_EQ(2, tessera_dtensor_config_num_jobs(o.dtensor_config, NULL));
  ASSERT_EQ(2, tessera_dtensor_config_num_local_devices(o.dtensor_config, "GPU", NULL));
  ASSERT_EQ(8, tessera_mesh_num_devices(o.mesh, NULL));
  ASSERT_EQ(1, tessera_layout_map_num_rules(o.layout_map, NULL));
#if TESSERA_HAS_CLUSTER
  ASSERT_NOT_NULL(o.kv_list);
  ASSERT_NOT_NULL(o.detection);
  ASSERT_NOT_NULL(o.keras_initialize);
  ASSERT_EQ(1, tessera_kv_list_num_entries(o.kv_list, NULL));
  ASSERT_NOT_NULL(o.job_status);
  ASSERT_EQ(1, tessera_job_status_num_processes(o.job_status, NULL));
#endif
}

/* A one-tensor safetensors file (an F32 [2, 3] and one metadata entry) in a
 * fresh directory, for the checkpoint rows. */
static char checkpoint_dir[256];
static char checkpoint_path[320];

static tessera_checkpoint* open_checkpoint(void) {
  static const char header[] =
      "{\"__metadata__\":{\"format\":\"pt\"},\"w\":{\"dtype\":\"F32\",\"shape\":[2,3],\"data_offsets\":[0,24]}}";
  const char* tmp = getenv("TMPDIR");
  unsigned char length[8] = {0};
  static const unsigned char data[24];
  FILE* f;
  snprintf(checkpoint_dir, sizeof checkpoint_dir, "%s/tessera_answer_policy_XXXXXX",
           tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp");
  if (mkdtemp(checkpoint_dir) == NULL) return NULL;
  snprintf(checkpoint_path, sizeof checkpoint_path, "%s/m.safetensors", checkpoint_dir);
  f = fopen(checkpoint_path, "wb");
  if (f == NULL) return NULL;
  length[0] = (unsigned char)(sizeof header - 1);
  fwrite(length, 1, sizeof length, f);
  fwrite(header, 1, sizeof header - 1, f);
  fwrite(data, 1, sizeof data, f);
  fclose(f);
  return tessera_checkpoint_open(checkpoint_path, NULL);
}

static void remove_checkpoint(void) {
  unlink(checkpoint_path);
  rmdir(checkpoint_dir);
}

/* A sharded checkpoint (issue 13) of one tensor w, F32 [2, 3], saved whole on
 * a 1-device mesh by one process, beside the safetensors file above. */
static char index_file_path[320];
static char index_piece_path[320];

static tessera_checkpoint_index* open_checkpoint_index(void) {
  static const char header[] =
      "{\"__metadata__\":{\"format\":\"tessera.checkpoint\",\"tessera.process\":\"0\","
      "\"tessera.num_processes\":\"1\"},\"w@0:2,0:3\":{\"dtype\":\"F32\",\"shape\":[2,3],\"data_offsets\":[0,24]}}";
  static const unsigned char data[24];
  unsigned char length[8] = {0};
  FILE* f;
  snprintf(index_piece_path, sizeof index_piece_path, "%s/process-00000-of-00001.safetensors", checkpoint_dir);
  snprintf(index_file_path, sizeof index_file_path, "%s/tessera-index.json", checkpoint_dir);
  f = fopen(index_piece_path, "wb");
  if (f == NULL) return NULL;
  length[0] = (unsigned char)(sizeof header - 1);
  fwrite(length, 1, sizeof length, f);
  fwrite(header, 1, sizeof header - 1, f);
  fwrite(data, 1, sizeof data, f);
  fclose(f);
  f = fopen(index_file_path, "w");
  if (f == NULL) return NULL;
  fprintf(f, "{\"format\":\"tessera.checkpoint\",\"version\":1,\"num_processes\":1,"
             "\"files\":[\"process-00000-of-00001.safetensors\"],\"tensors\":[{\"name\":\"w\",\"dtype\":\"F32\","
             "\"shape\":[2,3],\"mesh\":{\"shape\":[\"1\"],\"axisNames\":[\"x\"],\"devices\":[{}]},"
             "\"layout\":{\"dims\":[{},{}],\"mesh\":{\"shape\":[\"1\"],\"axisNames\":[\"x\"],\"devices\":[{}]}},"
             "\"shard_mode\":\"strict\",\"pieces\":[{\"file\":0,\"offset\":%d,\"size\":24,"
             "\"ranges\":[[0,2],[0,3]]}]}]}",
          (int)(8 + sizeof header - 1));
  fclose(f);
  return tessera_checkpoint_index_open(checkpoint_dir, NULL);
}

static void remove_checkpoint_index(void) {
  unlink(index_piece_path);
  unlink(index_file_path);
}

static void make_objects(void) {
  const int64_t dims[] = {8, 8};
  const char* const dtensor_text =
      "pod|x=2|0,1|0,1|/job:localhost/replica:0/task:0/device:TPU:0,"
      "/job:localhost/replica:0/task:0/device:TPU:1";
  tessera_layout* other;
  tessera_sharding* replicated;
  o.mesh = fixture_mesh_2x4();
  o.layout = fixture_layout_2d("batch", "model", o.mesh);
  o.layout_map = tessera_layout_map_create(o.mesh, TESSERA_KEY_MATCH_SEARCH, NULL);
  tessera_layout_map_set(o.layout_map, "kernel", o.layout, NULL);
  setenv("TESSERA_DEVICES", "tpu@1.2.3", 1);
  o.tpu = tessera_device_parse("tpu:0", NULL);
  setenv("TESSERA_DEVICES", "", 1); /* the suite's hermetic default */
  o.device_list = tessera_device_list_create(NULL, NULL);
  o.local_devices = tessera_local_devices_discover(NULL);
  o.line = fixture_mesh_1d(8, "batch");
  o.distribution = tessera_distribution_create_data_parallel(o.line, NULL, NULL);
  o.plan = tessera_distribution_plan_dataset(o.distribution, 64, NULL);
  o.dtensor_mesh = tessera_dtensor_mesh_parse(dtensor_text, NULL);
  o.sharding = tessera_sharding_create(o.layout, dims, 2, TESSERA_SHARD_MODE_CHUNK_FLAT, NULL);
  other = tessera_layout_create_replicated(2, o.mesh, NULL);
  replicated = tessera_sharding_create(other, dims, 2, TESSERA_SHARD_MODE_CHUNK_FLAT, NULL);
  o.reshard_plan = tessera_reshard_plan_create(o.sharding, replicated, 4, NULL);
  tessera_sharding_destroy(replicated);
  tessera_layout_destroy(other);
  tessera_mesh_axis_name(NULL, 0, &o.error); /* a plain error: no missing or arrived processes */
  {
    tessera_dtensor_config_options* options = tessera_dtensor_config_options_create();
    const char* const variables[] = {"DTENSOR_JOBS=a:1,b:1", "DTENSOR_CLIENT_ID=1"};
    tessera_dtensor_config_options_set_variables(options, variables, 2, NULL);
    tessera_dtensor_config_options_set_num_local_devices(options, "GPU", 2, NULL);
    o.dtensor_config = tessera_dtensor_config_create(options, NULL);
    tessera_dtensor_config_options_destroy(options);
  }
  o.hlo_sharding = tessera_hlo_sharding_parse("{devices=[2,2,2]<=[8] last_tile_dims={manual}}", NULL);
  o.checkpoint = open_checkpoint();
  o.read_plan = tessera_read_plan_create(o.checkpoint, o.layout_map, NULL, NULL);
  o.checkpoint_index = open_checkpoint_index();
  o.checkpoint_plan = tessera_checkpoint_plan_create(o.checkpoint, o.layout_map, NULL, NULL);
  {
    const tessera_layout_map* maps[1];
    maps[0] = o.layout_map;
    o.plan_search = tessera_checkpoint_plan_search_create(o.checkpoint, maps, 1, NULL, NULL);
  }
#if TESSERA_HAS_CLUSTER
  {
    tessera_cluster_options* options = tessera_cluster_options_create();
    const char* const env[] = {"X=1"};
    tessera_cluster_options_set_detection(options, "none", NULL);
    o.client = tessera_client_connect(options, NULL);
    tessera_cluster_options_destroy(options);
    tessera_client_kv_set(o.client, "answer/key", "v", 1, false, NULL);
    o.kv_list = tessera_client_kv_list(o.client, "answer", NULL);
    o.detection = tessera_detection_create_from_env(NULL, env, 1, NULL);
    o.keras_initialize = tessera_keras_initialize_resolve_from_env(NULL, env, 1, NULL);
  }
  {
    /* A job of one process that never joins, asked by an operator. */
    tessera_cluster_options* options = tessera_cluster_options_create();
    char address[64];
    tessera_cluster_options_set_detection(options, "none", NULL);
    tessera_cluster_options_set_bind_address(options, "127.0.0.1:0", NULL);
    tessera_cluster_options_set_num_processes(options, 1, NULL);
    tessera_cluster_options_set_job_id(options, "policy", NULL);
    o.coordinator = tessera_coordinator_start(options, NULL);
    snprintf(address, sizeof address, "127.0.0.1:%d", tessera_coordinator_port(o.coordinator, NULL));
    tessera_cluster_options_set_coordinator_address(options, address, NULL);
    o.job_status = tessera_job_status_query(options, 10000, NULL);
    tessera_cluster_options_destroy(options);
  }
#endif
}

static void destroy_objects(void) {
#if TESSERA_HAS_CLUSTER
  tessera_job_status_destroy(o.job_status);
  tessera_coordinator_destroy(o.coordinator);
  tessera_keras_initialize_destroy(o.keras_initialize);
  tessera_detection_destroy(o.detection);
  tessera_kv_list_destroy(o.kv_list);
  tessera_client_destroy(o.client);
#endif
  tessera_dtensor_config_destroy(o.dtensor_config);
  tessera_error_destroy(o.error);
  tessera_hlo_sharding_destroy(o.hlo_sharding);
  tessera_read_plan_destroy(o.read_plan);
  tessera_checkpoint_plan_search_destroy(o.plan_search);
  tessera_checkpoint_plan_destroy(o.checkpoint_plan);
  tessera_checkpoint_index_destroy(o.checkpoint_index);
  remove_checkpoint_index();
  tessera_checkpoint_destroy(o.checkpoint);
  remove_checkpoint();
  tessera_reshard_plan_destroy(o.reshard_plan);
  tessera_sharding_destroy(o.sharding);
  tessera_dtensor_mesh_destroy(o.dtensor_mesh);
  tessera_dataset_plan_destroy(o.plan);
  tessera_distribution_destroy(o.distribution);
  tessera_local_devices_destroy(o.local_devices);
  tessera_device_list_destroy(o.device_list);
  tessera_device_destroy(o.tpu);
  tessera_layout_map_destroy(o.layout_map);
  tessera_layout_destroy(o.layout);
  tessera_mesh_destroy(o.line);
  tessera_mesh_destroy(o.mesh);
}

int main(int argc, char** argv) {
  static const harness_test tests[] = {
      HARNESS_TEST(every_object_of_the_index_table_exists),
      HARNESS_TEST(every_null_handle_is_invalid_argument_naming_it),
      HARNESS_TEST(every_index_at_the_count_is_out_of_range_naming_it),
      HARNESS_TEST(every_array_without_room_answers_its_length),
      HARNESS_TEST(every_array_with_room_for_its_length_is_filled),
      HARNESS_TEST(every_array_one_short_is_out_of_range_and_writes_nothing),
      HARNESS_TEST(every_array_null_with_a_capacity_is_invalid_argument),
  };
  int status;
  make_objects();
  status = harness_main(argc, argv, tests, HARNESS_COUNT(tests));
  destroy_objects();
  return status;
}
