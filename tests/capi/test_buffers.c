/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/* Buffers: owned bytes for computed strings. */
#include <string.h>

#include "fixtures.h"
#include "harness.h"

static void null_buffer_has_no_data_and_size_zero(void) {
  ASSERT_NULL(tessera_buffer_data(NULL));
  ASSERT_EQ(0, tessera_buffer_size(NULL));
}

static void buffer_destroy_accepts_null(void) { tessera_buffer_destroy(NULL); }

static void buffer_holds_the_text_followed_by_a_nul(void) {
  const char* expected = "<DeviceMesh shape=(2, 4), axis_names=['batch', 'model']>";
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_error* err = NULL;
  tessera_buffer* text = tessera_mesh_to_string(mesh, &err);
  ASSERT_OK(err);
  ASSERT_EQ(strlen(expected), tessera_buffer_size(text));
  ASSERT_EQ(0, memcmp(expected, tessera_buffer_data(text), strlen(expected)));
  ASSERT_EQ('\0', tessera_buffer_data(text)[tessera_buffer_size(text)]);
  tessera_buffer_destroy(text);
  tessera_mesh_destroy(mesh);
}

static void buffer_outlives_the_object_it_describes(void) {
  tessera_mesh* mesh = fixture_mesh_1d(2, "data");
  tessera_buffer* text = tessera_mesh_to_string(mesh, NULL);
  tessera_mesh_destroy(mesh);
  ASSERT_STREQ("<DeviceMesh shape=(2,), axis_names=['data']>", tessera_buffer_data(text));
  tessera_buffer_destroy(text);
}

static void each_call_returns_a_new_buffer(void) {
  tessera_mesh* mesh = fixture_mesh_1d(2, "data");
  tessera_buffer* first = tessera_mesh_to_string(mesh, NULL);
  tessera_buffer* second = tessera_mesh_to_string(mesh, NULL);
  ASSERT_TRUE(first != second);
  tessera_buffer_destroy(first);
  ASSERT_STREQ("<DeviceMesh shape=(2,), axis_names=['data']>", tessera_buffer_data(second));
  tessera_buffer_destroy(second);
  tessera_mesh_destroy(mesh);
}

int main(int argc, char** argv) {
  static const harness_test tests[] = {
      HARNESS_TEST(null_buffer_has_no_data_and_size_zero),
      HARNESS_TEST(buffer_destroy_accepts_null),
      HARNESS_TEST(buffer_holds_the_text_followed_by_a_nul),
      HARNESS_TEST(buffer_outlives_the_object_it_describes),
      HARNESS_TEST(each_call_returns_a_new_buffer),
  };
  return harness_main(argc, argv, tests, HARNESS_COUNT(tests));
}
