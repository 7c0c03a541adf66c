#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
"""Every odd conformance vector passes through the C ABI, or says why not.

Reads the vectors each conformance file defines (tests/conformance/vectors,
copied from the project's shared/conformance) (a "**K17**"
paragraph, a "### S23:" heading or a "| K101 |" table row) and the C test of
its suite, and fails when an odd vector is cited by neither a table row nor
the suite's pending table, so coverage cannot silently regress:

  keras_cases.md     K  conformance_keras.c
  sharding_cases.md  S  conformance_sharding.c
  dtensor_cases.md   D  conformance_dtensor.c (sections A, B, D, E),
                        conformance_dtensor_config.c (sections C, F, G)

A row cites a vector by a string literal that starts with its id ("K17",
"S23 ..."), a one-vector test by its function's name (d47_coords_wrap(),
k115_...()); the pending table is the array whose name contains "pending" (any case).
A citation of a vector the file does not define (a typo, a renumbering) is
an error too, and so is a missing C test.

Prints one line per suite and each problem; exits 1 when there is any,
77 (a skipped test for meson) when the conformance directory is absent.

  usage: check_conformance_coverage.py --conformance DIR --tests DIR
"""
import argparse
import os
import re
import sys

# (vector file, prefix, {C test: sections it covers, or None for all}).
SUITES = [
    ("keras_cases.md", "K", {"conformance_keras.c": None}),
    ("sharding_cases.md", "S", {"conformance_sharding.c": None}),
    ("dtensor_cases.md", "D", {"conformance_dtensor.c": set("ABDE"), "conformance_dtensor_config.c": set("CFG")}),
]

SECTION_RE = re.compile(r"^## ([A-Z])\.")


def vectors_of(markdown, prefix):
    """{number: section letter} of the vectors `markdown` defines."""
    definition = re.compile(r"^(?:\*\*{0}(\d+)\*\*|### {0}(\d+)\b|\| {0}(\d+) \|)".format(prefix))
    vectors = {}
    section = None
    for line in markdown.splitlines():
        heading = SECTION_RE.match(line)
        if heading:
            section = heading.group(1)
        match = definition.match(line)
        if match:
            number = int(next(g for g in match.groups() if g is not None))
            vectors.setdefault(number, section)
    return vectors


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def pending_spans(code):
    """(start, end) of each array whose name contains "pending", initializer included."""
    spans = []
    for match in re.finditer(r"\b\w*pending\w*\s*\[\s*\]\s*=\s*\{", code, re.I):
        depth, i = 1, match.end()
        while i < len(code) and depth > 0:
            if code[i] == "{":
                depth += 1
            elif code[i] == "}":
                depth -= 1
            i += 1
        spans.append((match.start(), i))
    return spans


def citations_of(code, prefix):
    """({numbers cited by rows}, {numbers in a pending table})."""
    code = strip_comments(code)
    spans = pending_spans(code)
    rows, pending = set(), set()
    for match in re.finditer(r'"{0}(\d+)(?!\d)[^"]*"'.format(prefix), code):
        inside = any(start <= match.start() < end for start, end in spans)
        (pending if inside else rows).add(int(match.group(1)))
    for match in re.finditer(r"\b{0}(\d+)_\w*\s*\(".format(prefix.lower()), code):
        rows.add(int(match.group(1)))
    return rows, pending


def ids(prefix, numbers):
    return ", ".join(prefix + str(n) for n in sorted(numbers)) or "none"


def check_suite(conformance_dir, tests_dir, markdown_name, prefix, tests):
    """Prints the suite's line and problems; returns the number of problems."""
    with open(os.path.join(conformance_dir, markdown_name), encoding="utf-8") as f:
        vectors = vectors_of(f.read(), prefix)
    problems = 0
    for test_name, sections in tests.items():
        odd = {n for n, s in vectors.items() if n % 2 == 1 and (sections is None or s in sections)}
        path = os.path.join(tests_dir, test_name)
        where = markdown_name + ("" if sections is None else " (sections " + ", ".join(sorted(sections)) + ")")
        if not os.path.exists(path):
            print("  error: %s is missing: %d odd vectors of %s are not covered" % (test_name, len(odd), where))
            problems += 1
            continue
        with open(path, encoding="utf-8") as f:
            rows, pending = citations_of(f.read(), prefix)
        missing = odd - rows - pending
        unknown = (rows | pending) - set(vectors)
        print("%s: %s: %d odd vectors, %d with table rows, %d only pending, %d missing"
              % (test_name, where, len(odd), len(odd & rows), len(odd & pending - rows), len(missing)))
        if missing:
            print("  error: cited by neither a table row nor the pending table: " + ids(prefix, missing))
            problems += 1
        if unknown:
            print("  error: cites vectors %s does not define: %s" % (markdown_name, ids(prefix, unknown)))
            problems += 1
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--conformance", required=True, help="the directory of the *_cases.md files")
    parser.add_argument("--tests", required=True, help="the directory of the conformance_*.c tests")
    args = parser.parse_args()
    if not os.path.isdir(args.conformance):
        print("skipped: no conformance vectors at " + args.conformance)
        return 77
    problems = sum(check_suite(args.conformance, args.tests, *suite) for suite in SUITES)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
