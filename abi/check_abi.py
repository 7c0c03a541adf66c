#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
"""The ABI gate: the stable tier of libtessera against its committed baseline.

The stable tier is every function of a version node of capi/tessera.map whose
name does not contain EXPERIMENTAL, with the types their declarations in the
stable public headers reach (capi/include/tessera/*.h, not experimental/).

  dump   writes the stable tier of --lib as abidw XML (the baseline format);
  check  dumps --lib the same way and compares it with the newest baseline
         abi/libtessera-<version>.abi by abidiff. It fails when a stable
         function was removed (or left the stable nodes, e.g. for the
         experimental one), changed its version node, or changed a type
         (a parameter or return type, an enum value, a struct layout); it
         passes when functions were only added: a new function in a new node
         changes nothing an existing program uses, so abidiff runs with
         --no-added-syms and counts them as "filtered out".

abidiff's status is a bit field: 1 error, 2 usage error, 4 the ABIs differ,
8 an incompatible change (a removed symbol). Any bit fails the gate.
"""
import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile

# One reader of tessera.map: the symbol test's.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "tests", "capi"))
from check_symbols import map_symbols  # noqa: E402

BASELINE_RE = re.compile(r"libtessera-(\d+)\.(\d+)\.abi$")


def stable_symbols(map_path):
    """The global names of every version node without EXPERIMENTAL in its name."""
    names = [name for name, node in map_symbols(map_path).items() if "EXPERIMENTAL" not in node]
    if not names:
        sys.exit(f"{map_path}: no stable symbol found")
    return names


def stable_tier_suppression(names):
    """Drops from the dump every function and variable outside `names`."""
    pattern = "^(" + "|".join(sorted(names)) + ")$"
    return (f"[suppress_function]\n  drop = yes\n  name_not_regexp = {pattern}\n"
            f"  symbol_name_not_regexp = {pattern}\n"
            f"[suppress_variable]\n  drop = yes\n  name_not_regexp = {pattern}\n"
            f"  symbol_name_not_regexp = {pattern}\n")


def dump(args, out_path, scratch):
    names = stable_symbols(args.map)
    suppression = os.path.join(scratch, "stable-tier.suppr")
    with open(suppression, "w", encoding="utf-8") as f:
        f.write(stable_tier_suppression(names))
    command = [args.abidw, "--headers-dir", args.headers_dir]
    for header in args.header_file:
        command += ["--header-file", header]
    # Only what the stable headers declare and the stable symbols reach; no
    # paths, locations or NEEDED list, so the baseline does not depend on the
    # build directory, line numbers or the optional dependencies.
    command += ["--drop-private-types", "--exported-interfaces-only",
                "--suppressions", suppression, "--no-corpus-path", "--no-comp-dir-path",
                "--no-show-locs", "--no-elf-needed", "--type-id-style", "hash",
                "--out-file", out_path, args.lib]
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"abidw failed with status {run.returncode}: {run.stdout}{run.stderr}")
    with open(out_path, encoding="utf-8") as f:
        text = f.read()
    symbols = text.count("<elf-symbol ")
    declarations = len(re.findall(r"<function-decl [^>]*elf-symbol-id=", text))
    if symbols != len(names) or declarations != len(names):
        # A map symbol that is not exported, or no debug information (-g).
        sys.exit(f"{out_path}: {symbols} stable functions exported and {declarations} with their "
                 f"types, the map lists {len(names)}; the gate needs every map symbol exported "
                 "and a build with debug information")
    return len(names)


def newest_baseline(directory):
    found = []
    for path in glob.glob(os.path.join(directory, "libtessera-*.abi")):
        match = BASELINE_RE.search(path)
        if match:
            found.append(((int(match.group(1)), int(match.group(2))), path))
    if not found:
        sys.exit(f"{directory}: no baseline libtessera-<major>.<minor>.abi; "
                 "create one with abi/update-baseline.sh <builddir> <version>")
    return max(found)[1]


def check(args, scratch):
    baseline = args.baseline or newest_baseline(args.baseline_dir)
    current = os.path.join(scratch, "current.abi")
    count = dump(args, current, scratch)
    run = subprocess.run([args.abidiff, "--no-added-syms", baseline, current],
                         capture_output=True, text=True)
    print(run.stdout + run.stderr, end="")
    print(f"abidiff {os.path.basename(baseline)} against the stable tier of "
          f"{os.path.basename(args.lib)} ({count} functions): status {run.returncode}")
    if run.returncode != 0:
        print("FAIL: the stable ABI changed incompatibly (see above). If the break is "
              "intended, it needs a new baseline: abi/update-baseline.sh <builddir> <version>")
        return 1
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["dump", "check"])
    parser.add_argument("--abidw", default="abidw")
    parser.add_argument("--abidiff", default="abidiff")
    parser.add_argument("--lib", required=True, help="the built libtessera.so")
    parser.add_argument("--map", required=True, help="capi/tessera.map")
    parser.add_argument("--headers-dir", required=True, help="capi/include/tessera")
    parser.add_argument("--header-file", action="append", default=[],
                        help="a stable header outside --headers-dir (the generated version.h)")
    parser.add_argument("--out", help="dump: the file to write")
    parser.add_argument("--baseline-dir", help="check: where libtessera-<version>.abi files are")
    parser.add_argument("--baseline", help="check: this baseline instead of the newest")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="tessera-abi-") as scratch:
        if args.mode == "dump":
            if not args.out:
                parser.error("dump needs --out")
            count = dump(args, args.out, scratch)
            print(f"{args.out}: the stable tier, {count} functions")
            return 0
        if not (args.baseline or args.baseline_dir):
            parser.error("check needs --baseline-dir or --baseline")
        return check(args, scratch)


if __name__ == "__main__":
    sys.exit(main())
