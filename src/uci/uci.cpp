// SPDX-License-Identifier: GPL-3.0-or-later
// The native UCI loop: feeds stdin lines (or command-line arguments) to a Session and writes its
// output to stdout.
#include "uci/uci.h"

#include <iostream>
#include <mutex>
#include <sstream>
#include <string>

#include "uci/session.h"

namespace axon::uci {

namespace {

// Output from the search thread and the input thread must not interleave within a line.
std::mutex outputMutex;

Session::Sink stdoutSink() {
    return [](const std::string& line) {
        std::lock_guard lock(outputMutex);
        std::cout << line << std::endl;
    };
}

} // namespace

int runUciLoop() {
    Session session(stdoutSink());
    std::string line;
    while (std::getline(std::cin, line))
        if (!session.handle(line)) return 0;
    session.finish();
    return 0;
}

bool isCommandLineCommand(const std::string& argument) {
    // Only commands that have no subcommand of the same name: `axon bench` stays the CLI's.
    std::istringstream in(argument);
    std::string first;
    in >> first;
    return first == "genfens";
}

int runUciCommands(const std::vector<std::string>& lines) {
    Session session(stdoutSink());
    for (const std::string& line : lines)
        if (!session.handle(line)) return 0;
    session.finish();
    return 0;
}

} // namespace axon::uci
