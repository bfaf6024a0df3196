// SPDX-License-Identifier: GPL-3.0-or-later
// Float models: board encodings put the right bits in the right places, a hand-computed MLP
// and CNN loaded from safetensors give exactly the expected outputs, and inconsistent files are
// refused with a message naming the problem.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "chess/attacks.h"
#include "nn/board_encoding.h"
#include "nn/cnn.h"
#include "nn/dense_mlp.h"
#include "nn/float_model.h"
#include "nn_test_helpers.h"

using namespace axon;
using chess::Square;

namespace {

constexpr int kOneHotInputs = 773;
constexpr int kStmIndex = 768; // onehot768+: side to move follows the 12 x 64 piece planes

int pieceIndex(chess::Piece p, Square s) { return int(p) * chess::kNumSquares + int(s); }

std::vector<float> encode(nn::BoardEncoding e, const std::string& fen) {
    std::vector<float> out(std::size_t(nn::encodingShape(e).size()), -1.0f);
    nn::encodeBoard(e, test::fen(fen), out);
    return out;
}

chess::Bitboard planeBits(const std::vector<float>& v, int plane) {
    chess::Bitboard b = 0;
    for (int s = 0; s < chess::kNumSquares; ++s)
        if (v[std::size_t(plane * chess::kNumSquares + s)] == 1.0f) b |= chess::squareBB(Square(s));
    return b;
}

struct Tensor {
    std::string name;
    std::vector<std::uint64_t> shape;
    std::vector<float> data;
};

util::Result<std::unique_ptr<nn::FloatModel>> modelFrom(const std::vector<Tensor>& tensors,
                                                        const std::string& description) {
    std::vector<nn::TensorToWrite> toWrite;
    for (const Tensor& t : tensors) toWrite.push_back({t.name, t.shape, t.data});
    std::map<std::string, std::string> meta;
    if (!description.empty()) meta[nn::kFloatModelMetadataKey] = description;
    auto bytes = nn::serializeSafetensors(toWrite, meta);
    EXPECT_TRUE(bytes.ok());
    auto st = nn::parseSafetensors(*bytes);
    EXPECT_TRUE(st.ok());
    return nn::parseFloatModel(*st);
}

// The hand-computed MLP over onehot768+ (weights in PyTorch's [out, in] layout):
//   h0 = relu(0.5 * whiteToMove + 0.25 * whitePawns - 1)
//   h1 = relu(0.125 * blackPieces)
//   out = 2 * h0 - h1 + 0.5,   centipawns = 100 * out from White's view
std::vector<Tensor> handMlpTensors() {
    Tensor w1{"fc1.weight", {2, kOneHotInputs}, std::vector<float>(2 * kOneHotInputs, 0.0f)};
    w1.data[kStmIndex] = 0.5f;
    for (int s = 0; s < 64; ++s) {
        w1.data[std::size_t(pieceIndex(chess::WhitePawn, Square(s)))] = 0.25f;
        for (int p = chess::BlackPawn; p <= chess::BlackKing; ++p)
            w1.data[std::size_t(kOneHotInputs + pieceIndex(chess::Piece(p), Square(s)))] = 0.125f;
    }
    return {w1,
            {"fc1.bias", {2}, {-1.0f, 0.0f}},
            {"fc2.weight", {1, 2}, {2.0f, -1.0f}},
            {"fc2.bias", {1}, {0.5f}}};
}

const char* kHandMlp = R"({"format": "axon-float-model", "version": 1, "model": "mlp",
    "encoding": "onehot768+", "scale": 100, "perspective": "white",
    "layers": [{"weight": "fc1.weight", "bias": "fc1.bias", "activation": "relu"},
               {"weight": "fc2.weight", "bias": "fc2.bias", "activation": "none"}]})";

