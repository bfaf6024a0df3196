// SPDX-License-Identifier: GPL-3.0-or-later
// An in-process Engine for unit tests of the position-analysis code: it answers each search
// with whatever a test-supplied function returns, and records what it was asked.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "match/engine.h"

namespace axon::test {

class FakeEngine final : public match::Engine {
  public:
    // `answer` gives the best move for a request; an empty string simulates a crash.
    explicit FakeEngine(std::function<std::string(const match::SearchRequest&)> answer)
        : m_answer(std::move(answer)) {}

    bool ensureStarted() override { return true; }
    bool newGame() override {
        ++newGames;
        return true;
    }
    match::SearchResult search(const match::SearchRequest& request) override {
        requests.push_back(request);
        match::SearchResult result;
        result.bestMove = m_answer(request);
        result.status =
            result.bestMove.empty() ? match::SearchStatus::Crashed : match::SearchStatus::Ok;
        if (result.bestMove.empty()) result.error = "fake: exited during the search";
        return result;
    }
    void terminate() override {}
    const std::string& name() const override { return m_name; }
    const std::string& error() const override { return m_error; }

    int newGames = 0;
    std::vector<match::SearchRequest> requests;

  private:
    std::function<std::string(const match::SearchRequest&)> m_answer;
    std::string m_name = "fake";
    std::string m_error;
};

} // namespace axon::test
