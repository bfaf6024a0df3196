// SPDX-License-Identifier: GPL-3.0-or-later
// The report of an `axon grow` run: WORK/report.md (a row per candidate of every generation:
// data, losses, Elo against the network it had to beat, verdict, CPU-hours) and
// WORK/report.svg (the Elo gained generation after generation, with its error). Made from the
// state alone, so it can be rewritten after every step.
#pragma once

#include <optional>
#include <string>

#include "grow/grow_config.h"
#include "grow/grow_state.h"

namespace axon::grow {

std::string growReportMarkdown(const GrowConfig& config, const GrowState& state);
std::string growReportSvg(const GrowState& state);

// Writes both files atomically into `workDir`; an error message, or nothing.
std::optional<std::string> writeGrowReport(const GrowConfig& config, const GrowState& state,
                                           const std::string& workDir);

} // namespace axon::grow
