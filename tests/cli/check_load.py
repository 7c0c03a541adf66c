#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
"""Specification of `tessera load`, one behaviour per case (suite 'cli').

Usage:
  check_load.py --list                 the case names, one per line (read by meson)
  check_load.py TESSERA CASE           runs one case; exit 0 when it passes

Each case writes its checkpoint with known bytes (data byte i is
(i * 31 + 7) mod 256) into a fresh directory, and computes the expected
shards itself: a shard is the tensor's box as row-major bytes (numpy's
`array[box].tobytes()`), cut here from the bytes written, hashed with
hashlib. The 2x4 mesh (batch=2, model=4) with the rules row -> (batch, None),
col -> (None, model) is the one of tests/capi/test_checkpoint_load.c.
"""
import hashlib
import json
import os
import pty
import struct
import subprocess
import sys
import tempfile

import cases
from cases import Failure, case, expect


DTYPE_BYTES = {"F32": 4, "F16": 2, "U8": 1}


class Tensor:
    def __init__(self, name, dtype, shape, offset):
        self.name, self.dtype, self.shape, self.offset = name, dtype, shape, offset

    @property
    def size(self):
        n = DTYPE_BYTES[self.dtype]
        for d in self.shape:
            n *= d
        return n

    def box_bytes(self, data, box):
        """array[box].tobytes() of this tensor's bytes in `data` (its file's data area)."""
        item = DTYPE_BYTES[self.dtype]
        strides = []
        stride = item
        for d in reversed(self.shape):
            strides.insert(0, stride)
            stride *= d
        out = bytearray()

        def walk(dim, base):
            if dim == len(self.shape):
                out.extend(data[base:base + item])
                return
            for i in range(box[dim][0], box[dim][1]):
                walk(dim + 1, base + i * strides[dim])

        walk(0, self.offset)
        return bytes(out)


def data_bytes(n):
    return bytes((i * 31 + 7) & 0xFF for i in range(n))


def write_safetensors(path, tensors):
    """One file holding `tensors` back to back; returns its data area."""
    header = {t.name: {"dtype": t.dtype, "shape": t.shape, "data_offsets": [t.offset, t.offset + t.size]}
              for t in tensors}
    data = data_bytes(sum(t.size for t in tensors))
    text = json.dumps(header).encode()
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + data)
    return data


MODEL = [Tensor("row.kernel", "F32", [8, 16], 0), Tensor("col.kernel", "F32", [8, 16], 512),
         Tensor("bias", "F32", [16], 1024)]
RULES = "row -> (batch, None)\ncol -> (None, model)\n"
LAYOUTS = {"row.kernel": ("batch", None), "col.kernel": (None, "model"), "bias": (None,)}
MESH = {"batch": 2, "model": 4}


