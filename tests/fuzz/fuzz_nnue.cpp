// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the network file reader (.nnue, docs/nnue-format.md): any bytes are either rejected
// with a message or give a network that validates, serialises back to a file that reads as the
// same network, and evaluates positions incrementally and from scratch without a crash or a
// sanitizer report (a hostile file may make the scores nonsense, never the process unsafe).
#include <array>
#include <span>

#include "chess/fen.h"
#include "chess/movegen.h"
#include "fuzz_check.h"
#include "nn/accumulator.h"
#include "nn/network_file.h"

using namespace axon;
using fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::span<const std::uint8_t> bytes(data, size);
    auto header = nn::readNetHeader(bytes);
    auto net = nn::readNetwork(bytes);
    if (!net) {
        require(!net.error().empty(), "a rejected network file has a message");
        return 0;
    }
    require(header.ok(), "a readable network has a readable header");
    require(!net->validate(), "a network read from a file validates");
    const std::vector<std::uint8_t> written = nn::serializeNetwork(*net);
    auto again = nn::readNetwork(written);
    require(again.ok(), "a serialised network reads back", again ? "" : again.error());
    require(*again == *net, "serialise-then-read keeps the network");

    // Evaluate a few positions, with one incremental move each.
    static const std::array<const char*, 3> kFens = {
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2k5/8/8/8/8/5K2/8 b - - 0 1"};
    nn::AccumulatorStack stack(*net);
    for (const char* fen : kFens) {
        auto pos = chess::parseFen(fen);
        require(pos.ok(), "test FEN parses", fen);
        stack.reset(*pos);
        (void)stack.evaluate(*pos);
        (void)nn::evaluateReference(*net, *pos);
        const chess::MoveList moves(*pos);
        if (moves.size() == 0) continue;
        chess::Position next = *pos;
        stack.push(next, moves[0]);
        next.makeMove(moves[0]);
        (void)stack.evaluate(next);
        stack.pop();
    }
    return 0;
}
