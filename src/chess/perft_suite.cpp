// SPDX-License-Identifier: GPL-3.0-or-later
// Perft suite reader for the two common formats, and the suite runner both front ends share.
#include "chess/perft_suite.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <fstream>

#include "chess/fen.h"
#include "chess/perft.h"
#include "util/text.h"

namespace axon::chess {

namespace {

bool parseDepthCount(std::string_view text, int& depth, std::uint64_t& nodes) {
    text = util::trimAsciiSpace(text);
    const size_t space = text.find_first_of(" \t");
    if (space == std::string_view::npos) return false;
    const std::string_view d = util::trimAsciiSpace(text.substr(0, space)),
                           n = util::trimAsciiSpace(text.substr(space + 1));
    auto r1 = std::from_chars(d.data(), d.data() + d.size(), depth);
    auto r2 = std::from_chars(n.data(), n.data() + n.size(), nodes);
    return r1.ec == std::errc() && r1.ptr == d.data() + d.size() && r2.ec == std::errc() &&
           r2.ptr == n.data() + n.size() && depth >= 0;
}

} // namespace

util::Result<std::vector<PerftCase>> readPerftSuite(std::istream& in) {
    std::vector<PerftCase> cases;
    std::string raw;
    int lineNo = 0;
    const auto error = [&](const std::string& what) {
        return util::makeError("perft suite line " + std::to_string(lineNo) + ": " + what);
    };
    while (std::getline(in, raw)) {
        ++lineNo;
        std::string_view line = util::trimAsciiSpace(raw);
        if (line.empty() || line[0] == '#') continue;

        if (line.substr(0, 3) == "id ") {
            cases.push_back({std::string(util::trimAsciiSpace(line.substr(3))), "", {}, lineNo});
        } else if (line.substr(0, 4) == "epd ") {
            if (cases.empty() || !cases.back().fen.empty()) cases.push_back({"", "", {}, lineNo});
            cases.back().fen = std::string(util::trimAsciiSpace(line.substr(4)));
        } else if (line.substr(0, 6) == "perft ") {
            int depth = 0;
            std::uint64_t nodes = 0;
            if (cases.empty() || cases.back().fen.empty())
                return error("perft line before an epd line");
            if (!parseDepthCount(line.substr(6), depth, nodes))
                return error("expected 'perft <depth> <nodes>'");
            cases.back().expected.emplace_back(depth, nodes);
        } else {
            // EPD style: FEN ;D1 n ;D2 n ...
            const size_t semi = line.find(';');
            if (semi == std::string_view::npos) return error("expected 'FEN ;D1 <nodes> ...'");
            PerftCase c{"", std::string(util::trimAsciiSpace(line.substr(0, semi))), {}, lineNo};
            c.name = "line " + std::to_string(lineNo);
            std::string_view rest = line.substr(semi + 1);
            while (!rest.empty()) {
                const size_t next = rest.find(';');
                std::string_view field = util::trimAsciiSpace(rest.substr(0, next));
                rest = next == std::string_view::npos ? std::string_view() : rest.substr(next + 1);
                if (field.empty()) continue;
                int depth = 0;
                std::uint64_t nodes = 0;
                if (field[0] != 'D' || !parseDepthCount(field.substr(1), depth, nodes))
                    return error("expected ';D<depth> <nodes>', found '" + std::string(field) +
                                 "'");
                c.expected.emplace_back(depth, nodes);
            }
            cases.push_back(std::move(c));
        }
    }
    for (const PerftCase& c : cases)
        if (c.fen.empty())
            return util::makeError("perft suite: case '" + c.name + "' has no position");
    return cases;
}

PerftSuiteSummary runPerftSuite(const std::vector<PerftCase>& suite, const PerftSuiteLimits& limits,
                                std::FILE* out) {
    using Clock = std::chrono::steady_clock;
    PerftSuiteSummary summary;
    const auto start = Clock::now();
    for (const PerftCase& c : suite) {
        auto pos = parseFen(c.fen);
        if (!pos) {
            std::fprintf(out, "FAIL %s: %s\n", c.name.c_str(), pos.error().c_str());
            ++summary.failures;
            continue;
        }
        for (auto [depth, expected] : c.expected) {
            if (depth > limits.maxDepth || expected > limits.maxNodes) continue;
            const std::uint64_t nodes = perft(*pos, depth);
            summary.nodes += nodes;
            ++summary.checks;
            std::fprintf(out, "%s %s ;D%d %llu\n", nodes == expected ? "ok" : "FAIL", c.fen.c_str(),
                         depth, static_cast<unsigned long long>(nodes));
            if (nodes != expected) {
                std::fprintf(out, "  expected %llu\n", static_cast<unsigned long long>(expected));
                ++summary.failures;
            }
        }
    }
    summary.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    std::fprintf(out, "%d checks, %d failed, %llu nodes, %.3f s, %.0f nodes/s\n", summary.checks,
                 summary.failures, static_cast<unsigned long long>(summary.nodes), summary.seconds,
                 double(summary.nodes) / std::max(summary.seconds, 1e-9));
    std::fflush(out);
    return summary;
}

int runPerftSuiteFile(const std::string& path, const PerftSuiteLimits& limits, std::FILE* out,
                      std::FILE* err) {
    std::ifstream in(path);
    if (!in) {
        std::fprintf(err, "error: cannot open perft suite '%s'\n", path.c_str());
        return 2;
    }
    auto suite = readPerftSuite(in);
    if (!suite) {
        std::fprintf(err, "error: %s\n", suite.error().c_str());
        return 2;
    }
    return runPerftSuite(*suite, limits, out).failures ? 1 : 0;
}

} // namespace axon::chess
