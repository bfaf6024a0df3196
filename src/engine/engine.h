// SPDX-License-Identifier: GPL-3.0-or-later
// The one facade over the engine: position, go, stop, options and callbacks. UCI, the web
// server, the match runner and the WebAssembly bindings are adapters over it.
#pragma once

#include <cassert>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "chess/position.h"
#include "engine/options.h"
#include "eval/evaluator.h"
#include "search/searcher.h"
#include "search/skill.h"

namespace axon::engine {

// The largest Hash and Threads the options accept. Native front ends keep the defaults; the
// browser build (src/wasm) has a 32-bit address space, and one thread or its worker pool's.
struct EngineLimits {
    long long maxHashMb = 65536;
    long long maxThreads = 256;
};

// Settings of one search, given with go() by a front end that must not rewrite the engine's
// options for each request: the web server's sessions, whose requests carry their own strength
// and line count. Each field left empty falls back to its option.
struct SearchSettings {
    std::optional<int> multiPv;    // lines to search, 1..kMaxMultiPv (option MultiPV)
    std::optional<int> elo;        // play at this Elo (UCI_LimitStrength + UCI_Elo); wins over
                                   // skillLevel
    std::optional<int> skillLevel; // 0..search::kSkillMaxLevel (option Skill Level)

    static constexpr int kMaxMultiPv = 256;
};

// An error message naming the first field out of range, or nullopt.
std::optional<std::string> checkSearchSettings(const SearchSettings& settings);

// What the tables say of a position and of each legal move (the web app's tablebase panel).
struct TablebaseReport {
    bool inTables = false; // false: too many pieces, castling rights, or a table missing
    tablebase::Wdl wdl = tablebase::Wdl::Draw; // for the side to move
    int dtz = 0;                               // plies to a zeroing move, signed like wdl
    struct MoveResult {
        chess::Move move;
        tablebase::Wdl wdl; // for the side making the move, the fifty-move rule counted
        int dtz;            // plies to the zeroing move from here along this move (0: a draw)
    };
    std::vector<MoveResult> moves; // best first
};

// The answer of Engine::pieceContributions (defined with the evaluation that computes it).
using PieceContribution = eval::PieceContribution;
using PieceContributions = eval::PieceContributions;

class Engine {
  public:
    struct Callbacks {
        std::function<void(const search::SearchInfo&)> onInfo;
        std::function<void(chess::Move move, int number, int depth)> onCurrMove;
        std::function<void(chess::Move best, chess::Move ponder)> onBestMove;
        // Live nodes, speed and current move between completed iterations, about every
        // `Progress Interval` ms (never when the option is 0, its default).
        std::function<void(const search::SearchProgress&)> onProgress;
        // False: SearchInfo::hashfull stays 0 and the table is not sampled (search::
        // SearchCallbacks::hashfull), for callers that never show it and search tiny trees.
        bool hashfull = true;
    };

    explicit Engine(EngineLimits limits = {});
    ~Engine();

    Options& options() { return m_options; }
    const Options& options() const { return m_options; }
    bool chess960() const { return m_chess960; }

    // Sets the position from a FEN (or the start position when empty) and moves in UCI
    // notation. On error the current position is left unchanged.
    std::optional<std::string> setPosition(const std::string& fen,
                                           const std::vector<std::string>& moves);
    const chess::Position& position() const { return m_position; }
    // Plays a legal move of the current position, its repetition history kept: the same
    // position as setPosition with the move appended, without parsing a FEN and every move
    // since it again (datagen's games, a search of a few dozen nodes a ply).
    void playMove(chess::Move move) {
        assert(m_position.isPseudoLegal(move) && m_position.isLegal(move));
        m_position.makeMove(move);
    }

    // Starts a search of the current position. `settings` must pass checkSearchSettings.
    void go(const search::SearchLimits& limits, Callbacks callbacks,
            const SearchSettings& settings = {});
    // The same search run to its end on the calling thread (Searcher::run): for callers that
    // wait for every search anyway (datagen, genfens), where the hand-over to the search thread
    // costs more than a small search's worth of time. The callbacks run on this thread.
    void search(const search::SearchLimits& limits, Callbacks callbacks,
                const SearchSettings& settings = {});
    void stop();
    void ponderhit();
    void wait();
    bool searching() const { return m_searcher.searching(); }
    // Forget hash and histories (a new game).
    void newGame();

    // The strength limit the next search will use (disabled at full strength), from the options
    // unless `settings` says otherwise.
    search::SkillSettings skill(const SearchSettings& settings = {}) const;
    // Whether the front end should show the WDL estimate (UCI_ShowWDL); SearchInfo always has it.
    bool showWdl() const { return m_showWdl; }

    // The Syzygy tables of SyzygyPath (none: an empty set), for the front ends' own probes too
    // (the web server's tablebase panel).
    std::shared_ptr<const tablebase::Tablebases> tablebases() const { return m_tablebases; }
    // "Found 35 tablebases (...)": what SyzygyPath found, for an `info string`.
    std::string tablebaseSummary() const;
    // Damaged table files found by probes since the last call, each with what is wrong.
    std::vector<std::string> takeTablebaseErrors() const;
    // Uses `tables` instead of SyzygyPath's (the web server opens its tables once for every
    // session; datagen for every thread).
    void setTablebases(std::shared_ptr<const tablebase::Tablebases> tables);
    // The tables' answer for `pos`; reads only the tables, so a front end may ask while a search
    // runs.
    TablebaseReport tablebaseReport(const chess::Position& pos) const;

    std::string evalBreakdown() const;
    // Each piece's contribution to the static evaluation of `pos` (of the current position when
    // none is given): the evaluation minus the evaluation without that piece, kings excluded,
    // centipawns from White's point of view (eval::pieceContributions; docs/eval-pieces.md). Reads
    // only the evaluation source, so a front end may ask while a search runs.
    PieceContributions pieceContributions(const chess::Position& pos) const;
    PieceContributions pieceContributions() const { return pieceContributions(m_position); }
    const eval::EvalSource& evalSource() const { return m_evalSource; }
    std::string moveToString(chess::Move m) const;

  private:
    search::Searcher::Request makeRequest(const search::SearchLimits& limits, Callbacks callbacks,
                                          const SearchSettings& settings);

    Options m_options;
    search::Searcher m_searcher;
    chess::Position m_position;
    bool m_chess960 = false;
    int m_multiPv = 1;
    int m_moveOverheadMs = 10;
    int m_progressIntervalMs = 0;
    bool m_limitStrength = false;
    int m_elo = kDefaultElo;
    int m_skillLevel = search::kSkillMaxLevel;
    // Seeds the skill choice; mixed with the game number and the position for each search.
    std::uint64_t m_skillSeed = 0;
    std::uint64_t m_gameNumber = 0;
    bool m_showWdl = false;
    eval::EvalSource m_evalSource;
    std::shared_ptr<const tablebase::Tablebases> m_tablebases;
    search::TablebaseSettings m_tbSettings;

    static constexpr int kDefaultElo = 1500;
};

} // namespace axon::engine
