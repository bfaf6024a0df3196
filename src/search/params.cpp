// SPDX-License-Identifier: GPL-3.0-or-later
// The list of tunable search parameters a tune build exposes (search/params.h).
#include "search/params.h"

namespace axon::search::params {

#ifdef AXON_TUNE
namespace {
#define AXON_PARAM_ENTRY(name, value, lo, hi) Tunable{#name, value, lo, hi, &name},
const Tunable kTunables[] = {AXON_SEARCH_PARAMS(AXON_PARAM_ENTRY)};
#undef AXON_PARAM_ENTRY
} // namespace

std::span<const Tunable> tunables() { return kTunables; }
#else
std::span<const Tunable> tunables() { return {}; }
#endif

} // namespace axon::search::params
