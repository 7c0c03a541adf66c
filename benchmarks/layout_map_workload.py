#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
"""Layout-map rules and variable paths shared by every layout-map benchmark.

One generator, so that the Google Benchmark programs, the C comparison program
and Keras all see the same rules and paths. The model is a Gemma-like decoder
named the Keras way ("decoder_block_3/attention/query/kernel"):

  rules_10.txt    the usual rule set: one literal key plus 9 patterns that
                  apply to every block (Keras-hub style);
  rules_N.txt     per-block rule sets (N = 1 + 9 x blocks): the same 9 patterns
                  spelled out for each block, as a map with per-layer overrides;
  probes_N.txt    for each set: "exact PATH" (a key equal to the path), "regex
                  PATH" (exactly one pattern matches), "none PATH" (no match);
  paths.txt       --paths paths drawn at random (fixed seed) over 111 blocks:
                  about 5% the literal key, 10% names no rule matches, 85%
                  block variables, each matching exactly one rule of
                  rules_10.txt and of rules_1000.txt under re.search;
  distinct_paths.txt
                  --distinct different paths ("model_7/decoder_block_3/..."),
                  the same mix without the literal key, in random order: what
                  a lookup costs on a path it has not seen lately (Tessera
                  remembers up to 16,384 recent answers per map).

Every file is one item per line. The script checks each claim above with
Python's re.search before writing, and prints how the paths fall per set.

Usage: layout_map_workload.py --out DIR [--paths N] [--distinct N] [--seed S]
"""
import argparse
import collections
import os
import random
import re
import sys

BLOCKS = 111  # rules_1000.txt covers blocks 0..110
LITERAL = "token_embedding/embeddings"
# The 9 per-block patterns. Each is a real pattern ('|' or '$'), never equal
# to a path, so block variables exercise the regex path, not the exact key.
PATTERNS = [
    "attention/(query|key|value)/kernel",
    "attention/(query|key|value)/bias",
    "attention/attention_output/kernel$",
    "attention/attention_output/bias$",
    "ffw_gating/kernel$",
    "ffw_gating_2/kernel$",
    "ffw_linear/kernel$",
    "pre_attention_norm/scale$",
    "pre_ffw_norm/scale$",
]
# Variables of one block that some pattern matches, and some that none does.
MATCHED = [
    "attention/query/kernel", "attention/key/kernel", "attention/value/kernel",
    "attention/query/bias", "attention/key/bias", "attention/value/bias",
    "attention/attention_output/kernel", "attention/attention_output/bias",
    "ffw_gating/kernel", "ffw_gating_2/kernel", "ffw_linear/kernel",
    "pre_attention_norm/scale", "pre_ffw_norm/scale",
]
UNMATCHED = ["ffw_linear/bias", "ffw_gating/bias", "attention/rotary/inverse_freq"]
SIZES = (10, 100, 1000)


def rules(size):
    if size == 10:
        return [LITERAL] + PATTERNS
    blocks, rest = divmod(size - 1, len(PATTERNS))
    assert rest == 0 and blocks <= BLOCKS, size
    return [LITERAL] + [f"decoder_block_{b}/{p}" for b in range(blocks) for p in PATTERNS]


def block(b, name):
    return f"decoder_block_{b}/{name}"


def probes(size):
    last = BLOCKS - 1 if size == 10 else (size - 1) // len(PATTERNS) - 1
    return [("exact", LITERAL), ("regex", block(last, "attention/value/kernel")),
            ("none", block(last, "ffw_linear/bias"))]


def draw_paths(count, seed):
    rng = random.Random(seed)
    paths = []
    for _ in range(count):
        roll = rng.random()
        if roll < 0.05:
            paths.append(LITERAL)
        elif roll < 0.15:
            paths.append(block(rng.randrange(BLOCKS), rng.choice(UNMATCHED)))
        else:
            paths.append(block(rng.randrange(BLOCKS), rng.choice(MATCHED)))
    return paths


def draw_distinct(count, seed):
    """`count` different block paths under model_<k>/ prefixes, shuffled."""
    names = MATCHED + UNMATCHED
    models = -(-count // (BLOCKS * len(names)))
    paths = [f"model_{k}/" + block(b, name)
             for k in range(models) for b in range(BLOCKS) for name in names][:count]
    random.Random(seed).shuffle(paths)
    return paths


def classify(keys, compiled, path):
    """Keras's LayoutMap.__getitem__ (3.0-3.13): exact key, else re.search."""
    if path in keys:
        return "exact"
    hits = sum(1 for pattern in compiled if pattern.search(path))
    return {0: "none", 1: "regex"}.get(hits, "several")


def check(size, keys, paths):
    compiled = [re.compile(k) for k in keys]
    key_set = set(keys)
    for kind, path in probes(size):
        got = classify(key_set, compiled, path)
        assert got == kind, f"rules_{size}: probe {path!r} is {got}, expected {kind}"
    counts = collections.Counter(classify(key_set, compiled, p) for p in set(paths))
    assert counts["several"] == 0, f"rules_{size}: some paths match several rules"
    return counts


def write_lines(directory, name, lines):
    with open(os.path.join(directory, name), "w") as f:
        f.write("".join(line + "\n" for line in lines))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--paths", type=int, default=100000)
    parser.add_argument("--distinct", type=int, default=40000)
    parser.add_argument("--seed", type=int, default=20231018)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    paths = draw_paths(args.paths, args.seed)
    distinct = draw_distinct(args.distinct, args.seed)
    for size in SIZES:
        keys = rules(size)
        assert len(keys) == size and len(set(keys)) == size
        counts = check(size, keys, paths + distinct)
        write_lines(args.out, f"rules_{size}.txt", keys)
        write_lines(args.out, f"probes_{size}.txt", [f"{k} {p}" for k, p in probes(size)])
        if paths:
            print(f"rules_{size}: distinct paths by outcome: {dict(sorted(counts.items()))}")
    if paths:
        write_lines(args.out, "paths.txt", paths)
    if distinct:
        write_lines(args.out, "distinct_paths.txt", distinct)
    return 0


if __name__ == "__main__":
    sys.exit(main())
