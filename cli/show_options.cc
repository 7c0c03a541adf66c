// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "cli/show_options.h"

#include <algorithm>
#include <iterator>

#include "cli/command_line.h"
#include "cli/handles.h"
#include "cli/shard_mode.h"
#include "cli/text_input.h"

namespace tessera_cli {

const char kShowHelp[] = R"help(Usage: tessera show --mesh AXIS=SIZE,...
           (--layout AXES | --rules FILE --name NAME)
           (--shape SIZES | --checkpoint PATH --name NAME) [options]

Draws how one tensor is split over a device mesh, as
jax.debug.visualize_array_sharding does: one box per distinct shard, sized in
proportion to the shard, labelled with the devices that hold it ("CPU 0,4":
devices 0 and 4 hold the same shard). A 1-D tensor is one row of boxes, a
2-D one a grid (rows: dimension 0); a tensor of rank 3 or more is drawn as
one grid of its last two dimensions per block of the leading dimensions,
titled with that block ("[0:2, :, :]").

Options:
  --mesh AXIS=SIZE,...  mesh axes, major first; devices 0 .. N-1 lie on it
                        row-major, as 'tessera plan' lays them
  --layout AXES         the tensor's layout: one entry per dimension, e.g.
                        "(None, model)" or "((batch, model), None)"
  --rules FILE          take the layout from a rules file ('tessera plan
                        --help' shows the format), looking up --name; a name
                        no rule matches is replicated
  --match search|full   rules patterns match anywhere in the name (default)
                        or the whole name, as in 'tessera plan'
  --shape SIZES         the tensor's shape, e.g. 1024,4096
  --checkpoint PATH     take the shape of tensor --name from a checkpoint
                        (.safetensors, .index.json or .gguf; headers only)
  --name NAME           the tensor's name (for --rules and --checkpoint)
  --shard-mode MODE     strict (default): every split dimension must divide
                        by its shard count, as jax.device_put; chunk-flat:
                        uneven ceil(n/k) chunks, as XLA; chunk-nested: as
                        PyTorch DTensor
  --width COLUMNS       the most columns the picture takes (default: the
                        terminal's width, else 80); equal shards get equal
                        boxes, so it may take a few less; a picture that
                        cannot fit becomes a list of the shards
  --color WHEN          auto (default: colour when stdout is a terminal and
                        NO_COLOR is not set), always or never
  -h, --help            show this help

Exit status: 0 when drawn, 2 for bad usage or input (a layout the shape does
not fit, an unknown tensor, a rule that is ambiguous for --name).
)help";

namespace {

std::string NonEmpty(const std::string& name, const std::string& value, const char* expected) {
  if (value.empty()) throw InputError(name + " '': expected " + expected);
  return value;
}

const OptionTable kOptions = {"show", {}, {"--mesh",  "--layout",     "--rules",      "--match",
                                    "--name",  "--shape",      "--checkpoint", "--shard-mode",
                                    "--width", "--color"}};

// Applies option `name`, one of kOptions, with `value`.
void Apply(const std::string& name, const std::string& value, ShowOptions* options) {
  if (name == "--mesh") {
    options->mesh = ParseMeshSpec(value);
  } else if (name == "--layout") {
    options->layout = NonEmpty(name, value, "axes such as (None, model)");
  } else if (name == "--rules") {
    options->rules_path = NonEmpty(name, value, "a file name");
  } else if (name == "--match") {
    options->match = ParseChoice<tessera_key_match_t>(
        name, value, {{"search", TESSERA_KEY_MATCH_SEARCH}, {"full", TESSERA_KEY_MATCH_FULL}});
  } else if (name == "--name") {
    options->name = NonEmpty(name, value, "a tensor name");
  } else if (name == "--shape") {
    options->shape = NonEmpty(name, value, "sizes such as 1024,4096");
  } else if (name == "--checkpoint") {
    options->checkpoint = NonEmpty(name, value, "a checkpoint path");
  } else if (name == "--shard-mode") {
    options->mode = ParseShardMode(value);
  } else if (name == "--width") {
    options->width = ParseBounded(name, value, 1, 10000, "columns");
  } else {
    options->colour = ParseChoice<ColourWhen>(
        name, value,
        {{"auto", ColourWhen::kAuto},
         {"always", ColourWhen::kAlways},
         {"never", ColourWhen::kNever}});
  }
}

void CheckComplete(const ShowOptions& options) {
  if (options.mesh.num_devices == 0) throw InputError("--mesh is required (e.g. --mesh model=4)");
  if (options.layout.empty() == options.rules_path.empty()) {
    throw InputError("give the layout with exactly one of --layout and --rules");
  }
  if (options.shape.empty() == options.checkpoint.empty()) {
    throw InputError("give the shape with exactly one of --shape and --checkpoint");
  }
  if (options.name.empty() && !options.rules_path.empty()) {
    throw InputError("--rules needs --name, the tensor name its rules are looked up with");
  }
  if (options.name.empty() && !options.checkpoint.empty()) {
    throw InputError("--checkpoint needs --name, the tensor to take the shape of");
  }
}

}  // namespace

ShowOptions ParseShowOptions(const std::vector<std::string>& args) {
  ShowOptions options;
  ScanOptions(
      args, kOptions, [&](const std::string&) { options.help = true; },
      [&](const std::string& name, const std::string& value) { Apply(name, value, &options); });
  if (!options.help) CheckComplete(options);
  return options;
}

}  // namespace tessera_cli
