// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "cli/plan_json.h"

#include <cstdio>
#include <vector>

#include "cli/report.h"

namespace tessera_cli {
namespace {

std::string Quote(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char escape[8];
          std::snprintf(escape, sizeof escape, "\\u%04x", c);
          out += escape;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

// "" -> null, for fields that may be absent.
std::string QuoteOrNull(const std::string& text) { return text.empty() ? "null" : Quote(text); }

std::string Ints(const std::vector<int64_t>& values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + std::to_string(values[i]);
  return out + "]";
}

std::string Strings(const std::vector<std::string>& values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + Quote(values[i]);
  return out + "]";
}

// [[], ["model"], ["batch", "model"]]: the axes of each dimension.
std::string Axes(const std::vector<AxisGroup>& axes) {
  std::string out = "[";
  for (size_t i = 0; i < axes.size(); ++i) out += (i ? ", " : "") + Strings(axes[i]);
  return out + "]";
}

std::string VariableJson(const Row& row) {
  const bool placed = row.shard_bytes >= 0;
  return "    {\"name\": " + Quote(row.name) + ", \"dtype\": " + Quote(row.dtype) + ", \"shape\": " + Ints(row.dims) +
         ", \"rule\": " + (row.rule == "-" ? "null" : Quote(row.rule)) + ", \"layout\": " + Quote(row.layout) +
         ", \"layout_axes\": " + Axes(row.axes) + ", \"shard_shape\": " + (placed ? Ints(row.shard_dims) : "null") +
         ", \"shard_bytes\": " + (placed ? std::to_string(row.shard_bytes) : "null") +
         ", \"fit\": " + Quote(row.fit) + ", \"flagged\": " + (row.flagged ? "true" : "false") + "}";
}

std::string DeviceJson(const DeviceTotal& total, const std::vector<std::string>& term_names) {
  std::string terms = "{";
  for (size_t t = 0; t < term_names.size() && t < total.terms.size(); ++t) {
    terms += (t ? ", " : "") + Quote(term_names[t]) + ": " + std::to_string(total.terms[t]);
  }
  terms += "}";
  const bool known = total.capacity_bytes >= 0;
  const std::string verdict = Verdict(total);
  return "    {\"device\": " + Quote(total.device) + ", \"coordinates\": " + Quote(total.coordinates) +
         ", \"bytes\": " + std::to_string(total.bytes) + ", \"terms\": " + terms +
         ", \"peak_bytes\": " + std::to_string(total.peak_bytes) +
         ", \"capacity_bytes\": " + (known ? std::to_string(total.capacity_bytes) : "null") +
         ", \"headroom_bytes\": " + (known ? std::to_string(total.capacity_bytes - total.peak_bytes) : "null") +
         ", \"verdict\": " + Quote(verdict == "-" ? "unknown" : verdict) + "}";
}

template <typename T, typename F>
std::string List(const std::vector<T>& items, F&& format) {
  std::string out = "[\n";
  for (size_t i = 0; i < items.size(); ++i) out += format(items[i]) + (i + 1 < items.size() ? ",\n" : "\n");
  return out + "  ]";
}

}  // namespace

std::string PlanJson(const Plan& plan) {
  return "{\n  \"schema\": \"tessera.plan/1\",\n  \"mesh\": " + Quote(plan.mesh) +
         ",\n  \"checkpoint\": " + QuoteOrNull(plan.checkpoint) + ",\n  \"recipe\": " + Quote(plan.recipe) +
         ",\n  \"shard_mode\": " + Quote(plan.shard_mode) + ",\n  \"terms\": " + Strings(plan.term_names) +
         ",\n  \"capacity\": " + QuoteOrNull(plan.capacity) + ",\n  \"kv_cache\": " + QuoteOrNull(plan.kv_cache) +
         ",\n  \"variables\": " + List(plan.rows, VariableJson) + ",\n  \"devices\": " +
         List(plan.totals, [&](const DeviceTotal& t) { return DeviceJson(t, plan.term_names); }) +
         ",\n  \"summary\": {\"variables\": " + std::to_string(plan.rows.size()) +
         ", \"parameters\": " + std::to_string(plan.parameters) + ", \"bytes\": " + std::to_string(plan.bytes) +
         ", \"flagged\": " + std::to_string(plan.flagged) + ", \"devices_not_fitting\": " +
         std::to_string(plan.not_fitting) + "}\n}\n";
}

std::string SearchJson(const Search& search) {
  auto candidate = [](const Candidate& c) {
    return "    {\"rank\": " + (c.rank > 0 ? std::to_string(c.rank) : std::string("null")) + ", \"mesh\": " +
           Quote(c.mesh) + ", \"mesh_shape\": " + Ints(c.shape) + ", \"rules\": " + Quote(c.rules) +
           ", \"peak_bytes\": " + std::to_string(c.peak_bytes) + ", \"fits\": " + (c.problem.empty() ? "true" : "false") +
           ", \"reason\": " + QuoteOrNull(c.problem) + "}";
  };
  return "{\n  \"schema\": \"tessera.plan-search/1\",\n  \"checkpoint\": " + Quote(search.checkpoint) +
         ",\n  \"devices\": " + std::to_string(search.num_devices) + ",\n  \"axes\": " + Strings(search.axes) +
         ",\n  \"recipe\": " + Quote(search.recipe) + ",\n  \"capacity\": " + QuoteOrNull(search.capacity) +
         ",\n  \"candidates\": " + List(search.candidates, candidate) + ",\n  \"fitting\": " +
         std::to_string(search.fitting) + "\n}\n";
}

}  // namespace tessera_cli
