// SPDX-License-Identifier: GPL-3.0-or-later
// HashBudget: a counter under a mutex.
#include "server/hash_budget.h"

#include <algorithm>

namespace axon::server {

bool HashBudget::take(std::int64_t mb) {
    if (mb <= 0) return true;
    std::lock_guard lock(m_mutex);
    if (m_usedMb + mb > m_poolMb) return false;
    m_usedMb += mb;
    return true;
}

void HashBudget::giveBack(std::int64_t mb) {
    if (mb <= 0) return;
    std::lock_guard lock(m_mutex);
    m_usedMb = std::max<std::int64_t>(0, m_usedMb - mb);
}

std::int64_t HashBudget::leftMb() const {
    std::lock_guard lock(m_mutex);
    return m_poolMb - m_usedMb;
}

} // namespace axon::server
