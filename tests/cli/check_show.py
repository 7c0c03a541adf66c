#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
"""Specification of `tessera show`, one behaviour per case (suite 'cli').

Usage:
  check_show.py --list                    the case names, one per line (read by meson)
  check_show.py TESSERA DATA_DIR CASE     runs one case; exit 0 when it passes

Pictures are compared whole: the header line, every box and label. Boxes are
sized in proportion to their shards, each at least as wide as its label and
a space either side, equal shards in equal boxes (the picture narrows by the
remainder); a 2-D picture keeps the tensor's aspect (a line is as tall as
2.5 columns are wide) within --width columns and 10 lines.
"""
import fcntl
import json
import os
import pty
import struct
import subprocess
import sys
import tempfile
import termios

from cases import Failure, case, expect, main


class Ctx:
    def __init__(self, tessera, data_dir):
        self.tessera = tessera
        self.data_dir = data_dir

    def data(self, name):
        return os.path.join(self.data_dir, name)

    def run(self, *args, env=None):
        environment = dict(os.environ)
        environment.pop("NO_COLOR", None)
        environment.update(env or {})
        return subprocess.run([self.tessera, "show", *args], capture_output=True, text=True,
                              env=environment, timeout=60)

    def picture(self, *args):
        done = self.run(*args)
        if done.returncode != 0 or done.stderr:
            raise Failure(f"exit {done.returncode}, stderr {done.stderr!r}")
        return done.stdout


def expect_usage_error(done, message):
    expect(done.returncode, 2, "exit status")
    expect(done.stdout, "", "stdout")
    expect(done.stderr, "tessera show: " + message + "\n", "stderr")


def lines(*rows):
    return "".join(row + "\n" for row in rows)


# ---------------------------------------------------------------- pictures


@case
def one_dimension_over_four_devices_is_a_row_of_four_boxes(ctx):
    # 37 columns inside the frame: 36 of them for 4 equal shards, 9 each.
    expect(ctx.picture("--mesh", "x=4", "--layout", "(x,)", "--shape", "1024", "--width", "42"),
           lines("tensor (1024,), layout (x,), mesh x=4, strict",
                 "┌─────────┬─────────┬─────────┬─────────┐",
                 "│  CPU 0  │  CPU 1  │  CPU 2  │  CPU 3  │",
                 "└─────────┴─────────┴─────────┴─────────┘"), "picture")


@case
def two_dimensions_over_a_2x4_mesh_is_a_2_by_4_grid(ctx):
    # 35 columns inside 40, 32 of them for 4 equal columns of boxes, as tall
    # as 32 * 512 / (1024 * 2.5) = 6.4 lines: 6, 3 per row.
    expect(ctx.picture("--mesh", "batch=2,model=4", "--layout", "(batch, model)",
                       "--shape", "512,1024", "--width", "40"),
           lines("tensor (512, 1024), layout (batch, model), mesh batch=2,model=4, strict",
                 "┌────────┬────────┬────────┬────────┐",
                 "│        │        │        │        │",
                 "│ CPU 0  │ CPU 1  │ CPU 2  │ CPU 3  │",
                 "│        │        │        │        │",
                 "├────────┼────────┼────────┼────────┤",
                 "│        │        │        │        │",
                 "│ CPU 4  │ CPU 5  │ CPU 6  │ CPU 7  │",
                 "│        │        │        │        │",
                 "└────────┴────────┴────────┴────────┘"), "picture")


@case
def replicated_tensor_is_one_box_labelled_with_every_device(ctx):
    expect(ctx.picture("--mesh", "x=4", "--layout", "(None,)", "--shape", "16", "--width", "30"),
           lines("tensor (16,), layout (None,), mesh x=4, strict",
                 "┌────────────────────────────┐",
                 "│        CPU 0,1,2,3         │",
                 "└────────────────────────────┘"), "picture")


