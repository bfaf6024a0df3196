// SPDX-License-Identifier: GPL-3.0-or-later
// The search with a network: its accumulators follow every make/unmake (each evaluation is
// checked against a from-scratch one), it is deterministic, and EvalFile loads and rejects
// files as it should.
#include <filesystem>

#include "engine/bench.h"
#include "engine/engine.h"
#include "engine/eval_file.h"
#include "nn/float_model.h"
#include "nn/float_network.h"
#include "nn/network_file.h"
#include "nn/safetensors_network.h"
#include "search/searcher.h"
#include "test_helpers.h"

namespace axon::test {
namespace {

using namespace search;

std::shared_ptr<const nn::Network> randomNetwork(bool mirror, int inputBuckets, int outputBuckets) {
    nn::Architecture arch;
    arch.hidden = 64;
    arch.mirror = mirror;
    arch.inputBuckets = inputBuckets;
    arch.bucketMap = nn::evenBucketMap(inputBuckets);
    arch.outputBuckets = outputBuckets;
    return std::make_shared<const nn::Network>(nn::makeRandomNetwork(arch, 99));
}

SearchResult searchWith(const eval::EvalSource& source, const std::string& fenText,
                        std::uint64_t nodes, Searcher& searcher) {
    Searcher::Request request;
    request.position = fen(fenText);
    request.limits.nodes = nodes;
    request.evalSource = source;
    SearchResult result;
    request.onDone = [&](const SearchResult& r) { result = r; };
    searcher.start(std::move(request));
    searcher.wait();
    return result;
}

const char* const kPositions[] = {
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", // castling both ways
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",        // en passant
    "8/P1k5/8/8/8/8/5Kp1/8 w - - 0 1",                                      // promotions
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",                            // king walks
};

TEST(SearchNetwork, AccumulatorsFollowTheTree) {
    eval::Evaluator::setVerification(true);
    for (const auto& net :
         {randomNetwork(false, 1, 1), randomNetwork(true, 4, 8), randomNetwork(true, 1, 1)}) {
        Searcher searcher;
        for (const char* f : kPositions) {
            const auto r = searchWith(eval::EvalSource{net, {}}, f, 20000, searcher);
            EXPECT_TRUE(r.bestMove) << f;
        }
    }
    eval::Evaluator::setVerification(false);
}

TEST(SearchNetwork, FixedNodeSearchesAreReproducible) {
    const auto net = randomNetwork(true, 4, 8);
    for (const char* f : kPositions) {
        Searcher a, b;
        const auto ra = searchWith(eval::EvalSource{net, {}}, f, 30000, a);
        const auto rb = searchWith(eval::EvalSource{net, {}}, f, 30000, b);
        EXPECT_EQ(ra.bestMove, rb.bestMove) << f;
        EXPECT_EQ(ra.score, rb.score) << f;
        EXPECT_EQ(ra.nodes, rb.nodes) << f;
    }
}

TEST(SearchNetwork, EvalFileLoadsAndRejects) {
    const std::string good = test::uniqueTempPath("evalfile.nnue").string();
    ASSERT_FALSE(nn::writeNetworkFile(*randomNetwork(false, 1, 1), good));
    engine::Engine e;
    const auto before = e.evalSource();
    EXPECT_EQ(before.network, engine::embeddedNetwork());

    EXPECT_FALSE(e.options().set("EvalFile", good));
    ASSERT_TRUE(e.evalSource().network);
    EXPECT_EQ(e.evalSource().network->arch.hidden, 64);

    // A truncated file is refused and the network in use stays.
    const std::string bad = test::uniqueTempPath("evalfile-bad.nnue").string();
    std::filesystem::copy_file(good, bad, std::filesystem::copy_options::overwrite_existing);
    std::filesystem::resize_file(bad, 1000);
    const auto inUse = e.evalSource();
    EXPECT_TRUE(e.options().set("EvalFile", bad));
    EXPECT_EQ(e.evalSource(), inUse);
    EXPECT_TRUE(e.options().set("EvalFile", "/nonexistent/net.nnue"));
    EXPECT_EQ(e.evalSource(), inUse);

    EXPECT_FALSE(e.options().set("EvalFile", engine::kHandWrittenEvalName));
    EXPECT_FALSE(e.evalSource().network);
    EXPECT_FALSE(e.options().set("EvalFile", engine::kEmbeddedEvalName));
    EXPECT_EQ(e.evalSource(), before);
    std::filesystem::remove(good);
    std::filesystem::remove(bad);
}

TEST(SearchNetwork, EvalFilePlaysFloatModels) {
    const auto net = randomNetwork(false, 1, 1);
    const std::string path = test::uniqueTempPath("evalfile-float.safetensors").string();
    ASSERT_FALSE(nn::writeFloatNetworkSafetensors(nn::dequantise(*net), path));
    engine::Engine e;
    // Without a loader (the WebAssembly build) the file is refused.
    engine::setFloatModelLoader({});
    EXPECT_TRUE(e.options().set("EvalFile", path));
    engine::setFloatModelLoader(
        [](const std::string& p) -> util::Result<std::shared_ptr<const nn::FloatModel>> {
            auto m = nn::loadFloatModel(p);
            if (!m) return util::makeError(m.error());
            return std::shared_ptr<const nn::FloatModel>(std::move(*m));
        });
    ASSERT_FALSE(e.options().set("EvalFile", path));
    ASSERT_TRUE(e.evalSource().floatModel);
    // The float evaluation of the dequantised network is the quantised one up to rounding.
    const auto pos = fen(kPositions[0]);
    const int quantised = eval::evaluateOnce(eval::EvalSource{net, {}}, pos);
    EXPECT_NEAR(eval::evaluateOnce(e.evalSource(), pos), quantised, 3);
    Searcher searcher;
    const auto r = searchWith(e.evalSource(), kPositions[0], 3000, searcher);
    EXPECT_TRUE(r.bestMove);
    engine::setFloatModelLoader({});
    std::filesystem::remove(path);
}

} // namespace
} // namespace axon::test
