// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the Syzygy file reader (src/tablebase): the first byte chooses a table and its kind
// (WDL or DTZ), the rest is the file. Any bytes are either refused with a message naming the
// table, or give a table whose probes of positions with its material answer with a value in the
// format's range or fail, without a crash, a hang or a sanitizer report.
#include <array>
#include <vector>

#include "chess/position.h"
#include "fuzz_check.h"
#include "tablebase/table_file.h"
#include "util/prng.h"

using namespace axon;
using fuzz::require;

namespace {

struct Choice {
    const char* name;
    tablebase::TableKind kind;
};
// Pawnless and pawnful, symmetric and not, unique pieces and pairs.
constexpr std::array<Choice, 10> kChoices = {{
    {"KQvK", tablebase::TableKind::Wdl},
    {"KRvK", tablebase::TableKind::Dtz},
    {"KPvK", tablebase::TableKind::Wdl},
    {"KPvK", tablebase::TableKind::Dtz},
    {"KRvKR", tablebase::TableKind::Dtz},
    {"KBvKN", tablebase::TableKind::Wdl},
    {"KNNvK", tablebase::TableKind::Dtz},
    {"KPvKP", tablebase::TableKind::Dtz},
    {"KRPvK", tablebase::TableKind::Wdl},
    {"KNvKP", tablebase::TableKind::Dtz},
}};

// A legal position with the table's material (either colour first), or nothing after many tries.
bool randomPosition(util::Prng& rng, const tablebase::Material& m, chess::Position& pos) {
    for (int attempt = 0; attempt < 50; ++attempt) {
        pos.clear();
        const bool swap = rng.below(2);
        chess::Bitboard used = 0;
        bool ok = true;
        auto place = [&](chess::Piece p) {
            for (int i = 0; i < 64; ++i) {
                const auto s = chess::Square(rng.below(64));
                if ((used & chess::squareBB(s)) ||
                    (chess::typeOf(p) == chess::Pawn &&
                     (chess::rankOf(s) == 0 || chess::rankOf(s) == 7)))
                    continue;
                used |= chess::squareBB(s);
                pos.putPiece(p, s);
                return;
            }
            ok = false;
        };
        for (int c = 0; c < 2; ++c) {
            const auto colour = chess::Color(c ^ int(swap));
            place(chess::makePiece(colour, chess::King));
            for (int t = 0; t < 5; ++t)
                for (int n = 0; n < m.count[c][t]; ++n)
                    place(chess::makePiece(colour, chess::PieceType(t)));
        }
        pos.setSideToMove(chess::Color(rng.below(2)));
        pos.setCounters(0, 1);
        pos.finishSetup();
        if (ok && !pos.validate()) return true;
    }
    return false;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const Choice& choice = kChoices[data[0] % kChoices.size()];
    const auto material = tablebase::parseTableName(choice.name);
    require(material.has_value(), "the fuzz target's table names parse", choice.name);
    const auto info = tablebase::TableInfo::fromMaterial(*material);
    auto table = tablebase::TableFile::fromBytes(std::vector<std::uint8_t>(data + 1, data + size),
                                                 choice.kind, info);
    if (!table) {
        require(table.error().find(choice.name) != std::string::npos,
                "a refused table file is named in the message", table.error());
        return 0;
    }
    util::Prng rng(size);
    chess::Position pos;
    for (int i = 0; i < 64; ++i) {
        if (!randomPosition(rng, *material, pos)) break;
        for (int wdl : {-2, -1, 1, 2}) {
            int value = 0;
            const auto raw = (*table)->probe(pos, wdl, value);
            if (raw != tablebase::RawProbe::Ok) continue;
            if (choice.kind == tablebase::TableKind::Wdl)
                require(value >= -2 && value <= 2, "a WDL value is from -2 to 2");
            else
                require(value >= 1, "a DTZ distance is positive");
            if (choice.kind == tablebase::TableKind::Wdl) break;
        }
    }
    return 0;
}
