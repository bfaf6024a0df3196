// SPDX-License-Identifier: GPL-3.0-or-later
// The in-browser engine's entry points (axon-st.js / axon-mt.js): UCI command lines in through
// axon_command(), output lines out through the JavaScript callback Module.onLine, over the same
// uci::Session as the native engine. web/engine/axon-engine-worker.js drives it in a Web Worker.
//
// st (no threads): every command, `go` included, runs to completion inside axon_command().
// mt (-pthread): a UCI thread handles the commands as the native stdin loop does and the search
// runs on a pthread of its own, so the worker's JavaScript thread never blocks: it must stay free
// because emscripten starts every pthread (the search's helpers too) from that thread's event
// loop. Output made on other threads is queued and handed to that thread asynchronously.
#include <emscripten.h>

#include <cstdlib>
#include <memory>
#include <string>

#include "uci/session.h"
#include "wasm/bounded_go.h"

#ifdef __EMSCRIPTEN_PTHREADS__
#include <emscripten/threading.h>

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>
#endif

// Hands one output line to the page's side: the worker script sets Module.onLine.
EM_JS(void, axon_emit_line, (const char* line), { Module["onLine"](UTF8ToString(line)); });

namespace {

using axon::uci::Session;

#ifdef __EMSCRIPTEN_PTHREADS__
constexpr const char* kBuildName = "mt";
#else
constexpr const char* kBuildName = "st";
#endif

// The browser gives a 32-bit address space of which the tab may get far less than 4 GiB.
constexpr long long kMaxHashMb = 256;

int g_maxThreads = 1;

// Splits multi-line answers: the worker posts one UCI line per message. Before `uciok` it says
// which build runs (web-contract: the page shows it).
void emitLines(const std::string& text) {
    std::size_t begin = 0;
    while (begin <= text.size()) {
        std::size_t end = text.find('\n', begin);
        if (end == std::string::npos) end = text.size();
        const std::string line = text.substr(begin, end - begin);
        if (line == "uciok") {
            const std::string build = "info string axon-wasm build=" + std::string(kBuildName) +
                                      " threads=" + std::to_string(g_maxThreads);
            axon_emit_line(build.c_str());
        }
        if (!line.empty()) axon_emit_line(line.c_str());
        begin = end + 1;
    }
}

#ifdef __EMSCRIPTEN_PTHREADS__

// Commands in (from the JavaScript thread), output out (from the UCI and search threads).
class Bridge {
  public:
    explicit Bridge(axon::engine::EngineLimits limits)
        : m_session([this](const std::string& line) { queueOutput(line); }, limits),
          m_thread([this] { run(); }) {
        m_thread.detach();
    }

    void command(std::string line) {
        std::lock_guard lock(m_mutex);
        m_input.push_back(std::move(line));
        m_inputReady.notify_one();
    }

  private:
    void run() {
        for (;;) {
            std::string line;
            {
                std::unique_lock lock(m_mutex);
                m_inputReady.wait(lock, [this] { return !m_input.empty(); });
                line = std::move(m_input.front());
                m_input.pop_front();
            }
            // After `quit` the worker script closes the worker, which ends every thread.
            if (!m_session.handle(line)) return;
        }
    }

    void queueOutput(const std::string& text) {
        bool first = false;
        {
            std::lock_guard lock(m_outputMutex);
            first = m_output.empty();
            m_output.push_back(text);
        }
        // One wake-up per batch: the JavaScript thread drains everything queued when it runs.
        if (first) emscripten_async_run_in_main_runtime_thread(EM_FUNC_SIG_VI, deliver, this);
    }

    static void deliver(Bridge* self) {
        std::vector<std::string> batch;
        {
            std::lock_guard lock(self->m_outputMutex);
            batch.swap(self->m_output);
        }
        for (const std::string& text : batch) emitLines(text);
    }

    std::mutex m_mutex;
    std::condition_variable m_inputReady;
    std::deque<std::string> m_input;
    std::mutex m_outputMutex;
    std::vector<std::string> m_output;
    Session m_session;
    std::thread m_thread;
};

std::unique_ptr<Bridge> g_bridge;

#else

std::unique_ptr<Session> g_session;

#endif

} // namespace

extern "C" {

// Creates the engine; maxThreads caps the Threads option (the mt build's worker pool).
EMSCRIPTEN_KEEPALIVE int axon_init(int maxThreads) {
    axon::engine::EngineLimits limits;
    limits.maxHashMb = kMaxHashMb;
#ifdef __EMSCRIPTEN_PTHREADS__
    g_maxThreads = maxThreads < 1 ? 1 : maxThreads;
    limits.maxThreads = g_maxThreads;
    g_bridge = std::make_unique<Bridge>(limits);
#else
    (void)maxThreads;
    limits.maxThreads = 1;
    g_session = std::make_unique<Session>([](const std::string& line) { emitLines(line); }, limits);
#endif
    return 0;
}

// Runs (st) or queues (mt) one UCI command line. st returns 1 after `quit`, else 0.
EMSCRIPTEN_KEEPALIVE int axon_command(const char* line) {
#ifdef __EMSCRIPTEN_PTHREADS__
    if (!g_bridge) return 1;
    g_bridge->command(line);
    return 0;
#else
    if (!g_session) return 1;
    const axon::wasm::BoundedCommand bounded = axon::wasm::boundSearch(line);
    if (!bounded.note.empty()) emitLines(bounded.note);
    return g_session->handle(bounded.line) ? 0 : 1;
#endif
}

} // extern "C"
