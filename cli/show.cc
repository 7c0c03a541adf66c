// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The checkpoint functions are experimental (tessera/experimental/checkpoint.h).
#define TESSERA_EXPERIMENTAL_API 1

#include "cli/show.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <memory>

#include "cli/handles.h"
#include "cli/plan.h"
#include "cli/rules.h"
#include "cli/shard_grid.h"
#include "cli/shard_mode.h"
#include "cli/show_options.h"
#include "cli/text_input.h"
#include "cli/variables.h"
#include "tessera/tessera.h"

namespace tessera_cli {
namespace {

using Checkpoint =
    std::unique_ptr<tessera_checkpoint, Destroyer<tessera_checkpoint, tessera_checkpoint_destroy>>;

// The most lines a 2-D picture is tall (as jax's base height), and how many
// columns of a terminal make the height of one line (jax's
// height_to_width_ratio): a square tensor is drawn 25 columns by 10 lines.
constexpr int64_t kMaxHeight = 10;
constexpr int64_t kLineHeightTenths = 25;

// The tensor to draw: where its description comes from and its shape.
struct Tensor {
  std::string description;  // "w.q F32 (1024, 4096)"
  std::vector<int64_t> dims;
};

Tensor FromCheckpoint(const ShowOptions& options) {
  tessera_error* error = nullptr;
  Checkpoint checkpoint(tessera_checkpoint_open(options.checkpoint.c_str(), &error));
  if (!checkpoint) {
    throw InputError("--checkpoint '" + options.checkpoint + "': " + TakeMessage(error));
  }
  size_t index = 0;
  if (!tessera_checkpoint_tensor_lookup(checkpoint.get(), options.name.c_str(), &index, &error)) {
    throw InputError("--name '" + options.name + "': " + TakeMessage(error));
  }
  std::vector<int64_t> dims(
      tessera_checkpoint_tensor_shape(checkpoint.get(), index, nullptr, 0, nullptr));
  tessera_checkpoint_tensor_shape(checkpoint.get(), index, dims.data(), dims.size(), nullptr);
  std::string type = tessera_checkpoint_tensor_element_type(checkpoint.get(), index, nullptr);
  return {options.name + " " + type + " " + FormatShape(dims), dims};
}

Tensor ReadTensor(const ShowOptions& options) {
  if (!options.checkpoint.empty()) return FromCheckpoint(options);
  std::vector<int64_t> dims;
  try {
    dims = ParseShape(options.shape);
  } catch (const InputError& e) {
    throw InputError(std::string("--") + e.what());
  }
  return {(options.name.empty() ? "tensor" : options.name) + " " + FormatShape(dims), dims};
}

// The layout of the tensor and how it was chosen ("layout (None, model)
// from rule 'attn'").
struct ChosenLayout {
  Layout layout;
  std::string description;
};

ChosenLayout ChooseLayout(const ShowOptions& options, const tessera_mesh* mesh, size_t rank) {
  tessera_error* error = nullptr;
  if (!options.layout.empty()) {
    std::vector<AxisGroup> axes;
    try {
      axes = ParseAxes(options.layout);
    } catch (const InputError& e) {
      throw InputError(std::string("--layout: ") + e.what());
    }
    Layout layout = CreateLayout(axes, mesh, &error);
    if (!layout) throw InputError("--layout '" + options.layout + "': " + TakeMessage(error));
    return {std::move(layout), "layout " + FormatAxes(axes)};
  }
  RuleSet rules = ParseRules(ReadFile(options.rules_path, "--rules"), options.rules_path);
  LayoutMap map = CreateLayoutMap(mesh, rules, options.match);
  size_t index = TESSERA_NO_INDEX;
  if (!tessera_layout_map_lookup_rule(map.get(), options.name.c_str(), &index, &error)) {
    throw InputError("--name '" + options.name + "': " + TakeMessage(error));
  }
  const bool matched = index != TESSERA_NO_INDEX;
  Layout layout(matched ? tessera_layout_map_layout(map.get(), index, &error)
                        : tessera_layout_create_replicated(rank, mesh, &error));
  if (!layout) throw InputError("--name '" + options.name + "': " + TakeMessage(error));
  std::string description = "layout " + FormatAxes(AxesOf(layout.get()));
  description += matched ? " from rule '" +
                               std::string(tessera_layout_map_key(map.get(), index, nullptr)) + "'"
                         : " (no rule: replicated)";
  return {std::move(layout), description};
}

int64_t DefaultWidth() {
  winsize size{};
  if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) {
    return size.ws_col;
  }
  return 80;
}

bool UseColour(ColourWhen when) {
  if (when != ColourWhen::kAuto) return when == ColourWhen::kAlways;
  const char* no_colour = std::getenv("NO_COLOR");  // no-color.org: set and not empty
  return isatty(STDOUT_FILENO) && (no_colour == nullptr || *no_colour == '\0');
}

std::string Repeat(const char* text, int64_t count) {
  std::string out;
  for (int64_t i = 0; i < count; ++i) out += text;
  return out;
}

int64_t Sum(const std::vector<int64_t>& values) {
  int64_t sum = 0;
  for (int64_t value : values) sum += value;
  return sum;
}

// One page drawn with box characters, when its labels fit `width` (fits()).
class PageDrawer {
 public:
  PageDrawer(const ShardGrid& grid, const GridPage& page, int64_t width, bool colour)
      : page_(page), colour_(colour) {
    labels_.assign(page.rows.size(), std::vector<std::string>(page.cols.size()));
    std::vector<int64_t> minimums(page.cols.size(), 1);
    for (size_t r = 0; r < page.rows.size(); ++r) {
      for (size_t c = 0; c < page.cols.size(); ++c) {
        if (!page.devices[r][c].empty()) labels_[r][c] = DevicesLabel(grid, page.devices[r][c]);
        minimums[c] = std::max<int64_t>(minimums[c], labels_[r][c].size() + 2);
      }
    }
    const int64_t room = width - static_cast<int64_t>(page.cols.size()) - 1;
    fits_ = Sum(minimums) <= room;
    if (!fits_) return;
    const std::vector<int64_t> col_sizes = SpanSizes(page.cols), row_sizes = SpanSizes(page.rows);
    const int64_t num_rows = page.rows.size();
    int64_t inner_width = EvenTotal(room, col_sizes), height = num_rows;
    if (grid.dims.size() >= 2) Proportions(inner_width, &inner_width, &height);
    widths_ = Apportion(EvenTotal(std::max(inner_width, Sum(minimums)), col_sizes), col_sizes,
                        minimums);
    heights_ = Apportion(EvenTotal(std::max(height, num_rows), row_sizes), row_sizes,
                         std::vector<int64_t>(page.rows.size(), 1));
  }

