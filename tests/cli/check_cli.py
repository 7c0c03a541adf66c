#!/usr/bin/env python3
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

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


class Failure(Exception):
    pass


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


def expect(actual, expected, what):
    if actual != expected:
        raise Failure(f"{what}:\n  expected: {expected!r}\n  actual:   {actual!r}")


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


def main(argv):
    if argv[1:] == ["--list"]:
        print("\n".join(CASES))
        return 0
    if len(argv) != 4 or argv[3] not in CASES:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        CASES[argv[3]](Ctx(argv[1], argv[2]))
    except Failure as e:
        print(f"FAIL {argv[3]}: {e}", file=sys.stderr)
        return 1
    print(f"ok {argv[3]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
