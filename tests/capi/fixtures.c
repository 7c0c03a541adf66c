/* setenv and unsetenv are POSIX, not C99. */
#define _POSIX_C_SOURCE 200112L

#include "fixtures.h"

#include <stdlib.h>

static const char* const kDevices[] = {"cpu:0", "cpu:1", "cpu:2", "cpu:3",
                                       "cpu:4", "cpu:5", "cpu:6", "cpu:7"};

int fixture_set_cpu_devices(const char* count) {
  if (count == NULL) return unsetenv("TESSERA_CPU_DEVICE_COUNT") == 0;
  return setenv("TESSERA_CPU_DEVICE_COUNT", count, 1) == 0;
}

tessera_mesh* fixture_mesh_2x4(void) {
  const int64_t shape[] = {2, 4};
  const char* const names[] = {"batch", "model"};
  return tessera_mesh_create(shape, 2, names, 2, kDevices, 8, NULL);
}

tessera_mesh* fixture_mesh_1d(int size, const char* axis) {
  const int64_t shape[] = {size};
  const char* const names[] = {axis};
  return tessera_mesh_create(shape, 1, names, 1, kDevices, (size_t)size, NULL);
}

tessera_layout* fixture_layout_2d(const char* axis0, const char* axis1, const tessera_mesh* mesh) {
  const char* const axes[] = {axis0, axis1};
  return tessera_layout_create(axes, 2, mesh, NULL);
}