  bool fits() const { return fits_; }

  std::string Draw() const {
    std::vector<Rgb> colours = BoxColours(page_.rows.size() * page_.cols.size());
    std::string text = Border("┌", "┬", "┐");
    for (size_t r = 0; r < page_.rows.size(); ++r) {
      if (r > 0) text += Border("├", "┼", "┤");
      for (int64_t line = 0; line < heights_[r]; ++line) {
        text += "│";
        for (size_t c = 0; c < page_.cols.size(); ++c) {
          std::string label = line == (heights_[r] - 1) / 2 ? labels_[r][c] : "";
          int64_t left = (widths_[c] - static_cast<int64_t>(label.size())) / 2;
          std::string cell = std::string(left, ' ') + label +
                             std::string(widths_[c] - left - label.size(), ' ');
          text += colour_ ? Coloured(cell, colours[r * page_.cols.size() + c]) : cell;
          text += "│";
        }
        text += "\n";
      }
    }
    return text + Border("└", "┴", "┘");
  }

 private:
  // The inner width and height that give the page the tensor's aspect
  // (columns : rows) within `room` columns and kMaxHeight lines.
  void Proportions(int64_t room, int64_t* inner_width, int64_t* height) const {
    using Wide = unsigned __int128;
    const Wide rows = Sum(SpanSizes(page_.rows)), cols = Sum(SpanSizes(page_.cols));
    // Rounded: width = kMaxHeight * 2.5 * cols / rows, height = room * rows / (2.5 * cols).
    Wide full_width = (2 * kMaxHeight * kLineHeightTenths * cols + 10 * rows) / (20 * rows);
    if (full_width >= static_cast<Wide>(room)) {
      *inner_width = room;
      *height = static_cast<int64_t>((20 * room * rows + kLineHeightTenths * cols) /
                                     (2 * kLineHeightTenths * cols));
    } else {
      *inner_width = static_cast<int64_t>(full_width);
      *height = kMaxHeight;
    }
  }

