// SPDX-License-Identifier: GPL-3.0-or-later
// History CSV and the loss plot.
#include "train/history.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace axon::train {

namespace {

std::string format(const char* fmt, double a) {
    char buf[64];
    std::snprintf(buf, sizeof buf, fmt, a);
    return buf;
}

} // namespace

std::string historyCsv(const std::vector<HistoryRow>& rows) {
    // Built in two steps: GCC 12's LTO flags `std::string(header) + "\n"` with a false
    // -Wstringop-overread.
    std::string out(kHistoryCsvHeader);
    out += '\n';
    for (const HistoryRow& r : rows) {
        char line[256];
        std::snprintf(line, sizeof line, "%d,%.0f,%.8f,%s,%.8g,%.3f,%.0f\n", r.superbatch,
                      r.positions, r.trainLoss,
                      r.valLoss < 0 ? "" : format("%.8f", r.valLoss).c_str(), r.lr, r.seconds,
                      r.positionsPerSecond);
        out += line;
    }
    return out;
}

std::string historySvg(const std::vector<HistoryRow>& rows) {
    constexpr double kWidth = 720, kHeight = 420, kLeft = 80, kRight = 20, kTop = 30, kBottom = 50;
    const double plotW = kWidth - kLeft - kRight, plotH = kHeight - kTop - kBottom;
    double lo = 1e300, hi = -1e300;
    for (const HistoryRow& r : rows) {
        lo = std::min(lo, r.trainLoss);
        hi = std::max(hi, r.trainLoss);
        if (r.valLoss >= 0) {
            lo = std::min(lo, r.valLoss);
            hi = std::max(hi, r.valLoss);
        }
    }
    if (rows.empty()) lo = 0, hi = 1;
    if (hi - lo < 1e-12) hi = lo + std::max(1e-6, std::fabs(lo) * 0.1);
    const double pad = (hi - lo) * 0.05;
    lo -= pad;
    hi += pad;
    const int last = rows.empty() ? 1 : std::max(1, rows.back().superbatch);
    auto x = [&](double sb) { return kLeft + plotW * (last <= 1 ? 0.5 : (sb - 1) / (last - 1)); };
    auto y = [&](double loss) { return kTop + plotH * (1 - (loss - lo) / (hi - lo)); };

    std::string s;
    auto add = [&](const std::string& t) { s += t; };
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                  "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"12\">\n",
                  kWidth, kHeight, kWidth, kHeight);
    add(buf);
    add("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    std::snprintf(buf, sizeof buf,
                  "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
                  "stroke=\"#888\"/>\n",
                  kLeft, kTop, plotW, plotH);
    add(buf);
    constexpr int kTicks = 5;
    for (int i = 0; i <= kTicks; ++i) {
        const double v = lo + (hi - lo) * i / kTicks;
        std::snprintf(buf, sizeof buf,
                      "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>"
                      "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%.5f</text>\n",
                      kLeft, y(v), kLeft + plotW, y(v), kLeft - 6, y(v) + 4, v);
        add(buf);
    }
    for (int i = 0; i <= std::min(kTicks, last - 1); ++i) {
        const int sb = 1 + (last - 1) * i / std::max(1, std::min(kTicks, last - 1));
        std::snprintf(buf, sizeof buf,
                      "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%d</text>\n", x(sb),
                      kTop + plotH + 18, sb);
        add(buf);
    }
    std::snprintf(buf, sizeof buf,
                  "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">superbatch</text>\n"
                  "<text x=\"%.1f\" y=\"18\" text-anchor=\"middle\">loss</text>\n",
                  kLeft + plotW / 2, kHeight - 10, kLeft + plotW / 2);
    add(buf);
    auto polyline = [&](bool validation, const char* colour) {
        std::string points;
        int n = 0;
        for (const HistoryRow& r : rows) {
            const double v = validation ? r.valLoss : r.trainLoss;
            if (v < 0) continue;
            std::snprintf(buf, sizeof buf, "%.1f,%.1f ", x(r.superbatch), y(v));
            points += buf;
            ++n;
        }
        if (n == 0) return;
        add("<polyline fill=\"none\" stroke=\"" + std::string(colour) +
            "\" stroke-width=\"2\" points=\"" + points + "\"/>\n");
        for (const HistoryRow& r : rows) {
            const double v = validation ? r.valLoss : r.trainLoss;
            if (v < 0) continue;
            std::snprintf(buf, sizeof buf,
                          "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"/>\n",
                          x(r.superbatch), y(v), colour);
            add(buf);
        }
    };
    polyline(false, "#1f77b4");
    polyline(true, "#d62728");
    std::snprintf(buf, sizeof buf,
                  "<text x=\"%.1f\" y=\"%.1f\" fill=\"#1f77b4\">train</text>"
                  "<text x=\"%.1f\" y=\"%.1f\" fill=\"#d62728\">validation</text>\n",
                  kLeft + plotW - 120, kTop + 16, kLeft + plotW - 70, kTop + 16);
    add(buf);
    add("</svg>\n");
    return s;
}

} // namespace axon::train
