// SPDX-License-Identifier: GPL-3.0-or-later
// Creates the engine object that speaks an engine configuration's protocol.
#pragma once

#include <memory>

#include "match/engine.h"

namespace axon::match {

std::unique_ptr<Engine> makeEngine(const EngineConfig& config);

} // namespace axon::match
