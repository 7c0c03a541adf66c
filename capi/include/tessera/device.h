/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/**
 * @file
 * Devices and local discovery.
 *
 * Local discovery runs providers in this order: TESSERA_DEVICES (an explicit
 * list for launchers and tests, even when empty), NVIDIA GPUs through NVML
 * (loaded at run time; CUDA_VISIBLE_DEVICES respected as CUDA does; a
 * missing NVML means no GPUs), then the CPU: one device, or N when
 * TESSERA_CPU_DEVICE_COUNT=N (1..1048576). TESSERA_DEVICES holds
 * comma-separated entries
 * `<platform>[*<count>][:<kind>[:<physical_id>[:<memory_bytes>]]][@<place>]`, e.g. "gpu*8" or
 * "gpu:NVIDIA H100 80GB HBM3:GPU-1:85520809984";
 * its cpu entries, if any, replace the CPU provider's devices. A place puts
 * TPU devices in their slice's torus (tessera_device_coordinate): "@x.y.z[.core]"
 * for one device, or "@XxYxZ[xCORES][+x.y.z]" for a block of X*Y*Z chips
 * from that corner, device i being core i % CORES, then x, y, z (x fastest),
 * e.g. "tpu*64:TPU v4@4x4x4".
 */
#ifndef TESSERA_DEVICE_H_
#define TESSERA_DEVICE_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tessera/error.h"
#include "tessera/export.h"

TESSERA_BEGIN_DECLS

/** The kind of accelerator a device is. */
typedef enum tessera_platform_t {
  /** A host CPU device. */
  TESSERA_PLATFORM_CPU = 0,
  /** A GPU. */
  TESSERA_PLATFORM_GPU = 1,
  /** A TPU. */
  TESSERA_PLATFORM_TPU = 2,
  /** Not a value: makes the enum 32 bits wide on every compiler, for the ABI. */
  TESSERA_PLATFORM_FORCE_INT32 = 0x7fffffff
} tessera_platform_t;

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
 * @since 0.2
 */
TESSERA_API tessera_device* tessera_device_parse(const char* text, tessera_error** out_error) TESSERA_NOEXCEPT;

/** The global id of `device`; 0 on failure. @since 0.2 */
TESSERA_API int64_t tessera_device_id(const tessera_device* device,
                                      tessera_error** out_error) TESSERA_NOEXCEPT;
/** The platform of `device`; TESSERA_PLATFORM_CPU (0) on failure. @since 0.2 */
TESSERA_API tessera_platform_t tessera_device_platform(const tessera_device* device,
                                                       tessera_error** out_error) TESSERA_NOEXCEPT;
/** Index of the process that owns `device`; 0 on failure. @since 0.2 */
TESSERA_API size_t tessera_device_process_index(const tessera_device* device,
                                                tessera_error** out_error) TESSERA_NOEXCEPT;
/** Index of `device` among its process's devices; 0 on failure. @since 0.2 */
TESSERA_API size_t tessera_device_local_ordinal(const tessera_device* device,
                                                tessera_error** out_error) TESSERA_NOEXCEPT;
/**
 * Keras's string form of `device` ("gpu:3"). Has the lifetime of `device`;
 * NULL on failure.
 * @since 0.2
 */
TESSERA_API const char* tessera_device_name(const tessera_device* device,
                                            tessera_error** out_error) TESSERA_NOEXCEPT;
/**
 * Whether `device` knows its chip's place in a TPU slice (JAX's
 * TpuDevice.coords): a TPU listed with a place. false on failure.
 * @since 0.2
 */
TESSERA_API bool tessera_device_has_coordinates(const tessera_device* device,
                                                tessera_error** out_error) TESSERA_NOEXCEPT;
/**
 * Coordinate `axis` (0 = x, 1 = y, 2 = z) of `device`'s chip in its TPU
 * slice; JAX's create_device_mesh follows them (tessera_mesh_make).
 * @param device    a device of a TPU slice.
 * @param axis      0, 1 or 2.
 * @param[out] out  receives the coordinate.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return true on success; false with INVALID_ARGUMENT for a NULL device or
 *         out, OUT_OF_RANGE for axis > 2, FAILED_PRECONDITION when the
 *         device has no coordinates (tessera_device_has_coordinates).
 * @since 0.2
 */
TESSERA_API bool tessera_device_coordinate(const tessera_device* device, size_t axis, int64_t* out,
                                      tessera_error** out_error) TESSERA_NOEXCEPT;
/** The core of `device` on its chip (JAX's core_on_chip); 0 when unknown and on failure. @since 0.2 */
TESSERA_API size_t tessera_device_core_on_chip(const tessera_device* device,
                                               tessera_error** out_error) TESSERA_NOEXCEPT;
/** Frees `device`. NULL is allowed. Any thread. @since 0.2 */
TESSERA_API void tessera_device_destroy(tessera_device* device) TESSERA_NOEXCEPT;

/** "cpu", "gpu" or "tpu"; static storage; NULL for an unknown value. @since 0.2 */
TESSERA_API const char* tessera_platform_name(tessera_platform_t platform) TESSERA_NOEXCEPT;

