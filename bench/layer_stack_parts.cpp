// SPDX-License-Identifier: GPL-3.0-or-later
// bench/layer-stack-parts.sh's timer: the layer stack's evaluation split into its parts
// (pairwise products, the non-zero list, the first layer, the integer tail) on the native SIMD
// back end, nanoseconds per call, best of several rounds. The network is a random one of the
// given shape and the accumulators random with a given share above zero, so the parts' costs
// can be compared between builds and shapes; a trained network's sparsity differs (the first
// layer's cost scales with the number of non-zero input quads, printed).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "nn/layer_stack.h"
#include "util/prng.h"

using namespace axon;
using B = nn::simd::Native;

namespace {

volatile long long gSink = 0;

template <typename F>
double nanosecondsPerCall(int calls, F f) {
    double best = 1e30;
    for (int round = 0; round < 5; ++round) {
        const auto t0 = std::chrono::steady_clock::now();
        long long sink = 0;
        for (int i = 0; i < calls; ++i) sink += f(i);
        const double ns =
            std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
        gSink = gSink + sink;
        if (ns / calls < best) best = ns / calls;
    }
    return best;
}

} // namespace

int main(int argc, char** argv) {
    const int hidden = argc > 1 ? std::atoi(argv[1]) : 256;
    const int l1 = argc > 2 ? std::atoi(argv[2]) : 16;
    const int l2 = argc > 3 ? std::atoi(argv[3]) : 32;
    // Per mille of accumulator values above zero.
    const int positive = argc > 4 ? std::atoi(argv[4]) : 420;
    nn::Architecture a;
    a.hidden = hidden;
    a.outputBuckets = 8;
    a.l1 = l1;
    a.l2 = l2;
    if (auto e = nn::validateArchitecture(a)) {
        std::fprintf(stderr, "layer-stack-parts: %s\n", e->c_str());
        return 2;
    }
    const nn::Network net = nn::makeRandomNetwork(a, 3);
    util::Prng rng(5);
    constexpr int kSets = 1024;
    const auto h = std::size_t(hidden);
    std::vector<std::int16_t> acc(kSets * h);
    for (auto& x : acc)
        x = rng.below(1000) < std::uint64_t(positive) ? std::int16_t(1 + rng.below(254))
                                                      : std::int16_t(-int(rng.below(200)));
    // Every set's first-layer input, made once, so the later parts read realistic inputs.
    std::vector<std::uint8_t> inputs(kSets * h);
    for (int s = 0; s < kSets; ++s) {
        const std::int16_t* ours = &acc[std::size_t(s) * h];
        const std::int16_t* theirs = &acc[std::size_t((s + 1) % kSets) * h];
        nn::kernels::pairwiseProducts<B>(ours, &inputs[std::size_t(s) * h], hidden / 2, 255);
        nn::kernels::pairwiseProducts<B>(theirs, &inputs[std::size_t(s) * h] + hidden / 2,
                                         hidden / 2, 255);
    }
    constexpr int kCalls = 200000;
    alignas(64) std::uint8_t input[nn::kMaxHidden];
    alignas(64) std::int32_t sums[nn::kMaxL1];
    std::uint16_t quads[nn::kMaxHidden / 4 + 8];
    long long quadCount = 0;
    const double pairwise = nanosecondsPerCall(kCalls, [&](int i) {
        // Both perspectives, each a whole accumulator (as the inputs above were made).
        const std::int16_t* ours = &acc[std::size_t(i % kSets) * h];
        const std::int16_t* theirs = &acc[std::size_t((i + 1) % kSets) * h];
        nn::kernels::pairwiseProducts<B>(ours, input, hidden / 2, 255);
        nn::kernels::pairwiseProducts<B>(theirs, input + hidden / 2, hidden / 2, 255);
        return static_cast<long long>(input[i % hidden]);
    });
    const double nonZero = nanosecondsPerCall(kCalls, [&](int i) {
        const int n =
            nn::kernels::nonZeroQuads<B>(&inputs[std::size_t(i % kSets) * h], hidden / 4, quads);
        quadCount += n;
        return static_cast<long long>(n);
    });
    const double first = nanosecondsPerCall(kCalls, [&](int i) {
        nn::kernels::l1Layer<B>(&inputs[std::size_t(i % kSets) * h],
                                net.l1Weights.data() + std::size_t(i & 7) * std::size_t(l1) * h,
                                hidden, l1, sums);
        return static_cast<long long>(sums[i % l1]);
    });
    const double tail = nanosecondsPerCall(kCalls, [&](int i) {
        sums[i % l1] += 977 * (i & 15) - 7000;
        return static_cast<long long>(nn::finishLayerStack<B>(net, sums, i & 7));
    });
    const double whole = nanosecondsPerCall(kCalls, [&](int i) {
        return static_cast<long long>(nn::layerStackOutput<B>(
            net, &acc[std::size_t(i % kSets) * h], &acc[std::size_t((i + 1) % kSets) * h], i & 7));
    });
    std::printf("layer stack %d -> %d -> %d, %s, %.1f %% of accumulator values above zero\n",
                hidden, l1, l2, B::kName, positive / 10.0);
    std::printf("non-zero input quads: %.1f of %d\n", double(quadCount) / (5.0 * kCalls),
                hidden / 4);
    std::printf("pairwise products %7.1f ns\n", pairwise);
    std::printf("non-zero list     %7.1f ns\n", nonZero);
    std::printf("first layer       %7.1f ns (with its non-zero list)\n", first);
    std::printf("tail              %7.1f ns\n", tail);
    std::printf("whole stack       %7.1f ns\n", whole);
    return 0;
}
