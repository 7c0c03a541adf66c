#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
"""Specification of the `tessera` command, one behaviour per case (suite 'cli').

Usage:
  check_cli.py --list                     the case names, one per line (read by meson)
  check_cli.py TESSERA DATA_DIR CASE      runs one case; exit 0 when it passes

Table rows are compared cell by cell: cells are separated by two or more
spaces. TESSERA_CPU_DEVICE_COUNT is removed from the environment unless a case
sets it, so the default run always sees 1 real CPU device.
"""
import os
import re
import subprocess
import sys

import cases
from cases import Failure, case, expect

class Ctx:
    def __init__(self, tessera, data_dir):
        self.tessera = tessera
        self.data_dir = data_dir

    def data(self, name):
        return os.path.join(self.data_dir, name)

    def run(self, *args, env=None):
        environment = dict(os.environ)
        environment.pop("TESSERA_CPU_DEVICE_COUNT", None)
        environment.update(env or {})
        done = subprocess.run([self.tessera, *args], capture_output=True, text=True,
                              env=environment, timeout=60)
        return done

    def tiny(self, *extra, vars_file="tiny_vars.txt"):
        return self.run("plan", "--mesh", "batch=2,model=2", "--rules", self.data("tiny_rules.txt"),
                        "--vars", self.data(vars_file), *extra)



def cells(line):
    return re.split(r"\s{2,}", line.strip())


def row(stdout, first_cell):
    """The cells of the table row whose first cell is `first_cell`."""
    found = [cells(l) for l in stdout.splitlines() if l.startswith("  ") and cells(l)[0] == first_cell]
    if len(found) != 1:
        raise Failure(f"expected one row for {first_cell!r}, found {len(found)} in:\n{stdout}")
    return found[0]


def line_starting(stdout, prefix):
    found = [l for l in stdout.splitlines() if l.startswith(prefix)]
    if len(found) != 1:
        raise Failure(f"expected one line starting {prefix!r}, found {len(found)} in:\n{stdout}")
    return found[0]


def expect_usage_error(done, message):
    expect(done.returncode, 2, "exit status")
    expect(done.stdout, "", "stdout")
    expect(done.stderr, message + "\n", "stderr")


WTE_NOT_DIVISIBLE = ("Argument 'shape' (50257, 768) dimension 0 has size 50257, which is not "
                     "divisible by 4, the number of shards of mesh axes 'model'; expected a "
                     "multiple of 4 (or the chunk shape check)")

# ---------------------------------------------------------------- the default run


@case
def default_run_exits_1_because_a_variable_is_flagged(ctx):
    expect(ctx.run("plan").returncode, 1, "exit status")


@case
def default_run_flags_wte_rows_not_divisible_by_model_axis(ctx):
    expect(row(ctx.run("plan").stdout, "wte.weight"),
           ["wte.weight", r"wte\.weight", "(model, None)", "(50257, 768)", "(12565, 768)",
            "38,599,680", WTE_NOT_DIVISIBLE], "wte row")


@case
def default_run_counts_gpt2_small_parameters(ctx):
    expect(line_starting(ctx.run("plan").stdout, "summary:"),
           "summary: 148 variables, 124,439,808 parameters (497,759,232 bytes), 1 flagged",
           "summary")


@case
def default_run_prints_bytes_per_device_with_short_last_vocab_chunk(ctx):
    out = ctx.run("plan").stdout
    full, short = "126,971,904", "126,962,688"  # model=3 holds 12,562 of 50,257 wte rows
    expected = [["cpu:0", "batch=0 model=0", full, "121.09 MiB"],
                ["cpu:1", "batch=0 model=1", full, "121.09 MiB"],
                ["cpu:2", "batch=0 model=2", full, "121.09 MiB"],
                ["cpu:3", "batch=0 model=3", short, "121.08 MiB"],
                ["cpu:4", "batch=1 model=0", full, "121.09 MiB"],
                ["cpu:5", "batch=1 model=1", full, "121.09 MiB"],
                ["cpu:6", "batch=1 model=2", full, "121.09 MiB"],
                ["cpu:7", "batch=1 model=3", short, "121.08 MiB"]]
    expect([row(out, e[0]) for e in expected], expected, "per-device totals")


