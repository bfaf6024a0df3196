// SPDX-License-Identifier: GPL-3.0-or-later
// Time control parsing and formatting, and clock bookkeeping per side.
#include "match/time_control.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>

namespace axon::match {

namespace {

std::optional<std::int64_t> parseInt(std::string_view s) {
    std::int64_t v = 0;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || ptr != s.data() + s.size() || v < 0) return std::nullopt;
    return v;
}

// Seconds, possibly fractional, to milliseconds. strtod is used since GCC 12's from_chars for
// double is fine but clang 14's libc++ has none, and the core must stay portable.
std::optional<std::int64_t> parseSecondsToMs(std::string_view s) {
    if (s.empty() || s.size() > 32) return std::nullopt;
    for (char ch : s)
        if (!(ch == '.' || (ch >= '0' && ch <= '9'))) return std::nullopt;
    const std::string text(s);
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size() || !std::isfinite(v)) return std::nullopt;
    return std::int64_t(std::llround(v * 1000.0));
}

std::string formatSeconds(std::int64_t ms) {
    std::string s = std::to_string(ms / 1000);
    if (ms % 1000) {
        std::string frac = std::to_string(1000 + ms % 1000).substr(1);
        while (frac.back() == '0') frac.pop_back();
        s += "." + frac;
    }
    return s;
}

} // namespace

util::Result<TimeControl> parseTimeControl(std::string_view text) {
    TimeControl tc;
    const auto eq = text.find('=');
    if (eq != std::string_view::npos) {
        const std::string_view key = text.substr(0, eq);
        const auto value = parseInt(text.substr(eq + 1));
        if (!value || *value <= 0)
            return util::makeError("bad value in time control '" + std::string(text) + "'");
        if (key == "nodes") {
            tc.kind = TimeControl::Kind::Nodes;
            tc.nodes = *value;
        } else if (key == "depth") {
            tc.kind = TimeControl::Kind::Depth;
            tc.depth = int(std::min<std::int64_t>(*value, 1000));
        } else if (key == "movetime") {
            tc.kind = TimeControl::Kind::MoveTime;
            tc.moveTimeMs = *value;
        } else {
            return util::makeError("unknown limit '" + std::string(key) +
                                   "' (nodes, depth, movetime)");
        }
        return tc;
    }
    std::string_view rest = text;
    const auto slash = rest.find('/');
    if (slash != std::string_view::npos) {
        const auto moves = parseInt(rest.substr(0, slash));
        if (!moves || *moves <= 0 || *moves > 1000)
            return util::makeError("bad move count in time control '" + std::string(text) + "'");
        tc.movesPerPeriod = int(*moves);
        rest = rest.substr(slash + 1);
    }
    const auto plus = rest.find('+');
    const auto base = parseSecondsToMs(rest.substr(0, plus));
    if (!base || *base <= 0)
        return util::makeError("bad time in time control '" + std::string(text) + "'");
    tc.baseMs = *base;
    if (plus != std::string_view::npos) {
        const auto inc = parseSecondsToMs(rest.substr(plus + 1));
        if (!inc)
            return util::makeError("bad increment in time control '" + std::string(text) + "'");
        tc.incrementMs = *inc;
    }
    return tc;
}

std::string TimeControl::pgnTag() const {
    if (kind != Kind::Clock) return "-";
    std::string s;
    if (movesPerPeriod) s = std::to_string(movesPerPeriod) + "/";
    s += formatSeconds(baseMs);
    if (incrementMs) s += "+" + formatSeconds(incrementMs);
    return s;
}

std::string TimeControl::describe() const {
    switch (kind) {
    case Kind::Nodes: return "nodes=" + std::to_string(nodes);
    case Kind::Depth: return "depth=" + std::to_string(depth);
    case Kind::MoveTime: return "movetime=" + std::to_string(moveTimeMs);
    case Kind::Clock: break;
    }
    return pgnTag();
}

GameClock::GameClock(const TimeControl& white, const TimeControl& black, std::int64_t marginMs)
    : m_tc{white, black}, m_marginMs(marginMs), m_remaining{white.baseMs, black.baseMs},
      m_movesLeft{white.movesPerPeriod, black.movesPerPeriod} {}

bool GameClock::consume(chess::Color c, std::int64_t elapsedMs) {
    if (elapsedMs > m_remaining[c] + m_marginMs) return false;
    m_remaining[c] -= elapsedMs;
    // Within the margin the clock may dip below zero; the engine keeps only what is left.
    if (m_remaining[c] < 0) m_remaining[c] = 0;
    m_remaining[c] += m_tc[c].incrementMs;
    if (m_tc[c].movesPerPeriod && --m_movesLeft[c] == 0) {
        m_remaining[c] += m_tc[c].baseMs;
        m_movesLeft[c] = m_tc[c].movesPerPeriod;
    }
    return true;
}

} // namespace axon::match
