// SPDX-License-Identifier: GPL-3.0-or-later
// The character classes and trimming every text reader shares (FEN, SAN, EPD, PGN, suites):
// ASCII only and locale-free, so a file reads the same under every locale and on every platform.
#pragma once

#include <string_view>

namespace axon::util {

// What C's isspace() accepts in the "C" locale: space, tab, newline, carriage return, form feed
// and vertical tab.
constexpr bool isAsciiSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

constexpr bool isAsciiDigit(char c) { return c >= '0' && c <= '9'; }

constexpr bool isAsciiLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// `s` without leading and trailing isAsciiSpace characters.
constexpr std::string_view trimAsciiSpace(std::string_view s) {
    while (!s.empty() && isAsciiSpace(s.front())) s.remove_prefix(1);
    while (!s.empty() && isAsciiSpace(s.back())) s.remove_suffix(1);
    return s;
}

} // namespace axon::util
