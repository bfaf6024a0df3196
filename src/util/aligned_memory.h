// SPDX-License-Identifier: GPL-3.0-or-later
// Large aligned blocks (the transposition table): one allocation call for every platform
// (std::aligned_alloc has no Windows counterpart under that name), and transparent huge pages on
// Linux, so a table of hundreds of MiB costs fewer TLB misses.
#pragma once

#include <cstddef>

namespace axon::util {

// At least `alignment` (a power of two) aligned; null when memory runs out. Blocks of 2 MiB or
// more are aligned to 2 MiB and, on Linux, advised as huge-page memory (madvise MADV_HUGEPAGE).
void* allocateLarge(std::size_t bytes, std::size_t alignment);
// Frees what allocateLarge returned (null is allowed).
void freeLarge(void* block);

// Zeroes `bytes` bytes from `block` on up to `threads` threads (a large hash table's clear,
// which one thread's memset makes a noticeable pause at `ucinewgame`).
void zeroInParallel(void* block, std::size_t bytes, int threads);

} // namespace axon::util
