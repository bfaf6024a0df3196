// SPDX-License-Identifier: GPL-3.0-or-later
// What every engine spoken to over a child process shares, whatever its protocol: the
// configuration, the process, the started flag, the display name, the last error, and a
// polite `quit` when it is destroyed.
#pragma once

#include <string>

#include "match/engine.h"
#include "match/engine_process.h"

namespace axon::match {

class ProcessEngine : public Engine {
  public:
    explicit ProcessEngine(EngineConfig config);
    // Sends `quit` (the word is the same in UCI and CECP) and gives the engine a moment to exit
    // before the process is killed.
    ~ProcessEngine() override;
    ProcessEngine(const ProcessEngine&) = delete;
    ProcessEngine& operator=(const ProcessEngine&) = delete;

    void terminate() override;
    const std::string& name() const override { return m_name; }
    const std::string& error() const override { return m_error; }

  protected:
    using Clock = EngineProcess::Clock;

    // Records "NAME: what" as the error and returns false, for `return fail(...)`.
    bool fail(const std::string& what);
    // True when the engine was started and is still running.
    bool running() { return m_started && m_process.isRunning(); }

    EngineConfig m_config;
    EngineProcess m_process;
    bool m_started = false;
    // The configured name, else what the engine calls itself (once the handshake told), else
    // the command.
    std::string m_name;
    std::string m_error;
};

} // namespace axon::match
