// SPDX-License-Identifier: GPL-3.0-or-later
// report.md and report.svg of `axon grow`.
#include "grow/grow_report.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "util/atomic_file.h"

namespace axon::grow {

namespace {

std::string fixed(double value, int digits) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", digits, value);
    return text;
}

std::string hours(double seconds) { return fixed(seconds / 3600.0, 2); }

std::string networkName(const std::string& path) {
    return path.empty() ? "embedded"
                        : std::filesystem::path(path).parent_path().filename().string() + "/" +
                              std::filesystem::path(path).filename().string();
}

// "stockfish at depth 3": the teacher's program and limit, for the data column.
std::string teacherName(const Generation& gen) {
    const std::string& command = gen.label.command;
    const std::string program = command.substr(0, command.find(' '));
    return std::filesystem::path(program).filename().string() +
           (gen.label.depth > 0 ? " at depth " + std::to_string(gen.label.depth)
                                : " at " + std::to_string(gen.label.nodes) + " nodes");
}

// One promoted step after another: the Elo of each generation's best over the start network,
// with the 95 % errors of the steps added in quadrature.
struct Point {
    double elo = 0, error = 0;
    bool measured = false;
};

std::vector<Point> cumulative(const GrowState& state) {
    std::vector<Point> points(1); // generation 0: the start network
    Point at;
    for (const GenerationState& g : state.generations) {
        if (!g.done) break;
        for (const CandidateState& c : g.candidates)
            if (c.name == g.promoted) {
                at.elo += c.gate.elo;
                at.error = std::sqrt(at.error * at.error + c.gate.error95 * c.gate.error95);
            }
        at.measured = true;
        points.push_back(at);
    }
    return points;
}

} // namespace

std::string growReportMarkdown(const GrowConfig& config, const GrowState& state) {
    std::ostringstream out;
    out << "# axon grow report\n\n"
        << "Start network: "
        << (config.startNetwork.empty() ? "the embedded network" : config.startNetwork)
        << ". Each candidate is gated against the best network when its generation started "
           "(Elo from the candidate's view, 95 % interval). CPU-hours: this process and the "
           "engines it ran; a step cut by kill -9 loses the CPU time of the attempt it cut.\n\n"
        << "| generation | new positions | candidate | trained on | superbatches | train loss | "
           "val loss | pre-screen | gate | games (+ = -) | pentanomial | Elo | LLR | verdict | "
           "CPU-h data / train / pre-screen and gate |\n"
        << "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    double totalCpu = 0;
    for (const GenerationState& g : state.generations) {
        const Generation* gen = nullptr;
        for (const Generation& x : config.generations)
            if (x.name == g.name) gen = &x;
        // The teacher's labels are part of the data's cost.
        const double dataCpu = g.dataCost.cpuSeconds + g.labelCost.cpuSeconds;
        totalCpu += dataCpu;
        for (std::size_t i = 0; i < g.candidates.size(); ++i) {
            const CandidateState& c = g.candidates[i];
            const double gateCpu = c.prescreen.cost.cpuSeconds + c.gate.cost.cpuSeconds;
            totalCpu += c.train.cost.cpuSeconds + gateCpu;
            const std::int64_t games = c.gate.wins + c.gate.draws + c.gate.losses;
            out << "| " << (i == 0 ? g.name : "") << " | "
                << (i == 0 ? (g.dataDone ? std::to_string(g.positions) : "running") : "")
                << (i == 0 && gen && gen->label.enabled()
                        ? (g.labelDone ? ", labelled by " + teacherName(*gen) : ", labelling")
                        : "")
                << " | " << c.name;
            if (gen && i < gen->candidates.size())
                out << " (" << gen->candidates[i].arch.hidden << ")";
            out << (c.name == g.promoted ? " **promoted**" : "") << " | "
                << (c.train.done ? std::to_string(c.train.trainPositions) : "") << " | "
                << (c.train.done ? std::to_string(c.train.superbatches) : "") << " | "
                << (c.train.trainLoss >= 0 ? fixed(c.train.trainLoss, 5) : "") << " | "
                << (c.train.valLoss >= 0 ? fixed(c.train.valLoss, 5) : "") << " | ";
            const std::int64_t preGames = c.prescreen.wins + c.prescreen.draws + c.prescreen.losses;
            if (preGames > 0) {
                out << (c.prescreen.elo >= 0 ? "+" : "") << fixed(c.prescreen.elo, 1) << " +/- "
                    << fixed(c.prescreen.error95, 1) << " (" << preGames;
                if (gen) out << " games, " << gen->gate.prescreen.limit;
                if (c.prescreenOdds > 0) out << ", node odds " << fixed(c.prescreenOdds, 3);
                out << ")";
            }
            out << " | " << (gen ? gen->gate.limit : "") << " vs " << networkName(g.bestBefore)
                << " | ";
            if (games > 0) {
                out << games << " (" << c.gate.wins << " " << c.gate.draws << " " << c.gate.losses
                    << ") | [" << c.gate.pentanomial[0];
                for (int k = 1; k < 5; ++k) out << ", " << c.gate.pentanomial[k];
                out << "] | " << (c.gate.elo >= 0 ? "+" : "") << fixed(c.gate.elo, 1) << " +/- "
                    << fixed(c.gate.error95, 1) << " | " << fixed(c.gate.llr, 2) << " | ";
            } else {
                out << " | | | | ";
            }
            out << toString(c.gate.verdict) << " | " << (i == 0 ? hours(dataCpu) : "-") << " / "
                << hours(c.train.cost.cpuSeconds) << " / " << hours(gateCpu) << " |\n";
        }
    }
    const auto points = cumulative(state);
    out << "\nCPU-hours in all: " << hours(totalCpu) << ". Best network after each finished "
        << "generation, Elo over the start network (sum of the promoted steps; each step is the "
           "estimate of an SPRT that stopped on H1, which reads high, so confirm the sum with a "
           "fixed-length match): ";
    for (std::size_t i = 0; i < points.size(); ++i)
        out << (i ? ", " : "") << (i ? state.generations[i - 1].name : "start") << " "
            << (points[i].elo >= 0 ? "+" : "") << fixed(points[i].elo, 1) << " +/- "
            << fixed(points[i].error, 1);
    out << ".\n\n![Elo by generation](report.svg)\n";
    return out.str();
}

