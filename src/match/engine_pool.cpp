// SPDX-License-Identifier: GPL-3.0-or-later
// The engine pool: engines started up front (so a bad command fails at once, not per position),
// tasks handed out by an atomic counter, completions reported in index order.
#include "match/engine_pool.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "match/uci_engine.h"
#include "util/parallel.h"

namespace axon::match {

std::string AnalysisLimit::describe() const {
    if (nodes > 0) return "nodes=" + std::to_string(nodes);
    if (depth > 0) return "depth=" + std::to_string(depth);
    return "movetime=" + std::to_string(moveTimeMs);
}

void AnalysisLimit::applyTo(SearchRequest& request) const {
    request.useClock = false;
    request.nodes = nodes;
    request.depth = depth;
    request.moveTimeMs = nodes > 0 || depth > 0 ? 0 : moveTimeMs;
    request.deadline = std::chrono::milliseconds(request.moveTimeMs + timeoutMs);
}

EngineFactory uciEngineFactory(EngineConfig config) {
    return [config = std::move(config)]() -> std::unique_ptr<Engine> {
        return std::make_unique<UciEngine>(config);
    };
}

util::Result<std::string> runOnEnginePool(const EngineFactory& makeEngine, int concurrency,
                                          std::size_t count,
                                          const std::function<void(Engine&, std::size_t)>& task,
                                          const std::function<void(std::size_t)>& done,
                                          const std::atomic<bool>* interrupt) {
    const std::size_t workers = std::max<std::size_t>(
        1, std::min<std::size_t>(std::size_t(std::max(concurrency, 1)), count));
    std::vector<std::unique_ptr<Engine>> engines;
    for (std::size_t i = 0; i < workers; ++i) {
        engines.push_back(makeEngine());
        if (!engines.back()->ensureStarted()) return util::makeError(engines.back()->error());
    }
    const std::string name = engines.front()->name();

    std::atomic<std::size_t> next{0};
    std::mutex mutex;
    std::vector<char> finished(count, 0);
    std::size_t reported = 0;
    auto work = [&](Engine& engine) {
        while (!(interrupt && interrupt->load())) {
            const std::size_t i = next.fetch_add(1);
            if (i >= count) return;
            task(engine, i);
            const std::lock_guard lock(mutex);
            finished[i] = 1;
            while (reported < count && finished[reported]) done(reported++);
        }
    };
    util::parallelFor(int(workers), [&](int w) { work(*engines[std::size_t(w)]); });
    return name;
}

} // namespace axon::match
