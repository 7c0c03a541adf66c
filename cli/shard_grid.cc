// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "cli/shard_grid.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <numeric>
#include <set>

#include "cli/handles.h"

namespace tessera_cli {
namespace {

// The library answers every query about a sharding it created; a failure
// here is a bug worth showing.
void Check(tessera_error* error) {
  if (error != nullptr) throw InputError("sharding: " + TakeMessage(error));
}

std::vector<ShardBox> DistinctShards(const tessera_sharding* sharding, size_t rank) {
  tessera_error* error = nullptr;
  size_t count = 0;
  tessera_sharding_num_distinct_shards(sharding, &count, &error);
  Check(error);
  std::vector<ShardBox> shards(count);
  std::vector<int64_t> ranges(2 * rank + 1);  // + 1: a valid pointer for a scalar
  for (size_t i = 0; i < count; ++i) {
    tessera_sharding_distinct_shard_ranges(sharding, i, ranges.data(), ranges.size(), &error);
    Check(error);
    for (size_t d = 0; d < rank; ++d) shards[i].spans.push_back({ranges[2 * d], ranges[2 * d + 1]});
    size_t holders = 0;
    tessera_sharding_distinct_shard_num_devices(sharding, i, &holders, &error);
    Check(error);
    shards[i].devices.resize(holders);
    tessera_sharding_distinct_shard_devices(sharding, i, shards[i].devices.data(), holders, &error);
    Check(error);
  }
  return shards;
}

std::string PlatformOf(const tessera_mesh* mesh) {
  tessera_error* error = nullptr;
  Device device(tessera_mesh_device(mesh, 0, &error));
  Check(error);
  std::string name = tessera_platform_name(tessera_device_platform(device.get(), nullptr));
  for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return name;
}

// The spans of the two dimensions a page draws: rows and columns. A rank-1
// tensor is a single row, a scalar a single box.
Span RowSpan(const ShardBox& box) {
  return box.spans.size() >= 2 ? box.spans[box.spans.size() - 2] : Span{0, 1};
}
Span ColSpan(const ShardBox& box) { return box.spans.empty() ? Span{0, 1} : box.spans.back(); }

std::vector<Span> Leading(const ShardBox& box) {
  size_t drawn = std::min<size_t>(box.spans.size(), 2);
  return {box.spans.begin(), box.spans.end() - static_cast<std::ptrdiff_t>(drawn)};
}

GridPage MakePage(const std::vector<const ShardBox*>& boxes) {
  std::set<Span> rows, cols;
  for (const ShardBox* box : boxes) {
    rows.insert(RowSpan(*box));
    cols.insert(ColSpan(*box));
  }
  GridPage page;
  page.rows.assign(rows.begin(), rows.end());
  page.cols.assign(cols.begin(), cols.end());
  page.devices.assign(page.rows.size(), std::vector<std::vector<size_t>>(page.cols.size()));
  for (const ShardBox* box : boxes) {
    auto r = std::lower_bound(page.rows.begin(), page.rows.end(), RowSpan(*box));
    auto c = std::lower_bound(page.cols.begin(), page.cols.end(), ColSpan(*box));
    std::vector<size_t>& cell = page.devices[r - page.rows.begin()][c - page.cols.begin()];
    cell.insert(cell.end(), box->devices.begin(), box->devices.end());
    std::sort(cell.begin(), cell.end());
  }
  return page;
}

}  // namespace

ShardGrid MakeShardGrid(const tessera_sharding* sharding, const tessera_mesh* mesh,
                        const std::vector<int64_t>& dims) {
  ShardGrid grid;
  grid.dims = dims;
  grid.platform = PlatformOf(mesh);
  std::map<std::vector<Span>, std::vector<const ShardBox*>, bool (*)(const std::vector<Span>&,
                                                                      const std::vector<Span>&)>
      blocks([](const std::vector<Span>& a, const std::vector<Span>& b) {
        return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
      });
  for (ShardBox& box : DistinctShards(sharding, dims.size())) {
    bool empty = std::any_of(box.spans.begin(), box.spans.end(),
                             [](const Span& span) { return span.size() == 0; });
    if (empty) {
      grid.empty_devices.insert(grid.empty_devices.end(), box.devices.begin(), box.devices.end());
    } else {
      grid.shards.push_back(std::move(box));
    }
  }
  std::sort(grid.empty_devices.begin(), grid.empty_devices.end());
  for (const ShardBox& box : grid.shards) blocks[Leading(box)].push_back(&box);
  for (const auto& [leading, boxes] : blocks) {
    GridPage page = MakePage(boxes);
    if (!leading.empty()) {
      page.title = SliceText(leading, {dims.begin(), dims.begin() + leading.size()});
      page.title.back() = ',';  // "[0:2]" -> "[0:2, :, :]"
      page.title += " :, :]";
    }
    grid.pages.push_back(std::move(page));
  }
  return grid;
}

std::string DevicesLabel(const ShardGrid& grid, const std::vector<size_t>& devices) {
  std::string label = grid.platform + " ";
  for (size_t i = 0; i < devices.size(); ++i) label += (i ? "," : "") + std::to_string(devices[i]);
  return label;
}

std::string SliceText(const std::vector<Span>& spans, const std::vector<int64_t>& dims) {
  std::string text = "[";
  for (size_t d = 0; d < spans.size(); ++d) {
    text += d ? ", " : "";
    if (spans[d].start == 0 && spans[d].stop == dims[d]) {
      text += ":";
    } else {
      text += std::to_string(spans[d].start) + ":" + std::to_string(spans[d].stop);
    }
  }
  return text + "]";
}

std::vector<int64_t> SpanSizes(const std::vector<Span>& spans) {
  std::vector<int64_t> sizes;
  for (const Span& span : spans) sizes.push_back(span.size());
  return sizes;
}

int64_t EvenTotal(int64_t total, const std::vector<int64_t>& sizes) {
  const int64_t parts = static_cast<int64_t>(sizes.size());
  bool equal =
      std::all_of(sizes.begin(), sizes.end(), [&](int64_t size) { return size == sizes[0]; });
  return equal && parts > 0 && total >= parts ? total - total % parts : total;
}

std::vector<int64_t> Apportion(int64_t total, const std::vector<int64_t>& sizes,
                               const std::vector<int64_t>& minimums) {
  const size_t n = sizes.size();
  std::vector<int64_t> parts = minimums;
  std::vector<bool> fixed(n, false);
  // Fix the parts whose proportional share falls below their minimum until
  // none does; shares are exact (128-bit), so the result is the same on every
  // compiler.
  while (true) {
    int64_t left = total;
    unsigned __int128 weight = 0;
    for (size_t i = 0; i < n; ++i) {
      if (fixed[i]) {
        left -= parts[i];
      } else {
        weight += static_cast<unsigned __int128>(sizes[i]);
      }
    }
    bool changed = false;
    for (size_t i = 0; i < n; ++i) {
      if (fixed[i]) continue;
      bool below = left <= 0 || weight == 0 ||
                   static_cast<unsigned __int128>(left) * static_cast<unsigned __int128>(sizes[i]) <
                       static_cast<unsigned __int128>(minimums[i]) * weight;
      if (below) {
        fixed[i] = true;
        changed = true;
      }
    }
    if (changed) continue;
    // Floors, then one more unit to the largest remainders.
    std::vector<std::pair<unsigned __int128, size_t>> remainders;
    int64_t given = 0;
    for (size_t i = 0; i < n; ++i) {
      if (fixed[i]) continue;
      unsigned __int128 share =
          static_cast<unsigned __int128>(left) * static_cast<unsigned __int128>(sizes[i]);
      parts[i] = static_cast<int64_t>(share / weight);
      given += parts[i];
      remainders.push_back({share % weight, i});
    }
    std::stable_sort(remainders.begin(), remainders.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    for (size_t k = 0; k < static_cast<size_t>(left - given); ++k) ++parts[remainders[k].second];
    return parts;
  }
}

std::vector<Rgb> BoxColours(size_t count) {
  // matplotlib's tab20b, the colour map jax.debug.visualize_sharding uses.
  static const Rgb kTab20b[20] = {
      {0x39, 0x3b, 0x79}, {0x52, 0x54, 0xa3}, {0x6b, 0x6e, 0xcf}, {0x9c, 0x9e, 0xde},
      {0x63, 0x79, 0x39}, {0x8c, 0xa2, 0x52}, {0xb5, 0xcf, 0x6b}, {0xce, 0xdb, 0x9c},
      {0x8c, 0x6d, 0x31}, {0xbd, 0x9e, 0x39}, {0xe7, 0xba, 0x52}, {0xe7, 0xcb, 0x94},
      {0x84, 0x3c, 0x39}, {0xad, 0x49, 0x4a}, {0xd6, 0x61, 0x6b}, {0xe7, 0x96, 0x9c},
      {0x7b, 0x41, 0x73}, {0xa5, 0x51, 0x94}, {0xce, 0x6d, 0xbd}, {0xde, 0x9e, 0xd6}};
  std::vector<Rgb> colours;
  // jax's make_color_iter: np.linspace(0, 1, count) visited with a stride of
  // about half the count, so neighbouring boxes get distant colours. The
  // stride is made coprime to the count, so that every box gets its own
  // value: jax's own stride repeats values for 2, 6, 10, ... boxes (for 2,
  // both boxes get the first colour).
  size_t stride = count / 2 + (count % 2 == 0);
  while (count > 1 && std::gcd(stride, count) != 1) ++stride;
  size_t index = 0;
  for (size_t k = 0; k < count; ++k) {
    // As numpy computes it: index * (1 / (count - 1)).
    double step = count > 1 ? 1.0 / static_cast<double>(count - 1) : 0.0;
    double value = static_cast<double>(index) * step;
    size_t entry = std::min<size_t>(static_cast<size_t>(value * 20.0), 19);
    colours.push_back(kTab20b[entry]);
    index = (index + stride) % count;
  }
  return colours;
}

Rgb TextColour(Rgb background) {
  double luminance = background.r * 0.299 + background.g * 0.587 + background.b * 0.114;
  return luminance > 186 ? Rgb{0, 0, 0} : Rgb{0xff, 0xff, 0xff};
}

}  // namespace tessera_cli
