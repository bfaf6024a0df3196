// SPDX-License-Identifier: GPL-3.0-or-later
// Axon's own search as a teacher without a process (`axon label` with no --engine): the match
// runner's engine interface over the engine facade, so labelling with this binary costs no
// second process, no pipes and no UCI text. The same options, positions and limits give the same
// answers as `--engine cmd=axon` (tests/cli/label_cli.sh compares the two): a UCI teacher's
// parent process spent a quarter of a core reading info lines at 1,000 nodes a position.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/engine.h"
#include "match/engine.h"
#include "match/engine_pool.h"

namespace axon::data {

class InProcessTeacher final : public match::Engine {
  public:
    // `options` are set in order, as a UCI teacher's setoption lines would be.
    explicit InProcessTeacher(std::vector<std::pair<std::string, std::string>> options);

    bool ensureStarted() override;
    bool newGame() override;
    match::SearchResult search(const match::SearchRequest& request) override;
    // Nothing runs between searches; a restart sets the options again on a fresh engine.
    void terminate() override;
    const std::string& name() const override { return m_name; }
    const std::string& error() const override { return m_error; }

  private:
    std::vector<std::pair<std::string, std::string>> m_options;
    std::unique_ptr<engine::Engine> m_engine;
    std::string m_name = "axon (in process)";
    std::string m_error;
};

// A factory of in-process teachers with these options (one engine per job).
match::EngineFactory
inProcessTeacherFactory(std::vector<std::pair<std::string, std::string>> options);

} // namespace axon::data
