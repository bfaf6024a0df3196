// SPDX-License-Identifier: GPL-3.0-or-later
#include "util/aligned_memory.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "util/parallel.h"

#if defined(_WIN32)
#include <malloc.h>
#elif defined(__linux__)
#include <sys/mman.h>
#endif

namespace axon::util {

namespace {
constexpr std::size_t kHugePage = std::size_t(2) << 20;
}

void* allocateLarge(std::size_t bytes, std::size_t alignment) {
    const bool huge = bytes >= kHugePage;
    if (huge) alignment = std::max(alignment, kHugePage);
    // aligned_alloc wants a size that is a multiple of the alignment.
    const std::size_t size = (bytes + alignment - 1) / alignment * alignment;
#if defined(_WIN32)
    void* block = ::_aligned_malloc(size, alignment);
#else
    void* block = std::aligned_alloc(alignment, size);
#endif
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    // Advice only: without THP (or with it set to "never") the pages stay small.
    if (block && huge) ::madvise(block, size, MADV_HUGEPAGE);
#endif
    return block;
}

void freeLarge(void* block) {
#if defined(_WIN32)
    ::_aligned_free(block);
#else
    std::free(block);
#endif
}

void zeroInParallel(void* block, std::size_t bytes, int threads) {
    auto* base = static_cast<unsigned char*>(block);
    // Under 32 MiB a slice, a thread's start costs about what it saves.
    constexpr std::size_t kPerThreadMinimum = std::size_t(32) << 20;
    std::size_t count = std::size_t(std::max(1, threads));
    count = std::min(count, std::max<std::size_t>(1, bytes / kPerThreadMinimum));
#ifdef AXON_NO_THREADS
    count = 1;
#endif
    // Page-aligned slices, so no two threads touch one page.
    const std::size_t slice = (bytes / count + 4095) / 4096 * 4096;
    parallelFor(int(count), [&](int i) {
        const std::size_t begin = std::min(bytes, std::size_t(i) * slice);
        const std::size_t end = std::min(bytes, begin + slice);
        std::memset(base + begin, 0, end - begin);
    });
}

} // namespace axon::util
