// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the UCI front end: the input is a stream of command lines fed to one uci::Session (the
// same class the stdin loop and the WebAssembly worker drive). Whatever arrives, every line is
// answered without a crash, a hang or a sanitizer report, and the session still answers
// `isready` at the end.
//
// Kept out of the stream, so that one input stays a few milliseconds: `bench`, `genfens` and
// perft deeper than 2 (long by design, not by input; genfens's argument parser has unit tests of
// its hostile input), and EvalFile (a file name from the fuzzer could name a
// device that never ends; network files have their own target, fuzz_nnue). Every search is
// stopped right after the line that started it, and the engine is capped at 16 MiB and two
// threads, as a GUI's settings could not exceed on a small machine.
//
// One session serves every input, as one GUI's would: building an engine per input zeroed a
// fresh 16 MiB hash table each time (250 ms an input under ASan, 3 inputs a second once the corpus
// held searches). Before each input the session is put back to the state a new one has: every
// option at the default its `uci` answer lists (Hash and Threads only when the previous input
// could have changed them, since resizing is what cost), `ucinewgame`, the start position.
#include <memory>
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
        if (token == "bench" || token == "genfens") return true;
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

// What the engine's sink receives, for the input being run.
std::mutex outputMutex;
std::vector<std::string> output;

std::unique_ptr<axon::uci::Session> newSession() {
    axon::engine::EngineLimits limits;
    limits.maxHashMb = 16;
    limits.maxThreads = 2;
    return std::make_unique<axon::uci::Session>(
        [](const std::string& line) {
            std::lock_guard lock(outputMutex);
            output.push_back(line);
        },
        limits);
}

// "setoption name N value D" for every option the session lists with a default (buttons have
// none; EvalFile never changes here). Hash and Threads come apart, in `resizing`.
void defaultOptions(axon::uci::Session& session, std::vector<std::string>& plain,
                    std::vector<std::string>& resizing) {
    {
        std::lock_guard lock(outputMutex);
        output.clear();
    }
    session.handle("uci");
    std::lock_guard lock(outputMutex);
    for (const std::string& answer : output) {
        std::istringstream lines(answer);
        std::string line;
        while (std::getline(lines, line)) {
            const auto name = line.find("option name "), type = line.find(" type ");
            const auto value = line.find(" default ");
            if (name != 0 || type == std::string::npos || value == std::string::npos) continue;
            const std::string option = line.substr(12, type - 12);
            if (option == "EvalFile") continue;
            std::string fallback = line.substr(value + 9);
            fallback = fallback.substr(0, fallback.find(" min "));
            const std::string command = "setoption name " + option + " value " + fallback;
            (option == "Hash" || option == "Threads" ? resizing : plain).push_back(command);
        }
    }
    require(resizing.size() == 2 && !plain.empty(), "uci lists Hash, Threads and more", "");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static std::unique_ptr<axon::uci::Session> session = newSession();
    static std::vector<std::string> plainDefaults, resizingDefaults;
    static bool resized = false; // the previous input may have changed Hash or Threads
    if (plainDefaults.empty()) defaultOptions(*session, plainDefaults, resizingDefaults);
    for (const std::string& command : plainDefaults) session->handle(command);
    if (resized)
        for (const std::string& command : resizingDefaults) session->handle(command);
    session->handle("ucinewgame");
    session->handle("position startpos");
    {
        std::lock_guard lock(outputMutex);
        output.clear();
    }

    const std::string_view text = axon::fuzz::asText(data, size);
    resized = false;
    std::size_t start = 0, lines = 0;
    bool quit = false;
    while (start < text.size() && lines < 64 && !quit) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        std::string line(text.substr(start, end - start));
        start = end + 1;
        ++lines;
        if (expensive(line)) continue;
        const std::string lower = lowerCase(line);
        if (lower.find("hash") != std::string::npos || lower.find("threads") != std::string::npos)
            resized = true;
        quit = !session->handle(line);
        if (!quit) session->handle("stop");
    }
    if (quit) {
        // `quit` stopped and joined the search; the next input gets a new session, as a GUI
        // would start a new engine.
        session = newSession();
        resized = false;
        return 0;
    }
    session->finish();
    session->handle("isready");
    std::lock_guard lock(outputMutex);
    require(!output.empty() && output.back() == "readyok", "the session answers isready last",
            std::string(text.substr(0, 300)));
    return 0;
}
