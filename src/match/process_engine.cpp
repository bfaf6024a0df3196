// SPDX-License-Identifier: GPL-3.0-or-later
// The process lifecycle shared by the UCI and CECP engines.
#include "match/process_engine.h"

#include <chrono>
#include <utility>

namespace axon::match {

ProcessEngine::ProcessEngine(EngineConfig config)
    : m_config(std::move(config)),
      m_name(m_config.name.empty() ? m_config.command : m_config.name) {}

ProcessEngine::~ProcessEngine() {
    if (running()) {
        m_process.writeLine("quit");
        m_process.stop(std::chrono::milliseconds(200));
    }
}

void ProcessEngine::terminate() {
    m_process.kill();
    m_started = false;
}

bool ProcessEngine::fail(const std::string& what) {
    m_error = m_name + ": " + what;
    return false;
}

} // namespace axon::match
