// SPDX-License-Identifier: GPL-3.0-or-later
// A child process running an engine command line, talked to by lines over pipes with timeouts.
#pragma once

#include <chrono>
#include <string>
#include <sys/types.h>

namespace axon::match {

enum class ReadStatus { Line, Timeout, Closed };

class EngineProcess {
  public:
    EngineProcess() = default;
    // Kills the child: an engine that outlives its match would keep burning a core.
    ~EngineProcess();
    EngineProcess(const EngineProcess&) = delete;
    EngineProcess& operator=(const EngineProcess&) = delete;

    // Runs `command` through /bin/sh -c (so arguments and paths work as typed on a shell),
    // in `workingDir` when it is not empty. False, with error() set, when it cannot start.
    bool start(const std::string& command, const std::string& workingDir = {});
    // False when the pipe is closed (the engine has exited).
    bool writeLine(const std::string& line);
    using Clock = std::chrono::steady_clock;
    // Waits at most `timeout` for a complete line (without its line end).
    ReadStatus readLine(std::string& line, std::chrono::milliseconds timeout);
    // The same with an absolute deadline, for loops reading many lines under one time budget;
    // a deadline already past still returns a line that is buffered.
    ReadStatus readLineUntil(std::string& line, Clock::time_point deadline);
    // Has the child exited (reaps it when it has)?
    bool isRunning();
    // SIGKILL and reap; safe to call at any time.
    void kill();
    // Waits up to `grace` for a voluntary exit (after "quit"), then kills.
    void stop(std::chrono::milliseconds grace);
    const std::string& error() const { return m_error; }

  private:
    void closePipes();

    pid_t m_pid = -1;
    int m_toChild = -1;
    int m_fromChild = -1;
    bool m_eof = false;
    std::string m_buffer;
    std::string m_error;
};

} // namespace axon::match