std::string growReportSvg(const GrowState& state) {
    const auto points = cumulative(state);
    const double width = 640, height = 360, left = 60, right = 20, top = 30, bottom = 50;
    double lo = 0, hi = 10;
    for (const Point& p : points) {
        lo = std::min(lo, p.elo - p.error);
        hi = std::max(hi, p.elo + p.error);
    }
    const double span = hi - lo;
    lo -= 0.05 * span;
    hi += 0.05 * span;
    const std::size_t n = std::max<std::size_t>(points.size(), 2);
    auto x = [&](std::size_t i) {
        return left + (width - left - right) * double(i) / double(n - 1);
    };
    auto y = [&](double elo) { return top + (height - top - bottom) * (hi - elo) / (hi - lo); };
    std::ostringstream out;
    out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
        << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
        << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        << "<text x=\"" << left
        << "\" y=\"18\">Elo of each generation's best over the start "
           "network (95 % error)</text>\n"
        << "<line x1=\"" << left << "\" y1=\"" << y(0) << "\" x2=\"" << width - right << "\" y2=\""
        << y(0) << "\" stroke=\"#999\" stroke-dasharray=\"4\"/>\n";
    for (int k = 0; k <= 4; ++k) {
        const double elo = lo + (hi - lo) * k / 4;
        out << "<text x=\"" << left - 6 << "\" y=\"" << y(elo) + 4 << "\" text-anchor=\"end\">"
            << fixed(elo, 0) << "</text>\n";
    }
    std::string path;
    for (std::size_t i = 0; i < points.size(); ++i) {
        const Point& p = points[i];
        path += (i ? " L" : "M") + fixed(x(i), 1) + " " + fixed(y(p.elo), 1);
        out << "<line x1=\"" << x(i) << "\" y1=\"" << y(p.elo - p.error) << "\" x2=\"" << x(i)
            << "\" y2=\"" << y(p.elo + p.error) << "\" stroke=\"#36c\"/>\n"
            << "<circle cx=\"" << x(i) << "\" cy=\"" << y(p.elo) << "\" r=\"4\" fill=\"#36c\"/>\n"
            << "<text x=\"" << x(i) << "\" y=\"" << height - bottom + 18
            << "\" text-anchor=\"middle\">"
            << (i ? state.generations[i - 1].name : std::string("start")) << "</text>\n";
    }
    out << "<path d=\"" << path << "\" fill=\"none\" stroke=\"#36c\"/>\n</svg>\n";
    return out.str();
}

std::optional<std::string> writeGrowReport(const GrowConfig& config, const GrowState& state,
                                           const std::string& workDir) {
    const std::filesystem::path dir(workDir);
    if (auto e = util::writeFileAtomically((dir / "report.md").string(),
                                           growReportMarkdown(config, state)))
        return e;
    return util::writeFileAtomically((dir / "report.svg").string(), growReportSvg(state));
}

} // namespace axon::grow
