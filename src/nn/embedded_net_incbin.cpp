// SPDX-License-Identifier: GPL-3.0-or-later
// The embedded network for the compiler-only build (the Makefile): the assembler's .incbin
// copies the file named by AXON_NET_FILE into the binary, so no generator tool is needed. The
// CMake build writes the same bytes as a C++ array instead (cmake/embed_net.cmake), which
// Emscripten's assembler needs. Without AXON_NET_FILE the build embeds no network.
#include "nn/embedded_net.h"

#ifdef AXON_NET_FILE

#if defined(__APPLE__)
#define AXON_SYMBOL(name) "_" #name
#define AXON_RODATA ".const_data"
#elif defined(_WIN32)
#define AXON_SYMBOL(name) #name
#define AXON_RODATA ".section .rdata,\"dr\""
#else
#define AXON_SYMBOL(name) #name
#define AXON_RODATA ".section .rodata"
#endif

// Aligned to 64 bytes, as the C++ array is, for the reader's sake.
__asm__(AXON_RODATA
        "\n"
        ".balign 64\n"
        ".globl " AXON_SYMBOL(axonEmbeddedNetBegin) "\n" AXON_SYMBOL(
            axonEmbeddedNetBegin) ":\n"
                                  ".incbin \"" AXON_NET_FILE "\"\n"
                                  ".globl " AXON_SYMBOL(axonEmbeddedNetEnd) "\n" AXON_SYMBOL(
                                      axonEmbeddedNetEnd) ":\n"
                                                          ".byte 0\n"
                                                          ".text\n");

extern "C" const std::uint8_t axonEmbeddedNetBegin[];
extern "C" const std::uint8_t axonEmbeddedNetEnd[];

namespace axon::nn {
std::span<const std::uint8_t> embeddedNetworkBytes() {
    return {axonEmbeddedNetBegin, std::size_t(axonEmbeddedNetEnd - axonEmbeddedNetBegin)};
}
} // namespace axon::nn

#else

namespace axon::nn {
std::span<const std::uint8_t> embeddedNetworkBytes() { return {}; }
} // namespace axon::nn

#endif