@case
def default_run_shards_attention_megatron_style(ctx):
    out = ctx.run("plan").stdout
    expect(row(out, "h.0.attn.c_attn.weight"),
           ["h.0.attn.c_attn.weight", r"attn\.c_attn\.weight", "(None, model)", "(768, 2304)",
            "(768, 576)", "1,769,472", "ok"], "column-parallel qkv")
    expect(row(out, "h.0.attn.c_proj.weight"),
           ["h.0.attn.c_proj.weight", r"c_proj\.weight", "(model, None)", "(768, 768)",
            "(192, 768)", "589,824", "ok"], "row-parallel output projection")


@case
def default_run_shards_mlp_megatron_style(ctx):
    out = ctx.run("plan").stdout
    expect(row(out, "h.11.mlp.c_fc.weight"),
           ["h.11.mlp.c_fc.weight", r"mlp\.c_fc\.weight", "(None, model)", "(768, 3072)",
            "(768, 768)", "2,359,296", "ok"], "column-parallel c_fc")
    expect(row(out, "h.11.mlp.c_fc.bias"),
           ["h.11.mlp.c_fc.bias", r"mlp\.c_fc\.bias", "(model,)", "(3072,)", "(768,)", "3,072",
            "ok"], "c_fc bias split with its columns")
    expect(row(out, "h.11.mlp.c_proj.weight"),
           ["h.11.mlp.c_proj.weight", r"c_proj\.weight", "(model, None)", "(3072, 768)",
            "(768, 768)", "2,359,296", "ok"], "row-parallel mlp c_proj")


@case
def default_run_replicates_variables_no_rule_matches(ctx):
    out = ctx.run("plan").stdout
    expect(row(out, "wpe.weight"),
           ["wpe.weight", "-", "(None, None)", "(1024, 768)", "(1024, 768)", "3,145,728", "ok"],
           "wpe")
    expect(row(out, "h.5.attn.c_proj.bias"),
           ["h.5.attn.c_proj.bias", "-", "(None,)", "(768,)", "(768,)", "3,072", "ok"],
           "attn c_proj bias")
    expect(row(out, "h.5.mlp.c_proj.bias"),
           ["h.5.mlp.c_proj.bias", "-", "(None,)", "(768,)", "(768,)", "3,072", "ok"],
           "mlp c_proj bias")


@case
def default_run_replicates_layer_norms_by_rule(ctx):
    expect(row(ctx.run("plan").stdout, "ln_f.bias"),
           ["ln_f.bias", r"ln_(1|2|f)\.(weight|bias)", "(None,)", "(768,)", "(768,)", "3,072",
            "ok"], "ln_f bias")


@case
def default_run_simulates_devices_the_process_lacks(ctx):
    out = ctx.run("plan").stdout
    expect(line_starting(out, "mesh:"),
           "mesh:      <DeviceMesh shape=(2, 4), axis_names=['batch', 'model']>", "mesh line")
    expect(line_starting(out, "devices:"), "devices:   cpu:0 .. cpu:7 (7 simulated)",
           "devices line")


@case
def devices_present_in_the_process_are_not_simulated(ctx):
    out = ctx.run("plan", env={"TESSERA_CPU_DEVICE_COUNT": "8"}).stdout
    expect(line_starting(out, "devices:"), "devices:   cpu:0 .. cpu:7", "devices line")


@case
def chunk_check_accepts_uneven_vocab_shards(ctx):
    done = ctx.run("plan", "--check", "chunk")
    expect(done.returncode, 0, "exit status")
    expect(row(done.stdout, "wte.weight")[-1], "ok", "wte fit")
    expect(line_starting(done.stdout, "summary:"),
           "summary: 148 variables, 124,439,808 parameters (497,759,232 bytes), 0 flagged",
           "summary")