  std::string Border(const char* left, const char* middle, const char* right) const {
    std::string line = left;
    for (size_t c = 0; c < widths_.size(); ++c) {
      line += (c ? middle : "") + Repeat("─", widths_[c]);
    }
    return line + right + "\n";
  }

  static std::string Coloured(const std::string& cell, Rgb background) {
    Rgb text = TextColour(background);
    auto rgb = [](Rgb c) {
      return std::to_string(c.r) + ";" + std::to_string(c.g) + ";" + std::to_string(c.b);
    };
    return "\x1b[38;2;" + rgb(text) + ";48;2;" + rgb(background) + "m" + cell + "\x1b[0m";
  }

  const GridPage& page_;
  bool colour_;
  bool fits_ = false;
  std::vector<std::vector<std::string>> labels_;
  std::vector<int64_t> widths_, heights_;
};

// The shards as a list, for a picture that cannot fit the width.
std::string ShardList(const ShardGrid& grid, int64_t width) {
  std::string text = "(" + std::to_string(width) +
                     " columns cannot fit the boxes' labels: the shards as a list)\n";
  std::vector<std::string> slices;
  size_t widest = 5;  // "SHARD"
  for (const ShardBox& box : grid.shards) {
    slices.push_back(SliceText(box.spans, grid.dims));
    widest = std::max(widest, slices.back().size());
  }
  text += "  SHARD" + std::string(widest - 5, ' ') + "  DEVICES\n";
  for (size_t i = 0; i < grid.shards.size(); ++i) {
    text += "  " + slices[i] + std::string(widest - slices[i].size(), ' ') + "  " +
            DevicesLabel(grid, grid.shards[i].devices) + "\n";
  }
  return text;
}

std::string DrawGrid(const ShardGrid& grid, int64_t width, bool colour) {
  std::vector<PageDrawer> drawers;
  for (const GridPage& page : grid.pages) {
    drawers.emplace_back(grid, page, width, colour);
    if (!drawers.back().fits()) return ShardList(grid, width);
  }
  std::string text;
  for (size_t i = 0; i < drawers.size(); ++i) {
    if (!grid.pages[i].title.empty()) text += grid.pages[i].title + "\n";
    text += drawers[i].Draw();
  }
  if (grid.shards.empty()) text += "(no elements: every shard is empty)\n";
  return text;
}

}  // namespace

std::string ShowReport(const std::vector<std::string>& args) {
  ShowOptions options = ParseShowOptions(args);
  if (options.help) return kShowHelp;
  Tensor tensor = ReadTensor(options);
  Mesh mesh = CreateMesh(options.mesh);
  ChosenLayout chosen = ChooseLayout(options, mesh.get(), tensor.dims.size());
  tessera_error* error = nullptr;
  const int64_t no_dims = 0;
  Sharding sharding(tessera_sharding_create(chosen.layout.get(),
                                            tensor.dims.empty() ? &no_dims : tensor.dims.data(),
                                            tensor.dims.size(), options.mode, &error));
  if (!sharding) throw InputError(TakeMessage(error));
  ShardGrid grid = MakeShardGrid(sharding.get(), mesh.get(), tensor.dims);
  std::string text = tensor.description + ", " + chosen.description + ", mesh " +
                     options.mesh.text + ", " + ShardModeName(options.mode) + "\n";
  const int64_t width = options.width > 0 ? options.width : DefaultWidth();
  text += DrawGrid(grid, width, UseColour(options.colour));
  if (!grid.empty_devices.empty()) {
    text += "empty shards: " + DevicesLabel(grid, grid.empty_devices) + "\n";
  }
  return text;
}

}  // namespace tessera_cli