@case
def partially_replicated_boxes_name_every_device_holding_them(ctx):
    # Rows are not split: each column block lives on one device per batch row.
    # A square tensor is 25 columns by 10 lines: 24 columns for 2 equal boxes.
    expect(ctx.picture("--mesh", "batch=2,model=2", "--layout", "(None, model)",
                       "--shape", "64,64", "--width", "80"),
           lines("tensor (64, 64), layout (None, model), mesh batch=2,model=2, strict",
                 "┌────────────┬────────────┐",
                 "│            │            │",
                 "│            │            │",
                 "│            │            │",
                 "│            │            │",
                 "│  CPU 0,2   │  CPU 1,3   │",
                 "│            │            │",
                 "│            │            │",
                 "│            │            │",
                 "│            │            │",
                 "│            │            │",
                 "└────────────┴────────────┘"), "picture")


@case
def uneven_chunk_flat_boxes_follow_the_shard_sizes(ctx):
    # 7 elements in chunks of 4 and 3: 37 columns split 21 : 16.
    expect(ctx.picture("--mesh", "x=2", "--layout", "(x,)", "--shape", "7",
                       "--shard-mode", "chunk-flat", "--width", "40"),
           lines("tensor (7,), layout (x,), mesh x=2, chunk-flat",
                 "┌─────────────────────┬────────────────┐",
                 "│        CPU 0        │     CPU 1      │",
                 "└─────────────────────┴────────────────┘"), "picture")


@case
def devices_with_empty_chunk_flat_shards_are_listed_below(ctx):
    # 3 elements over 4 devices in chunks of 1: device 3 holds [3, 3).
    expect(ctx.picture("--mesh", "x=4", "--layout", "(x,)", "--shape", "3",
                       "--shard-mode", "chunk-flat", "--width", "28"),
           lines("tensor (3,), layout (x,), mesh x=4, chunk-flat",
                 "┌────────┬────────┬────────┐",
                 "│ CPU 0  │ CPU 1  │ CPU 2  │",
                 "└────────┴────────┴────────┘",
                 "empty shards: CPU 3"), "picture")


@case
def chunk_nested_places_shards_as_pytorch_does(ctx):
    # shard.h's example: mesh (a=3, b=2), layout (('b', 'a'),), shape (7,):
    # devices 0 to 5 hold [0, 2), [4, 5), [2, 4), [5, 6), [6, 7), [7, 7).
    # 45 columns inside: the three 1-element boxes keep their labels' 7, the
    # two 2-element boxes share the other 24.
    expect(ctx.picture("--mesh", "a=3,b=2", "--layout", "((b, a),)", "--shape", "7",
                       "--shard-mode", "chunk-nested", "--width", "51"),
           lines("tensor (7,), layout ((b, a),), mesh a=3,b=2, chunk-nested",
                 "┌────────────┬────────────┬───────┬───────┬───────┐",
                 "│   CPU 0    │   CPU 2    │ CPU 1 │ CPU 3 │ CPU 4 │",
                 "└────────────┴────────────┴───────┴───────┴───────┘",
                 "empty shards: CPU 5"), "picture")


@case
def three_dimensions_draw_one_grid_per_leading_block(ctx):
    # Each block (2, 8, 40) is drawn as its (8, 40): 24 columns by
    # 24 * 8 / (40 * 2.5) = 1.92, so 2 lines.
    expect(ctx.picture("--mesh", "x=2,y=2", "--layout", "(x, None, y)", "--shape", "4,8,40",
                       "--width", "27"),
           lines("tensor (4, 8, 40), layout (x, None, y), mesh x=2,y=2, strict",
                 "[0:2, :, :]",
                 "┌────────────┬────────────┐",
                 "│   CPU 0    │   CPU 1    │",
                 "│            │            │",
                 "└────────────┴────────────┘",
                 "[2:4, :, :]",
                 "┌────────────┬────────────┐",
                 "│   CPU 2    │   CPU 3    │",
                 "│            │            │",
                 "└────────────┴────────────┘"), "picture")


@case
def a_dimension_over_two_axes_is_split_major_axis_first(ctx):
    expect(ctx.picture("--mesh", "a=2,b=2", "--layout", "((b, a),)", "--shape", "8",
                       "--width", "37"),
           lines("tensor (8,), layout ((b, a),), mesh a=2,b=2, strict",
                 "┌────────┬────────┬────────┬────────┐",
                 "│ CPU 0  │ CPU 2  │ CPU 1  │ CPU 3  │",
                 "└────────┴────────┴────────┴────────┘"), "picture")