@case
def full_match_needs_patterns_to_cover_the_whole_name(ctx):
    out = ctx.run("plan", "--match", "full").stdout
    expect(line_starting(out, "rules:"), "rules:     7 from built-in GPT-2 rules, re.fullmatch",
           "rules line")
    expect(row(out, "h.0.attn.c_attn.weight")[1:3], ["-", "(None, None)"], "c_attn under full")
    expect(row(out, "ln_f.weight")[1:3], [r"ln_(1|2|f)\.(weight|bias)", "(None,)"],
           "ln_f under full")


@case
def dtype_bytes_scale_shard_and_total_bytes(ctx):
    out = ctx.run("plan", "--dtype-bytes", "2").stdout
    expect(row(out, "wte.weight")[5], "19,299,840", "wte shard bytes")
    expect(line_starting(out, "summary:"),
           "summary: 148 variables, 124,439,808 parameters (248,879,616 bytes), 1 flagged",
           "summary")


@case
def mesh_of_one_axis_splits_vocab_eight_ways(ctx):
    out = ctx.run("plan", "--mesh", "model=8", "--check", "chunk").stdout
    expect(row(out, "wte.weight")[4], "(6283, 768)", "wte shard")
    # wte: 7 chunks of 6,283 rows, then 50,257 - 7 * 6,283 = 6,276 rows on model=7.
    expect(row(out, "cpu:0")[1:3], ["model=0", "65,174,016"], "cpu:0")
    expect(row(out, "cpu:7")[1:3], ["model=7", "65,152,512"], "cpu:7")


# ---------------------------------------------------------------- the tiny model


@case
def group_of_axes_splits_one_dimension_over_both(ctx):
    expect(row(ctx.tiny().stdout, "embed/embeddings"),
           ["embed/embeddings", "embed", "((batch, model), None)", "(10, 4)", "(3, 4)", "48",
            "Argument 'shape' (10, 4) dimension 0 has size 10, which is not divisible by 4, the "
            "number of shards of mesh axes ('batch', 'model'); expected a multiple of 4 (or the "
            "chunk shape check)"], "embed row")


@case
def exact_name_wins_over_a_matching_pattern(ctx):
    expect(row(ctx.tiny().stdout, "dense_2/kernel"),
           ["dense_2/kernel", "dense_2/kernel", "(model, None)", "(6, 4)", "(3, 4)", "48", "ok"],
           "dense_2 row")


@case
def pattern_matches_anywhere_in_the_name(ctx):
    expect(row(ctx.tiny().stdout, "dense_1/kernel"),
           ["dense_1/kernel", "dense.*kernel", "(None, model)", "(4, 6)", "(4, 3)", "48", "ok"],
           "dense_1 row")


@case
def rank_mismatch_is_flagged_and_not_placeable(ctx):
    expect(row(ctx.tiny().stdout, "norm/gamma"),
           ["norm/gamma", "norm", "(None,)", "(4, 4)", "-", "-",
            "Argument 'shape' (4, 4) has rank 2; the layout (None,) expects rank 1"], "norm row")


@case
def several_matching_rules_are_flagged(ctx):
    expect(row(ctx.tiny().stdout, "dense_norm/bias"),
           ["dense_norm/bias", "(several)", "-", "(4,)", "-", "-",
            "Path 'dense_norm/bias' matches multiple layout specification keys: ['bias', 'norm']."
            " Please make sure each tensor/variable path only matches at most one layout "
            "specification key in the LayoutMap."], "dense_norm row")


@case
def scalar_without_rule_is_replicated(ctx):
    expect(row(ctx.tiny().stdout, "step"), ["step", "-", "()", "()", "()", "4", "ok"], "step row")


@case
def per_device_totals_use_ceil_chunks_with_a_short_last_one(ctx):
    # embed 10 rows over 4 chunks: 3, 3, 3, 1; dense_1/bias 5 over 2: 3, 2; the two
    # unplaceable variables (16 + 4 elements) count as replicated.
    out = ctx.tiny().stdout
    expect([row(out, d)[:3] for d in ("cpu:0", "cpu:1", "cpu:2", "cpu:3")],
           [["cpu:0", "batch=0 model=0", "240"], ["cpu:1", "batch=0 model=1", "236"],
            ["cpu:2", "batch=1 model=0", "240"], ["cpu:3", "batch=1 model=1", "204"]], "totals")


