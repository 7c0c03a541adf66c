// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// One tensor's sharding as the pictures draw it (`tessera show`, `tessera plan
// --html`): its distinct shards as the boxes of a grid over the last two
// dimensions, each labelled with the devices that hold it, as
// jax.debug.visualize_array_sharding does. Built from the C ABI's
// tessera_sharding only.
#ifndef TESSERA_CLI_SHARD_GRID_H_
#define TESSERA_CLI_SHARD_GRID_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "tessera/tessera.h"

namespace tessera_cli {

// A half-open index range [start, stop) of one dimension.
struct Span {
  int64_t start = 0;
  int64_t stop = 0;
  int64_t size() const { return stop - start; }
  bool operator<(const Span& other) const {
    return start != other.start ? start < other.start : stop < other.stop;
  }
};

// A distinct shard: its range per dimension and the logical devices holding
// it, ascending.
struct ShardBox {
  std::vector<Span> spans;
  std::vector<size_t> devices;
};

// The boxes of the last two dimensions for one block of the leading ones. A
// rank-1 tensor is one row ([0, 1)) of boxes, a scalar one box.
struct GridPage {
  std::string title;  // "[0:2, :, :]": the leading block, for rank >= 3; else ""
  std::vector<Span> rows;
  std::vector<Span> cols;
  // [row][col]: the devices holding that box, ascending (empty if none does).
  std::vector<std::vector<std::vector<size_t>>> devices;
};

struct ShardGrid {
  std::vector<int64_t> dims;
  std::string platform;                // "CPU", as jax labels its boxes
  std::vector<ShardBox> shards;        // the non-empty distinct shards, mesh order
  std::vector<GridPage> pages;         // leading blocks in index order
  std::vector<size_t> empty_devices;   // devices whose shard holds no element
};

// The grid of `sharding` of a tensor of shape `dims` over `mesh`. InputError
// if the library refuses a query (it does not for a sharding it created).
ShardGrid MakeShardGrid(const tessera_sharding* sharding, const tessera_mesh* mesh,
                        const std::vector<int64_t>& dims);

// "CPU 0,1": the platform and the devices, as jax labels a box.
std::string DevicesLabel(const ShardGrid& grid, const std::vector<size_t>& devices);

// numpy's index of `spans` within `dims`: "[0:512, :]" (":" for a whole dimension).
std::string SliceText(const std::vector<Span>& spans, const std::vector<int64_t>& dims);

// The sizes of `spans`, in order.
std::vector<int64_t> SpanSizes(const std::vector<Span>& spans);

// `total` less its remainder modulo the number of parts when every part has
// the same size (and `total` reaches that number), so that equal shards get
// equal boxes; else `total`.
int64_t EvenTotal(int64_t total, const std::vector<int64_t>& sizes);

// Splits `total` units (columns, pixels) among parts in proportion to
// `sizes`, each part getting at least its minimum: parts whose share is below
// their minimum get the minimum, the others share the rest, rounded by
// largest remainder (ties to the earlier part). When the minimums alone
// exceed `total`, each part gets its minimum.
std::vector<int64_t> Apportion(int64_t total, const std::vector<int64_t>& sizes,
                               const std::vector<int64_t>& minimums);

struct Rgb {
  uint8_t r, g, b;
};

// The colours of `count` boxes in row-major order, as jax picks them: its
// walk (make_color_iter) over matplotlib's tab20b.
std::vector<Rgb> BoxColours(size_t count);

// Black or white, whichever jax writes on `background`.
Rgb TextColour(Rgb background);

}  // namespace tessera_cli

#endif  // TESSERA_CLI_SHARD_GRID_H_