def box_of(device, shape, axes):
    """Strict-mode box of logical `device` on the batch=2,model=4 mesh."""
    coords = {"batch": device // 4, "model": device % 4}
    box = []
    for size, axis in zip(shape, axes):
        if axis is None:
            box.append((0, size))
        else:
            n = size // MESH[axis]
            box.append((coords[axis] * n, (coords[axis] + 1) * n))
    return box


class Ctx:
    def __init__(self, tessera, directory):
        self.tessera = tessera
        self.dir = directory

    def path(self, name):
        return os.path.join(self.dir, name)

    def model(self):
        data = write_safetensors(self.path("model.safetensors"), MODEL)
        with open(self.path("rules.txt"), "w") as f:
            f.write(RULES)
        return data

    def run(self, *args):
        return subprocess.run([self.tessera, "load", *args], capture_output=True, text=True, timeout=60)

    def load(self, *args, checkpoint="model.safetensors", rules="rules.txt"):
        extra = ["--rules", self.path(rules)] if rules else []
        return self.run("--checkpoint", self.path(checkpoint), "--mesh", "batch=2,model=4", *extra, *args)


def expected_sha256_lines(data, process, num_processes):
    lines = []
    per = 8 // num_processes
    for device in range(process * per, (process + 1) * per):
        for t in MODEL:
            shard = t.box_bytes(data, box_of(device, t.shape, LAYOUTS[t.name]))
            lines.append(f"cpu:{device} {t.name} {hashlib.sha256(shard).hexdigest()}")
    return lines


def ok_lines(done):
    expect(done.returncode, 0, f"exit status (stderr {done.stderr!r})")
    return done.stdout.splitlines()


@case
def sha256_lines_are_each_device_slice_of_process_1(ctx):
    data = ctx.model()
    lines = ok_lines(ctx.load("--process", "1", "--num-processes", "2", "--sha256"))
    expect(lines[:-1], expected_sha256_lines(data, 1, 2), "device lines")


@case
def sha256_lines_of_process_0_of_4_are_devices_0_and_1(ctx):
    data = ctx.model()
    lines = ok_lines(ctx.load("--process", "0", "--num-processes", "4", "--sha256"))
    expect(lines[:-1], expected_sha256_lines(data, 0, 4), "device lines")


@case
def many_threads_and_a_tiny_staging_budget_give_the_same_hashes(ctx):
    data = ctx.model()
    lines = ok_lines(ctx.load("--process", "1", "--num-processes", "2", "--sha256", "--threads", "4",
                              "--staging-bytes", "28"))
    expect(lines[:-1], expected_sha256_lines(data, 1, 2), "device lines")


@case
def the_last_line_is_the_bytes_read_which_joins_runs_across_a_gap(ctx):
    # Process 0: rows [0, 4) of row.kernel (256 bytes), the 256 it skips,
    # col.kernel and bias: one read under the default 64 KiB gap.
    ctx.model()
    expect(ok_lines(ctx.load("--num-processes", "2", "--sha256"))[-1], "read 1088 bytes", "last line")


@case
def without_a_gap_the_bytes_read_are_only_the_shards(ctx):
    ctx.model()
    expect(ok_lines(ctx.load("--num-processes", "2", "--gap-bytes", "0"))[-1], "read 832 bytes", "last line")


@case
def replicated_tensors_are_read_once_per_process(ctx):
    ctx.model()
    lines = ok_lines(ctx.load("--num-processes", "2", "--gap-bytes", "0", rules=None))
    expect(len(lines), 13, "lines (4 devices x 3 tensors, then the bytes)")
    expect(lines[-1], "read 1088 bytes", "last line (each tensor once, not 4 times)")


@case
def without_sha256_each_line_gives_the_box_and_the_shard_bytes(ctx):
    ctx.model()
    lines = ok_lines(ctx.load("--process", "1", "--num-processes", "2"))
    expect(lines[:3], ["cpu:4 row.kernel [4:8, 0:16] 256", "cpu:4 col.kernel [0:8, 0:4] 128",
                       "cpu:4 bias [0:16] 64"], "first device's lines")


@case
def a_sharded_index_reads_each_file_for_its_tensors(ctx):
    first = write_safetensors(ctx.path("model-00001-of-00002.safetensors"), MODEL[:2])
    second_model = [Tensor("bias", "F32", [16], 0)]
    second = write_safetensors(ctx.path("model-00002-of-00002.safetensors"), second_model)
    with open(ctx.path("model.safetensors.index.json"), "w") as f:
        json.dump({"metadata": {"total_size": 1088},
                   "weight_map": {"row.kernel": "model-00001-of-00002.safetensors",
                                  "col.kernel": "model-00001-of-00002.safetensors",
                                  "bias": "model-00002-of-00002.safetensors"}}, f)
    with open(ctx.path("rules.txt"), "w") as f:
        f.write(RULES)
    lines = ok_lines(ctx.load("--process", "1", "--num-processes", "2", "--sha256",
                              checkpoint="model.safetensors.index.json"))
    bias = hashlib.sha256(second_model[0].box_bytes(second, [(0, 16)])).hexdigest()
    row = hashlib.sha256(MODEL[0].box_bytes(first, [(4, 8), (0, 16)])).hexdigest()
    expect(lines[0], f"cpu:4 row.kernel {row}", "first line")
    expect(lines[2], f"cpu:4 bias {bias}", "bias of the second file")
    expect(lines[-1], "read 832 bytes", "last line")


@case
def strict_mode_refuses_a_tensor_its_shards_do_not_divide_naming_it(ctx):
    write_safetensors(ctx.path("odd.safetensors"), [Tensor("col.odd", "F32", [8, 10], 0)])
    with open(ctx.path("rules.txt"), "w") as f:
        f.write(RULES)
    done = ctx.load(checkpoint="odd.safetensors")
    expect(done.returncode, 2, "exit status")
    expect(done.stderr.startswith("tessera load: Tensor 'col.odd': "), True, f"stderr {done.stderr!r}")


@case
def chunk_flat_mode_gives_the_last_device_the_short_shard(ctx):
    odd = Tensor("col.odd", "F32", [8, 10], 0)
    data = write_safetensors(ctx.path("odd.safetensors"), [odd])
    with open(ctx.path("rules.txt"), "w") as f:
        f.write(RULES)
    lines = ok_lines(ctx.load("--shard-mode", "chunk-flat", "--process", "1", "--num-processes", "2",
                              "--sha256", checkpoint="odd.safetensors"))
    expect(lines[3], f"cpu:7 col.odd {hashlib.sha256(odd.box_bytes(data, [(0, 8), (9, 10)])).hexdigest()}",
           "device 7 holds columns [9, 10)")


def write_gguf_q8_0(path, name, rows, columns):
    """A GGUF v3 file of one Q8_0 tensor [rows, columns] (blocks of 32
    elements in 34 bytes) at the start of the data; returns the data."""
    header = bytearray(b"GGUF") + struct.pack("<IQQ", 3, 1, 0)
    header += struct.pack("<Q", len(name)) + name.encode()
    header += struct.pack("<IQQ", 2, columns, rows)  # dimensions innermost first
    header += struct.pack("<IQ", 8, 0)  # GGML_TYPE_Q8_0, offset 0
    header += bytes(-len(header) % 32)  # the data starts aligned to 32
    data = data_bytes(rows * columns // 32 * 34)
    with open(path, "wb") as f:
        f.write(bytes(header) + data)
    return data


@case
def quantized_gguf_column_shards_are_whole_blocks_of_each_row(ctx):
    data = write_gguf_q8_0(ctx.path("q.gguf"), "q", 4, 64)
    with open(ctx.path("rules.txt"), "w") as f:
        f.write("q -> (None, model)\n")
    done = ctx.run("--checkpoint", ctx.path("q.gguf"), "--mesh", "model=2", "--rules", ctx.path("rules.txt"),
                   "--sha256", "--gap-bytes", "0")
    lines = ok_lines(done)
    second_blocks = b"".join(data[row * 68 + 34:row * 68 + 68] for row in range(4))
    expect(lines[1], f"cpu:1 q {hashlib.sha256(second_blocks).hexdigest()}", "device 1: block 1 of each row")
    expect(lines[-1], "read 272 bytes", "last line")


@case
def a_quantized_shard_off_a_block_boundary_is_refused(ctx):
    write_gguf_q8_0(ctx.path("q.gguf"), "q", 4, 64)
    with open(ctx.path("rules.txt"), "w") as f:
        f.write("q -> (None, model)\n")
    done = ctx.run("--checkpoint", ctx.path("q.gguf"), "--mesh", "model=4", "--rules", ctx.path("rules.txt"))
    expect((done.returncode, done.stderr),
           (2, "tessera load: Tensor 'q' of type Q8_0: the shard of device 0 covers [0, 16) of dimension 1 "
               "(size 64); expected a start and stop on a multiple of 32, the elements per block\n"),
           "exit status and stderr")


@case
def a_process_not_below_the_process_count_is_a_usage_error(ctx):
    ctx.model()
    done = ctx.load("--process", "2", "--num-processes", "2")
    expect((done.returncode, done.stderr), (2, "tessera load: --process 2: expected less than --num-processes 2\n"),
           "exit status and stderr")


@case
def a_process_count_not_dividing_the_devices_is_refused(ctx):
    ctx.model()
    done = ctx.load("--num-processes", "3")
    expect(done.returncode, 2, "exit status")
    expect(done.stderr, "tessera load: Argument 'num_processes' is 3; expected a divisor of the mesh's 8 devices "
                        "(each process owns an equal block)\n", "stderr")


@case
def the_checkpoint_is_required(ctx):
    done = ctx.run("--mesh", "batch=2,model=4")
    expect((done.returncode, done.stderr),
           (2, "tessera load: --checkpoint is required (see 'tessera load --help')\n"), "exit status and stderr")


@case
def help_documents_the_device_label(ctx):
    done = ctx.run("--help")
    expect(done.returncode, 0, "exit status")
    expect("cpu:0 .. cpu:D-1" in done.stdout, True, "the device label in --help")


@case
def no_progress_bar_when_stderr_is_not_a_terminal(ctx):
    ctx.model()
    done = ctx.load("--sha256")
    expect((done.returncode, done.stderr), (0, ""), "exit status and stderr")


@case
def a_progress_bar_on_a_terminal_reaches_100_percent(ctx):
    ctx.model()
    primary, secondary = pty.openpty()
    done = subprocess.run([ctx.tessera, "load", "--checkpoint", ctx.path("model.safetensors"), "--sha256"],
                          stdout=subprocess.PIPE, stderr=secondary, timeout=60)
    os.close(secondary)
    shown = b""
    try:
        while True:
            chunk = os.read(primary, 4096)
            if not chunk:
                break
            shown += chunk
    except OSError:
        pass
    os.close(primary)
    expect(done.returncode, 0, "exit status")
    expect(b"100% 1,088 / 1,088 bytes" in shown, True, f"the bar's last state in {shown!r}")


def main(argv):
    with tempfile.TemporaryDirectory(prefix="tessera_load_") as directory:
        return cases.main(argv, __doc__, lambda tessera: Ctx(tessera, directory))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