@case
def summary_counts_flagged_and_unplaceable_variables(ctx):
    done = ctx.tiny()
    expect(done.returncode, 1, "exit status")
    expect(line_starting(done.stdout, "summary:"),
           "summary: 7 variables, 114 parameters (456 bytes), 4 flagged, "
           "2 not placeable (counted as replicated)", "summary")


@case
def chunk_check_still_flags_rank_mismatch_and_ambiguity(ctx):
    expect(line_starting(ctx.tiny("--check", "chunk").stdout, "summary:"),
           "summary: 7 variables, 114 parameters (456 bytes), 2 flagged, "
           "2 not placeable (counted as replicated)", "summary")


@case
def all_variables_fitting_exit_0(ctx):
    done = ctx.tiny(vars_file="fitting_vars.txt")
    expect(done.returncode, 0, "exit status")
    expect(line_starting(done.stdout, "summary:"),
           "summary: 3 variables, 49 parameters (196 bytes), 0 flagged", "summary")


@case
def mesh_axis_order_sets_device_coordinates(ctx):
    out = ctx.run("plan", "--mesh", "model=2,batch=2", "--rules", ctx.data("tiny_rules.txt"),
                  "--vars", ctx.data("fitting_vars.txt")).stdout
    expect(row(out, "cpu:1")[1], "model=0 batch=1", "cpu:1 coordinates")


# ---------------------------------------------------------------- bad input


@case
def missing_rules_file_is_a_usage_error(ctx):
    path = ctx.data("no_such_rules.txt")
    expect_usage_error(ctx.run("plan", "--rules", path),
                       f"tessera plan: --rules '{path}': cannot read: No such file or directory")


@case
def directory_as_rules_file_is_a_usage_error(ctx):
    expect_usage_error(ctx.run("plan", "--rules", ctx.data_dir),
                       f"tessera plan: --rules '{ctx.data_dir}': cannot read: Is a directory")


@case
def missing_vars_file_is_a_usage_error(ctx):
    path = ctx.data("no_such_vars.txt")
    expect_usage_error(ctx.run("plan", f"--vars={path}"),
                       f"tessera plan: --vars '{path}': cannot read: No such file or directory")


@case
def rule_without_arrow_names_file_and_line(ctx):
    path = ctx.data("rules_no_arrow.txt")
    expect_usage_error(ctx.run("plan", "--rules", path),
                       f"tessera plan: {path}:3: expected 'pattern -> axes', found no '->' in "
                       "'dense bias (model,)'")


@case
def unclosed_axes_tuple_names_file_and_line(ctx):
    path = ctx.data("rules_bad_axes.txt")
    expect_usage_error(ctx.run("plan", "--rules", path),
                       f"tessera plan: {path}:1: axes '(None, model': expected ')' at the end")


@case
def one_entry_tuple_needs_trailing_comma(ctx):
    path = ctx.data("rules_one_entry_without_comma.txt")
    expect_usage_error(ctx.run("plan", "--rules", path),
                       f"tessera plan: {path}:1: axes '(model)': a one-entry tuple needs a "
                       "trailing comma, as in (model,)")


@case
def unknown_axis_names_file_line_and_axis(ctx):
    path = ctx.data("rules_unknown_axis.txt")
    expect_usage_error(ctx.run("plan", "--rules", path),
                       f"tessera plan: {path}:2: rule 'experts': Invalid axis names for Layout. "
                       "Valid axis names: {'batch', 'model'}, Got {'expert'}")


@case
def invalid_pattern_names_file_line_and_pattern(ctx):
    path = ctx.data("rules_invalid_pattern.txt")
    expect_usage_error(ctx.run("plan", "--rules", path),
                       f"tessera plan: {path}:1: rule 'dense[': Argument 'key' 'dense[' is not a "
                       "valid Python regular expression: unterminated character set at position 5")


@case
def duplicate_rule_names_the_second_line(ctx):
    path = ctx.data("rules_duplicate_key.txt")
    done = ctx.run("plan", "--rules", path)
    expect(done.returncode, 2, "exit status")
    prefix = f"tessera plan: {path}:3: rule 'bias': bias already exist in the LayoutMap"
    expect(done.stderr[:len(prefix)], prefix, "stderr")


