/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/**
 * @file
 * Layout maps: insertion-ordered rules from variable paths to layouts.
 *
 * Lookup: an exact key wins; otherwise every key is a Python `re` pattern,
 * run on RE2 with the meaning Python gives it (docs/python-regex.md: what is
 * rewritten, what is refused), and all
 * are matched in one pass (RE2::Set), with re.search semantics by default or
 * full-match semantics as an option. No match is "none" (NULL without an
 * error); several matches are an error listing every matching key.
 *
 * Unlike the other objects, a layout map is mutable: set and delete must not
 * run concurrently with any other call on the same map; lookups may run
 * concurrently with each other. Distributions take a snapshot, so changing a
 * map later never changes a distribution made from it.
 */
#ifndef TESSERA_LAYOUT_MAP_H_
#define TESSERA_LAYOUT_MAP_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tessera/error.h"
#include "tessera/export.h"
#include "tessera/layout.h"
#include "tessera/mesh.h"

TESSERA_BEGIN_DECLS

/** A layout map. Mutable; see the thread-safety note above. */
typedef struct tessera_layout_map tessera_layout_map;

/** How keys match paths. */
typedef enum tessera_key_match_t {
  /** re.search: the pattern may match anywhere in the path (Keras 3.0-3.13). */
  TESSERA_KEY_MATCH_SEARCH = 0,
  /** re.fullmatch: the pattern must match the whole path (Keras 3.14+). */
  TESSERA_KEY_MATCH_FULL = 1,
  /** Not a value: makes the enum 32 bits wide on every compiler, for the ABI. */
  TESSERA_KEY_MATCH_FORCE_INT32 = 0x7fffffff
} tessera_key_match_t;

/**
 * Creates an empty map.
 * @param mesh   given to layouts inserted without one; may be NULL. Retained.
 * @param match  TESSERA_KEY_MATCH_SEARCH or TESSERA_KEY_MATCH_FULL.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return a new map owned by the caller (tessera_layout_map_destroy), or NULL.
 * @since 0.2
 */
TESSERA_API tessera_layout_map* tessera_layout_map_create(const tessera_mesh* mesh,
                                                          tessera_key_match_t match,
                                                          tessera_error** out_error) TESSERA_NOEXCEPT;

/** Frees `map`. NULL is allowed. @since 0.2 */
TESSERA_API void tessera_layout_map_destroy(tessera_layout_map* map) TESSERA_NOEXCEPT;

/**
 * Appends the rule `key` -> `layout`. A layout without a mesh is stored with
 * the map's mesh (the caller's layout is not changed).
 * @return true on success; ALREADY_EXISTS for a key already present;
 *         INVALID_ARGUMENT for an empty key, a pattern Python's re refuses
 *         (with Python's message), one RE2 cannot run (naming the construct
 *         and its byte offset), or axes the map's mesh lacks.
 * @since 0.2
 */
TESSERA_API bool tessera_layout_map_set(tessera_layout_map* map, const char* key,
                                        const tessera_layout* layout, tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Removes the rule whose key is exactly `key`.
 * @return true on success; NOT_FOUND otherwise.
 * @since 0.2
 */
TESSERA_API bool tessera_layout_map_remove(tessera_layout_map* map, const char* key,
                                           tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The layout the rules give `path`.
 * @return a new layout owned by the caller; NULL with no error when no rule
 *         matches; NULL with FAILED_PRECONDITION when several patterns match
 *         (the message lists them in insertion order). Pass `out_error` to
 *         tell the two apart.
 * @since 0.2
 */
TESSERA_API tessera_layout* tessera_layout_map_lookup(const tessera_layout_map* map, const char* path,
                                                   tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Index of the rule that `path` selects.
 * @param map             the map to search.
 * @param path            the variable path; NUL-terminated.
 * @param[out] out_index  the rule's index, or TESSERA_NO_INDEX when no rule matches.
 * @param out_error       receives a new error on failure (see error.h); may be NULL.
 * @return true on success; errors as tessera_layout_map_lookup.
 * @since 0.2
 */
TESSERA_API bool tessera_layout_map_lookup_rule(const tessera_layout_map* map, const char* path,
                                                size_t* out_index, tessera_error** out_error) TESSERA_NOEXCEPT;

/** Number of rules; 0 on failure. @since 0.2 */
TESSERA_API size_t tessera_layout_map_num_rules(const tessera_layout_map* map,
                                                tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Key of rule `index`: UTF-8, valid until `map` is modified or destroyed.
 * @return the key, or NULL (OUT_OF_RANGE when index >= size).
 * @since 0.2
 */
TESSERA_API const char* tessera_layout_map_key(const tessera_layout_map* map, size_t index,
                                               tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Layout of rule `index`.
 * @return a new layout owned by the caller, or NULL (OUT_OF_RANGE).
 * @since 0.2
 */
TESSERA_API tessera_layout* tessera_layout_map_layout(const tessera_layout_map* map, size_t index,
                                                      tessera_error** out_error) TESSERA_NOEXCEPT;

/** The map's mesh as a new reference; NULL when it has none (out_error untouched) and on failure. @since 0.2 */
TESSERA_API tessera_mesh* tessera_layout_map_mesh(const tessera_layout_map* map,
                                                  tessera_error** out_error) TESSERA_NOEXCEPT;

/** The map's key-match mode; TESSERA_KEY_MATCH_SEARCH (0) on failure. @since 0.2 */
TESSERA_API tessera_key_match_t tessera_layout_map_match(const tessera_layout_map* map,
                                                         tessera_error** out_error) TESSERA_NOEXCEPT;

TESSERA_END_DECLS

#endif /* TESSERA_LAYOUT_MAP_H_ */
