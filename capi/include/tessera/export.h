/*
 * Export, linkage and attribute macros shared by every Tessera header.
 */
#ifndef TESSERA_EXPORT_H_
#define TESSERA_EXPORT_H_

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

#ifdef __cplusplus
#  define TESSERA_BEGIN_DECLS extern "C" {
#  define TESSERA_END_DECLS }
#else
#  define TESSERA_BEGIN_DECLS
#  define TESSERA_END_DECLS
#endif

/* Exceptions never leave the library: C++ callers see every function noexcept. */
#if defined(__cplusplus) && !defined(SWIG)
#  define TESSERA_NOEXCEPT noexcept
#else
#  define TESSERA_NOEXCEPT
#endif

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
