/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/* Layout maps: exact keys, RE2 patterns, errors and lifetimes. */
#include <stdint.h>
#include <string.h>

#include "fixtures.h"
#include "harness.h"

/* A map on the (2, 4) mesh with `key` -> (None, "model"). */
static tessera_layout_map* map_with_rule(tessera_key_match_t match, const char* key) {
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout_map* map = tessera_layout_map_create(mesh, match, NULL);
  tessera_layout* layout = fixture_layout_2d(NULL, "model", NULL);
  if (!tessera_layout_map_set(map, key, layout, NULL)) {
    tessera_layout_map_destroy(map);
    map = NULL;
  }
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
  return map;
}

/* Adds `key` -> ("batch", None) to `map`. */
static int add_rule(tessera_layout_map* map, const char* key) {
  tessera_layout* layout = fixture_layout_2d("batch", NULL, NULL);
  int ok = tessera_layout_map_set(map, key, layout, NULL);
  tessera_layout_destroy(layout);
  return ok;
}

static void new_map_is_empty_with_its_mesh_and_mode(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout_map* map = tessera_layout_map_create(mesh, TESSERA_KEY_MATCH_FULL, &err);
  tessera_mesh* map_mesh = tessera_layout_map_mesh(map, NULL);
  ASSERT_OK(err);
  ASSERT_EQ(0, tessera_layout_map_num_rules(map, NULL));
  ASSERT_EQ(TESSERA_KEY_MATCH_FULL, tessera_layout_map_match(map, NULL));
  ASSERT_TRUE(tessera_mesh_equal(mesh, map_mesh));
  tessera_mesh_destroy(map_mesh);
  tessera_layout_map_destroy(map);
  tessera_mesh_destroy(mesh);
}

static void map_without_a_mesh_has_none(void) {
  tessera_layout_map* map = tessera_layout_map_create(NULL, TESSERA_KEY_MATCH_SEARCH, NULL);
  ASSERT_NOT_NULL(map);
  ASSERT_NULL(tessera_layout_map_mesh(map, NULL));
  tessera_layout_map_destroy(map);
}

static void unknown_match_mode_is_invalid_argument_naming_it(void) {
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_layout_map_create(NULL, (tessera_key_match_t)2, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'match' is 2; expected one of TESSERA_KEY_MATCH_SEARCH (0), "
               "TESSERA_KEY_MATCH_FULL (1)");
}

static void exact_key_selects_its_rule(void) {
  tessera_error* err = NULL;
  tessera_layout_map* map = map_with_rule(TESSERA_KEY_MATCH_SEARCH, "dense/kernel");
  tessera_layout* layout = tessera_layout_map_lookup(map, "dense/kernel", &err);
  size_t index = 7;
  ASSERT_OK(err);
  ASSERT_STREQ("model", tessera_layout_dim_axis(layout, 1, 0, &err));
  ASSERT_TRUE(tessera_layout_map_lookup_rule(map, "dense/kernel", &index, &err));
  ASSERT_EQ(0, index);
  tessera_layout_destroy(layout);
  tessera_layout_map_destroy(map);
}

static void search_mode_matches_a_pattern_anywhere_in_the_path(void) {
  tessera_layout_map* map = map_with_rule(TESSERA_KEY_MATCH_SEARCH, "dense.*kernel");
  size_t index = 7;
  ASSERT_TRUE(tessera_layout_map_lookup_rule(map, "model/dense_1/kernel/0", &index, NULL));
  ASSERT_EQ(0, index);
  tessera_layout_map_destroy(map);
}

static void full_mode_matches_only_the_whole_path(void) {
  tessera_layout_map* map = map_with_rule(TESSERA_KEY_MATCH_FULL, "dense.*kernel");
  size_t index = 7;
  ASSERT_TRUE(tessera_layout_map_lookup_rule(map, "model/dense_1/kernel", &index, NULL));
  ASSERT_TRUE(index == TESSERA_NO_INDEX);
  ASSERT_TRUE(tessera_layout_map_lookup_rule(map, "dense_1/kernel", &index, NULL));
  ASSERT_EQ(0, index);
  tessera_layout_map_destroy(map);
}

static void exact_key_wins_over_matching_patterns(void) {
  tessera_layout_map* map = map_with_rule(TESSERA_KEY_MATCH_SEARCH, "dense.*");
  size_t index = 7;
  ASSERT_TRUE(add_rule(map, "dense/kernel"));
  ASSERT_TRUE(tessera_layout_map_lookup_rule(map, "dense/kernel", &index, NULL));
  ASSERT_EQ(1, index);
  tessera_layout_map_destroy(map);
}

