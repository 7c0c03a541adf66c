#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
"""The symbol test: what libtessera exports, what the version script lists and
what the public headers declare must be the same set of functions.

  1. every defined dynamic symbol of the library is a function in the map,
     with the version of the map node that lists it (nothing else leaks:
     no Abseil, RE2, protobuf or libstdc++ symbol, no data);
  2. every function of the map is exported;
  3. every function of the map is declared with TESSERA_API in a public
     header, and every TESSERA_API declaration is in the map;
  4. a function declared in an experimental/ header is in an EXPERIMENTAL
     node, and every other one in a stable node (the tiers cannot drift);
  5. with --readelf, the SONAME is the one given by --soname.
"""
import argparse
import re
import subprocess
import sys

NODE_RE = re.compile(r"([A-Za-z0-9_.]+)\s*\{(.*?)\}\s*([A-Za-z0-9_.]*)\s*;", re.S)
API_RE = re.compile(r"TESSERA_API\b[^;{]*?\b(\w+)\s*\(", re.S)


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def map_symbols(path):
    """{symbol: version node} for every global entry of the version script."""
    with open(path, encoding="utf-8") as f:
        text = strip_comments(f.read())
    # capi/select_map.py's section markers ("# cluster {") are not symbols.
    text = re.sub(r"^\s*#.*$", " ", text, flags=re.M)
    symbols = {}
    for node, body, _parent in NODE_RE.findall(text):
        global_part = re.split(r"\blocal\s*:", body)[0]
        global_part = re.sub(r"\bglobal\s*:", " ", global_part)
        for name in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", global_part):
            if name in symbols:
                sys.exit(f"{path}: {name} is listed twice")
            symbols[name] = node
    if not symbols:
        sys.exit(f"{path}: no global symbols found")
    return symbols


def exported_symbols(nm, lib):
    """{name: (nm type, version)} of the defined dynamic symbols, without the
    absolute symbols that name the version nodes themselves."""
    out = subprocess.run([nm, "-D", "--defined-only", lib], check=True,
                         capture_output=True, text=True).stdout
    symbols = {}
    for line in out.splitlines():
        fields = line.split()
        if len(fields) < 3:
            continue
        kind, full = fields[-2], fields[-1]
        if kind == "A":  # the version nodes themselves
            continue
        name, _, version = full.partition("@")
        symbols[name] = (kind, version.lstrip("@"))
    return symbols


def declared_functions(headers):
    names = {}
    for header in headers:
        with open(header, encoding="utf-8") as f:
            text = strip_comments(f.read())
        text = re.sub(r"^\s*#.*$", " ", text, flags=re.M)  # the macro definitions
        for name in API_RE.findall(text):
            names[name] = header
    return names


def soname(readelf, lib):
    out = subprocess.run([readelf, "-d", lib], check=True, capture_output=True,
                         text=True).stdout
    match = re.search(r"\(SONAME\)\s+Library soname: \[([^\]]+)\]", out)
    return match.group(1) if match else None


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--nm", required=True)
    parser.add_argument("--lib", required=True)
    parser.add_argument("--map", required=True)
    parser.add_argument("--readelf")
    parser.add_argument("--soname")
    parser.add_argument("headers", nargs="+")
    args = parser.parse_args()

    in_map = map_symbols(args.map)
    exported = exported_symbols(args.nm, args.lib)
    declared = declared_functions(args.headers)
    problems = []

    for name, (kind, version) in sorted(exported.items()):
        if name not in in_map:
            problems.append(f"exported but not in the map: {name} ({kind})")
        elif kind not in ("T", "i"):
            problems.append(f"exported {name} is not a function (nm type {kind})")
        elif version != in_map[name]:
            problems.append(f"{name} has version '{version}', the map says '{in_map[name]}'")
    for name in sorted(set(in_map) - set(exported)):
        problems.append(f"in the map but not exported: {name}")
    for name in sorted(set(in_map) - set(declared)):
        problems.append(f"in the map but declared with TESSERA_API in no public header: {name}")
    for name in sorted(set(declared) - set(in_map)):
        problems.append(f"declared with TESSERA_API in {declared[name]} but not in the map: {name}")

    for name in sorted(set(in_map) & set(declared)):
        experimental_header = "/experimental/" in declared[name].replace("\\", "/")
        experimental_node = "EXPERIMENTAL" in in_map[name]
        if experimental_header != experimental_node:
            problems.append(f"{name} is declared in {declared[name]} but versioned {in_map[name]}: "
                            "experimental headers and EXPERIMENTAL nodes go together")

    if args.readelf:
        found = soname(args.readelf, args.lib)
        if found != args.soname:
            problems.append(f"SONAME is {found}, expected {args.soname}")

    for problem in problems:
        print(problem)
    print(f"{len(in_map)} symbols in the map, {len(exported)} exported, "
          f"{len(declared)} declared; {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