@case
def variable_with_bad_size_names_file_and_line(ctx):
    path = ctx.data("vars_bad_size.txt")
    expect_usage_error(ctx.run("plan", "--vars", path),
                       f"tessera plan: {path}:2: shape 'four': 'four' is not a size (a whole "
                       "number >= 0 that fits in int64)")


@case
def variable_without_shape_names_file_and_line(ctx):
    path = ctx.data("vars_no_shape.txt")
    expect_usage_error(ctx.run("plan", "--vars", path),
                       f"tessera plan: {path}:1: expected 'name shape', found only 'dense/kernel'")


@case
def duplicate_variable_names_both_lines(ctx):
    path = ctx.data("vars_duplicate.txt")
    expect_usage_error(ctx.run("plan", "--vars", path),
                       f"tessera plan: {path}:3: variable 'dense/kernel' already defined on line 1")


@case
def mesh_size_zero_is_rejected(ctx):
    expect_usage_error(ctx.run("plan", "--mesh", "batch=0"),
                       "tessera plan: --mesh 'batch=0': size '0' of axis 'batch' is not a whole "
                       "number >= 1")


@case
def mesh_entry_without_size_is_rejected(ctx):
    expect_usage_error(ctx.run("plan", "--mesh", "batch=2,model"),
                       "tessera plan: --mesh 'batch=2,model': 'model' is not AXIS=SIZE")


@case
def mesh_axis_named_twice_is_rejected(ctx):
    expect_usage_error(ctx.run("plan", "--mesh", "a=2,a=2"),
                       "tessera plan: --mesh 'a=2,a=2': Argument 'axis_names' ['a', 'a'] names "
                       "axis 'a' twice (entries 0 and 1); expected distinct names")


@case
def mesh_over_a_million_devices_is_rejected(ctx):
    expect_usage_error(ctx.run("plan", "--mesh", "a=1024,b=1025"),
                       "tessera plan: --mesh 'a=1024,b=1025': more than 1048576 devices")


@case
def unknown_axis_in_default_rules_on_another_mesh(ctx):
    expect_usage_error(ctx.run("plan", "--mesh", "data=8"),
                       "tessera plan: built-in GPT-2 rules:4: rule 'wte\\.weight': Invalid axis "
                       "names for Layout. Valid axis names: {'data'}, Got {'model'}")


@case
def dtype_bytes_out_of_range_is_rejected(ctx):
    expect_usage_error(ctx.run("plan", "--dtype-bytes", "0"),
                       "tessera plan: --dtype-bytes '0': expected a whole number from 1 to 1024")


@case
def unknown_match_mode_is_rejected(ctx):
    expect_usage_error(ctx.run("plan", "--match", "regex"),
                       "tessera plan: --match 'regex': expected 'search' or 'full'")


@case
def unknown_check_mode_is_rejected(ctx):
    expect_usage_error(ctx.run("plan", "--check=loose"),
                       "tessera plan: --check 'loose': expected 'strict' or 'chunk'")


@case
def unknown_option_is_rejected(ctx):
    expect_usage_error(ctx.run("plan", "--mesh-shape", "2,4"),
                       "tessera plan: unknown option '--mesh-shape' (see 'tessera plan --help')")


@case
def option_without_value_is_rejected(ctx):
    expect_usage_error(ctx.run("plan", "--rules"), "tessera plan: option '--rules' needs a value")


@case
def positional_argument_is_rejected(ctx):
    expect_usage_error(ctx.run("plan", "gpt2"),
                       "tessera plan: unexpected argument 'gpt2' (see 'tessera plan --help')")


# ---------------------------------------------------------------- help and version


@case
def plan_help_documents_exit_status(ctx):
    done = ctx.run("plan", "--help")
    expect(done.returncode, 0, "exit status")
    expect(done.stdout.splitlines()[0], "Usage: tessera plan [options]", "first line")
    expect("Exit status: 0 when every variable fits, 1 when some are flagged, 2 for bad\n"
           "usage or input." in done.stdout, True, "exit status documented")