// The hand-computed CNN over onehot768+'s 12 planes: one 3x3 convolution reading only the
// White king plane, out[y][x] = relu(K[y][x] + 0.5 K[y][x+1] + 0.25 K[y+1][x]) (y = rank,
// x = file, zero outside the board), then one dense output with weight i + 1 on square i and
// 1 on the side-to-move scalar; centipawns = 10 * out from the side to move's view.
std::vector<Tensor> handCnnTensors() {
    Tensor conv{"conv.weight", {1, 12, 3, 3}, std::vector<float>(12 * 9, 0.0f)};
    float* king = conv.data.data() + chess::WhiteKing * 9;
    king[1 * 3 + 1] = 1.0f;  // ky 1, kx 1: the square itself
    king[1 * 3 + 2] = 0.5f;  // kx 2: the square one file right
    king[2 * 3 + 1] = 0.25f; // ky 2: the square one rank up
    Tensor dense{"fc.weight", {1, 69}, std::vector<float>(69, 0.0f)};
    for (int i = 0; i < 64; ++i) dense.data[std::size_t(i)] = float(i + 1);
    dense.data[64] = 1.0f;
    return {conv, {"conv.bias", {1}, {0.0f}}, dense};
}

const char* kHandCnn = R"({"format": "axon-float-model", "version": 1, "model": "cnn",
    "encoding": "onehot768+", "scale": 10, "perspective": "side_to_move",
    "conv": [{"weight": "conv.weight", "bias": "conv.bias", "activation": "relu"}],
    "layers": [{"weight": "fc.weight", "bias": null, "activation": "none"}]})";

std::string replaced(std::string s, const std::string& from, const std::string& to) {
    const auto at = s.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return s.replace(at, from.size(), to);
}

} // namespace

TEST(BoardEncoding, NamesAndSizes) {
    EXPECT_EQ(nn::encodingShape(nn::BoardEncoding::OneHot768Plus).size(), 773);
    EXPECT_EQ(nn::encodingShape(nn::BoardEncoding::Planes14Plus6).size(), 902);
    EXPECT_EQ(nn::parseEncoding("onehot768+"), nn::BoardEncoding::OneHot768Plus);
    EXPECT_EQ(nn::parseEncoding("planes8x8x14+6"), nn::BoardEncoding::Planes14Plus6);
    EXPECT_EQ(nn::parseEncoding("onehot768"), std::nullopt);
}

