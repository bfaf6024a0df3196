// SPDX-License-Identifier: GPL-3.0-or-later
// A UCI session's output collected for a test: the sink records every line the session sends
// (from its reader and its search thread alike), take() hands them over.
#pragma once

#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "uci/session.h"

namespace axon::test {

struct UciRecorder {
    std::mutex mutex;
    std::vector<std::string> lines;
    uci::Session::Sink sink() {
        return [this](const std::string& line) {
            std::lock_guard lock(mutex);
            lines.push_back(line);
        };
    }
    std::vector<std::string> take() {
        std::lock_guard lock(mutex);
        return std::exchange(lines, {});
    }
};

} // namespace axon::test
