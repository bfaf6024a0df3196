// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the UCI front end: the input is a stream of command lines fed to one uci::Session (the
// same class the stdin loop and the WebAssembly worker drive). Whatever arrives, every line is
// answered without a crash, a hang or a sanitizer report, and the session still answers
// `isready` at the end.
//
// Kept out of the stream, so that one input stays a few milliseconds: `bench` and perft deeper
// than 2 (long by design, not by input), and EvalFile (a file name from the fuzzer could name a
// device that never ends; network files have their own target, fuzz_nnue). Every search is
// stopped right after the line that started it, and the engine is capped at 16 MiB and two
// threads, as a GUI's settings could not exceed on a small machine.
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "fuzz_check.h"
#include "uci/session.h"

using axon::fuzz::require;

namespace {

std::string lowerCase(std::string text) {
    for (char& c : text) c = char(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

// Whether a line is left out (see the header comment).
bool expensive(const std::string& line) {
    const std::string lower = lowerCase(line);
    if (lower.find("evalfile") != std::string::npos) return true;
    std::istringstream in(lower);
    std::string token, previous;
    while (in >> token) {
        if (token == "bench") return true;
        if (previous == "perft") {
            long long depth = 0;
            try {
                depth = std::stoll(token);
            } catch (...) {
                depth = 0;
            }
            if (depth > 2) return true;
        }
        previous = token;
    }
    return false;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text = axon::fuzz::asText(data, size);
    std::mutex outputMutex;
    std::vector<std::string> output;
    axon::engine::EngineLimits limits;
    limits.maxHashMb = 16;
    limits.maxThreads = 2;
    axon::uci::Session session(
        [&](const std::string& line) {
            std::lock_guard lock(outputMutex);
            output.push_back(line);
        },
        limits);

    std::size_t start = 0, lines = 0;
    bool quit = false;
    while (start < text.size() && lines < 64 && !quit) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        std::string line(text.substr(start, end - start));
        start = end + 1;
        ++lines;
        if (expensive(line)) continue;
        quit = !session.handle(line);
        if (!quit) session.handle("stop");
    }
    if (quit) return 0; // `quit` stopped and joined the search: nothing more to ask
    session.finish();
    session.handle("isready");
    std::lock_guard lock(outputMutex);
    require(!output.empty() && output.back() == "readyok", "the session answers isready last",
            std::string(text.substr(0, 300)));
    return 0;
}
