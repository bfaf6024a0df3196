// SPDX-License-Identifier: GPL-3.0-or-later
// The small JSON text helpers the runner's summaries share (a string literal, a fixed decimal).
#pragma once

#include <cmath>
#include <cstdio>
#include <iomanip>
#include <sstream>
#include <string>

namespace axon::match {

// `text` as a JSON string literal, quotes and control characters escaped.
inline std::string jsonString(const std::string& text) {
    std::string s = "\"";
    for (char ch : text) {
        if (ch == '"' || ch == '\\') {
            s += '\\';
            s += ch;
        } else if (static_cast<unsigned char>(ch) < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", ch);
            s += buf;
        } else {
            s += ch;
        }
    }
    return s + "\"";
}

// `v` with a fixed number of decimals, never "-0.0".
inline std::string fixedDecimals(double v, int decimals) {
    if (std::abs(v) < 0.5 * std::pow(10.0, -decimals)) v = 0.0;
    std::ostringstream s;
    s << std::fixed << std::setprecision(decimals) << v;
    return s.str();
}

} // namespace axon::match
