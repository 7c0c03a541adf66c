#include "cli/report.h"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "cli/text_input.h"

namespace tessera_cli {
namespace {

struct Column {
  std::string title;
  bool right_aligned;
};

// Columns padded to their widest cell; the last column is not padded, so long
// messages in it do not widen the table.
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

std::string VariableTable(const Plan& plan) {
  std::vector<std::vector<std::string>> rows;
  for (const Row& row : plan.rows) {
    std::string bytes = row.shard_bytes < 0 ? "-" : WithThousands(row.shard_bytes);
    rows.push_back({row.name, row.rule, row.layout, row.shape, row.shard_shape, bytes, row.fit});
  }
  return FormatTable({{"VARIABLE", false},
                      {"RULE", false},
                      {"LAYOUT", false},
                      {"SHAPE", false},
                      {"SHARD", false},
                      {"SHARD BYTES", true},
                      {"FIT", false}},
                     rows);
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
  return text + "\n";
}

}  // namespace

std::string FormatPlan(const Plan& plan) {
  return "mesh:      " + plan.mesh + "\n" +
         "devices:   " + plan.devices + "\n" +
         "rules:     " + plan.rules + "\n" +
         "variables: " + plan.variables + "\n" +
         "check:     " + plan.check + "\n\n" +
         VariableTable(plan) + "\nper-device totals:\n" + DeviceTable(plan) + "\n" + Summary(plan);
}

}  // namespace tessera_cli