TEST(BoardEncoding, OneHotStartPosition) {
    const auto v = encode(nn::BoardEncoding::OneHot768Plus,
                          "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    ASSERT_EQ(v.size(), 773u);
    int ones = 0;
    for (int i = 0; i < 768; ++i) {
        EXPECT_TRUE(v[std::size_t(i)] == 0.0f || v[std::size_t(i)] == 1.0f) << i;
        ones += v[std::size_t(i)] == 1.0f;
    }
    EXPECT_EQ(ones, 32);
    EXPECT_EQ(v[std::size_t(pieceIndex(chess::WhiteKing, chess::E1))], 1.0f);
    EXPECT_EQ(v[std::size_t(pieceIndex(chess::WhitePawn, chess::A2))], 1.0f);
    EXPECT_EQ(v[std::size_t(pieceIndex(chess::BlackQueen, chess::D8))], 1.0f);
    EXPECT_EQ(v[std::size_t(pieceIndex(chess::BlackPawn, chess::H7))], 1.0f);
    EXPECT_EQ(v[std::size_t(pieceIndex(chess::WhiteQueen, chess::D8))], 0.0f);
    EXPECT_EQ(planeBits(v, chess::WhiteKnight),
              chess::squareBB(chess::B1) | chess::squareBB(chess::G1));
    // Side to move (White), then castling White O-O, O-O-O, Black O-O, O-O-O.
    EXPECT_EQ(std::vector<float>(v.begin() + 768, v.end()), (std::vector<float>{1, 1, 1, 1, 1}));
}

TEST(BoardEncoding, ScalarsFollowTheFen) {
    // En passant is possible (e5xd6), Black may castle long, White short.
    const auto v =
        encode(nn::BoardEncoding::Planes14Plus6, "r3k2r/8/8/3pP3/8/8/8/R3K2R w Kq d6 0 1");
    ASSERT_EQ(v.size(), 902u);
    EXPECT_EQ(std::vector<float>(v.begin() + 896, v.end()), (std::vector<float>{1, 1, 0, 0, 1, 1}));
    const auto b = encode(nn::BoardEncoding::OneHot768Plus, "r3k2r/8/8/3pP3/8/8/8/R3K2R b - - 0 1");
    EXPECT_EQ(std::vector<float>(b.begin() + 768, b.end()), (std::vector<float>{0, 0, 0, 0, 0}));
    // An en-passant square no pawn can capture on is not "en passant possible".
    const auto n = encode(nn::BoardEncoding::Planes14Plus6, "4k3/8/8/3p4/8/8/8/4K3 w - d6 0 1");
    EXPECT_EQ(n[901], 0.0f);
}

TEST(BoardEncoding, AttackPlanes) {
    const auto v = encode(nn::BoardEncoding::Planes14Plus6, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    using chess::squareBB;
    // The rook sees up the a-file and along the first rank up to its own king (included).
    chess::Bitboard white = (chess::fileBB(0) & ~squareBB(chess::A1)) | squareBB(chess::B1) |
                            squareBB(chess::C1) | squareBB(chess::D1) | squareBB(chess::E1);
    white |= chess::kingAttacks(chess::E1);
    EXPECT_EQ(planeBits(v, nn::kWhiteAttackPlane), white);
    EXPECT_EQ(planeBits(v, nn::kBlackAttackPlane), chess::kingAttacks(chess::E8));
    EXPECT_EQ(planeBits(v, chess::WhiteRook), squareBB(chess::A1));
    EXPECT_EQ(planeBits(v, chess::BlackKing), squareBB(chess::E8));
    // Pawns attack diagonally forward, whatever stands there.
    const auto p = encode(nn::BoardEncoding::Planes14Plus6, "4k3/8/8/8/8/8/3P4/4K3 b - - 0 1");
    EXPECT_EQ(planeBits(p, nn::kWhiteAttackPlane),
              squareBB(chess::C3) | squareBB(chess::E3) | chess::kingAttacks(chess::E1));
}

TEST(FloatActivation, Values) {
    using A = nn::FloatActivation;
    auto apply = [](A a, float x) {
        float v[1] = {x};
        nn::applyActivation(a, v);
        return v[0];
    };
    EXPECT_EQ(apply(A::None, -3.0f), -3.0f);
    EXPECT_EQ(apply(A::ReLU, -3.0f), 0.0f);
    EXPECT_EQ(apply(A::ReLU, 3.0f), 3.0f);
    EXPECT_EQ(apply(A::CReLU, 3.0f), 1.0f);
    EXPECT_EQ(apply(A::CReLU, 0.25f), 0.25f);
    EXPECT_EQ(apply(A::SCReLU, 0.5f), 0.25f);
    EXPECT_EQ(apply(A::SCReLU, 2.0f), 1.0f);
    EXPECT_EQ(apply(A::SCReLU, -1.0f), 0.0f);
    EXPECT_EQ(apply(A::Tanh, 0.0f), 0.0f);
    EXPECT_FLOAT_EQ(apply(A::Tanh, 1.0f), std::tanh(1.0f));
    EXPECT_EQ(apply(A::Sigmoid, 0.0f), 0.5f);
    for (A a : {A::None, A::ReLU, A::CReLU, A::SCReLU, A::Tanh, A::Sigmoid})
        EXPECT_EQ(nn::parseActivation(nn::activationName(a)), a);
    EXPECT_EQ(nn::parseActivation("gelu"), std::nullopt);
}

TEST(FloatModel, HandComputedMlp) {
    auto model = modelFrom(handMlpTensors(), kHandMlp);
    ASSERT_TRUE(model.ok()) << model.error();
    const auto& m = **model;
    // White to move: h0 = 0.5 + 2 - 1 = 1.5, h1 = 2, out = 3 - 2 + 0.5 = 1.5.
    EXPECT_EQ(m.evaluate(test::fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")),
              150.0f);
    // Black to move: h0 = 1, out = 0.5 from White's view, so -50 for Black.
    EXPECT_EQ(m.evaluate(test::fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1")),
              -50.0f);
    // h0 = relu(-1) = 0, h1 = 0.125, out = 0.375.
    EXPECT_EQ(m.evaluate(test::fen("4k3/8/8/8/8/8/8/4K3 b - - 0 1")), -37.5f);
    EXPECT_EQ(m.describe(),
              "mlp over onehot768+: 773 -> 2 (relu) -> 1 (none), scale 100, white view");

    // The same network read as scoring for the side to move.
    auto stm = modelFrom(handMlpTensors(), replaced(kHandMlp, "\"white\"", "\"side_to_move\""));
    ASSERT_TRUE(stm.ok()) << stm.error();
    EXPECT_EQ(
        (*stm)->evaluate(test::fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1")),
        50.0f);
}

TEST(FloatModel, HandComputedCnn) {
    auto model = modelFrom(handCnnTensors(), kHandCnn);
    ASSERT_TRUE(model.ok()) << model.error();
    const auto& m = **model;
    // King e1 (square 4): out[4] = 1, out[3] = 0.5: 1 * 5 + 0.5 * 4 + side to move 1 = 8.
    EXPECT_EQ(m.evaluate(test::fen("k7/8/8/8/8/8/8/4K3 w - - 0 1")), 80.0f);
    // King h2 (15): out[15] = 1, out[14] = 0.5, out[7] = 0.25 (rank below); the file to the
    // right is padding: 16 + 7.5 + 2 = 25.5, Black to move adds nothing.
    EXPECT_EQ(m.evaluate(test::fen("k7/8/8/8/8/8/7K/8 b - - 0 1")), 255.0f);
    // King a8 (56): out[56] = 1, out[48] = 0.25: 57 + 12.25 + 1 = 70.25.
    EXPECT_EQ(m.evaluate(test::fen("K6k/8/8/8/8/8/8/8 w - - 0 1")), 702.5f);
}

TEST(FloatModel, RefusesInconsistentShapesAndDescriptions) {
    auto errorOf = [](const std::vector<Tensor>& tensors, const std::string& description) {
        auto m = modelFrom(tensors, description);
        return m ? std::string("(accepted)") : m.error();
    };
    const auto mlp = handMlpTensors();
    auto with = [](std::vector<Tensor> tensors, const Tensor& t) {
        for (Tensor& x : tensors)
            if (x.name == t.name) x = t;
        return tensors;
    };
    struct Case {
        std::string error;
        const char* expected;
    };
    const std::vector<Case> cases = {
        {errorOf(with(mlp, {"fc1.weight", {2, 772}, std::vector<float>(2 * 772)}), kHandMlp),
         "has shape [2, 772], expected [outputs, 773]"},
        {errorOf(with(mlp, {"fc1.bias", {3}, {0, 0, 0}}), kHandMlp),
         "'fc1.bias' has shape [3], expected [2]"},
        {errorOf(with(mlp, {"fc2.weight", {2, 2}, {1, 1, 1, 1}}), kHandMlp),
         "'fc2.bias' has shape [1], expected [2]"},
        {errorOf(with(with(mlp, {"fc2.weight", {2, 2}, {1, 1, 1, 1}}), {"fc2.bias", {2}, {0, 0}}),
                 kHandMlp),
         "the last layer has 2 outputs, expected 1"},
        {errorOf({mlp[0], mlp[1]}, kHandMlp), "missing tensor 'fc2.weight'"},
        {errorOf(mlp, replaced(kHandMlp, "\"none\"", "\"gelu\"")), "unknown activation 'gelu'"},
        {errorOf(mlp, replaced(kHandMlp, "onehot768+", "onehot")), "'encoding' must be"},
        {errorOf(mlp, replaced(kHandMlp, "\"perspective\": \"white\",", "")),
         "'perspective' must be"},
        {errorOf(mlp, replaced(kHandMlp, "\"scale\": 100", "\"scale\": -1")),
         "'scale' must be a positive number"},
        {errorOf(mlp, replaced(kHandMlp, "\"version\": 1", "\"version\": 9")),
         "'version' must be 1"},
        {errorOf(mlp, replaced(kHandMlp, "\"layers\"", "\"layer\"")), "unknown key 'layer'"},
        {errorOf(mlp, replaced(kHandMlp, "\"layers\": [", "\"layers\": [], \"comment\": [")),
         "'layers' must be a non-empty array"},
        {errorOf(mlp,
                 replaced(kHandMlp, "\"model\": \"mlp\",", "\"model\": \"mlp\", \"conv\": [],")),
         "an mlp has no 'conv' layers"},
        {errorOf(mlp, "{not json"), "metadata is not valid JSON"},
        {errorOf(mlp, ""), "no 'axon' entry in __metadata__"},
        {errorOf(with(handCnnTensors(), {"conv.weight", {1, 11, 3, 3}, std::vector<float>(99)}),
                 kHandCnn),
         "expected [out_channels, 12, 3, 3]"},
        {errorOf(with(handCnnTensors(), {"fc.weight", {1, 64}, std::vector<float>(64)}), kHandCnn),
         "channels x 64 + 5 scalars = 69"},
        {errorOf(handCnnTensors(), replaced(kHandCnn, "\"conv\": [", "\"comment\": [")),
         "'conv' is missing"},
    };
    for (const Case& c : cases) {
        EXPECT_NE(c.error.find(c.expected), std::string::npos)
            << "expected '" << c.expected << "', got: " << c.error;
        EXPECT_EQ(c.error.rfind("float model: ", 0), 0u) << c.error;
    }
}

// The benchmark's sizes: random weights give finite evaluations everywhere, and a White-view
// model's score flips sign exactly with the side to move.
TEST(FloatModel, RandomModelsAreFiniteAndDeterministic) {
    constexpr auto kEnc = nn::BoardEncoding::Planes14Plus6;
    const int sizes[] = {902, 451, 32, 32, 1};
    auto mlp =
        nn::DenseMlp::create(kEnc, nn::makeRandomDenseLayers(sizes, nn::FloatActivation::ReLU, 1),
                             {400.0f, nn::ScorePerspective::White});
    ASSERT_TRUE(mlp.ok()) << mlp.error();
    const int channels[] = {14, 8, 8};
    const int dense[] = {8 * 64 + 6, 16, 1};
    auto cnn =
        nn::Cnn::create(kEnc, nn::makeRandomConvLayers(channels, nn::FloatActivation::ReLU, 2),
                        nn::makeRandomDenseLayers(dense, nn::FloatActivation::ReLU, 3), {});
    ASSERT_TRUE(cnn.ok()) << cnn.error();
    int distinct = 0;
    float last = 0;
    for (const chess::Position& pos : test::playPositions()) {
        const float a = mlp->evaluate(pos), b = cnn->evaluate(pos);
        EXPECT_TRUE(std::isfinite(a) && std::isfinite(b)) << chess::toFen(pos);
        EXPECT_EQ(a, mlp->evaluate(pos));
        distinct += a != last;
        last = a;
    }
    EXPECT_GT(distinct, 10);
    const int wrong[] = {901, 8, 1};
    EXPECT_FALSE(nn::DenseMlp::create(
                     kEnc, nn::makeRandomDenseLayers(wrong, nn::FloatActivation::ReLU, 1), {})
                     .ok());
}
