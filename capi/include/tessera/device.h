/*
 * Devices and local discovery.
 *
 * Discovery in this version is CPU-only: one CPU device, or N when the
 * environment variable TESSERA_CPU_DEVICE_COUNT=N (1..1048576) is set.
 */
#ifndef TESSERA_DEVICE_H_
#define TESSERA_DEVICE_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tessera/error.h"
#include "tessera/export.h"

TESSERA_BEGIN_DECLS

typedef enum tessera_platform {
  TESSERA_PLATFORM_CPU = 0,
  TESSERA_PLATFORM_GPU = 1,
  TESSERA_PLATFORM_TPU = 2,
  TESSERA_PLATFORM_FORCE_INT32 = 0x7fffffff
} tessera_platform;

/** One device. Immutable. */
typedef struct tessera_device tessera_device;
/** An immutable list of devices. */
typedef struct tessera_device_list tessera_device_list;

/**
 * Parses a device in Keras's form, "<platform>:<id>" or "<platform>" (id 0).
 * A device the current list holds keeps its process and ordinal; another is
 * taken as process 0 with ordinal = id.
 *
 * @param text       e.g. "gpu:3"; platform names are case-insensitive.
 * @param out_error  receives a new error (INVALID_ARGUMENT) on failure; may be NULL.
 * @return a new device owned by the caller (tessera_device_destroy), or NULL.
 * @since 0.1
 */
TESSERA_API tessera_device* tessera_device_parse(const char* text, tessera_error** out_error) TESSERA_NOEXCEPT;

/** The global id of `device`; 0 when NULL. @since 0.1 */
TESSERA_API int64_t tessera_device_id(const tessera_device* device) TESSERA_NOEXCEPT;
/** The platform of `device`; TESSERA_PLATFORM_CPU when NULL. @since 0.1 */
TESSERA_API tessera_platform tessera_device_platform(const tessera_device* device) TESSERA_NOEXCEPT;
/** Index of the process that owns `device`; 0 when NULL. @since 0.1 */
TESSERA_API int64_t tessera_device_process_index(const tessera_device* device) TESSERA_NOEXCEPT;
/** Index of `device` among its process's devices; 0 when NULL. @since 0.1 */
TESSERA_API int64_t tessera_device_local_ordinal(const tessera_device* device) TESSERA_NOEXCEPT;
/**
 * Keras's string form of `device` ("gpu:3"). Has the lifetime of `device`;
 * "" when NULL.
 * @since 0.1
 */
TESSERA_API const char* tessera_device_name(const tessera_device* device) TESSERA_NOEXCEPT;
/** Frees `device`. NULL is allowed. Any thread. @since 0.1 */
TESSERA_API void tessera_device_destroy(tessera_device* device) TESSERA_NOEXCEPT;

/** "cpu", "gpu" or "tpu"; static storage; NULL for an unknown value. @since 0.1 */
TESSERA_API const char* tessera_platform_name(tessera_platform platform) TESSERA_NOEXCEPT;

/**
 * Lists the devices of one platform (Keras's list_devices).
 *
 * @param type  NULL or "" for accelerators if any, else CPU; otherwise "cpu",
 *              "gpu" (or "cuda") or "tpu", case-insensitive. A platform with
 *              no devices gives an empty list.
 * @return a new list owned by the caller (tessera_device_list_destroy), or
 *         NULL (INVALID_ARGUMENT: unknown type, bad TESSERA_CPU_DEVICE_COUNT).
 * @since 0.1
 */
TESSERA_API tessera_device_list* tessera_device_list_create(const char* type,
                                                            tessera_error** out_error) TESSERA_NOEXCEPT;

/** Number of devices in `list`; 0 when NULL. @since 0.1 */
TESSERA_API size_t tessera_device_list_size(const tessera_device_list* list) TESSERA_NOEXCEPT;

/**
 * Device `index` of `list`.
 * @return a new device owned by the caller, or NULL (INVALID_ARGUMENT for a
 *         NULL list, OUT_OF_RANGE for index >= size).
 * @since 0.1
 */
TESSERA_API tessera_device* tessera_device_list_get(const tessera_device_list* list, size_t index,
                                                    tessera_error** out_error) TESSERA_NOEXCEPT;

/** Frees `list`. NULL is allowed. Any thread. @since 0.1 */
TESSERA_API void tessera_device_list_destroy(tessera_device_list* list) TESSERA_NOEXCEPT;

/**
 * Number of devices of one platform (Keras's get_device_count); `type` as in
 * tessera_device_list_create.
 * @param[out] out  receives the count.
 * @return true on success.
 * @since 0.1
 */
TESSERA_API bool tessera_device_count(const char* type, int64_t* out, tessera_error** out_error) TESSERA_NOEXCEPT;

TESSERA_END_DECLS

#endif /* TESSERA_DEVICE_H_ */
