#!/usr/bin/env python3
"""The answer-policy check (<tessera/tessera.h>, "Errors"), over the headers:

  1. every function that takes a handle or an index has a trailing
     `tessera_error** out_error`, except the exceptions tessera.h lists;
  2. test_answer_policy.c's NULL table lists exactly the functions taking a
     handle (less the exceptions and the handles documented as optional), and
     its index table exactly the functions taking an index, so the C test
     walks every one and cannot go stale;
  3. every output array has tessera.h's one shape, `size_t f(..., T* out,
     size_t capacity, tessera_error** out_error)`, no other shape appears
     (separate start and stop arrays, a count through a pointer), and the
     array table lists exactly those functions.

Prints each violation and exits 1 when there is any; --summary prints the
counts.

  usage: check_answer_policy.py [--summary] --test test_answer_policy.c HEADER...
"""
import argparse
import re
import sys

# tessera.h's exceptions: NULL has a meaning there, or the argument is not a handle.
EXCEPTIONS = {
    "tessera_client_cancel_all": "NULL is a no-op, as for free()",
    "tessera_coordinator_stop": "NULL is a no-op, as for free()",
    "tessera_error_code": "a NULL error means success",
    "tessera_error_message": "a NULL error means success",
    "tessera_buffer_data": "buffers are only returned non-NULL on success",
    "tessera_buffer_size": "buffers are only returned non-NULL on success",
    "tessera_code_name": "takes an enum, not a handle",
    "tessera_platform_name": "takes an enum, not a handle",
    "tessera_mesh_equal": "NULL equals only NULL",
    "tessera_layout_equal": "NULL equals only NULL",
    "tessera_distribution_set_default": "NULL clears the default",
}
# Handle parameters documented "may be NULL": options NULL means the defaults;
# a layout's or layout map's mesh NULL means one given later.
OPTIONAL_HANDLES = {
    "tessera_client_connect", "tessera_runtime_initialize", "tessera_detection_create",
    "tessera_detection_create_from_env", "tessera_distribution_create_data_parallel_over_devices",
    "tessera_layout_create", "tessera_layout_create_grouped", "tessera_layout_create_replicated",
    "tessera_layout_from_partition_spec", "tessera_layout_map_create",
    "tessera_mesh_create", "tessera_mesh_make", "tessera_mesh_make_hybrid",
    "tessera_dtensor_mesh_create", "tessera_dtensor_mesh_create_distributed",
    "tessera_dtensor_config_create", "tessera_dtensor_mesh_create_from_ids",
    "tessera_mesh_create_device_mesh", "tessera_mesh_tpu_axis_assignment",
    "tessera_keras_initialize_resolve", "tessera_keras_initialize_resolve_from_env",
    "tessera_checkpoint_saver_create",
}

FUNC_RE = re.compile(r"TESSERA_API\b([^;{]*?)\b(tessera_\w+)\s*\(([^;]*?)\)\s*(?:TESSERA_NOEXCEPT)?\s*;", re.S)
HANDLE_RE = re.compile(r"^(?:const )?tessera_(\w+)\s*\*\s*(\w+)$")
INDEX_RE = re.compile(r"^size_t (index|dim|axis|device_index|shard)$")
OUT_ERROR = "tessera_error** out_error"
CAPACITY = "size_t capacity"
# The shapes before the one shape: start/stop pairs and counts through pointers.
OTHER_ARRAY_RE = re.compile(r"\*\s*(out_starts|out_stops|out_num|out_size|out_\w+_count)$")


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def declarations(paths):
    for path in paths:
        with open(path, encoding="utf-8") as f:
            text = strip_comments(f.read())
        for m in FUNC_RE.finditer(text):
            params = [" ".join(p.split()) for p in m.group(3).split(",")]
            yield path, m.group(2), params, " ".join(m.group(1).split())


def takes_handle(params):
    for p in params:
        m = HANDLE_RE.match(p)
        if m and not m.group(1).endswith("_t") and p != OUT_ERROR:
            return True
    return False


def table(test_text, macro):
    """Function names in `#define <macro>(X)`'s rows."""
    m = re.search(r"#define " + macro + r"\(X\) \\\n((?:.*\\\n)*.*\n)", test_text)
    if m is None:
        return set()
    return set(re.findall(r"^\s*X\((tessera_\w+),", m.group(1), re.M))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--summary", action="store_true")
    parser.add_argument("--test", required=True)
    parser.add_argument("headers", nargs="+")
    args = parser.parse_args()
    with open(args.test, encoding="utf-8") as f:
        test_text = f.read()
    null_table = table(test_text, "NULL_CASES") | table(test_text, "NULL_CASES_CLUSTER")
    index_table = table(test_text, "INDEX_CASES") | table(test_text, "INDEX_CASES_CLUSTER")
    array_table = table(test_text, "ARRAY_CASES") | table(test_text, "ARRAY_CASES_CLUSTER")

    problems = []
    infallible = []
    handle_functions, index_functions, array_functions = set(), set(), set()
    for path, name, params, result in declarations(args.headers):
        for p in params:
            if OTHER_ARRAY_RE.search(p):
                problems.append(f"{path}: {name} has '{p}'; output arrays have one shape (tessera.h)")
        if CAPACITY in params:
            array_functions.add(name)
            at = params.index(CAPACITY)
            if (result != "size_t" or at < 1 or not re.fullmatch(r"(?:const )?\w+(?: \w+)?\s*\*\s*out", params[at - 1])
                    or params[at + 1:] != [OUT_ERROR]):
                problems.append(f"{path}: {name} is not 'size_t {name}(..., T* out, {CAPACITY}, {OUT_ERROR})'")
        handle = takes_handle(params)
        index = any(INDEX_RE.match(p) for p in params)
        if not (handle or index) or name.endswith("_destroy") or name in EXCEPTIONS:
            continue
        if params[-1] != OUT_ERROR:
            infallible.append(name)
            problems.append(f"{path}: {name} takes a handle or an index but no trailing {OUT_ERROR}")
        if handle and name not in OPTIONAL_HANDLES:
            handle_functions.add(name)
        if index:
            index_functions.add(name)
    for name in sorted(handle_functions - null_table):
        problems.append(f"{args.test}: {name} takes a handle but is not in NULL_CASES")
    for name in sorted(null_table - handle_functions):
        problems.append(f"{args.test}: NULL_CASES lists {name}, which takes no handle (or is an exception)")
    for name in sorted(index_functions - index_table):
        problems.append(f"{args.test}: {name} takes an index but is not in INDEX_CASES")
    for name in sorted(index_table - index_functions):
        problems.append(f"{args.test}: INDEX_CASES lists {name}, which takes no index")
    for name in sorted(array_functions - array_table):
        problems.append(f"{args.test}: {name} returns an array but is not in ARRAY_CASES")
    for name in sorted(array_table - array_functions):
        problems.append(f"{args.test}: ARRAY_CASES lists {name}, which returns no array")
    for problem in problems:
        print(problem)
    if args.summary:
        print(f"functions taking a handle: {len(handle_functions)} (+{len(OPTIONAL_HANDLES)} with an "
              f"optional handle), taking an index: {len(index_functions)}, "
              f"returning an array: {len(array_functions)}, "
              f"exceptions: {len(EXCEPTIONS)}, infallible despite a handle or index: {len(infallible)}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
