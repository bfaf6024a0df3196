// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the engine-match PGN converter (`axon convert --from pgn`): any text is read game by
// game without a crash, every record written is valid and within the recorded score bound, and
// the comment reader's answers stay within their ranges.
#include <sstream>

#include "data/datagen.h"
#include "data/engine_pgn.h"
#include "data/lichess_pgn.h"
#include "fuzz_check.h"

using namespace axon;
using fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(fuzz::asText(data, size));

    const data::EngineComment comment = data::parseEngineComment(text);
    if (comment.kind == data::EngineComment::Kind::Score) {
        require(comment.score >= -data::kRecordScoreLimit &&
                    comment.score <= data::kRecordScoreLimit,
                "a comment's score within +-32000", text);
        require(comment.depth >= 0, "a comment's depth is not negative", text);
    }

    std::istringstream in(text);
    data::MemorySink sink;
    data::ConvertStats stats;
    data::ConvertOutput out(sink, stats);
    require(data::convertEnginePgn(in, out).empty(), "only a failing sink is an error", text);
    for (const data::TrainingRecord& r : sink.records) {
        require(!data::validateRecord(r).has_value(), "every record is valid", text);
        require(r.score >= -data::kMaxRecordedScore && r.score <= data::kMaxRecordedScore,
                "decided scores are left out", text);
    }
    return 0;
}
