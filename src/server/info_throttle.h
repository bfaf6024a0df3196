// SPDX-License-Identifier: GPL-3.0-or-later
// Rate limit for the info lines a session streams: at most one burst per interval, but never
// the last line of a depth (per multipv line) dropped, so the client always sees each completed
// iteration. Pure: time is passed in, so tests need no clock.
#pragma once

#include <cstdint>
#include <vector>

#include "search/search.h"

namespace axon::server {

class InfoThrottle {
  public:
    explicit InfoThrottle(std::int64_t intervalMs = 50) : m_intervalMs(intervalMs) {}

    // Offers a new line at time `nowMs`; returns the lines to send now, oldest first.
    std::vector<search::SearchInfo> offer(const search::SearchInfo& info, std::int64_t nowMs);
    // The held lines, once an interval has passed since the last send (none otherwise). Called
    // on a timer (the session's progress reports), so that the last lines of a completed depth
    // do not wait for the next line, which a deep iteration may take minutes to produce.
    std::vector<search::SearchInfo> due(std::int64_t nowMs);
    // The lines still held back (at the end of the search).
    std::vector<search::SearchInfo> flush();

  private:
    std::int64_t m_intervalMs;
    std::int64_t m_lastSentMs = -1;
    // At most one held line per multipv index: the newest one.
    std::vector<search::SearchInfo> m_pending;
};

} // namespace axon::server
