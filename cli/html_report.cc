// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "cli/html_report.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iterator>

#include "cli/handles.h"
#include "cli/rules.h"
#include "cli/shard_grid.h"
#include "cli/text_input.h"
#include "cli/variables.h"

namespace tessera_cli {
namespace {

// A page that stays readable (and a file that stays small) for checkpoints
// of 100,000 tensors over thousands of devices: past these, a variable's
// grid is described instead of drawn.
constexpr size_t kMaxGrids = 1000;
constexpr size_t kMaxBoxes = 1024;
// Grid heights: a row of boxes is at least one label tall; a 2-D grid keeps
// the tensor's aspect up to kMaxGridHeightPx.
constexpr int kMinRowPx = 18;
constexpr int kMaxGridHeightPx = 240;
constexpr int kMinColumnPx = 4;

// The palette of the bars, none of them one of the grids' tab20b colours
// (the layout test tells bars from boxes by colour).
constexpr char kCss[] = R"css(
body { font: 13px/1.45 "DejaVu Sans", Arial, sans-serif; color: #222; background: #fff;
       margin: 16px; max-width: 980px; }
h1 { font-size: 20px; margin: 0 0 8px; }
h2 { font-size: 16px; margin: 20px 0 6px; border-bottom: 1px solid #ccc; }
table.facts th { text-align: left; font-weight: normal; color: #666; padding-right: 12px; }
table.facts td { word-break: break-all; }
.bar-row { display: flex; align-items: center; height: 18px; margin: 3px 0; }
.bar-device { flex: none; width: 110px; overflow: hidden; white-space: nowrap; }
.bar-track { flex: none; position: relative; height: 14px; }
.bar-track span { position: absolute; top: 0; height: 14px; }
.bar-capacity { left: 0; background: #e6e6e6; }
.bar-bytes { left: 0; background: #4e79a7; }
.bar-peak { background: #a0cbe8; }
.bar-over { background: #e15759; }
.bar-value { flex: 1 1 auto; min-width: 0; margin-left: 8px; white-space: nowrap;
             overflow: hidden; text-overflow: ellipsis; font-size: 12px; }
.legend span { display: inline-block; width: 10px; height: 10px; margin: 0 4px 0 12px; }
ul.warnings li { color: #a00; word-break: break-all; }
.variable { margin: 10px 0 14px; }
.variable-title { word-break: break-all; }
.variable-title b { font-weight: 600; }
.variable.flagged .variable-title { color: #a00; }
.note { color: #666; font-size: 12px; }
.block { font-size: 12px; color: #444; margin-top: 4px; }
.grid { position: relative; margin-top: 2px; }
.box { position: absolute; box-sizing: border-box; border: 1px solid #fff; overflow: hidden;
       display: flex; align-items: center; justify-content: center; white-space: nowrap;
       font-size: 11px; }
)css";

std::string Escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string Hex(Rgb c) {
  char text[8];
  std::snprintf(text, sizeof text, "#%02x%02x%02x", c.r, c.g, c.b);
  return text;
}

// "16.02 KiB": the largest binary unit the value reaches.
std::string HumanBytes(int64_t bytes) {
  const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double value = static_cast<double>(bytes);
  size_t unit = 0;
  while (value >= 1024.0 && unit + 1 < std::size(units)) {
    value /= 1024.0;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.2f %s", value, units[unit]);
  return text;
}

// round(full * part / whole), exactly.
int64_t ScaledPx(int64_t full, int64_t part, int64_t whole) {
  if (whole <= 0) return 0;
  using Wide = unsigned __int128;
  return static_cast<int64_t>((2 * static_cast<Wide>(full) * static_cast<Wide>(part) + whole) /
                              (2 * static_cast<Wide>(whole)));
}

std::string Px(int64_t value) { return std::to_string(value) + "px"; }

std::string Facts(const Plan& plan) {
  std::string summary = std::to_string(plan.rows.size()) + " variables, " +
                        WithThousands(plan.parameters) + " parameters (" +
                        WithThousands(plan.bytes) + " bytes), " + std::to_string(plan.flagged) +
                        " flagged";
  std::string html = "<table class=\"facts\">\n";
  for (const auto& [name, value] : {std::pair<const char*, const std::string&>{"mesh", plan.mesh},
                                    {"devices", plan.devices},
                                    {"rules", plan.rules},
                                    {"variables", plan.variables},
                                    {"check", plan.check},
                                    {"summary", summary}}) {
    html += "<tr><th>" + std::string(name) + "</th><td>" + Escape(value) + "</td></tr>\n";
  }
  return html + "</table>\n";
}

int64_t Used(const DeviceTotal& total) { return std::max(total.bytes, total.peak_bytes); }

// One bar per device on a common scale: the largest capacity or use.
std::string MemoryBars(const Plan& plan) {
  int64_t scale = 0;
  for (const DeviceTotal& total : plan.totals) {
    scale = std::max({scale, Used(total), total.capacity_bytes});
  }
  std::string html =
      "<h2>Memory per device</h2>\n<div class=\"legend note\">"
      "<span style=\"background:#4e79a7\"></span>weights"
      "<span style=\"background:#a0cbe8\"></span>peak beyond the weights"
      "<span style=\"background:#e6e6e6\"></span>capacity"
      "<span style=\"background:#e15759\"></span>over capacity</div>\n";
  for (const DeviceTotal& total : plan.totals) {
    const int64_t bytes_px = ScaledPx(kBarWidthPx, total.bytes, scale);
    const int64_t used_px = ScaledPx(kBarWidthPx, Used(total), scale);
    std::string track;
    std::string value = HumanBytes(total.bytes);
    if (total.peak_bytes > total.bytes) value += ", peak " + HumanBytes(total.peak_bytes);
    if (total.capacity_bytes >= 0) {
      const int64_t capacity_px = ScaledPx(kBarWidthPx, total.capacity_bytes, scale);
      track += "<span class=\"bar-capacity\" style=\"width:" + Px(capacity_px) + "\"></span>";
      value += " of " + HumanBytes(total.capacity_bytes);
    }
    track += "<span class=\"bar-bytes\" style=\"width:" + Px(bytes_px) + "\"></span>";
    if (used_px > bytes_px) {
      track += "<span class=\"bar-peak\" style=\"left:" + Px(bytes_px) +
               ";width:" + Px(used_px - bytes_px) + "\"></span>";
    }
    if (total.capacity_bytes >= 0 && Used(total) > total.capacity_bytes) {
      const int64_t capacity_px = ScaledPx(kBarWidthPx, total.capacity_bytes, scale);
      track += "<span class=\"bar-over\" style=\"left:" + Px(capacity_px) +
               ";width:" + Px(used_px - capacity_px) + "\"></span>";
    }
    html += "<div class=\"bar-row\" title=\"" + Escape(total.coordinates) + ": " +
            WithThousands(total.bytes) + " bytes" +
            "\"><span class=\"bar-device\">" + Escape(total.device) +
            "</span><span class=\"bar-track\" style=\"width:" + Px(kBarWidthPx) + "\">" + track +
            "</span><span class=\"bar-value\">" + value + "</span></div>\n";
  }
  return html;
}

std::string Warnings(const Plan& plan) {
  std::string items;
  for (const Row& row : plan.rows) {
    if (row.flagged) items += "<li><b>" + Escape(row.name) + "</b>: " + Escape(row.fit) + "</li>\n";
  }
  for (const DeviceTotal& total : plan.totals) {
    if (total.capacity_bytes >= 0 && Used(total) > total.capacity_bytes) {
      items += "<li><b>" + Escape(total.device) + "</b> needs " + HumanBytes(Used(total)) +
               ", more than its " + HumanBytes(total.capacity_bytes) + "</li>\n";
    }
  }
  if (items.empty()) return "<h2>Warnings</h2>\n<p class=\"note\">None: every variable fits.</p>\n";
  return "<h2>Warnings</h2>\n<ul class=\"warnings\">\n" + items + "</ul>\n";
}

// The width and height of a page's grid: the tensor's aspect within
// kGridWidthPx by kMaxGridHeightPx, then tall enough that the shortest row
// of boxes is kMinRowPx (as far as kMaxGridHeightPx allows).
std::pair<int64_t, int64_t> GridSize(const ShardGrid& grid, const GridPage& page) {
  std::vector<int64_t> row_sizes = SpanSizes(page.rows);
  int64_t rows = 0, cols = 0;
  for (int64_t size : row_sizes) rows += size;
  for (const Span& span : page.cols) cols += span.size();
  int64_t width = kGridWidthPx, height = 0;
  if (grid.dims.size() >= 2) {
    height = ScaledPx(kGridWidthPx, rows, cols);
    if (height > kMaxGridHeightPx) {
      height = kMaxGridHeightPx;
      width = ScaledPx(kMaxGridHeightPx, cols, rows);
    }
  }
  const int64_t shortest = *std::min_element(row_sizes.begin(), row_sizes.end());
  height = std::max(height, std::min<int64_t>(ScaledPx(kMinRowPx, rows, shortest),
                                              kMaxGridHeightPx));
  return {width, height};
}

std::string PageBoxes(const ShardGrid& grid, const GridPage& page) {
  auto [width, height] = GridSize(grid, page);
  const std::vector<int64_t> col_sizes = SpanSizes(page.cols), row_sizes = SpanSizes(page.rows);
  std::vector<int64_t> widths = Apportion(EvenTotal(width, col_sizes), col_sizes,
                                         std::vector<int64_t>(page.cols.size(), kMinColumnPx));
  std::vector<int64_t> heights = Apportion(EvenTotal(height, row_sizes), row_sizes,
                                          std::vector<int64_t>(page.rows.size(), kMinRowPx));
  std::vector<Rgb> colours = BoxColours(page.rows.size() * page.cols.size());
  std::string html;
  if (!page.title.empty()) html += "<div class=\"block\">" + page.title + "</div>\n";
  int64_t total_width = 0, total_height = 0;
  for (int64_t w : widths) total_width += w;
  for (int64_t h : heights) total_height += h;
  html += "<div class=\"grid\" style=\"width:" + Px(total_width) + ";height:" + Px(total_height) +
          "\">";
  int64_t top = 0;
  for (size_t r = 0; r < page.rows.size(); ++r) {
    int64_t left = 0;
    for (size_t c = 0; c < page.cols.size(); ++c) {
      const std::vector<size_t>& devices = page.devices[r][c];
      if (!devices.empty()) {
        Rgb colour = colours[r * page.cols.size() + c];
        std::string label = DevicesLabel(grid, devices);
        html += "<div class=\"box\" style=\"left:" + Px(left) + ";top:" + Px(top) +
                ";width:" + Px(widths[c]) + ";height:" + Px(heights[r]) +
                ";background:" + Hex(colour) + ";color:" + Hex(TextColour(colour)) +
                "\" title=\"" + label + "\">" + label + "</div>";
      }
      left += widths[c];
    }
    top += heights[r];
  }
  return html + "</div>\n";
}

// Why a variable's grid is not drawn, or "" when it is.
std::string GridOrNote(const Row& row, const tessera_mesh* mesh, tessera_shape_check_t check,
                       std::string* html) {
  if (row.shard_bytes < 0) return "counted as replicated in the per-device totals";
  tessera_error* error = nullptr;
  // The row's layout and shape are FormatAxes and FormatShape text.
  std::vector<int64_t> dims = ParseShape(row.shape);
  Layout layout = CreateLayout(ParseAxes(row.layout), mesh, &error);
  if (!layout) return TakeMessage(error);
  const int64_t* dims_data = dims.empty() ? &row.shard_bytes : dims.data();  // any valid pointer
  std::string note;
  Sharding sharding(tessera_sharding_create(
      layout.get(), dims_data, dims.size(),
      check == TESSERA_SHAPE_CHECK_CHUNK ? TESSERA_SHARD_MODE_CHUNK_FLAT : TESSERA_SHARD_MODE_STRICT,
      &error));
  if (!sharding) {
    // A strict refusal: drawn as the totals count it, in ceil(n/k) chunks.
    tessera_error_destroy(error);
    error = nullptr;
    sharding.reset(tessera_sharding_create(layout.get(), dims_data, dims.size(),
                                           TESSERA_SHARD_MODE_CHUNK_FLAT, &error));
    if (!sharding) return TakeMessage(error);
    note = "drawn in uneven ceil(n/k) chunks, as the totals count it";
  }
  size_t count = 0;
  tessera_sharding_num_distinct_shards(sharding.get(), &count, nullptr);
  if (count > kMaxBoxes) {
    return std::to_string(count) + " distinct shards: too many to draw";
  }
  ShardGrid grid = MakeShardGrid(sharding.get(), mesh, dims);
  for (const GridPage& page : grid.pages) *html += PageBoxes(grid, page);
  if (!grid.empty_devices.empty()) {
    note += std::string(note.empty() ? "" : "; ") + "empty shards: " +
            DevicesLabel(grid, grid.empty_devices);
  }
  return note;
}

std::string Variables(const Plan& plan, const PlanOptions& options) {
  Mesh mesh = CreateMesh(options.mesh);
  std::string html = "<h2>Variables</h2>\n";
  if (plan.rows.empty()) html += "<p class=\"note\">None.</p>\n";
  for (size_t i = 0; i < plan.rows.size(); ++i) {
    const Row& row = plan.rows[i];
    if (i == kMaxGrids) {
      html += "<p class=\"note\">" + WithThousands(plan.rows.size() - kMaxGrids) +
              " more variables not drawn.</p>\n";
      break;
    }
    std::string grid;
    std::string note = GridOrNote(row, mesh.get(), options.check, &grid);
    std::string rule = row.rule == "-" ? "no rule" : "rule " + row.rule;
    std::string shard = row.shard_bytes < 0 ? "not placeable"
                                            : "shard " + row.shard_shape + ", " +
                                                  WithThousands(row.shard_bytes) + " bytes";
    html += std::string("<div class=\"variable") + (row.flagged ? " flagged" : "") +
            "\"><div class=\"variable-title\"><b>" + Escape(row.name) + "</b> " +
            Escape(row.shape) + " as " + Escape(row.layout) + " (" + Escape(rule) + "): " +
            Escape(shard) + "</div>\n";
    if (row.flagged) html += "<div class=\"note\">" + Escape(row.fit) + "</div>\n";
    if (!note.empty()) html += "<div class=\"note\">" + Escape(note) + "</div>\n";
    html += grid + "</div>\n";
  }
  return html;
}

}  // namespace

std::string HtmlReport(const Plan& plan, const PlanOptions& options) {
  return std::string("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                     "<title>Tessera plan</title>\n<style>") +
         kCss + "</style>\n</head>\n<body>\n<h1>Tessera plan</h1>\n" + Facts(plan) +
         MemoryBars(plan) + Warnings(plan) + Variables(plan, options) + "</body>\n</html>\n";
}

void WriteHtmlReport(const Plan& plan, const PlanOptions& options, const std::string& path) {
  std::string html = HtmlReport(plan, options);
  auto fail = [&](int error) {
    throw InputError("--html '" + path + "': cannot write: " + std::strerror(error));
  };
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) fail(errno);
  bool written = std::fwrite(html.data(), 1, html.size(), file) == html.size();
  int error = written ? 0 : errno;
  if (std::fclose(file) != 0 && error == 0) error = errno;
  if (!written || error != 0) fail(error != 0 ? error : EIO);
}

}  // namespace tessera_cli
