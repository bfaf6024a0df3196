// SPDX-License-Identifier: GPL-3.0-or-later
// The native UCI loop: feeds stdin lines to a Session and writes its output to stdout.
#include "uci/uci.h"

#include <iostream>
#include <mutex>
#include <string>

#include "uci/session.h"

namespace axon::uci {

int runUciLoop() {
    // Output from the search thread and the input thread must not interleave within a line.
    std::mutex outputMutex;
    Session session([&outputMutex](const std::string& line) {
        std::lock_guard lock(outputMutex);
        std::cout << line << std::endl;
    });
    std::string line;
    while (std::getline(std::cin, line))
        if (!session.handle(line)) return 0;
    session.finish();
    return 0;
}

} // namespace axon::uci