static void no_match_is_null_without_an_error(void) {
  tessera_error* err = NULL;
  tessera_layout_map* map = map_with_rule(TESSERA_KEY_MATCH_SEARCH, "dense.*kernel");
  size_t index = 7;
  ASSERT_NULL(tessera_layout_map_lookup(map, "conv/bias", &err));
  ASSERT_OK(err);
  ASSERT_TRUE(tessera_layout_map_lookup_rule(map, "conv/bias", &index, &err));
  ASSERT_TRUE(index == TESSERA_NO_INDEX);
  tessera_layout_map_destroy(map);
}

static void several_matches_are_an_error_listing_keys_in_insertion_order(void) {
  tessera_error* err = NULL;
  tessera_layout_map* map = map_with_rule(TESSERA_KEY_MATCH_SEARCH, "kernel");
  const char* message;
  ASSERT_TRUE(add_rule(map, "bias"));
  ASSERT_TRUE(add_rule(map, "dense"));
  ASSERT_NULL(tessera_layout_map_lookup(map, "dense/kernel", &err));
  ASSERT_ERROR_CONTAINS(err, TESSERA_FAILED_PRECONDITION,
                        "Path 'dense/kernel' matches multiple layout specification keys");
  message = tessera_error_message(err);
  ASSERT_NULL(strstr(message, "'bias'"));
  ASSERT_TRUE(strstr(message, "'kernel'") != NULL && strstr(message, "'dense'") != NULL);
  ASSERT_TRUE(strstr(message, "'kernel'") < strstr(message, "'dense'"));
  tessera_error_destroy(err);
  tessera_layout_map_destroy(map);
}

static void find_reports_several_matches_like_get(void) {
  tessera_error* err = NULL;
  tessera_layout_map* map = map_with_rule(TESSERA_KEY_MATCH_SEARCH, "kernel");
  size_t index = 7;
  ASSERT_TRUE(add_rule(map, "dense"));
  ASSERT_FALSE(tessera_layout_map_lookup_rule(map, "dense/kernel", &index, &err));
  ASSERT_ERROR(err, TESSERA_FAILED_PRECONDITION, "dense/kernel");
  ASSERT_EQ(7, index);
  tessera_layout_map_destroy(map);
}

static void duplicate_key_is_already_exists_naming_it(void) {
  tessera_error* err = NULL;
  tessera_layout_map* map = map_with_rule(TESSERA_KEY_MATCH_SEARCH, "dense.*kernel");
  tessera_layout* layout = fixture_layout_2d(NULL, NULL, NULL);
  ASSERT_FALSE(tessera_layout_map_set(map, "dense.*kernel", layout, &err));
  ASSERT_ERROR(err, TESSERA_ALREADY_EXISTS, "dense.*kernel already exist in the LayoutMap");
  ASSERT_EQ(1, tessera_layout_map_num_rules(map, NULL));
  tessera_layout_destroy(layout);
  tessera_layout_map_destroy(map);
}

