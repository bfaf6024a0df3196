// SPDX-License-Identifier: GPL-3.0-or-later
// UCI or CECP by the configuration's protocol.
#include "match/engine_factory.h"

#include "match/uci_engine.h"
#include "match/xboard_engine.h"

namespace axon::match {

std::unique_ptr<Engine> makeEngine(const EngineConfig& config) {
    if (config.protocol == Protocol::Xboard) return std::make_unique<XboardEngine>(config);
    return std::make_unique<UciEngine>(config);
}

} // namespace axon::match
