// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "cli/report.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <vector>

#include "cli/text_input.h"

namespace tessera_cli {

std::string FormatTable(const std::vector<Column>& columns,
                        const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> widths;
  for (const Column& column : columns) widths.push_back(column.title.size());
  for (const auto& row : rows) {
    for (size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], row[i].size());
  }
  auto format_row = [&](const std::vector<std::string>& cells) {
    std::string line;
    for (size_t i = 0; i < cells.size(); ++i) {
      size_t pad = i + 1 < cells.size() ? widths[i] - cells[i].size() : 0;
      std::string padding(pad, ' ');
      line += "  " + (columns[i].right_aligned ? padding + cells[i] : cells[i] + padding);
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    return line + "\n";
  };
  std::vector<std::string> titles;
  for (const Column& column : columns) titles.push_back(column.title);
  std::string text = format_row(titles);
  for (const auto& row : rows) text += format_row(row);
  return text;
}

std::string Mebibytes(int64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  return text;
}

std::string Verdict(const DeviceTotal& total) {
  if (total.capacity_bytes < 0) return "-";
  return total.peak_bytes <= total.capacity_bytes ? "fits" : "does not fit";
}

namespace {

// Whether the device table needs more than the weights: other terms, or
// capacities to judge them against.
bool ShowsMemory(const Plan& plan) {
  if (plan.term_names.size() > 1) return true;
  for (const DeviceTotal& total : plan.totals) {
    if (total.capacity_bytes >= 0) return true;
  }
  return false;
}

// Terms, peak, capacity, headroom and verdict per device.
std::string MemoryTable(const Plan& plan) {
  std::vector<Column> columns = {{"DEVICE", false}, {"COORDINATES", false}};
  for (std::string term : plan.term_names) {
    for (char& c : term) c = c == '_' ? ' ' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    columns.push_back({term, true});
  }
  for (const char* title : {"PEAK", "CAPACITY", "HEADROOM"}) columns.push_back({title, true});
  columns.push_back({"VERDICT", false});
  std::vector<std::vector<std::string>> rows;
  for (const DeviceTotal& total : plan.totals) {
    std::vector<std::string> cells = {total.device, total.coordinates};
    for (int64_t bytes : total.terms) cells.push_back(WithThousands(bytes));
    const bool known = total.capacity_bytes >= 0;
    cells.push_back(WithThousands(total.peak_bytes));
    cells.push_back(known ? WithThousands(total.capacity_bytes) : "-");
    cells.push_back(known ? (total.capacity_bytes < total.peak_bytes ? "-" : "") +
                                WithThousands(total.capacity_bytes >= total.peak_bytes
                                                  ? total.capacity_bytes - total.peak_bytes
                                                  : total.peak_bytes - total.capacity_bytes)
                          : "-");
    cells.push_back(Verdict(total));
    rows.push_back(std::move(cells));
  }
  return FormatTable(columns, rows);
}

std::string VariableTable(const Plan& plan) {
  // A checkpoint's tensors have their own types, so they show them.
  const bool typed = !plan.checkpoint.empty();
  std::vector<std::vector<std::string>> rows;
  for (const Row& row : plan.rows) {
    std::string bytes = row.shard_bytes < 0 ? "-" : WithThousands(row.shard_bytes);
    std::vector<std::string> cells = {row.name, row.rule, row.layout, row.shape, row.shard_shape, bytes, row.fit};
    if (typed) cells.insert(cells.begin() + 1, row.dtype);
    rows.push_back(std::move(cells));
  }
  std::vector<Column> columns = {{"VARIABLE", false}, {"RULE", false},        {"LAYOUT", false}, {"SHAPE", false},
                                 {"SHARD", false},    {"SHARD BYTES", true}, {"FIT", false}};
  if (typed) columns.insert(columns.begin() + 1, {"DTYPE", false});
  return FormatTable(columns, rows);
}

std::string DeviceTable(const Plan& plan) {
  std::vector<std::vector<std::string>> rows;
  for (const DeviceTotal& total : plan.totals) {
    rows.push_back({total.device, total.coordinates, WithThousands(total.bytes),
                    Mebibytes(total.bytes)});
  }
  return FormatTable({{"DEVICE", false}, {"COORDINATES", false}, {"BYTES", true}, {"", false}},
                     rows);
}

std::string Summary(const Plan& plan) {
  std::string text = "summary: " + std::to_string(plan.rows.size()) + " variables, " +
                     WithThousands(plan.parameters) + " parameters (" +
                     WithThousands(plan.bytes) + " bytes), " + std::to_string(plan.flagged) +
                     " flagged";
  if (plan.unplaced > 0) {
    text += ", " + std::to_string(plan.unplaced) + " not placeable (counted as replicated)";
  }
  if (plan.not_fitting > 0) {
    text += ", " + std::to_string(plan.not_fitting) + " of " + std::to_string(plan.totals.size()) +
            " devices do not fit";
  }
  return text + "\n";
}

// The memory model's header lines, for checkpoint plans and known capacities.
std::string MemoryHeader(const Plan& plan) {
  std::string text;
  if (!plan.checkpoint.empty()) text += "recipe:    " + plan.recipe + "\n";
  if (!plan.capacity.empty()) text += "capacity:  " + plan.capacity + "\n";
  if (!plan.kv_cache.empty()) text += "kv cache:  " + plan.kv_cache + "\n";
  return text;
}

}  // namespace

std::string FormatPlan(const Plan& plan) {
  return "mesh:      " + plan.mesh + "\n" +
         "devices:   " + plan.devices + "\n" +
         "rules:     " + plan.rules + "\n" +
         "variables: " + plan.variables + "\n" +
         "check:     " + plan.check + "\n" + MemoryHeader(plan) + "\n" + VariableTable(plan) +
         "\nper-device totals:\n" + (ShowsMemory(plan) ? MemoryTable(plan) : DeviceTable(plan)) + "\n" +
         Summary(plan);
}

}  // namespace tessera_cli
