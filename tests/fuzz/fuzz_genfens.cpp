// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes genfens's argument parser (the words OpenBench, or anyone who can start the engine,
// puts after `genfens`): any text is either rejected with a message or gives a request inside
// the bounds that keep generation finite.
#include "engine/genfens.h"
#include "fuzz_check.h"

using namespace axon::engine;
using axon::fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text = axon::fuzz::asText(data, size);
    auto request = parseGenfensArguments(text);
    if (!request) {
        require(!request.error().empty(), "a rejected request has a message", std::string(text));
        return 0;
    }
    require(request->count >= 1 && request->count <= kGenfensMaxCount, "count within bounds",
            std::string(text));
    require(request->basePlies() >= 0 && request->basePlies() <= kGenfensMaxPlies,
            "plies within bounds", std::string(text));
    require(request->nodes >= 1 && request->nodes <= kGenfensMaxNodes, "nodes within bounds",
            std::string(text));
    require(request->maxScore >= 0, "a window to accept openings in", std::string(text));
    return 0;
}
