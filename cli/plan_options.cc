// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "cli/plan_options.h"

#include <limits>

#include "cli/command_line.h"
#include "cli/handles.h"
#include "cli/shard_mode.h"
#include "cli/text_input.h"

namespace tessera_cli {

const char kPlanHelp[] = R"(Usage: tessera plan [options]

Plans how each variable of a model is split over a device mesh: the layout rule
it matches, its layout, the shard each device holds, and whether the layout
fits the variable's shape. With no options: GPT-2 small (124M) with
Megatron-style rules on a batch=2,model=4 mesh of 8 CPU devices.

Options:
  --mesh AXIS=SIZE,...  mesh axes, major first (default: batch=2,model=4)
  --rules FILE          layout rules, one 'pattern -> axes' per line
                        (default: built-in Megatron-style GPT-2 rules)
  --vars FILE           variables, one 'name shape' per line
                        (default: GPT-2 small with Hugging Face names)
  --dtype-bytes N       bytes per element, 1 to 1024 (default: 4)
  --match search|full   patterns match anywhere in a name (re.search, the
                        default, Keras 3.0-3.13) or the whole name (re.fullmatch)
  --check strict|chunk  strict (default): every sharded dimension must divide
                        by its shard count; chunk: uneven shards are allowed
  --html FILE           also write the plan as one self-contained HTML page:
                        per-device memory bars, each variable's shards as a
                        grid of boxes (as 'tessera show'), the warnings
  -h, --help            show this help

Checkpoints and memory (docs/plan.md has the details and the JSON schema):
  --checkpoint PATH     plan a checkpoint's tensors instead of variables: a
                        .safetensors file, a sharded model's
                        model.safetensors.index.json, or a .gguf file (the
                        first of gguf-split's files opens them all); headers
                        only. Without --rules every tensor is replicated.
  --recipe inference|training
                        inference (default): weights, plus a KV cache with
                        --batch and --seq-len; training: weights, gradients,
                        Adam's two f32 moments and f32 master copies of
                        16-bit weights. Each term is shown per device.
  --batch N, --seq-len N
                        the KV cache's sequences and tokens (inference); its
                        layers, KV heads and head dimension come from GGUF
                        metadata or a config.json beside the model
  --attention L,H,D     layers, KV heads and head dimension, given
  --dtype NAME          plan every tensor cast to f32, bf16, f16, f8, int8,
                        ... (default: the checkpoint's types)
  --kv-dtype NAME       the KV cache's type (default: --dtype, else f16)
  --shard-mode strict|chunk-flat|chunk-nested
                        how dimensions are cut (default: strict, or
                        chunk-flat with --check chunk)
  --capacity SIZE       every device's memory: 80GiB, 40GB, 1000000 (bytes)
  --inventory FILE      one 'DEVICE SIZE' line per device (cpu:3 80GiB; the
                        number after the last ':' is the logical device), for
                        mixed devices; without either, NVML's memory of this
                        host's GPUs when it finds some
  --search N            try every mesh shape of N devices over --axes (and
                        each --rules file, which may be given several times);
                        rank those that fit by peak bytes per device and say
                        why each other one fails
  --axes A,B            the axis names --search uses
  --json                print the plan (or the search) as JSON

Rules file ('#' starts a comment line; a comment may also follow the axes):
  wte\.weight          -> (model, None)
  attn\.c_attn\.weight -> (None, model)
  attn\.c_attn\.bias   -> (model,)
  ln_f                 -> (None,)
  embed                -> ((batch, model), None)   # dimension 0 over both axes
Patterns are Python re patterns (run on RE2). A rule whose pattern equals a
name exactly wins; otherwise several matching patterns flag the variable, and
a variable that no rule matches is replicated (shown as rule '-').

Variables file:
  h.0.attn.c_attn.weight 768,2304
  h.0.attn.c_attn.bias   2304
  step                   ()

Devices: the mesh is laid row-major over CPU devices cpu:0 .. cpu:N-1, N being
the product of the axis sizes (at most 1048576). Devices this process lacks
(it has TESSERA_CPU_DEVICE_COUNT of them, 1 by default) are simulated: planning
needs no hardware.

Output: one row per variable (FIT is 'ok' or why the layout does not fit), the
bytes each device holds, and a summary. A dimension split into S shards gives
each device a ceil(size / S) chunk, the last chunks smaller or empty. Variables
that cannot be placed at all (several rules match, wrong rank) count as
replicated in the per-device totals.

Exit status: 0 when every variable fits, 1 when some are flagged, 2 for bad
usage or input. A device whose peak exceeds its capacity is flagged too (exit
1); with --search, the exit status is 1 when no candidate fits.
)";

namespace {

int64_t ParseDtypeBytes(const std::string& text) {
  int64_t value = 0;
  if (!ParseNonNegative(text, &value) || value < 1 || value > 1024) {
    throw InputError("--dtype-bytes '" + text + "': expected a whole number from 1 to 1024");
  }
  return value;
}

tessera_key_match_t ParseMatch(const std::string& text) {
  if (text == "search") return TESSERA_KEY_MATCH_SEARCH;
  if (text == "full") return TESSERA_KEY_MATCH_FULL;
  throw InputError("--match '" + text + "': expected 'search' or 'full'");
}

tessera_shape_check_t ParseCheck(const std::string& text) {
  if (text == "strict") return TESSERA_SHAPE_CHECK_STRICT;
  if (text == "chunk") return TESSERA_SHAPE_CHECK_CHUNK;
  throw InputError("--check '" + text + "': expected 'strict' or 'chunk'");
}

const OptionTable kOptions = {"plan", {"--json"}, {
    "--mesh",     "--rules",  "--vars",     "--dtype-bytes", "--match",    "--check",
    "--checkpoint", "--recipe", "--batch",  "--seq-len",     "--attention", "--dtype",
    "--kv-dtype", "--shard-mode", "--capacity", "--inventory", "--search", "--axes", "--html"}};

// "a,b,c" -> its entries; InputError for an empty one.
std::vector<std::string> SplitList(const std::string& name, const std::string& value) {
  std::vector<std::string> items;
  size_t start = 0;
  while (true) {
    size_t comma = value.find(',', start);
    std::string item(Trim(value.substr(start, comma == std::string::npos ? comma : comma - start)));
    if (item.empty()) throw InputError(name + " '" + value + "': expected comma-separated entries");
    items.push_back(item);
    if (comma == std::string::npos) return items;
    start = comma + 1;
  }
}

void SetMemoryOption(const std::string& name, const std::string& value, PlanOptions* options) {
  if (name == "--checkpoint") {
    if (value.empty()) throw InputError("--checkpoint '': expected a file name");
    options->checkpoint_path = value;
  } else if (name == "--recipe") {
    if (value != "inference" && value != "training") {
      throw InputError("--recipe '" + value + "': expected 'inference' or 'training'");
    }
    options->recipe = value;
  } else if (name == "--batch") {
    options->batch = ParseAtLeast(name, value, 0);
  } else if (name == "--seq-len") {
    options->seq_len = ParseAtLeast(name, value, 0);
  } else if (name == "--attention") {
    std::vector<std::string> items = SplitList(name, value);
    if (items.size() != 3) {
      throw InputError("--attention '" + value + "': expected LAYERS,KV_HEADS,HEAD_DIM");
    }
    options->attention.clear();
    for (const std::string& item : items) options->attention.push_back(ParseAtLeast(name, item, 1));
  } else if (name == "--dtype") {
    options->dtype = value;
  } else if (name == "--kv-dtype") {
    options->kv_dtype = value;
  } else if (name == "--shard-mode") {
    options->shard_mode = ParseShardMode(value);
  } else if (name == "--capacity") {
    options->capacity = ParseByteSize(value, name);
    options->capacity_text = value;
  } else if (name == "--inventory") {
    if (value.empty()) throw InputError("--inventory '': expected a file name");
    options->inventory_path = value;
  } else if (name == "--search") {
    options->search = ParseAtLeast(name, value, 1);
    if (options->search > kMaxMeshDevices) {
      throw InputError("--search '" + value + "': more than " + std::to_string(kMaxMeshDevices) + " devices");
    }
  } else {
    options->search_axes = SplitList(name, value);
  }
}

// Applies one option and its value to `options`; `name` is known.
void SetOption(const std::string& name, const std::string& value, PlanOptions* options) {
  if (name == "--mesh") {
    options->mesh = ParseMeshSpec(value);
  } else if (name == "--rules") {
    if (value.empty()) throw InputError("--rules '': expected a file name");
    options->rules_path = value;
    options->rules_paths.push_back(value);
  } else if (name == "--vars") {
    if (value.empty()) throw InputError("--vars '': expected a file name");
    options->vars_path = value;
  } else if (name == "--dtype-bytes") {
    options->dtype_bytes = ParseDtypeBytes(value);
  } else if (name == "--html") {
    if (value.empty()) throw InputError("--html '': expected a file name");
    options->html_path = value;
  } else if (name == "--match") {
    options->match = ParseMatch(value);
  } else if (name == "--check") {
    options->check = ParseCheck(value);
  } else {
    SetMemoryOption(name, value, options);
  }
}

// Options that only make sense together.
void CheckCombinations(const PlanOptions& options) {
  const bool memory = options.recipe != "inference" || options.batch > 0 || options.seq_len > 0 ||
                      !options.attention.empty() || !options.dtype.empty() || !options.kv_dtype.empty() ||
                      options.shard_mode.has_value() || options.search > 0;
  if (memory && options.checkpoint_path.empty()) {
    throw InputError("--recipe, --batch, --seq-len, --attention, --dtype, --kv-dtype, --shard-mode and --search "
                     "need --checkpoint (the built-in model and --vars plan weights only)");
  }
  if (!options.checkpoint_path.empty() && !options.vars_path.empty()) {
    throw InputError("--checkpoint and --vars: expected one source of tensors");
  }
  if (options.capacity >= 0 && !options.inventory_path.empty()) {
    throw InputError("--capacity and --inventory: expected one source of capacities");
  }
  if ((options.search > 0) != !options.search_axes.empty()) {
    throw InputError("--search N and --axes A,B: expected both or neither");
  }
  if (options.search == 0 && options.rules_paths.size() > 1) {
    throw InputError("--rules given " + std::to_string(options.rules_paths.size()) +
                     " times: several rule files are for --search");
  }
}

}  // namespace

MeshSpec ParseMeshSpec(const std::string& text) {
  MeshSpec spec{text, {}, {}, 1};
  auto fail = [&text](const std::string& problem) {
    throw InputError("--mesh '" + text + "': " + problem);
  };
  if (text.empty()) fail("expected AXIS=SIZE[,AXIS=SIZE...]");
  size_t start = 0;
  while (true) {
    size_t comma = text.find(',', start);
    std::string entry = text.substr(start, comma == std::string::npos ? comma : comma - start);
    size_t equals = entry.find('=');
    if (equals == std::string::npos || equals == 0) fail("'" + entry + "' is not AXIS=SIZE");
    std::string name = entry.substr(0, equals);
    std::string size_text = entry.substr(equals + 1);
    int64_t size = 0;
    if (!ParseNonNegative(size_text, &size) || size < 1) {
      fail("size '" + size_text + "' of axis '" + name + "' is not a whole number >= 1");
    }
    if (size > kMaxMeshDevices / spec.num_devices) {
      fail("more than " + std::to_string(kMaxMeshDevices) + " devices");
    }
    spec.num_devices *= size;
    spec.axis_names.push_back(name);
    spec.sizes.push_back(size);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return spec;
}

PlanOptions ParsePlanOptions(const std::vector<std::string>& args) {
  PlanOptions options;
  options.mesh = ParseMeshSpec("batch=2,model=4");
  ScanOptions(
      args, kOptions,
      [&](const std::string& flag) { (flag == "--help" ? options.help : options.json) = true; },
      [&](const std::string& name, const std::string& value) { SetOption(name, value, &options); });
  if (!options.help) CheckCombinations(options);
  return options;
}

int64_t ParseByteSize(const std::string& text, const std::string& option) {
  struct Unit {
    const char* name;
    int64_t bytes;
  };
  static constexpr Unit kUnits[] = {
      {"KiB", int64_t{1} << 10}, {"MiB", int64_t{1} << 20}, {"GiB", int64_t{1} << 30}, {"TiB", int64_t{1} << 40},
      {"KB", 1000},              {"MB", 1000000},           {"GB", 1000000000},        {"TB", 1000000000000},
      {"B", 1},
  };
  auto fail = [&]() -> int64_t {
    throw InputError(option + " '" + text + "': expected a size such as 80GiB, 40GB or 1000000 (bytes)");
  };
  std::string_view number = Trim(text);
  int64_t unit = 1;
  for (const Unit& u : kUnits) {
    std::string_view name = u.name;
    if (number.size() > name.size() && number.substr(number.size() - name.size()) == name) {
      unit = u.bytes;
      number = Trim(number.substr(0, number.size() - name.size()));
      break;
    }
  }
  size_t dot = number.find('.');
  int64_t whole = 0;
  if (!ParseNonNegative(number.substr(0, dot), &whole)) return fail();
  if (whole > std::numeric_limits<int64_t>::max() / unit) return fail();
  int64_t bytes = whole * unit;
  if (dot != std::string_view::npos) {
    std::string_view fraction = number.substr(dot + 1);
    int64_t digits = 0;
    if (fraction.empty() || fraction.size() > 12 || !ParseNonNegative(fraction, &digits)) return fail();
    // digits / 10^n of a unit, in 128 bits: at most 10^12 x 2^40.
    __int128 scale = 1;
    for (size_t i = 0; i < fraction.size(); ++i) scale *= 10;
    const __int128 extra = static_cast<__int128>(digits) * unit / scale;
    if (extra > std::numeric_limits<int64_t>::max() - bytes) return fail();
    bytes += static_cast<int64_t>(extra);
  }
  return bytes;
}

}  // namespace tessera_cli