@case
def a_scalar_is_one_box(ctx):
    expect(ctx.picture("--mesh", "x=2", "--layout", "()", "--shape", "()", "--width", "15"),
           lines("tensor (), layout (), mesh x=2, strict",
                 "┌─────────────┐",
                 "│   CPU 0,1   │",
                 "└─────────────┘"), "picture")


@case
def boxes_too_many_for_the_width_become_a_list(ctx):
    # 8 labels of 7 columns each need 65 columns.
    expect(ctx.picture("--mesh", "x=8", "--layout", "(x,)", "--shape", "16", "--width", "64"),
           lines("tensor (16,), layout (x,), mesh x=8, strict",
                 "(64 columns cannot fit the boxes' labels: the shards as a list)",
                 "  SHARD    DEVICES",
                 "  [0:2]    CPU 0",
                 "  [2:4]    CPU 1",
                 "  [4:6]    CPU 2",
                 "  [6:8]    CPU 3",
                 "  [8:10]   CPU 4",
                 "  [10:12]  CPU 5",
                 "  [12:14]  CPU 6",
                 "  [14:16]  CPU 7"), "picture")


@case
def width_defaults_to_80_columns_off_a_terminal(ctx):
    out = ctx.picture("--mesh", "x=2", "--layout", "(None,)", "--shape", "8")
    expect([len(line) for line in out.splitlines()[1:]], [80, 80, 80], "line widths")


# ---------------------------------------------------------------- where the layout and shape come from


@case
def rules_file_gives_the_layout_of_the_named_tensor(ctx):
    expect(ctx.picture("--mesh", "batch=2,model=2", "--rules", ctx.data("tiny_rules.txt"),
                       "--name", "dense_1/bias", "--shape", "8", "--width", "30"),
           lines(r"dense_1/bias (8,), layout (model,) from rule 'bias', mesh batch=2,model=2, strict",
                 "┌─────────────┬─────────────┐",
                 "│   CPU 0,2   │   CPU 1,3   │",
                 "└─────────────┴─────────────┘"), "picture")


@case
def a_name_no_rule_matches_is_replicated(ctx):
    out = ctx.picture("--mesh", "batch=2,model=2", "--rules", ctx.data("tiny_rules.txt"),
                      "--name", "step", "--shape", "4", "--width", "30")
    expect(out.splitlines()[0],
           "step (4,), layout (None,) (no rule: replicated), mesh batch=2,model=2, strict",
           "header")
    expect(out.splitlines()[2], "│        CPU 0,1,2,3         │", "one box")


@case
def full_match_needs_a_rule_to_cover_the_whole_name(ctx):
    # 'bias' matches inside 'dense_1/bias' (re.search) but not all of it.
    out = ctx.picture("--mesh", "batch=2,model=2", "--rules", ctx.data("tiny_rules.txt"),
                      "--match", "full", "--name", "dense_1/bias", "--shape", "8", "--width", "30")
    expect(out.splitlines()[0],
           "dense_1/bias (8,), layout (None,) (no rule: replicated), mesh batch=2,model=2, strict",
           "header")


def write_safetensors(path, tensors):
    """A safetensors file of zero-filled tensors: {name: (dtype, shape)}."""
    header, offset = {}, 0
    for name, (dtype, shape) in tensors.items():
        size = {"F32": 4, "BF16": 2}[dtype]
        for dim in shape:
            size *= dim
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [offset, offset + size]}
        offset += size
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + bytes(offset))


@case
def checkpoint_gives_the_shape_and_type_of_the_named_tensor(ctx):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "model.safetensors")
        write_safetensors(path, {"lm_head.weight": ("BF16", [4, 6]), "norm": ("F32", [6])})
        out = ctx.picture("--mesh", "model=2", "--layout", "(None, model)", "--checkpoint", path,
                          "--name", "lm_head.weight", "--width", "30")
    expect(out.splitlines()[0],
           "lm_head.weight BF16 (4, 6), layout (None, model), mesh model=2, strict", "header")


@case
def checkpoint_without_the_named_tensor_is_refused(ctx):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "model.safetensors")
        write_safetensors(path, {"norm": ("F32", [6])})
        done = ctx.run("--mesh", "model=2", "--layout", "(model,)", "--checkpoint", path,
                       "--name", "bias")
    expect_usage_error(done, "--name 'bias': No tensor named 'bias' in the checkpoint")


