#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
"""The vocabulary test: every public declaration follows the naming rules that
<tessera/tessera.h> writes down ("Vocabulary"). Prints each violation as
`header: rule: name` and, with --summary, the count per rule; exits 1 when
there is any.

  usage: check_vocabulary.py [--summary] HEADER...
"""
import argparse
import collections
import re
import sys

# The nouns a function name may start with (tessera_<noun>_...), longest first
# when matched. A new kind of handle adds its noun here.
NOUNS = sorted("""
    buffer client kv_list event error cluster_options detection runtime
    coordinator copy_options sharding device device_list platform local_devices
    distribution_options distribution dataset_plan mesh dtensor_mesh layout
    layout_map log reshard_plan code version xla
    dtensor_config
    dtensor_layout
    hlo_sharding
    interleave keras_initialize_options keras_initialize
    checkpoint
    read_options read_plan
    job_status
    save_options
    restore_request restore_plan
""".split(), key=len, reverse=True)

# Functions whose _size is a byte count, the one meaning _size keeps.
BYTE_SIZES = {"tessera_buffer_size", "tessera_sharding_shard_size",
              "tessera_checkpoint_file_size", "tessera_checkpoint_tensor_block_size",
              "tessera_checkpoint_tensor_size"}
BYTE_SIZES |= {"tessera_read_plan_piece_size"}
BYTE_SIZES |= {"tessera_save_options_set_chunk_size"}
# PyTorch's get_local_rank: a rank there is a position along an axis, not a count.
POSITION_RANKS = {"tessera_mesh_local_rank"}

FUNC_RE = re.compile(r"TESSERA_API\b([^;{]*?)\b(tessera_\w+)\s*\(([^;]*?)\)\s*TESSERA_NOEXCEPT", re.S)
ENUM_RE = re.compile(r"\}\s*(tessera_\w+)\s*;")
CALLBACK_RE = re.compile(r"typedef[^;]*?\(\s*\*\s*(tessera_\w+)\s*\)")


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def name_rules(name):
    """The rules `name` (a function) breaks."""
    broken = []
    rest = name[len("tessera_"):]
    if not any(rest == n or rest.startswith(n + "_") for n in NOUNS):
        broken.append("noun_verb (no known noun first)")
    words = rest.split("_")
    if "count" in words:
        broken.append("how many is num_<things>, not _count")
    if "rank" in words and name not in POSITION_RANKS:
        broken.append("how many is num_<things>, not rank")
    if "size" in words and name not in BYTE_SIZES:
        broken.append("_size means bytes only")
    if words[-1] == "of":
        broken.append("no _of accessors")
    if "get" in words:
        broken.append("_get is ambiguous: index accessor, _lookup or _wait")
    if "delete" in words:
        broken.append("_remove, not _delete")
    if words[-1] == "s":
        broken.append("durations are _ms")
    if "id" in words and "process" in words:
        broken.append("process_index, not process_id")
    if "callback" in words and not name.endswith("_set_callback") and not name.endswith("_set_event_callback"):
        broken.append("callback types end in _fn")
    return broken


def parameter_rules(params):
    broken = []
    for param in params.split(","):
        match = re.search(r"(\w+)\s*(\[\s*\])?\s*$", param.strip())
        if not match:
            continue
        pname = match.group(1)
        if pname == "count" or pname.endswith("_count"):
            broken.append(f"count parameter '{pname}' is num_<things>")
        if pname.endswith("_s") or pname in ("seconds", "timeout"):
            broken.append(f"duration parameter '{pname}' is _ms")
        if pname == "process_id":
            broken.append("process parameter 'process_id' is process_index")
    return broken


def check(headers):
    found = []
    for header in headers:
        with open(header, encoding="utf-8") as f:
            raw = f.read()
        if "/_mc/" in raw:
            found.append((header, "the reserved key prefix is /_tessera/", "/_mc/"))
        text = strip_comments(raw)
        for _ret, name, params in FUNC_RE.findall(text):
            for rule in name_rules(name) + parameter_rules(params):
                found.append((header, rule, name))
        for enum in ENUM_RE.findall(text):
            if not enum.endswith("_t"):
                found.append((header, "enum types end in _t", enum))
        for callback in CALLBACK_RE.findall(text):
            if not callback.endswith("_fn"):
                found.append((header, "callback types end in _fn", callback))
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--summary", action="store_true")
    parser.add_argument("headers", nargs="+")
    args = parser.parse_args()
    found = check(args.headers)
    for header, rule, name in found:
        print(f"{header}: {rule}: {name}")
    if args.summary:
        for rule, n in collections.Counter(rule.split(" '")[0] for _, rule, _ in found).most_common():
            print(f"{n:4d}  {rule}")
    print(f"{len(found)} vocabulary problems")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
