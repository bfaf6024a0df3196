// SPDX-License-Identifier: GPL-3.0-or-later
// Counting and progress for the converters.
#include "data/convert_output.h"

namespace axon::data {

ConvertOutput::ConvertOutput(RecordSink& sink, ConvertStats& stats, Progress progress,
                             double progressSeconds)
    : m_sink(sink), m_stats(stats), m_progress(std::move(progress)),
      m_interval(std::chrono::duration_cast<std::chrono::steady_clock::duration>(
          std::chrono::duration<double>(progressSeconds))),
      m_start(std::chrono::steady_clock::now()), m_nextReport(m_start + m_interval) {}

std::string ConvertOutput::write(const TrainingRecord& r) {
    if (auto e = m_sink.write(r); !e.empty()) return e;
    ++m_stats.written;
    // Sources with few items (a big EPD line count is still items) report from here too.
    if ((m_stats.written & 4095) == 0) maybeReport();
    return {};
}

void ConvertOutput::malformed(const std::string& why) {
    if (m_stats.malformed++ != 0) return;
    // Binary junk read as text ends up in the message: keep the terminal sane.
    m_stats.firstMalformed = why;
    for (char& c : m_stats.firstMalformed)
        if (static_cast<unsigned char>(c) < 32 || static_cast<unsigned char>(c) > 126) c = '?';
}

void ConvertOutput::item() {
    ++m_stats.items;
    if ((m_stats.items & 255) == 0) maybeReport();
}

void ConvertOutput::maybeReport() {
    const auto now = std::chrono::steady_clock::now();
    m_stats.seconds = std::chrono::duration<double>(now - m_start).count();
    if (!m_progress || now < m_nextReport) return;
    m_nextReport = now + m_interval;
    m_progress(m_stats);
}

} // namespace axon::data
