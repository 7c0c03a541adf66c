#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
"""Writes the version script the linker reads from capi/tessera.map.

A section of the map between the marker lines `# NAME {` and `# NAME }` holds
the symbols of an optional part of the library (e.g. `cluster`). With
`--without NAME` its lines are left out; the marker lines themselves never
reach the output, so the linker sees a plain version script. Unbalanced or
nested markers are an error naming the line, so a broken map never links.

Usage: select_map.py INPUT OUTPUT [--without NAME]...
"""
import argparse
import re
import sys

MARKER = re.compile(r"^\s*#\s*([A-Za-z_][A-Za-z0-9_]*)\s*([{}])\s*$")
MARKER_LIKE = re.compile(r"^\s*#.*[{}]\s*$")


def select(lines, without):
    """The lines of the map without the sections named in `without`."""
    kept = []
    open_section = None  # (name, line number) of the section being read
    for number, line in enumerate(lines, start=1):
        marker = MARKER.match(line)
        if marker is None and MARKER_LIKE.match(line):
            # A comment ending in a brace that is not a marker would be kept as
            # a comment, silently leaving its section's symbols in every build.
            raise ValueError(f"line {number}: {line.strip()!r} looks like a section marker but is not "
                             f"one; expected '# NAME {{' or '# NAME }}' with NAME a single word")
        if marker is None:
            if open_section is None or open_section[0] not in without:
                kept.append(line)
            continue
        name, brace = marker.groups()
        if brace == "{":
            if open_section is not None:
                raise ValueError(f"line {number}: '# {name} {{' inside section '{open_section[0]}' "
                                 f"opened on line {open_section[1]}; expected '# {open_section[0]} }}' first")
            open_section = (name, number)
        else:
            if open_section is None or open_section[0] != name:
                expected = "no closing marker" if open_section is None else f"'# {open_section[0]} }}'"
                raise ValueError(f"line {number}: '# {name} }}' closes no open section; expected {expected}")
            open_section = None
    if open_section is not None:
        raise ValueError(f"line {open_section[1]}: section '{open_section[0]}' is never closed; "
                         f"expected '# {open_section[0]} }}'")
    return kept


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("input")
    parser.add_argument("output")
    parser.add_argument("--without", action="append", default=[], metavar="NAME",
                        help="leave out the section NAME (repeatable)")
    args = parser.parse_args()
    with open(args.input, encoding="utf-8") as f:
        lines = f.readlines()
    try:
        kept = select(lines, set(args.without))
    except ValueError as e:
        sys.exit(f"select_map.py: {args.input}: {e}")
    with open(args.output, "w", encoding="utf-8") as f:
        f.writelines(kept)


if __name__ == "__main__":
    main()
