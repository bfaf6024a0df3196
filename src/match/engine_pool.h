// SPDX-License-Identifier: GPL-3.0-or-later
// Analysing many independent positions with a pool of engine processes: the search limit of a
// single analysis, and the worker threads (one engine each) that share out the positions.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "match/engine.h"
#include "util/result.h"

namespace axon::match {

// The limit of one analysis: exactly one of nodes, depth or move time is set.
struct AnalysisLimit {
    std::int64_t nodes = 0;
    int depth = 0;
    std::int64_t moveTimeMs = 0;
    // How long past the move time (or at all, under nodes / depth) an engine may take before it
    // counts as hung.
    std::int64_t timeoutMs = 60000;

    // "nodes=100000", "depth=8", "movetime=1000".
    std::string describe() const;
    // Sets the request's limit and deadline.
    void applyTo(SearchRequest& request) const;
};

using EngineFactory = std::function<std::unique_ptr<Engine>()>;

// Makes UciEngine processes running `config`.
EngineFactory uciEngineFactory(EngineConfig config);

// Runs task(engine, i) for every i in [0, count) on min(concurrency, count) engines, each driven
// by its own thread. `done(i)` is called under a lock in index order, as soon as tasks 0..i have
// all finished, so output written there is the same whatever the concurrency. Every engine is
// started before the first task; the result is the first engine's name, or the error of an
// engine that did not start. Once `interrupt` is set no new task starts; the tasks in flight
// finish, so `done` has been called for a prefix 0..k-1 of the tasks when this returns.
util::Result<std::string> runOnEnginePool(const EngineFactory& makeEngine, int concurrency,
                                          std::size_t count,
                                          const std::function<void(Engine&, std::size_t)>& task,
                                          const std::function<void(std::size_t)>& done,
                                          const std::atomic<bool>* interrupt = nullptr);

} // namespace axon::match
