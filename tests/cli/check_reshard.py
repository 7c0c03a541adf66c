#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
"""Specification of `tessera reshard`, one behaviour per case (suite 'cli').

Usage:
  check_reshard.py --list              the case names, one per line (read by meson)
  check_reshard.py TESSERA CASE        runs one case; exit 0 when it passes

Each case writes a sharded checkpoint (issue 13 index format) into a fresh
directory: tensor w, F32 [4, 8], saved on the mesh x=2 under (x, None) by two
processes, rows [0, 2) in process-00000-of-00002.safetensors and rows [2, 4)
in process-00001-of-00002.safetensors, data byte i of w being
(i * 31 + 7) mod 256. It is restored on the mesh y=4 under w -> (None, y):
device d gets columns [2d, 2d + 2), 8 bytes of each of the 4 rows, so a
process of 2 (two devices, columns [0, 4) or [4, 8)) reads 16 bytes of each
row: one range per row, two rows in each file.

The sub-byte cases write tensor q, F4 [4, 8] (2 elements a byte, so 4 bytes
a row), saved the same way; restored on y=4 under q -> (None, y), device d
gets columns [2d, 2d + 2): one byte of each row.
"""
import json
import os
import struct
import subprocess
import sys
import tempfile

import cases
from cases import case, expect

MESH_X2 = {"shape": ["2"], "axisNames": ["x"], "devices": [{}, {"id": "1", "localOrdinal": "1"}]}
FILES = ["process-00000-of-00002.safetensors", "process-00001-of-00002.safetensors"]
RULES = "w -> (None, y)\n"


def data_bytes(n):
    return bytes((i * 31 + 7) & 0xFF for i in range(n))


class Ctx:
    def __init__(self, tessera, directory):
        self.tessera, self.directory = tessera, directory

    def path(self, name):
        return os.path.join(self.directory, name)

    def checkpoint(self, pieces=2, name="w", dtype="F32", row_bytes=32):
        """Writes the files and an index listing the first `pieces` pieces
        of `name` [4, 8], rows of `row_bytes` bytes."""
        size = 2 * row_bytes
        data = data_bytes(2 * size)
        entries = []
        for p in range(2):
            key = f"{name}@{2 * p}:{2 * p + 2},0:8"
            header = json.dumps({"__metadata__": {"format": "tessera.checkpoint", "tessera.process": str(p),
                                                  "tessera.num_processes": "2"},
                                 key: {"dtype": dtype, "shape": [2, 8], "data_offsets": [0, size]}}).encode()
            with open(self.path(FILES[p]), "wb") as f:
                f.write(struct.pack("<Q", len(header)) + header + data[size * p:size * (p + 1)])
            entries.append({"file": p, "offset": 8 + len(header), "size": size,
                            "ranges": [[2 * p, 2 * p + 2], [0, 8]]})
        index = {"format": "tessera.checkpoint", "version": 1, "num_processes": 2, "files": FILES,
                 "tensors": [{"name": name, "dtype": dtype, "shape": [4, 8], "mesh": MESH_X2,
                              "layout": {"dims": [{"axes": ["x"]}, {}], "mesh": MESH_X2}, "shard_mode": "strict",
                              "pieces": entries[:pieces]}]}
        with open(self.path("tessera-index.json"), "w") as f:
            json.dump(index, f)
        with open(self.path("rules.txt"), "w") as f:
            f.write(f"{name} -> (None, y)\n")
        return data

    def run(self, *args, mesh="y=4"):
        return subprocess.run([self.tessera, "reshard", "--from", self.directory, "--mesh", mesh, "--rules",
                               self.path("rules.txt"), *args], capture_output=True, text=True, timeout=60)


@case
def the_summary_gives_each_process_bytes_files_and_ranges(ctx):
    ctx.checkpoint()
    done = ctx.run("--num-processes", "2", "--gap-bytes", "0")
    expect(done.stderr, "", "stderr")
    expect(done.stdout, "process 0 of 2: 64 bytes from 2 files in 4 ranges (2 shards)\n"
                        "process 1 of 2: 64 bytes from 2 files in 4 ranges (2 shards)\n"
                        "total 128 bytes\n", "stdout")
    expect(done.returncode, 0, "exit status")


@case
def process_limits_the_summary_to_that_process(ctx):
    ctx.checkpoint()
    done = ctx.run("--num-processes", "2", "--process", "1", "--gap-bytes", "0")
    expect(done.stdout, "process 1 of 2: 64 bytes from 2 files in 4 ranges (2 shards)\ntotal 64 bytes\n", "stdout")