@case
def help_lists_the_plan_command(ctx):
    done = ctx.run("--help")
    expect(done.returncode, 0, "exit status")
    expect(line_starting(done.stdout, "  plan"),
           "  plan        show how a model's variables are split over a device mesh", "plan line")


@case
def version_prints_the_library_version(ctx):
    done = ctx.run("--version")
    expect(done.returncode, 0, "exit status")
    expect(done.stdout, f"tessera {os.environ['TESSERA_EXPECTED_VERSION']}\n", "stdout")


@case
def no_command_prints_usage_to_stderr(ctx):
    done = ctx.run()
    expect(done.returncode, 2, "exit status")
    expect(done.stderr.splitlines()[0], "Usage: tessera <command> [options]", "first line")


@case
def unknown_command_is_rejected(ctx):
    expect_usage_error(ctx.run("deploy"),
                       "tessera: unknown command 'deploy' (see 'tessera --help')")

# ------------------------------------------------- checkpoints and memory (issue 12)
#
# A small Llama-like model written per case into a fresh directory, headers
# and zero data: embed (64, 32) BF16, k_proj (16, 32) BF16, q_proj (32, 32)
# BF16, norm (32,) F32, with a config.json (1 layer, 4 heads, 2 KV heads,
# hidden size 32: head_dim 8). With the rules below on batch=2,model=4 each
# device holds 1,024 + 256 + 512 + 128 = 1,920 bytes of weights.

MODEL_TENSORS = [("model.embed_tokens.weight", "BF16", [64, 32]),
                 ("model.layers.0.self_attn.k_proj.weight", "BF16", [16, 32]),
                 ("model.layers.0.self_attn.q_proj.weight", "BF16", [32, 32]),
                 ("model.norm.weight", "F32", [32])]
MODEL_RULES = "embed_tokens -> (model, None)\nk_proj -> (model, None)\nq_proj -> (model, None)\n"


def write_model(directory):
    import json
    import struct
    header, offset = {}, 0
    for name, dtype, shape in MODEL_TENSORS:
        size = {"BF16": 2, "F32": 4}[dtype]
        for dim in shape:
            size *= dim
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [offset, offset + size]}
        offset += size
    text = json.dumps(header).encode()
    path = os.path.join(directory, "model.safetensors")
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + bytes(offset))
    with open(os.path.join(directory, "config.json"), "w") as f:
        json.dump({"num_hidden_layers": 1, "num_attention_heads": 4, "num_key_value_heads": 2,
                   "hidden_size": 32}, f)
    rules = os.path.join(directory, "rules.txt")
    with open(rules, "w") as f:
        f.write(MODEL_RULES)
    return path, rules


def plan_model(ctx, *extra):
    import tempfile
    with tempfile.TemporaryDirectory() as directory:
        model, rules = write_model(directory)
        extra = [a.replace("{dir}", directory) for a in extra]
        return ctx.run("plan", "--checkpoint", model, "--rules", rules, *extra), directory


@case
def checkpoint_rows_show_dtype_rule_layout_and_largest_shard(ctx):
    done, _ = plan_model(ctx)
    expect(done.returncode, 0, "exit status")
    expect(row(done.stdout, "model.layers.0.self_attn.k_proj.weight"),
           ["model.layers.0.self_attn.k_proj.weight", "BF16", "k_proj", "(model, None)", "(16, 32)", "(4, 32)",
            "256", "ok"], "k_proj row")
    expect(row(done.stdout, "model.norm.weight"),
           ["model.norm.weight", "F32", "-", "(None,)", "(32,)", "(32,)", "128", "ok"], "norm row")


@case
def checkpoint_kv_cache_comes_from_config_json_and_splits_over_batch(ctx):
    done, _ = plan_model(ctx, "--batch", "2", "--seq-len", "8")
    # 2 x 1 layer x 2 x 8 x 2 KV heads x 8 x 2 bytes = 1,024, batch over 'batch' (2);
    # 2 KV heads do not divide over model (4).
    expect(row(done.stdout, "cpu:5"), ["cpu:5", "batch=1 model=1", "1,920", "512", "2,432", "-", "-", "-"],
           "cpu:5 terms")
    expect(line_starting(done.stdout, "kv cache:"),
           "kv cache:  batch 2 over 'batch' (2); 2 KV heads not split (the axes of "
           "'model.layers.0.self_attn.k_proj.weight' have 4 shards, which do not divide them); "
           "replicated over the other axes", "kv cache line")


