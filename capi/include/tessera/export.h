/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/**
 * @file
 * Export, linkage and attribute macros shared by every Tessera header.
 */
#ifndef TESSERA_EXPORT_H_
#define TESSERA_EXPORT_H_

/**
 * @def TESSERA_API
 * Marks a function the library exports: default visibility with GCC and
 * Clang, dllexport/dllimport on Windows, nothing for SWIG.
 */
#if defined(SWIG)
#  define TESSERA_API
#elif defined(_WIN32) && !defined(TESSERA_STATIC_COMPILATION)
#  ifdef TESSERA_COMPILATION
#    define TESSERA_API __declspec(dllexport)
#  else
#    define TESSERA_API __declspec(dllimport)
#  endif
#elif defined(__GNUC__) && __GNUC__ >= 4
#  define TESSERA_API __attribute__((visibility("default")))
#else
#  define TESSERA_API
#endif

/**
 * @def TESSERA_BEGIN_DECLS
 * Opens C linkage (extern "C" {) for C++ includers; empty in C.
 */
/**
 * @def TESSERA_END_DECLS
 * Closes what TESSERA_BEGIN_DECLS opened; empty in C.
 */
#ifdef __cplusplus
#  define TESSERA_BEGIN_DECLS extern "C" {
#  define TESSERA_END_DECLS }
#else
#  define TESSERA_BEGIN_DECLS
#  define TESSERA_END_DECLS
#endif

/**
 * @def TESSERA_NOEXCEPT
 * noexcept for C++ includers (no exception leaves the library); empty in C.
 */
/* Exceptions never leave the library: C++ callers see every function noexcept. */
#if defined(__cplusplus) && !defined(SWIG)
#  define TESSERA_NOEXCEPT noexcept
#else
#  define TESSERA_NOEXCEPT
#endif

/**
 * @def TESSERA_DEPRECATED(message)
 * Makes the compiler warn, with `message`, where a deprecated function is
 * used; define TESSERA_DISABLE_DEPRECATE_WARNINGS to silence it.
 */
#if defined(SWIG) || defined(TESSERA_DISABLE_DEPRECATE_WARNINGS)
#  define TESSERA_DEPRECATED(message)
#elif defined(__GNUC__)
#  define TESSERA_DEPRECATED(message) __attribute__((deprecated(message)))
#elif defined(_MSC_VER)
#  define TESSERA_DEPRECATED(message) __declspec(deprecated(message))
#else
#  define TESSERA_DEPRECATED(message)
#endif

#endif /* TESSERA_EXPORT_H_ */
