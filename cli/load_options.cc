// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "cli/load_options.h"

#include "cli/command_line.h"
#include "cli/handles.h"
#include "cli/shard_mode.h"
#include "cli/text_input.h"

namespace tessera_cli {

const char kLoadHelp[] = R"(Usage: tessera load --checkpoint PATH [options]

Reads one process's shards of a checkpoint: for each device the process owns
and each tensor, the device's slice of the tensor (its shard), reading from
the files only the byte ranges those shards need, each replicated shard once.

Options:
  --checkpoint PATH       a .safetensors file, a sharded model's
                          model.safetensors.index.json, or a .gguf file (the
                          first of a gguf-split set reads them all)
  --mesh AXIS=SIZE,...    mesh axes, major first (default: batch=2,model=4)
  --rules FILE            layout rules as for 'tessera plan', looked up with
                          each tensor's name (default: none, so every tensor
                          is replicated)
  --match search|full     how patterns match names (default: search)
  --shard-mode MODE       strict (default; every sharded dimension divides by
                          its shard count, as jax.device_put), chunk-flat or
                          chunk-nested (uneven shards)
  --process P             this process's index (default: 0)
  --num-processes N       processes in the job, dividing the mesh's devices
                          (default: 1)
  --sha256                print each shard's SHA-256 instead of its box
  --threads N             loader threads (default: min(4, hardware threads))
  --staging-bytes N       staging memory over all threads (default: 64 MiB)
  --gap-bytes N           read runs at most N bytes apart in one read, the gap
                          included (default: 65536)
  -h, --help              show this help

Devices: the mesh's D devices are laid row-major over cpu:0 .. cpu:D-1, as
'tessera plan' labels them; process P of N owns cpu:P*D/N .. cpu:(P+1)*D/N-1.

Output, one line per device of the process (in mesh order) and tensor (in
checkpoint order), then the bytes read from the files, which are the read
plan's bytes (gaps between coalesced runs included):
  cpu:0 model.embed.weight [0:512, 0:1024] 2097152     (without --sha256:
                                                         box, shard bytes)
  cpu:0 model.embed.weight 5d41402abc4b2a76b9719d91...  (with --sha256)
  read 123456 bytes
A shard's bytes are its box of the tensor as row-major contiguous bytes in the
checkpoint's element type (numpy: array[box].tobytes()). With a terminal on
stderr, a progress bar is drawn there.

Reads go through io_uring where the kernel allows it, else pread;
TESSERA_LOAD_IO=pread in the environment chooses pread, TESSERA_LOAD_IO=direct
reads the page-aligned middle of reads of 1 MiB or more with O_DIRECT (less
CPU time, but slower where the page cache's readahead keeps the disk busier).

Exit status: 0 on success, 2 for bad usage, input the library refuses (a
tensor that cannot be split is named) or a read that fails.
)";

namespace {

const OptionTable kOptions = {"load", {"--sha256"}, {"--checkpoint", "--mesh",    "--rules",         "--match",
                                         "--shard-mode", "--process", "--num-processes", "--threads",
                                         "--staging-bytes", "--gap-bytes"}};

}  // namespace

void SetLoadOption(const std::string& name, const std::string& value, LoadOptions* options) {
  if (name == "--checkpoint") {
    if (value.empty()) throw InputError("--checkpoint '': expected a file name");
    options->checkpoint_path = value;
  } else if (name == "--mesh") {
    options->mesh = ParseMeshSpec(value);
  } else if (name == "--rules") {
    if (value.empty()) throw InputError("--rules '': expected a file name");
    options->rules_path = value;
  } else if (name == "--match") {
    if (value != "search" && value != "full") throw InputError("--match '" + value + "': expected 'search' or 'full'");
    options->match = value == "full" ? TESSERA_KEY_MATCH_FULL : TESSERA_KEY_MATCH_SEARCH;
  } else if (name == "--shard-mode") {
    options->shard_mode = ParseShardMode(value);
  } else if (name == "--process") {
    options->process = ParseAtLeast(name, value, 0);
  } else if (name == "--num-processes") {
    options->num_processes = ParseAtLeast(name, value, 1);
  } else if (name == "--threads") {
    options->threads = ParseAtLeast(name, value, 1);
  } else if (name == "--staging-bytes") {
    options->staging_bytes = ParseAtLeast(name, value, 1);
  } else {
    options->gap_bytes = ParseAtLeast(name, value, 0);
  }
}

LoadOptions ParseLoadOptions(const std::vector<std::string>& args) {
  LoadOptions options;
  options.mesh = ParseMeshSpec("batch=2,model=4");
  ScanOptions(
      args, kOptions,
      [&](const std::string& flag) { (flag == "--help" ? options.help : options.sha256) = true; },
      [&](const std::string& name, const std::string& value) { SetLoadOption(name, value, &options); });
  if (!options.help && options.checkpoint_path.empty()) {
    throw InputError("--checkpoint is required (see 'tessera load --help')");
  }
  if (!options.help && options.process >= options.num_processes) {
    throw InputError("--process " + std::to_string(options.process) + ": expected less than --num-processes " +
                     std::to_string(options.num_processes));
  }
  return options;
}

}  // namespace tessera_cli
