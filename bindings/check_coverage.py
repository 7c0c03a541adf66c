#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
"""The binding coverage test (issue 5: every public C function gets its
binding in every language).

Lists every function declared with TESSERA_API in the public headers (the
regex of tests/capi/check_symbols.py) and checks that the SWIG wrapper code
the build generated for each language calls it. A call is the name followed
by "(" in the wrapper with its comments removed, so a function that is only
mentioned in a comment (or declared, or ignored by the whitelist of
tessera.i) does not count; so is a function handed to tessera.i's
TESSERA_SWIG_RETURN_* macros (the one output-array shape), which call it.

The few functions no language binds are in ALLOWED, each with the reason;
an entry that has become bound (or no longer exists) is an error too, so the
list cannot go stale.

With --go-layer it also checks that the idiomatic Go package calls every
function and method SWIG generated for Go (Go users see that package only).

Usage:
  check_coverage.py --headers H... --wrap LANG=WRAP.c ... [--go-layer DIR]
--go-layer reads the generated Go (tessera.go) beside the go= wrapper.
"""
import argparse
import os
import re
import sys

API_RE = re.compile(r"TESSERA_API\b[^;{]*?\b(\w+)\s*\(", re.S)

# Function -> why no binding wraps it (every language). Keep it short:
# each entry says why a binding user does not need it, or that it is a known
# gap. An entry that is bound, or no longer declared, is an error.
ALLOWED = {}
_KEEPS_POINTER = ("the saver keeps the caller's pointer until the write; a binding's memory may move after a "
                  "call, so each language hands its pinned buffers for one call with "
                  "tessera_checkpoint_saver_write_shards")
ALLOWED.update({
    "tessera_checkpoint_saver_set_shard": _KEEPS_POINTER,
    "tessera_checkpoint_saver_write": _KEEPS_POINTER,
})

# (language, function) -> why that one language does not wrap it.
_EVENTS = ("events are polled with Client.NextEvent; the C callback runs on a library thread "
           "(Java and C# forward it to a listener)")
LANG_ALLOWED = {
    ("go", "tessera_client_set_event_callback"): _EVENTS,
}


# SWIG-generated Go functions the idiomatic layer (bindings/go/tessera)
# does not call, and why.
GO_LAYER_ALLOWED = {
    "Swig_free": "SWIG's own allocator helpers",
    "Swig_malloc": "SWIG's own allocator helpers",
    "DistinctShardNumDevices": "DistinctShardDevices returns the devices; their count is its length",
}


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def strip_preprocessor(text):
    """Without directives (export.h's #define TESSERA_API ...), continuations included."""
    return re.sub(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", " ", text, flags=re.M)


def declared_functions(headers):
    names = {}
    for header in headers:
        with open(header, encoding="utf-8") as f:
            for name in API_RE.findall(strip_preprocessor(strip_comments(f.read()))):
                names[name] = header
    return names


def called_functions(wrap_text, names):
    code = strip_comments(wrap_text)
    called = set(re.findall(r"\b(tessera_\w+)\s*\(", code))
    for arguments in re.findall(r"\bTESSERA_SWIG_RETURN_\w+\s*\(([^;]*)\)\s*;", code):
        called |= set(re.findall(r"\b(tessera_\w+)\b", arguments))
    return {n for n in names if n in called}


def go_layer_problems(swig_go_file, layer_dir):
    """The exported functions and methods of the generated Go package that no
    non-test file of the idiomatic layer calls."""
    with open(swig_go_file, encoding="utf-8") as f:
        generated = f.read()
    names = set(re.findall(r"^func \(arg1 Swigcptr\w+\) ([A-Z]\w*)\(", generated, re.M))
    names |= {n for n in re.findall(r"^func ([A-Z]\w*)\(", generated, re.M)
              if not n.startswith(("Delete", "Swigcptr"))}
    layer = ""
    for name in sorted(os.listdir(layer_dir)):
        if name.endswith(".go") and not name.endswith("_test.go"):
            with open(os.path.join(layer_dir, name), encoding="utf-8") as f:
                layer += strip_comments(f.read())
    # A call, or a method value on a raw handle (keep(m, m.raw().Rank)).
    called = set(re.findall(r"\.([A-Z]\w*)\(", layer)) | set(re.findall(r"\.raw\(\)\.([A-Z]\w*)\b", layer))
    problems = [f"go layer: swig.{n} is called by no file of {layer_dir}"
                for n in sorted(names - called - set(GO_LAYER_ALLOWED))]
    problems += [f"go layer: {n} is allow-listed but called or not generated; remove it"
                 for n in sorted(set(GO_LAYER_ALLOWED) & (called | (set(GO_LAYER_ALLOWED) - names)))]
    print(f"go layer: {len(names & called)} of {len(names)} generated functions used, "
          f"{len(names - called)} allow-listed or missing")
    return problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--headers", nargs="+", required=True)
    parser.add_argument("--wrap", action="append", default=[], help="LANG=path of the generated wrapper")
    parser.add_argument("--go-layer", help="the idiomatic Go package dir: it must use every generated function")
    args = parser.parse_args()

    declared = declared_functions(args.headers)
    if not declared:
        sys.exit("no TESSERA_API function found in the headers")
    wraps = [w.split("=", 1) for w in args.wrap]
    if not wraps:
        sys.exit("no wrapper given")
    problems = []
    allowed_names = set(ALLOWED) | {name for _, name in LANG_ALLOWED}
    for name in sorted(allowed_names - set(declared)):
        problems.append(f"allow-listed but declared in no public header: {name}")
    for lang, path in wraps:
        with open(path, encoding="utf-8") as f:
            called = called_functions(f.read(), declared)
        allowed = set(ALLOWED) | {name for l, name in LANG_ALLOWED if l == lang}
        missing = sorted(set(declared) - called - allowed)
        for name in missing:
            problems.append(f"{lang}: {name} ({os.path.basename(declared[name])}) is not bound")
        for name in sorted(called & allowed):
            problems.append(f"{lang}: {name} is bound but allow-listed; remove it from the allow-list")
        if lang == "go" and args.go_layer:
            problems += go_layer_problems(os.path.join(os.path.dirname(path), "tessera.go"),
                                          args.go_layer)
        print(f"{lang}: {len(called)} of {len(declared)} functions bound, "
              f"{len(allowed & set(declared) - called)} allow-listed, {len(missing)} missing")
    for p in problems:
        print(p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
