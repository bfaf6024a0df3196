// SPDX-License-Identifier: GPL-3.0-or-later
// What a binary is: Axon's version, the commit it was built from, the instruction set it was
// compiled for and the embedded network's hash. `axon --version` prints it; `id name` carries
// the version; the release notes quote it.
#pragma once

#include <string>

namespace axon::engine {

// "0.2.0" (the VERSION file at build time).
std::string version();
// The short commit hash the build came from ("unknown" outside a git checkout); "-dirty" marks
// a tree with uncommitted changes.
std::string buildCommit();
// The instruction set the code was compiled for, as release names go: "x86-64-v3 (AVX2, BMI2)",
// "aarch64 (NEON)", "wasm32 (SIMD128)", ...
std::string instructionSet();
// The embedded network's content hash as 16 hex digits (docs/nnue-format.md), or "none".
std::string embeddedNetworkHash();
// All of it, one fact per line, for --version.
std::string versionText();

} // namespace axon::engine
