#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
"""The docs test: Doxygen documents every public name without a warning.

Runs Doxygen with the check configuration (XML output, warnings to a log
file), then fails when
  1. the warning log is not empty (an undocumented member of a documented
     header, a broken @param, an unknown command or HTML tag, ...), or
  2. the XML shows a public name without a description: a header, a function,
     a type, an enum, an enum value, a macro, a struct or one of its fields.
Doxygen itself says nothing about the members of a header that has no @file
comment (it leaves such headers out of the HTML), hence the second check.
"""
import argparse
import glob
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

MEMBER_KINDS = {"function", "typedef", "enum", "define", "variable"}
COMPOUND_KINDS = {"file", "struct", "union"}


def described(element):
    return any("".join(element.find(part).itertext()).strip()
               for part in ("briefdescription", "detaileddescription")
               if element.find(part) is not None)


def undocumented(xml_dir):
    """[(location, kind, name)] of every public name without a description."""
    found = []
    for path in sorted(glob.glob(os.path.join(xml_dir, "*.xml"))):
        root = ET.parse(path).getroot()
        for compound in root.findall("compounddef"):
            kind = compound.get("kind")
            if kind not in COMPOUND_KINDS:
                continue
            name = compound.findtext("compoundname")
            where = compound.find("location").get("file") if compound.find("location") is not None else name
            if not described(compound):
                found.append((where, kind, name))
            for member in compound.iter("memberdef"):
                if member.get("kind") not in MEMBER_KINDS:
                    continue
                line = member.find("location").get("line")
                if not described(member):
                    found.append((f"{where}:{line}", member.get("kind"), member.findtext("name")))
                for value in member.findall("enumvalue"):
                    if not described(value):
                        found.append((f"{where}:{line}", "enum value", value.findtext("name")))
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--doxygen", required=True)
    parser.add_argument("--doxyfile", required=True)
    parser.add_argument("--log", required=True, help="WARN_LOGFILE of the doxyfile")
    parser.add_argument("--xml-dir", required=True, help="XML_OUTPUT of the doxyfile")
    args = parser.parse_args()

    if os.path.exists(args.log):
        os.remove(args.log)
    # Doxygen opens WARN_LOGFILE before it makes OUTPUT_DIRECTORY: on a fresh
    # build dir the log could not be created and the warnings went to stderr.
    os.makedirs(os.path.dirname(os.path.abspath(args.log)), exist_ok=True)
    run = subprocess.run([args.doxygen, args.doxyfile], capture_output=True, text=True)
    if run.returncode != 0:
        print(run.stdout + run.stderr)
        print(f"doxygen failed with status {run.returncode}")
        return 1
    if not os.path.exists(args.log):
        print(run.stdout + run.stderr)
        print(f"doxygen wrote no warning log at {args.log}")
        return 1
    with open(args.log, encoding="utf-8") as f:
        warnings = [line for line in f.read().splitlines() if line.strip()]
    missing = undocumented(args.xml_dir)

    for line in warnings:
        print(line)
    for where, kind, name in missing:
        print(f"{where}: undocumented {kind} {name}")
    print(f"{len(warnings)} Doxygen warning lines, {len(missing)} undocumented public names")
    return 1 if warnings or missing else 0


if __name__ == "__main__":
    sys.exit(main())
