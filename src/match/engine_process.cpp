// SPDX-License-Identifier: GPL-3.0-or-later
// Process spawning with posix_spawn, non-blocking line reads with poll(), and reaping.
#include "match/engine_process.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace axon::match {

namespace {

using Clock = EngineProcess::Clock;

// A write to an engine that has died must fail with EPIPE, not kill the match runner.
void ignoreSigpipeOnce() {
    static const bool kDone = [] {
        std::signal(SIGPIPE, SIG_IGN);
        return true;
    }();
    (void)kDone;
}

} // namespace

EngineProcess::~EngineProcess() { kill(); }

bool EngineProcess::start(const std::string& command, const std::string& workingDir) {
    ignoreSigpipeOnce();
    kill();
    m_error.clear();
    m_buffer.clear();
    m_eof = false;

    int in[2];
    int out[2];
    // O_CLOEXEC: engines started by other match threads must not inherit these pipes, or a
    // dead engine's pipe would never report end-of-file.
    if (pipe2(in, O_CLOEXEC) != 0) {
        m_error = std::string("pipe: ") + std::strerror(errno);
        return false;
    }
    if (pipe2(out, O_CLOEXEC) != 0) {
        m_error = std::string("pipe: ") + std::strerror(errno);
        ::close(in[0]);
        ::close(in[1]);
        return false;
    }

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    std::string shellCommand = command;
    // The working directory is changed by the shell, since posix_spawn's chdir action is not
    // available in every libc we build with.
    if (!workingDir.empty()) shellCommand = "cd '" + workingDir + "' && exec " + command;
    std::vector<char*> argv = {const_cast<char*>("sh"), const_cast<char*>("-c"),
                               shellCommand.data(), nullptr};
    // A process group of its own: the shell may fork rather than exec the engine, and an engine
    // may have children of its own; kill() must reach them all.
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attributes, 0);
    pid_t pid = -1;
    const int rc = posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv.data(), environ);
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    ::close(in[0]);
    ::close(out[1]);
    if (rc != 0) {
        m_error = std::string("cannot run /bin/sh: ") + std::strerror(rc);
        ::close(in[1]);
        ::close(out[0]);
        return false;
    }
    m_pid = pid;
    m_toChild = in[1];
    m_fromChild = out[0];
    return true;
}

bool EngineProcess::writeLine(const std::string& line) {
    if (m_toChild < 0) return false;
    const std::string data = line + "\n";
    std::size_t done = 0;
    while (done < data.size()) {
        const ssize_t n = ::write(m_toChild, data.data() + done, data.size() - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        done += std::size_t(n);
    }
    return true;
}

ReadStatus EngineProcess::readLine(std::string& line, std::chrono::milliseconds timeout) {
    return readLineUntil(line, Clock::now() + timeout);
}

ReadStatus EngineProcess::readLineUntil(std::string& line, Clock::time_point deadline) {
    while (true) {
        const auto newline = m_buffer.find('\n');
        if (newline != std::string::npos) {
            line.assign(m_buffer, 0, newline);
            if (!line.empty() && line.back() == '\r') line.pop_back();
            m_buffer.erase(0, newline + 1);
            return ReadStatus::Line;
        }
        if (m_eof || m_fromChild < 0) return ReadStatus::Closed;
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
        if (left.count() <= 0) return ReadStatus::Timeout;
        pollfd pfd{m_fromChild, POLLIN, 0};
        const int ready = ::poll(&pfd, 1, int(std::min<long long>(left.count(), 1000000)));
        if (ready < 0) {
            if (errno == EINTR) continue;
            m_eof = true;
            continue;
        }
        if (ready == 0) continue;
        char chunk[4096];
        const ssize_t n = ::read(m_fromChild, chunk, sizeof chunk);
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN) continue;
            m_eof = true;
        } else if (n == 0) {
            m_eof = true;
        } else {
            m_buffer.append(chunk, std::size_t(n));
        }
    }
}

bool EngineProcess::isRunning() {
    if (m_pid <= 0) return false;
    int status = 0;
    const pid_t r = ::waitpid(m_pid, &status, WNOHANG);
    if (r == m_pid) {
        // The group may outlive its leader (a shell's children): end it with the leader.
        ::kill(-m_pid, SIGKILL);
        m_pid = -1;
        return false;
    }
    return r == 0;
}

void EngineProcess::kill() {
    if (m_pid > 0) {
        ::kill(-m_pid, SIGKILL);
        int status = 0;
        while (::waitpid(m_pid, &status, 0) < 0 && errno == EINTR) {
        }
        m_pid = -1;
    }
    closePipes();
}

void EngineProcess::stop(std::chrono::milliseconds grace) {
    const auto deadline = Clock::now() + grace;
    while (isRunning() && Clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    kill();
}

void EngineProcess::closePipes() {
    if (m_toChild >= 0) ::close(m_toChild);
    if (m_fromChild >= 0) ::close(m_fromChild);
    m_toChild = -1;
    m_fromChild = -1;
}

} // namespace axon::match