@case
def json_gives_the_same_numbers(ctx):
    ctx.checkpoint()
    done = ctx.run("--num-processes", "2", "--process", "0", "--gap-bytes", "0", "--json")
    expect(json.loads(done.stdout), {"checkpoint": ctx.directory, "num_processes": 2, "total_bytes": 64,
                                     "processes": [{"process": 0, "bytes": 64, "files": 2, "ranges": 4,
                                                    "shards": 2}]}, "JSON")


@case
def verify_checks_every_shard_against_the_stored_data(ctx):
    ctx.checkpoint()
    done = ctx.run("--num-processes", "2", "--verify")
    # The default 64 KiB gap joins each file's two rows, the 16 bytes between them included.
    expect(done.stdout, "process 0 of 2: 96 bytes from 2 files in 2 ranges (2 shards)\n"
                        "  verified 2 shards\n"
                        "process 1 of 2: 96 bytes from 2 files in 2 ranges (2 shards)\n"
                        "  verified 2 shards\n"
                        "total 192 bytes\n", "stdout")
    expect(done.returncode, 0, "exit status")


@case
def verify_json_counts_the_verified_shards(ctx):
    ctx.checkpoint()
    done = ctx.run("--verify", "--json")
    report = json.loads(done.stdout)
    expect((report["verified"], report["processes"][0]["verified"], report["processes"][0]["differences"]),
           (True, 4, []), "verified, shards verified, differences")


@case
def a_directory_without_an_index_is_refused(ctx):
    ctx.checkpoint()
    os.unlink(ctx.path("tessera-index.json"))
    done = ctx.run()
    expect(done.returncode, 2, "exit status")
    expect(done.stderr.startswith(f"tessera reshard: {ctx.directory}: no tessera-index.json"), True,
           f"stderr {done.stderr!r}")


@case
def a_missing_piece_is_refused_naming_tensor_and_range(ctx):
    ctx.checkpoint(pieces=1)
    done = ctx.run()
    expect(done.returncode, 2, "exit status")
    expect("tensor 'w': elements [2:4, 0:8] are in no piece" in done.stderr, True, f"stderr {done.stderr!r}")


@case
def a_missing_file_is_refused_naming_it(ctx):
    ctx.checkpoint()
    os.unlink(ctx.path(FILES[1]))
    done = ctx.run()
    expect(done.returncode, 2, "exit status")
    expect(done.stderr.startswith(f"tessera reshard: {ctx.path(FILES[1])}: missing"), True,
           f"stderr {done.stderr!r}")


@case
def verify_checks_a_sub_byte_tensor_by_whole_bytes(ctx):
    ctx.checkpoint(name="q", dtype="F4", row_bytes=4)
    done = ctx.run("--num-processes", "2", "--gap-bytes", "0", "--verify")
    # Process 0 (devices 0, 1) reads columns [0, 4): 2 bytes of each of 4 rows.
    expect(done.stdout, "process 0 of 2: 8 bytes from 2 files in 4 ranges (2 shards)\n"
                        "  verified 2 shards\n"
                        "process 1 of 2: 8 bytes from 2 files in 4 ranges (2 shards)\n"
                        "  verified 2 shards\n"
                        "total 16 bytes\n", "stdout")
    expect((done.returncode, done.stderr), (0, ""), "exit status and stderr")


@case
def a_sub_byte_shard_that_splits_a_byte_is_refused_as_load_refuses_it(ctx):
    data = ctx.checkpoint(name="q", dtype="F4", row_bytes=4)
    # On y=8 each device would hold one column: half a byte of each row.
    done = ctx.run("--verify", mesh="y=8")
    message = ("Tensor 'q' of type F4: the shard of device 0 covers [0, 1) of dimension 1 (size 8); expected a "
               "start and stop on a multiple of 2, the elements per block\n")
    expect((done.returncode, done.stdout, done.stderr), (2, "", "tessera reshard: " + message),
           "exit status, stdout and stderr")
    # `tessera load` of the same tensor as one safetensors file says the same.
    header = json.dumps({"q": {"dtype": "F4", "shape": [4, 8], "data_offsets": [0, 16]}}).encode()
    with open(ctx.path("whole.safetensors"), "wb") as f:
        f.write(struct.pack("<Q", len(header)) + header + data)
    load = subprocess.run([ctx.tessera, "load", "--checkpoint", ctx.path("whole.safetensors"), "--mesh", "y=8",
                           "--rules", ctx.path("rules.txt")], capture_output=True, text=True, timeout=60)
    expect((load.returncode, load.stderr), (2, "tessera load: " + message), "load's exit status and stderr")


def main(argv):
    with tempfile.TemporaryDirectory(prefix="tessera_reshard_") as directory:
        return cases.main(argv, __doc__, lambda tessera: Ctx(tessera, directory))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