@case
def checkpoint_training_shows_each_term_and_exits_1_when_a_device_does_not_fit(ctx):
    done, _ = plan_model(ctx, "--recipe", "training", "--capacity", "14KiB")
    expect(done.returncode, 1, "exit status")
    # 928 elements per device: Adam 8 bytes each; 896 BF16 elements: 4-byte masters.
    expect(row(done.stdout, "cpu:0"),
           ["cpu:0", "batch=0 model=0", "1,920", "1,920", "7,424", "3,584", "14,848", "14,336", "-512",
            "does not fit"], "cpu:0 terms")
    expect(line_starting(done.stdout, "summary:"),
           "summary: 4 variables, 3,616 parameters (7,296 bytes), 0 flagged, 8 of 8 devices do not fit", "summary")


@case
def checkpoint_dtype_plans_a_cast(ctx):
    done, _ = plan_model(ctx, "--dtype", "int8")
    expect(row(done.stdout, "model.norm.weight")[1:2], ["I8"], "norm dtype")
    expect(row(done.stdout, "cpu:0")[2], "928", "cpu:0 bytes")  # one byte per element


@case
def inventory_gives_mixed_devices_their_own_capacity(ctx):
    import tempfile
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("# device size\n" + "".join(f"cpu:{i} 2KiB\n" for i in range(7)) + "cpu:7 1000\n")
    try:
        done, _ = plan_model(ctx, "--inventory", f.name)
    finally:
        os.unlink(f.name)
    expect(done.returncode, 1, "exit status")
    expect(row(done.stdout, "cpu:6")[-3:], ["2,048", "128", "fits"], "cpu:6")
    expect(row(done.stdout, "cpu:7")[-3:], ["1,000", "-920", "does not fit"], "cpu:7")


@case
def inventory_missing_a_device_names_it(ctx):
    import tempfile
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("".join(f"gpu:{i} 80GiB\n" for i in range(7)))
    try:
        done, _ = plan_model(ctx, "--inventory", f.name)
    finally:
        os.unlink(f.name)
    expect_usage_error(done, f"tessera plan: {f.name}: device 7 is not listed; expected one line for each of "
                             "8 devices")


@case
def capacity_needs_a_size(ctx):
    expect_usage_error(ctx.run("plan", "--capacity", "80 gigs"),
                       "tessera plan: --capacity '80 gigs': expected a size such as 80GiB, 40GB or 1000000 "
                       "(bytes)")


@case
def capacity_applies_to_the_built_in_model(ctx):
    done = ctx.run("plan", "--capacity", "1GB")
    expect(row(done.stdout, "cpu:3")[-4:], ["126,962,688", "1,000,000,000", "873,037,312", "fits"], "cpu:3")


@case
def memory_options_need_a_checkpoint(ctx):
    expect_usage_error(ctx.run("plan", "--batch", "4"),
                       "tessera plan: --recipe, --batch, --seq-len, --attention, --dtype, --kv-dtype, "
                       "--shard-mode and --search need --checkpoint (the built-in model and --vars plan "
                       "weights only)")


@case
def search_ranks_fitting_meshes_and_says_why_the_others_fail(ctx):
    done, _ = plan_model(ctx, "--search", "8", "--axes", "data,model", "--capacity", "2500")
    expect(done.returncode, 0, "exit status")
    expect(row(done.stdout, "1")[1:4], ["data=1,model=8", row(done.stdout, "1")[2], "1,024"], "rank 1")
    expect(row(done.stdout, "2")[1], "data=2,model=4", "rank 2")
    rejected = [cells(l) for l in done.stdout.splitlines() if l.startswith("     -")]
    expect([r[1] for r in rejected], ["data=4,model=2", "data=8,model=1"], "rejected in enumeration order")
    expect(rejected[0][-1], "device 0: peak 3712 bytes exceeds its capacity 2500 by 1212 (largest term: "
                            "weights 3712 bytes)", "reason")