/**
 * Lists the devices of one platform (Keras's list_devices).
 *
 * @param type  NULL or "" for accelerators if any, else CPU; otherwise "cpu",
 *              "gpu" (or "cuda") or "tpu", case-insensitive. A platform with
 *              no devices gives an empty list.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return a new list owned by the caller (tessera_device_list_destroy), or
 *         NULL (INVALID_ARGUMENT: unknown type, bad TESSERA_CPU_DEVICE_COUNT).
 * @since 0.2
 */
TESSERA_API tessera_device_list* tessera_device_list_create(const char* type,
                                                            tessera_error** out_error) TESSERA_NOEXCEPT;

/** Number of devices in `list`; 0 on failure. @since 0.2 */
TESSERA_API size_t tessera_device_list_num_devices(const tessera_device_list* list,
                                                   tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Device `index` of `list`.
 * @return a new device owned by the caller, or NULL (INVALID_ARGUMENT for a
 *         NULL list, OUT_OF_RANGE for index >= size).
 * @since 0.2
 */
TESSERA_API tessera_device* tessera_device_list_device(const tessera_device_list* list, size_t index,
                                                    tessera_error** out_error) TESSERA_NOEXCEPT;

/** Frees `list`. NULL is allowed. Any thread. @since 0.2 */
TESSERA_API void tessera_device_list_destroy(tessera_device_list* list) TESSERA_NOEXCEPT;

/**
 * Number of devices of one platform (Keras's get_device_count); `type` as in
 * tessera_device_list_create.
 * @param type      as tessera_device_list_create takes it.
 * @param[out] out  receives the count.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return true on success.
 * @since 0.2
 */
TESSERA_API bool tessera_platform_num_devices(const char* type, size_t* out, tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * What local discovery found: this process's devices with their hardware
 * details, and which provider found them. Immutable; any thread.
 */
typedef struct tessera_local_devices tessera_local_devices;

/**
 * Runs local discovery (see the top of this file). Hardware problems are not
 * errors: they mean no such devices, and the reason is kept
 * (tessera_local_devices_nvml_unavailable_reason).
 * @return a new list owned by the caller (tessera_local_devices_destroy), or
 *         NULL (INVALID_ARGUMENT: malformed TESSERA_DEVICES or
 *         TESSERA_CPU_DEVICE_COUNT).
 * @since 0.2
 */
TESSERA_API tessera_local_devices* tessera_local_devices_discover(tessera_error** out_error)
    TESSERA_NOEXCEPT;

/** Frees `devices`. NULL is allowed. Any thread. @since 0.2 */
TESSERA_API void tessera_local_devices_destroy(tessera_local_devices* devices) TESSERA_NOEXCEPT;

/** Number of devices (accelerators first, then CPUs); 0 on failure. @since 0.2 */
TESSERA_API size_t tessera_local_devices_num_devices(const tessera_local_devices* devices,
                                                     tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The provider that decided the accelerators: "explicit" (TESSERA_DEVICES),
 * "nvml", or "cpu" (none found). Static storage; NULL on failure.
 * @since 0.2
 */
TESSERA_API const char* tessera_local_devices_provider(const tessera_local_devices* devices,
                                                       tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Why NVML found no GPU ("libnvidia-ml.so.1 could not be loaded: ..."); ""
 * when NVML was not consulted or found GPUs. Has the lifetime of `devices`;
 * NULL on failure.
 * @since 0.2
 */
TESSERA_API const char* tessera_local_devices_nvml_unavailable_reason(
    const tessera_local_devices* devices, tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Platform of device `index`.
 * @return true on success; INVALID_ARGUMENT for NULL arguments, OUT_OF_RANGE
 *         for index >= size.
 * @since 0.2
 */
TESSERA_API bool tessera_local_devices_platform(const tessera_local_devices* devices, size_t index,
                                                tessera_platform_t* out,
                                                tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Ordinal of device `index` among this process's devices of its platform;
 * errors as tessera_local_devices_platform.
 * @since 0.2
 */
TESSERA_API bool tessera_local_devices_ordinal(const tessera_local_devices* devices, size_t index,
                                               size_t* out,
                                               tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Total memory of device `index` in bytes, 0 when unknown; errors as
 * tessera_local_devices_platform.
 * @since 0.2
 */
TESSERA_API bool tessera_local_devices_memory_bytes(const tessera_local_devices* devices,
                                                    size_t index, int64_t* out,
                                                    tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Kind of device `index` ("cpu", "NVIDIA H100 80GB HBM3"). Has the lifetime
 * of `devices`; NULL on error (as tessera_local_devices_platform).
 * @since 0.2
 */
TESSERA_API const char* tessera_local_devices_kind(const tessera_local_devices* devices,
                                                   size_t index,
                                                   tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Physical id of device `index` (GPU UUID "GPU-..."), "" when unknown; as
 * tessera_local_devices_kind.
 * @since 0.2
 */
TESSERA_API const char* tessera_local_devices_physical_id(const tessera_local_devices* devices,
                                                          size_t index, tessera_error** out_error)
    TESSERA_NOEXCEPT;

/**
 * PCI bus id of device `index` ("00000000:17:00.0"), "" when unknown; as
 * tessera_local_devices_kind.
 * @since 0.2
 */
TESSERA_API const char* tessera_local_devices_pci_bus_id(const tessera_local_devices* devices,
                                                         size_t index, tessera_error** out_error)
    TESSERA_NOEXCEPT;

TESSERA_END_DECLS

#endif /* TESSERA_DEVICE_H_ */
