/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/* A C99 program that uses Tessera the way a packaged library is used:
 * built only with `pkg-config --cflags --libs tessera`. README.md shows this
 * file; pkgconfig/check_consumer.sh checks that the two are the same. */
#include <stdio.h>
#include <tessera/tessera.h>

/* Reports a failed call and frees its error. */
static void fail(const char* what, tessera_error* error) {
  fprintf(stderr, "%s: %s: %s\n", what, tessera_code_name(tessera_error_code(error)),
          tessera_error_message(error));
  tessera_error_destroy(error);
}

int main(void) {
  /* The loaded library must be the major this was built for, at least as new. */
  if (!TESSERA_VERSION_COMPATIBLE(tessera_version())) {
    fprintf(stderr, "built for tessera %s, loaded %s: incompatible\n", TESSERA_VERSION_STRING,
            tessera_version_string());
    return 1;
  }

  const int64_t shape[] = {2, 4};
  const char* const axis_names[] = {"batch", "model"};
  const char* const devices[] = {"cpu:0", "cpu:1", "cpu:2", "cpu:3",
                                 "cpu:4", "cpu:5", "cpu:6", "cpu:7"};
  const char* const kernel_axes[] = {NULL, "model"}; /* (None, 'model') */
  const char* const bias_axes[] = {"model"};

  tessera_error* error = NULL;
  tessera_mesh_options* mesh_options = tessera_mesh_options_create();
  tessera_mesh* mesh = NULL;
  tessera_layout* kernel = NULL;
  tessera_layout* bias = NULL;
  tessera_layout_map* map = NULL;
  tessera_layout* found = NULL;
  tessera_buffer* text = NULL;
  size_t shards = 0;
  int status = 1; /* set to 0 only once every step has succeeded */

  /* Options carry what a creator may grow: here, the mesh's devices. */
  if (!tessera_mesh_options_set_devices(mesh_options, devices, 8, &error)) { fail("devices", error); goto done; }
  mesh = tessera_mesh_create(shape, axis_names, 2, mesh_options, &error);
  if (mesh == NULL) { fail("mesh", error); goto done; }
  kernel = tessera_layout_create(kernel_axes, 2, NULL, &error);
  if (kernel == NULL) { fail("kernel layout", error); goto done; }
  bias = tessera_layout_create(bias_axes, 1, NULL, &error);
  if (bias == NULL) { fail("bias layout", error); goto done; }

  /* Rules are Python re patterns (run on RE2) matched anywhere in the path (Keras's re.search). */
  map = tessera_layout_map_create(mesh, TESSERA_KEY_MATCH_SEARCH, &error);
  if (map == NULL) { fail("layout map", error); goto done; }
  if (!tessera_layout_map_set(map, "dense.*kernel", kernel, &error) ||
      !tessera_layout_map_set(map, "dense.*bias", bias, &error)) {
    fail("rule", error);
    goto done;
  }

  /* NULL with no error means no rule matched; an error means several did. */
  found = tessera_layout_map_lookup(map, "decoder/dense_1/kernel", &error);
  if (found == NULL && error == NULL) { fprintf(stderr, "lookup: no rule matched\n"); goto done; }
  if (found == NULL) { fail("lookup", error); goto done; }
  text = tessera_layout_to_string(found, &error);
  if (text == NULL) { fail("repr", error); goto done; }
  if (!tessera_layout_dim_num_shards(found, 1, &shards, &error)) {
    fail("shard count", error);
    goto done;
  }
  printf("tessera %s\n", tessera_version_string());
  printf("decoder/dense_1/kernel -> %s\n", tessera_buffer_data(text));
  printf("dimension 1 is split into %zu shards\n", shards);

  /* A bad pattern is refused with a code and a message naming it. */
  if (tessera_layout_map_set(map, "dense[", kernel, &error)) goto done;
  printf("rule \"dense[\" -> %s\n", tessera_code_name(tessera_error_code(error)));
  tessera_error_destroy(error);
  status = 0;

done:
  tessera_buffer_destroy(text);
  tessera_layout_destroy(found);
  tessera_layout_map_destroy(map);
  tessera_layout_destroy(bias);
  tessera_layout_destroy(kernel);
  tessera_mesh_destroy(mesh);
  tessera_mesh_options_destroy(mesh_options);
  return status;
}