static void invalid_pattern_is_invalid_argument_naming_it(void) {
  tessera_error* err = NULL;
  tessera_layout_map* map = tessera_layout_map_create(NULL, TESSERA_KEY_MATCH_SEARCH, NULL);
  tessera_layout* layout = fixture_layout_2d(NULL, NULL, NULL);
  ASSERT_FALSE(tessera_layout_map_set(map, "dense[0", layout, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'key' 'dense[0' is not a valid Python regular expression: "
               "unterminated character set at position 5");
  ASSERT_FALSE(tessera_layout_map_set(map, "(?<=x)kernel", layout, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'key' '(?<=x)kernel' is a Python regular expression RE2 cannot run: "
               "lookbehind assertion '(?<=' at byte 0 (RE2 has no lookarounds)");
  ASSERT_EQ(0, tessera_layout_map_num_rules(map, NULL));
  tessera_layout_destroy(layout);
  tessera_layout_map_destroy(map);
}

static void empty_key_is_invalid_argument(void) {
  tessera_error* err = NULL;
  tessera_layout_map* map = tessera_layout_map_create(NULL, TESSERA_KEY_MATCH_SEARCH, NULL);
  tessera_layout* layout = fixture_layout_2d(NULL, NULL, NULL);
  ASSERT_FALSE(tessera_layout_map_set(map, "", layout, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'key' is empty");
  tessera_layout_destroy(layout);
  tessera_layout_map_destroy(map);
}

static void layout_with_axes_the_map_mesh_lacks_is_invalid_argument(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_1d(2, "data");
  tessera_layout_map* map = tessera_layout_map_create(mesh, TESSERA_KEY_MATCH_SEARCH, NULL);
  tessera_layout* layout = fixture_layout_2d(NULL, "model", NULL);
  ASSERT_FALSE(tessera_layout_map_set(map, "kernel", layout, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Invalid axis names for Layout. Valid axis names: {'data'}, Got {'model'}");
  ASSERT_EQ(0, tessera_layout_map_num_rules(map, NULL));
  tessera_layout_destroy(layout);
  tessera_layout_map_destroy(map);
  tessera_mesh_destroy(mesh);
}

static void stored_layout_gets_the_map_mesh_and_the_callers_does_not(void) {
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout_map* map = tessera_layout_map_create(mesh, TESSERA_KEY_MATCH_SEARCH, NULL);
  tessera_layout* mine = fixture_layout_2d(NULL, "model", NULL);
  tessera_layout* stored;
  tessera_mesh* stored_mesh;
  ASSERT_TRUE(tessera_layout_map_set(map, "kernel", mine, NULL));
  stored = tessera_layout_map_layout(map, 0, NULL);
  stored_mesh = tessera_layout_mesh(stored, NULL);
  ASSERT_TRUE(tessera_mesh_equal(mesh, stored_mesh));
  ASSERT_NULL(tessera_layout_mesh(mine, NULL));
  tessera_mesh_destroy(stored_mesh);
  tessera_layout_destroy(stored);
  tessera_layout_destroy(mine);
  tessera_layout_map_destroy(map);
  tessera_mesh_destroy(mesh);
}

static void rules_are_listed_in_insertion_order(void) {
  tessera_layout_map* map = map_with_rule(TESSERA_KEY_MATCH_SEARCH, "z.*");
  ASSERT_TRUE(add_rule(map, "a.*"));
  ASSERT_EQ(2, tessera_layout_map_num_rules(map, NULL));
  ASSERT_STREQ("z.*", tessera_layout_map_key(map, 0, NULL));
  ASSERT_STREQ("a.*", tessera_layout_map_key(map, 1, NULL));
  tessera_layout_map_destroy(map);
}

static void rule_index_past_the_size_is_out_of_range(void) {
  tessera_error* err = NULL;
  tessera_layout_map* map = map_with_rule(TESSERA_KEY_MATCH_SEARCH, "kernel");
  ASSERT_NULL(tessera_layout_map_key(map, 1, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "Argument 'index' is 1; expected less than 1");
  ASSERT_NULL(tessera_layout_map_layout(map, 3, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "Argument 'index' is 3; expected less than 1");
  tessera_layout_map_destroy(map);
}

static void delete_removes_the_rule_with_exactly_that_key(void) {
  tessera_error* err = NULL;
  tessera_layout_map* map = map_with_rule(TESSERA_KEY_MATCH_SEARCH, "dense.*kernel");
  size_t index = 7;
  ASSERT_TRUE(add_rule(map, "bias"));
  ASSERT_TRUE(tessera_layout_map_remove(map, "dense.*kernel", &err));
  ASSERT_OK(err);
  ASSERT_EQ(1, tessera_layout_map_num_rules(map, NULL));
  ASSERT_STREQ("bias", tessera_layout_map_key(map, 0, NULL));
  ASSERT_TRUE(tessera_layout_map_lookup_rule(map, "dense/kernel", &index, &err));
  ASSERT_TRUE(index == TESSERA_NO_INDEX);
  tessera_layout_map_destroy(map);
}

static void delete_of_a_key_not_present_is_not_found_naming_it(void) {
  tessera_error* err = NULL;
  tessera_layout_map* map = map_with_rule(TESSERA_KEY_MATCH_SEARCH, "dense.*kernel");
  ASSERT_FALSE(tessera_layout_map_remove(map, "dense/kernel", &err));
  ASSERT_ERROR(err, TESSERA_NOT_FOUND, "Argument 'key' 'dense/kernel' is not a key of the LayoutMap");
  ASSERT_EQ(1, tessera_layout_map_num_rules(map, NULL));
  tessera_layout_map_destroy(map);
}

static void a_key_can_be_set_again_after_delete(void) {
  tessera_layout_map* map = map_with_rule(TESSERA_KEY_MATCH_SEARCH, "kernel");
  ASSERT_TRUE(tessera_layout_map_remove(map, "kernel", NULL));
  ASSERT_TRUE(add_rule(map, "kernel"));
  ASSERT_EQ(1, tessera_layout_map_num_rules(map, NULL));
  tessera_layout_map_destroy(map);
}

static void map_functions_reject_null_arguments_by_name(void) {
  tessera_error* err = NULL;
  tessera_layout_map* map = map_with_rule(TESSERA_KEY_MATCH_SEARCH, "kernel");
  tessera_layout* layout = fixture_layout_2d(NULL, NULL, NULL);
  size_t index = 0;
  ASSERT_FALSE(tessera_layout_map_set(NULL, "k", layout, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'map' is NULL");
  ASSERT_FALSE(tessera_layout_map_set(map, NULL, layout, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'key' is NULL");
  ASSERT_FALSE(tessera_layout_map_set(map, "k", NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'layout' is NULL");
  ASSERT_FALSE(tessera_layout_map_remove(map, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'key' is NULL");
  ASSERT_NULL(tessera_layout_map_lookup(map, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'path' is NULL");
  ASSERT_NULL(tessera_layout_map_lookup(NULL, "kernel", &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'map' is NULL");
  ASSERT_FALSE(tessera_layout_map_lookup_rule(map, "kernel", NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'out_index' is NULL");
  ASSERT_FALSE(tessera_layout_map_lookup_rule(map, NULL, &index, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'path' is NULL");
  ASSERT_NULL(tessera_layout_map_key(NULL, 0, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'map' is NULL");
  ASSERT_NULL(tessera_layout_map_layout(NULL, 0, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'map' is NULL");
  ASSERT_EQ(0, tessera_layout_map_num_rules(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'map' is NULL; expected a valid pointer");
  ASSERT_NULL(tessera_layout_map_mesh(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'map' is NULL; expected a valid pointer");
  ASSERT_EQ(0, tessera_layout_map_match(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'map' is NULL; expected a valid pointer");
  tessera_layout_map_destroy(NULL);
  tessera_layout_destroy(layout);
  tessera_layout_map_destroy(map);
}

static void looked_up_layout_outlives_the_map(void) {
  tessera_layout_map* map = map_with_rule(TESSERA_KEY_MATCH_SEARCH, "kernel");
  tessera_layout* layout = tessera_layout_map_lookup(map, "dense/kernel", NULL);
  size_t shards = 0;
  tessera_layout_map_destroy(map);
  ASSERT_TRUE(tessera_layout_dim_num_shards(layout, 1, &shards, NULL));
  ASSERT_EQ(4, shards);
  tessera_layout_destroy(layout);
}

static void map_outlives_the_mesh_and_layout_handles_it_was_given(void) {
  /* map_with_rule destroys both handles before returning the map. */
  tessera_layout_map* map = map_with_rule(TESSERA_KEY_MATCH_SEARCH, "kernel");
  tessera_mesh* mesh = tessera_layout_map_mesh(map, NULL);
  ASSERT_EQ(8, tessera_mesh_num_devices(mesh, NULL));
  tessera_mesh_destroy(mesh);
  tessera_layout_map_destroy(map);
}

int main(int argc, char** argv) {
  static const harness_test tests[] = {
      HARNESS_TEST(new_map_is_empty_with_its_mesh_and_mode),
      HARNESS_TEST(map_without_a_mesh_has_none),
      HARNESS_TEST(unknown_match_mode_is_invalid_argument_naming_it),
      HARNESS_TEST(exact_key_selects_its_rule),
      HARNESS_TEST(search_mode_matches_a_pattern_anywhere_in_the_path),
      HARNESS_TEST(full_mode_matches_only_the_whole_path),
      HARNESS_TEST(exact_key_wins_over_matching_patterns),
      HARNESS_TEST(no_match_is_null_without_an_error),
      HARNESS_TEST(several_matches_are_an_error_listing_keys_in_insertion_order),
      HARNESS_TEST(find_reports_several_matches_like_get),
      HARNESS_TEST(duplicate_key_is_already_exists_naming_it),
      HARNESS_TEST(invalid_pattern_is_invalid_argument_naming_it),
      HARNESS_TEST(empty_key_is_invalid_argument),
      HARNESS_TEST(layout_with_axes_the_map_mesh_lacks_is_invalid_argument),
      HARNESS_TEST(stored_layout_gets_the_map_mesh_and_the_callers_does_not),
      HARNESS_TEST(rules_are_listed_in_insertion_order),
      HARNESS_TEST(rule_index_past_the_size_is_out_of_range),
      HARNESS_TEST(delete_removes_the_rule_with_exactly_that_key),
      HARNESS_TEST(delete_of_a_key_not_present_is_not_found_naming_it),
      HARNESS_TEST(a_key_can_be_set_again_after_delete),
      HARNESS_TEST(map_functions_reject_null_arguments_by_name),
      HARNESS_TEST(looked_up_layout_outlives_the_map),
      HARNESS_TEST(map_outlives_the_mesh_and_layout_handles_it_was_given),
  };
  if (!fixture_set_cpu_devices("8")) return 1;
  return harness_main(argc, argv, tests, HARNESS_COUNT(tests));
}
