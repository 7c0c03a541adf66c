#include "cli/plan_options.h"

#include "cli/handles.h"
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
usage or input.
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

constexpr const char* kValueOptions[] = {"--mesh",  "--rules", "--vars",
                                         "--dtype-bytes", "--match", "--check", "--html"};

// Unknown options are reported before a missing value, so a typo is named as one.
void RequireKnown(const std::string& name) {
  for (const char* known : kValueOptions) {
    if (name == known) return;
  }
  throw InputError("unknown option '" + name + "' (see 'tessera plan --help')");
}

// Applies one option and its value to `options`; `name` is known.
void SetOption(const std::string& name, const std::string& value, PlanOptions* options) {
  if (name == "--mesh") {
    options->mesh = ParseMeshSpec(value);
  } else if (name == "--rules") {
    if (value.empty()) throw InputError("--rules '': expected a file name");
    options->rules_path = value;
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
  } else {
    options->check = ParseCheck(value);
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
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "-h" || arg == "--help") {
      options.help = true;
      continue;
    }
    if (arg.rfind("--", 0) != 0) {
      throw InputError("unexpected argument '" + arg + "' (see 'tessera plan --help')");
    }
    size_t equals = arg.find('=');
    std::string name = arg.substr(0, equals);
    RequireKnown(name);
    if (equals != std::string::npos) {
      SetOption(name, arg.substr(equals + 1), &options);
    } else if (i + 1 < args.size()) {
      SetOption(name, args[++i], &options);
    } else {
      throw InputError("option '" + name + "' needs a value");
    }
  }
  return options;
}

}  // namespace tessera_cli
