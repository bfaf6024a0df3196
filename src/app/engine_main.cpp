// SPDX-License-Identifier: GPL-3.0-or-later
// The compiler-only engine binary (`make EXE=name`, README "Building"): the UCI engine with the
// commands engine testers run, `bench`, `perft` and OpenBench's `genfens`, and `--version`.
// It needs no third-party library, so its arguments are read here by hand; the full tool
// (src/app/main.cpp: serve, match, train, data) parses the same commands with CLI11.
#include <charconv>
#include <cstdint>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/perft_command.h"
#include "engine/bench.h"
#include "engine/build_info.h"
#include "engine/eval_file.h"
#include "uci/uci.h"

namespace {

constexpr const char* kUsage =
    "Axon, the chess engine alone (the compiler-only build). With no command it speaks UCI.\n"
    "  axon bench [DEPTH] [--eval-file FILE]   the bench signature: N nodes M nps\n"
    "  axon perft DEPTH [FEN]                  leaf counts of the move tree\n"
    "  axon perft --suite FILE [--max-depth N] [--max-nodes N] [--threads N] [--no-divide]\n"
    "  axon \"genfens N seed S book B\" quit     OpenBench's openings (UCI lines as arguments)\n"
    "  axon --version\n"
    "The web app, matches, training and data tools are in the full tool: `make tool` or CMake "
    "(README).\n";

int usageError(const std::string& message) {
    std::cerr << "axon: " << message << "\n" << kUsage;
    return 2;
}

// A whole decimal number in [low, high], or nothing.
template <typename Int>
std::optional<Int> parseNumber(std::string_view text, Int low, Int high) {
    Int value{};
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || value < low || value > high)
        return std::nullopt;
    return value;
}

int runBenchCommand(const std::vector<std::string>& args) {
    int depth = axon::engine::kDefaultBenchDepth;
    std::string evalFile = axon::engine::kEmbeddedEvalName;
    bool depthGiven = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--eval-file" && i + 1 < args.size()) {
            evalFile = args[++i];
        } else if (auto d = parseNumber(args[i], 1, 64); d && !depthGiven) {
            depth = *d;
            depthGiven = true;
        } else {
            return usageError("bench: unexpected argument '" + args[i] + "'");
        }
    }
    return axon::engine::runBenchCommand(depth, evalFile, std::cout, std::cerr);
}

int runPerftCommand(const std::vector<std::string>& args) {
    axon::app::PerftOptions options;
    bool depthGiven = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        const bool hasValue = i + 1 < args.size();
        if (a == "--suite" && hasValue) {
            options.suiteFile = args[++i];
        } else if (a == "--max-depth" && hasValue) {
            auto v = parseNumber(args[++i], 0, 99);
            if (!v) return usageError("perft: --max-depth wants 0..99");
            options.maxDepth = *v;
        } else if (a == "--max-nodes" && hasValue) {
            auto v = parseNumber(args[++i], std::uint64_t(0), ~std::uint64_t(0));
            if (!v) return usageError("perft: --max-nodes wants a count");
            options.maxNodes = *v;
        } else if (a == "--threads" && hasValue) {
            auto v = parseNumber(args[++i], 1, 1024);
            if (!v) return usageError("perft: --threads wants 1..1024");
            options.threads = *v;
        } else if (a == "--no-divide") {
            options.divide = false;
        } else if (!depthGiven && a.rfind("--", 0) != 0) {
            auto v = parseNumber(a, 0, 20);
            if (!v) return usageError("perft: the depth must be 0..20, not '" + a + "'");
            options.depth = *v;
            depthGiven = true;
        } else if (depthGiven && a.rfind("--", 0) != 0) {
            options.fen += (options.fen.empty() ? "" : " ") + a;
        } else {
            return usageError("perft: unexpected argument '" + a + "'");
        }
    }
    return axon::app::runPerft(options);
}

} // namespace

int main(int argc, char** argv) {
    if (argc == 1) return axon::uci::runUciLoop();
    const std::string command = argv[1];
    const std::vector<std::string> rest(argv + 2, argv + argc);
    if (axon::uci::isCommandLineCommand(command))
        return axon::uci::runUciCommands(std::vector<std::string>(argv + 1, argv + argc));
    if (command == "--version" || command == "version") {
        std::cout << axon::engine::versionText();
        return 0;
    }
    if (command == "--help" || command == "-h" || command == "help") {
        std::cout << kUsage;
        return 0;
    }
    if (command == "bench") return runBenchCommand(rest);
    if (command == "perft") return runPerftCommand(rest);
    return usageError("'" + command + "' is not a command of the engine build");
}
