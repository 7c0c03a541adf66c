#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
"""`tessera load --sha256` against jax's addressable shards (issue 12's proof
that a process loads its own bytes, and only those).

Reads the cases load_cases.py wrote (the checkpoint, rules file, mesh and, per
job size N and process P, jax's shard hashes and boxes, the bytes of P's
distinct boxes and of the reads covering them with the 64 KiB coalescing gap)
and runs, for every N in the case and every P < N,
  tessera load --checkpoint FILE --mesh AXIS=N,... --rules FILE
               --match search|full --process P --num-processes N --sha256
once as it is, once with --gap-bytes 0 and a random --threads and
--staging-bytes (down to one byte per thread), and once without --sha256.
The output is one 'DEVICE VARIABLE HEX' (or 'DEVICE VARIABLE [BOX] BYTES')
line per device of P (mesh order) and variable, then 'read BYTES bytes'.
Compares every line with jax's hash (or index and size) of the same device's
shard (a line missing, repeated or not expected counts as a difference), the
order (devices in mesh order, each device's variables in the checkpoint's
order), and the bytes read: with no gap, the bytes of the process's distinct
boxes (a replicated piece read once per process); with the default gap,
those of the coalesced reads, gaps included. Prints each difference and the
counts; exits 1 on any difference or no case.

Standard library only (runs on the system python3).

Usage: compare_load_with_jax.py --tessera path/to/tessera [--seed S] cases.jsonl [...]
"""
import argparse
import json
import random
import re
import subprocess
import sys

# `tessera load --help`: a device is printed as `tessera plan` names logical
# device i of a mesh over simulated CPU devices.
DEVICE = re.compile(r"cpu:(\d+)")
READ = re.compile(r"read (\d+) bytes")
# The last field(s) of a line: with --sha256 the digest, without it the box
# and the shard's bytes ("[0:4, 2:4] 32").
VALUE = {"hashes": re.compile(r" ([0-9a-f]{64})$"), "boxes": re.compile(r" (\[[0-9:, ]*\] \d+)$")}


def parse_output(text, kind):
    """(lines [(device id, name, value)], read bytes or None, problems [str])
    for the output of `kind` ("hashes" or "boxes")."""
    lines, read, problems = [], None, []
    rows = text.splitlines()
    for number, row in enumerate(rows, 1):
        last = READ.fullmatch(row)
        if last:
            if number != len(rows):
                problems.append(f"line {number}: 'read' before the end: {row!r}")
            read = int(last.group(1))
            continue
        # The variable may hold anything but a line break: the device is the
        # first field and the value the last one(s).
        device, _, rest = row.partition(" ")
        match, value = DEVICE.fullmatch(device), VALUE[kind].search(rest)
        name = rest[: value.start()] if value else ""
        if not match or not name:
            problems.append(f"line {number}: not 'DEVICE VARIABLE {kind.upper()}': {row!r}")
            continue
        lines.append((int(match.group(1)), name, value.group(1)))
    if read is None:
        problems.append("no 'read BYTES bytes' line")
    return lines, read, problems


def compare_process(want, want_read, order, lines, read):
    """The differences between one process's output and jax's answer (`want`:
    {device id: {name: value}})."""
    problems = []
    want = {(int(d), name): value for d, names in want.items() for name, value in names.items()}
    seen = set()
    for device, name, value in lines:
        key = (device, name)
        if key in seen:
            problems.append(f"{key}: printed twice")
        elif key not in want:
            problems.append(f"{key}: not a shard of this process")
        elif want[key] != value:
            problems.append(f"{key}: jax {want[key]} tessera {value}")
        seen.add(key)
    for key in sorted(set(want) - seen):
        problems.append(f"{key}: missing")
    devices = [device for device, _, _ in lines]
    if devices != sorted(devices):
        problems.append(f"devices not in mesh order: {devices}")
    for device in sorted(set(devices)):
        names = [name for d, name, _ in lines if d == device]
        if names != [name for name in order if name in names]:
            problems.append(f"device {device}: variables not in the checkpoint's order: {names}")
    if read is not None and read != want_read[0]:
        problems.append(f"read bytes: expected {want_read[0]} ({want_read[1]}) tessera {read}")
    return problems


def load_variants(rng, expected):
    """(extra arguments, kind of output, (expected bytes read, what they are))
    per run of one process: hashes with the default coalescing gap, whose
    reads cover the gaps between runs at most 64 KiB apart; hashes with no
    gap, whose reads are exactly the distinct boxes, and a random staging
    budget and thread count, so that pieces arrive cut in parts and out of
    order; boxes and shard bytes (no --sha256) against jax's index map."""
    threads = rng.randint(1, 4)
    staging = rng.choice([threads, 97 * threads, 4096, 1 << 20])
    gap = (expected["read_bytes_gap_64k"], "the reads covering the runs, 64 KiB gap")
    return [
        (["--sha256"], "hashes", gap),
        (["--sha256", "--gap-bytes", "0", "--threads", str(threads), "--staging-bytes", str(staging)], "hashes",
         (expected["read_bytes"], "the process's distinct boxes")),
        ([], "boxes", gap),
    ]


def run_load(tessera, case, count, process, extra):
    command = [tessera, "load", "--checkpoint", case["checkpoint"], "--mesh", case["mesh"],
               "--rules", case["rules"], "--match", case["match"], "--process", str(process),
               "--num-processes", str(count), *extra]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        return None, f"{' '.join(command[1:])}: exit {result.returncode}: {result.stderr.strip()}"
    return result.stdout, None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tessera", required=True)
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("cases", nargs="+")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    cases = runs = compared = differences = 0
    for path in args.cases:
        with open(path, encoding="utf-8") as f:
            for line in f:
                case = json.loads(line)
                cases += 1
                for job, expected in case["processes"].items():
                    count, process = map(int, job.split("/"))
                    for extra, kind, want_read in load_variants(rng, expected):
                        runs += 1
                        where = (f"case {case['case']} (--mesh {case['mesh']} --rules {case['rules']} "
                                 f"--match {case['match']} {' '.join(extra)}) P={process} N={count}")
                        text, failure = run_load(args.tessera, case, count, process, extra)
                        if failure:
                            differences += 1
                            print(f"DIFF {where}: tessera load failed: {failure}")
                            continue
                        lines, read, problems = parse_output(text, kind)
                        problems += compare_process(expected[kind], want_read, case["header_order"], lines, read)
                        compared += len(lines) + (read is not None)
                        for problem in problems:
                            print(f"DIFF {where}: {problem}")
                        differences += len(problems)
    print(f"load differential: {cases} cases, {runs} process loads, {compared} lines compared "
          f"(shard hashes, boxes and bytes read), {differences} differences")
    if cases == 0:
        print("no cases were compared")
        return 1
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