@case
def search_exits_1_when_no_mesh_fits(ctx):
    done, _ = plan_model(ctx, "--search", "8", "--axes", "data,model", "--capacity", "100")
    expect(done.returncode, 1, "exit status")
    expect(line_starting(done.stdout, "summary:"), "summary: 0 of 4 candidates fit", "summary")


@case
def json_has_the_documented_fields(ctx):
    import json
    done, _ = plan_model(ctx, "--json", "--batch", "2", "--seq-len", "8", "--capacity", "4KiB")
    plan = json.loads(done.stdout)
    expect(plan["schema"], "tessera.plan/1", "schema")
    expect(plan["terms"], ["weights", "kv_cache"], "terms")
    expect(plan["variables"][1], {
        "name": "model.layers.0.self_attn.k_proj.weight", "dtype": "BF16", "shape": [16, 32], "rule": "k_proj",
        "layout": "(model, None)", "layout_axes": [["model"], []], "shard_shape": [4, 32], "shard_bytes": 256,
        "fit": "ok", "flagged": False}, "k_proj")
    expect(plan["devices"][7], {
        "device": "cpu:7", "coordinates": "batch=1 model=3", "bytes": 1920,
        "terms": {"weights": 1920, "kv_cache": 512}, "peak_bytes": 2432, "capacity_bytes": 4096,
        "headroom_bytes": 1664, "verdict": "fits"}, "cpu:7")
    expect(plan["summary"], {"variables": 4, "parameters": 3616, "bytes": 7296, "flagged": 0,
                             "devices_not_fitting": 0}, "summary")


@case
def json_of_the_default_run_has_the_text_totals(ctx):
    import json
    plan = json.loads(ctx.run("plan", "--json").stdout)
    expect([d["bytes"] for d in plan["devices"]][:4], [126971904, 126971904, 126971904, 126962688], "bytes")
    expect(plan["variables"][0]["shard_shape"], [12565, 768], "wte shard")


@case
def gguf_metadata_sizes_the_kv_cache(ctx):
    import struct
    import tempfile

    def text(value):
        return struct.pack("<Q", len(value)) + value.encode()

    kvs = [("general.architecture", 8, text("llama")), ("llama.block_count", 4, struct.pack("<I", 2)),
           ("llama.attention.head_count", 4, struct.pack("<I", 8)),
           ("llama.attention.head_count_kv", 4, struct.pack("<I", 4)),
           ("llama.embedding_length", 4, struct.pack("<I", 64))]
    head = b"GGUF" + struct.pack("<IQQ", 3, 1, len(kvs))
    for key, kind, value in kvs:
        head += text(key) + struct.pack("<I", kind) + value
    # blk.0.attn_k.weight: F16, GGUF dimensions (64, 32) innermost first: shape (32, 64).
    head += text("blk.0.attn_k.weight") + struct.pack("<IQQIQ", 2, 64, 32, 1, 0)
    head += bytes(-len(head) % 32)
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "m.gguf")
        with open(path, "wb") as f:
            f.write(head + bytes(64 * 32 * 2))
        with open(os.path.join(directory, "rules.txt"), "w") as f:
            f.write("attn_k -> (model, None)\n")
        done = ctx.run("plan", "--checkpoint", path, "--rules", os.path.join(directory, "rules.txt"),
                       "--batch", "2", "--seq-len", "16")
    # 2 x 2 layers x 2 x 16 x 4 KV heads x 8 x 2 bytes = 8,192; batch 2 over 'batch', heads over model 4.
    expect(row(done.stdout, "cpu:0")[2:5], ["1,024", "1,024", "2,048"], "cpu:0 weights, kv_cache, peak")


@case
def every_command_refuses_an_unknown_shard_mode_in_the_same_words(ctx):
    for command in ("load", "reshard", "show", "plan"):
        expect_usage_error(ctx.run(command, "--shard-mode", "chunk"),
                           f"tessera {command}: --shard-mode 'chunk': expected strict, chunk-flat or chunk-nested")


def main(argv):
    return cases.main(argv, __doc__, Ctx)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
