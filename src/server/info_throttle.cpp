// SPDX-License-Identifier: GPL-3.0-or-later
// The info-line rate limit: newer lines replace held ones of the same depth and multipv line;
// a deeper line releases the held lines of shallower depths, which were final.
#include "server/info_throttle.h"

#include <algorithm>

namespace axon::server {

std::vector<search::SearchInfo> InfoThrottle::offer(const search::SearchInfo& info,
                                                    std::int64_t nowMs) {
    std::vector<search::SearchInfo> out;
    // Held lines of an earlier depth were the last of their depth: they go out now.
    auto finished =
        std::stable_partition(m_pending.begin(), m_pending.end(),
                              [&](const search::SearchInfo& p) { return p.depth < info.depth; });
    out.assign(m_pending.begin(), finished);
    m_pending.erase(m_pending.begin(), finished);
    // A held line of the same depth and multipv index was not the last one: replace it.
    std::erase_if(m_pending,
                  [&](const search::SearchInfo& p) { return p.multiPv == info.multiPv; });
    m_pending.push_back(info);
    if (m_lastSentMs < 0 || nowMs - m_lastSentMs >= m_intervalMs) {
        out.insert(out.end(), m_pending.begin(), m_pending.end());
        m_pending.clear();
        m_lastSentMs = nowMs;
    }
    return out;
}

std::vector<search::SearchInfo> InfoThrottle::due(std::int64_t nowMs) {
    if (m_pending.empty() || (m_lastSentMs >= 0 && nowMs - m_lastSentMs < m_intervalMs)) return {};
    m_lastSentMs = nowMs;
    return flush();
}

std::vector<search::SearchInfo> InfoThrottle::flush() {
    std::vector<search::SearchInfo> out = std::move(m_pending);
    m_pending.clear();
    return out;
}

} // namespace axon::server
