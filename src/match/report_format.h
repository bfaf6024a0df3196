// SPDX-License-Identifier: GPL-3.0-or-later
// How the runner's reports (match, EPD suite and puzzle summaries) write numbers and JSON: fixed
// decimals for the text tables, and nlohmann-json documents for the --json files. Included by
// the match runner's .cpp files only (nlohmann-json is a private dependency of axon_match).
#pragma once

#include <cmath>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

namespace axon::match {

// Keys stay in the order they are written, as a reader of the file expects them.
using ReportJson = nlohmann::ordered_json;

// `v` with a fixed number of decimals, never "-0.0".
inline std::string fixedDecimals(double v, int decimals) {
    if (std::abs(v) < 0.5 * std::pow(10.0, -decimals)) v = 0.0;
    std::ostringstream s;
    s << std::fixed << std::setprecision(decimals) << v;
    return s.str();
}

// `v` rounded to `decimals` places for a JSON number (never -0).
inline double roundedDecimals(double v, int decimals) {
    const double scale = std::pow(10.0, decimals);
    const double r = std::round(v * scale) / scale;
    return r == 0.0 ? 0.0 : r;
}

// The document as a file's text: two-space indent and a final newline. Bytes that are not UTF-8
// (an engine's name, an EPD id) become U+FFFD instead of throwing.
inline std::string reportText(const ReportJson& document) {
    return document.dump(2, ' ', false, ReportJson::error_handler_t::replace) + "\n";
}

} // namespace axon::match
