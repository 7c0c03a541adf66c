/* Objects most C ABI tests start from. */
#ifndef TESSERA_TESTS_CAPI_FIXTURES_H_
#define TESSERA_TESTS_CAPI_FIXTURES_H_

#include "tessera/tessera.h"

/* Sets TESSERA_CPU_DEVICE_COUNT (NULL unsets it); returns 0 on failure. */
int fixture_set_cpu_devices(const char* count);

/* Mesh shape (2, 4), axes ("batch", "model"), devices cpu:0..cpu:7 row-major. */
tessera_mesh* fixture_mesh_2x4(void);

/* A 1-D mesh of `size` devices cpu:0.. on one axis called `axis` (size <= 8). */
tessera_mesh* fixture_mesh_1d(int size, const char* axis);

/* A rank-2 layout; NULL axes are replicated. `mesh` may be NULL. */
tessera_layout* fixture_layout_2d(const char* axis0, const char* axis1, const tessera_mesh* mesh);

#endif /* TESSERA_TESTS_CAPI_FIXTURES_H_ */
