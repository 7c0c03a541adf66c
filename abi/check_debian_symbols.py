#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
"""The Debian symbols file names exactly the functions of the linker map.

debian/libtessera0.symbols is written by scripts/debian-symbols.sh from a
built library; the package build (dpkg-gensymbols -c4) refuses any
difference, but it runs only in scripts/package-check.sh. This check runs in
the normal test run so that a new function cannot land without its line:
each `name@NODE` of the symbols file must be a function of that node in
capi/tessera.map, and each function of the map must have its line.

Usage: check_debian_symbols.py MAP SYMBOLS
"""
import re
import sys


def map_functions(text):
    """{name: node} of a version script; `# ... {`/`}` section comments are comments."""
    functions = {}
    node = None
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        opened = re.match(r"^([A-Z_0-9.]+)\s*\{", line)
        if opened:
            node = opened.group(1)
            continue
        name = re.match(r"^(tessera_\w+);$", line)
        if name and node:
            functions[name.group(1)] = node
    return functions


def symbols_functions(text):
    """{name: node} of a dpkg symbols file; the node symbols themselves are left out."""
    functions = {}
    for line in text.splitlines():
        entry = re.match(r"^ (\w+)@([A-Z_0-9.]+) ", line)
        if entry and entry.group(1) != entry.group(2):
            functions[entry.group(1)] = entry.group(2)
    return functions


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        expected = map_functions(f.read())
    with open(argv[2], encoding="utf-8") as f:
        recorded = symbols_functions(f.read())
    problems = []
    for name in sorted(set(expected) - set(recorded)):
        problems.append(f"{name}@{expected[name]}: in {argv[1]}, missing from {argv[2]}")
    for name in sorted(set(recorded) - set(expected)):
        problems.append(f"{name}@{recorded[name]}: in {argv[2]}, not in {argv[1]}")
    for name in sorted(set(expected) & set(recorded)):
        if expected[name] != recorded[name]:
            problems.append(f"{name}: node {recorded[name]} in {argv[2]}, {expected[name]} in {argv[1]}")
    if problems:
        print("\n".join(problems))
        print("run: bash scripts/debian-symbols.sh BUILDDIR (and commit debian/libtessera0.symbols)")
        return 1
    print(f"{len(expected)} functions, the same in both")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