# ---------------------------------------------------------------- colour


def run_on_terminal(ctx, *args, env, columns=80):
    """stdout of `tessera show` on a pseudo-terminal `columns` wide."""
    environment = dict(os.environ)
    environment.pop("NO_COLOR", None)
    environment.update(env)
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    process = subprocess.Popen([ctx.tessera, "show", *args], stdout=follower,
                               stderr=subprocess.PIPE, env=environment)
    os.close(follower)
    out = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # EIO: the terminal's other side closed
            break
        if not chunk:
            break
        out += chunk
    process.wait(timeout=60)
    os.close(leader)
    return out.decode()


SHOW_TWO = ("--mesh", "x=2", "--layout", "(x,)", "--shape", "2", "--width", "20")
# tab20b's first and last colours (np.linspace(0, 1, 2)), white text on both
# (jax's rule: black only where the luminance is above 186).
TWO_COLOURED = ("│\x1b[38;2;255;255;255;48;2;57;59;121m CPU 0  \x1b[0m│"
                "\x1b[38;2;255;255;255;48;2;222;158;214m CPU 1  \x1b[0m│")


@case
def a_terminal_gets_boxes_in_jax_colours(ctx):
    out = run_on_terminal(ctx, *SHOW_TWO, env={})
    expect(out.splitlines()[2], TWO_COLOURED, "coloured row")


@case
def no_color_keeps_a_terminal_plain(ctx):
    out = run_on_terminal(ctx, *SHOW_TWO, env={"NO_COLOR": "1"})
    expect(out.splitlines()[2], "│ CPU 0  │ CPU 1  │", "plain row")


@case
def width_defaults_to_the_terminals(ctx):
    out = run_on_terminal(ctx, "--mesh", "x=2", "--layout", "(None,)", "--shape", "8",
                          env={"NO_COLOR": "1"}, columns=53)
    expect([len(line) for line in out.splitlines()[1:]], [53, 53, 53], "line widths")


@case
def color_always_colours_a_pipe(ctx):
    expect(ctx.picture(*SHOW_TWO, "--color", "always").splitlines()[2], TWO_COLOURED,
           "coloured row")


# ---------------------------------------------------------------- refusals


@case
def strict_mode_refuses_a_dimension_its_shards_do_not_divide(ctx):
    expect_usage_error(
        ctx.run("--mesh", "x=4", "--layout", "(x,)", "--shape", "10"),
        "Argument 'shape': the layout ('x',) implies that array axis 0 is partitioned 4 times, "
        "but the dimension size is 10 (full shape: (10,), per-dimension tiling factors: [4] "
        "should evenly divide the shape); expected divisible sizes in strict mode, or a chunk mode")


@case
def layout_of_another_rank_is_refused(ctx):
    expect_usage_error(ctx.run("--mesh", "x=4", "--layout", "(x, None)", "--shape", "12"),
                       "Argument 'shape' (12,) has rank 1; the layout ('x', None) expects rank 2")


@case
def mesh_is_required(ctx):
    expect_usage_error(ctx.run("--layout", "(x,)", "--shape", "4"),
                       "--mesh is required (e.g. --mesh model=4)")


@case
def layout_and_rules_together_are_refused(ctx):
    expect_usage_error(ctx.run("--mesh", "x=2", "--layout", "(x,)", "--rules",
                               ctx.data("tiny_rules.txt"), "--name", "a", "--shape", "4"),
                       "give the layout with exactly one of --layout and --rules")


@case
def unknown_shard_mode_is_refused(ctx):
    expect_usage_error(ctx.run("--mesh", "x=2", "--layout", "(x,)", "--shape", "4",
                               "--shard-mode", "chunk"),
                       "--shard-mode 'chunk': expected strict, chunk-flat or chunk-nested")


@case
def top_level_help_lists_show(ctx):
    done = subprocess.run([ctx.tessera, "--help"], capture_output=True, text=True, timeout=60)
    expect([l for l in done.stdout.splitlines() if l.startswith("  show")],
           ["  show        draw how one tensor is split over a device mesh"], "help line")


if __name__ == "__main__":
    sys.exit(main(sys.argv, __doc__, Ctx))
