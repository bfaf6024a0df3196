// SPDX-License-Identifier: GPL-3.0-or-later
// Building a float model from a safetensors file: the "axon" metadata JSON names the model
// kind, encoding, output scaling and each layer's tensors; shapes are checked against it.
#include "nn/float_model.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <initializer_list>

#include "nn/cnn.h"
#include "nn/dense_mlp.h"
#include "nn/safetensors_network.h"

namespace axon::nn {

using Json = nlohmann::json;

std::string_view perspectiveName(ScorePerspective p) {
    return p == ScorePerspective::White ? "white" : "side_to_move";
}

std::string describeHead(const OutputHead& head) {
    char scale[32];
    std::snprintf(scale, sizeof scale, "%g", double(head.scale));
    return "scale " + std::string(scale) + ", " + std::string(perspectiveName(head.perspective)) +
           " view";
}

namespace {

// The perspective network evaluated in float (the trainer's view of it).
class PerspectiveFloatModel final : public FloatModel {
  public:
    explicit PerspectiveFloatModel(FloatNetwork net) : m_net(std::move(net)) {}
    float evaluate(const chess::Position& pos) const override { return evaluateFloat(m_net, pos); }
    std::string describe() const override {
        const Architecture& a = m_net.arch;
        return "perspective network (" + std::to_string(a.inputCount()) + " -> " +
               std::to_string(a.hidden) + ") x2 -> 1 (screlu), " + std::to_string(a.inputBuckets) +
               " input buckets" + (a.mirror ? ", mirrored" : "") + ", " +
               std::to_string(a.outputBuckets) + " output buckets, scale " +
               std::to_string(a.scale) + ", in float";
    }

  private:
    FloatNetwork m_net;
};

util::Error fail(const std::string& message) { return util::makeError("float model: " + message); }

// Refuses keys outside `allowed`, so a misspelt key is an error rather than a silent default.
std::optional<std::string> unknownKey(const Json& object,
                                      std::initializer_list<const char*> allowed,
                                      const std::string& where) {
    for (const auto& [key, value] : object.items()) {
        bool known = false;
        for (const char* a : allowed) known = known || key == a;
        if (!known) return where + " has an unknown key '" + key + "'";
    }
    return std::nullopt;
}

struct LayerSpec {
    std::string weight;
    std::optional<std::string> bias;
    FloatActivation activation = FloatActivation::None;
};

util::Result<std::vector<LayerSpec>> parseLayerSpecs(const Json& model, const char* key,
                                                     bool required) {
    std::vector<LayerSpec> specs;
    const auto it = model.find(key);
    if (it == model.end()) {
        if (required) return util::makeError(std::string("'") + key + "' is missing");
        return specs;
    }
    if (!it->is_array() || it->empty())
        return util::makeError(std::string("'") + key + "' must be a non-empty array of layers");
    for (std::size_t k = 0; k < it->size(); ++k) {
        const Json& l = (*it)[k];
        const std::string where = std::string(key) + "[" + std::to_string(k) + "]";
        if (!l.is_object()) return util::makeError(where + " is not an object");
        if (auto e = unknownKey(l, {"weight", "bias", "activation"}, where))
            return util::makeError(*e);
        LayerSpec s;
        const auto w = l.find("weight");
        if (w == l.end() || !w->is_string())
            return util::makeError(where + " needs 'weight': a tensor name");
        s.weight = w->get<std::string>();
        const auto b = l.find("bias");
        if (b != l.end() && !b->is_null()) {
            if (!b->is_string())
                return util::makeError(where + " 'bias' must be a tensor name or null");
            s.bias = b->get<std::string>();
        }
        const auto a = l.find("activation");
        if (a == l.end() || !a->is_string())
            return util::makeError(where + " needs 'activation' (none, relu, crelu, screlu, tanh "
                                           "or sigmoid)");
        const auto act = parseActivation(a->get_ref<const std::string&>());
        if (!act)
            return util::makeError(where + " has unknown activation '" + a->get<std::string>() +
                                   "' (none, relu, crelu, screlu, tanh or sigmoid)");
        s.activation = *act;
        specs.push_back(std::move(s));
    }
    return specs;
}

util::Result<std::vector<float>> biasValues(const Safetensors& file, const LayerSpec& s,
                                            std::uint64_t outputs) {
    if (!s.bias) return std::vector<float>(std::size_t(outputs), 0.0f);
    return file.finiteFloats(*s.bias, {outputs});
}

// Dense layers; `inputs` is what the first one receives.
util::Result<std::vector<DenseLayer>> buildDense(const Safetensors& file,
                                                 const std::vector<LayerSpec>& specs, int inputs) {
    std::vector<DenseLayer> layers;
    std::uint64_t width = std::uint64_t(inputs);
    for (std::size_t k = 0; k < specs.size(); ++k) {
        const LayerSpec& s = specs[k];
        const std::string where = "layers[" + std::to_string(k) + "]: ";
        const TensorInfo* t = file.find(s.weight);
        if (!t) return util::makeError(where + "missing tensor '" + s.weight + "'");
        if (t->shape.size() != 2 || t->shape[1] != width || t->shape[0] == 0 ||
            t->shape[0] > (1u << 24))
            return util::makeError(where + "tensor '" + s.weight + "' has shape " +
                                   shapeString(t->shape) + ", expected [outputs, " +
                                   std::to_string(width) + "] (nn.Linear's [out, in])");
        const std::uint64_t outputs = t->shape[0];
        auto w = file.finiteFloats(s.weight, t->shape);
        if (!w) return util::makeError(where + w.error());
        auto b = biasValues(file, s, outputs);
        if (!b) return util::makeError(where + b.error());
        layers.push_back(DenseLayer::fromOutIn(int(outputs), int(width), *w, *b, s.activation));
        width = outputs;
    }
    if (width != 1)
        return util::makeError("the last layer has " + std::to_string(width) +
                               " outputs, expected 1");
    return layers;
}

util::Result<std::vector<ConvLayer>> buildConvs(const Safetensors& file,
                                                const std::vector<LayerSpec>& specs, int planes) {
    std::vector<ConvLayer> convs;
    std::uint64_t channels = std::uint64_t(planes);
    for (std::size_t k = 0; k < specs.size(); ++k) {
        const LayerSpec& s = specs[k];
        const std::string where = "conv[" + std::to_string(k) + "]: ";
        const TensorInfo* t = file.find(s.weight);
        if (!t) return util::makeError(where + "missing tensor '" + s.weight + "'");
        if (t->shape.size() != 4 || t->shape[1] != channels || t->shape[2] != kConvKernel ||
            t->shape[3] != kConvKernel || t->shape[0] == 0 || t->shape[0] > 4096)
            return util::makeError(where + "tensor '" + s.weight + "' has shape " +
                                   shapeString(t->shape) + ", expected [out_channels, " +
                                   std::to_string(channels) + ", 3, 3] (nn.Conv2d's weight)");
        ConvLayer c;
        c.inChannels = int(channels);
        c.outChannels = int(t->shape[0]);
        c.activation = s.activation;
        auto w = file.finiteFloats(s.weight, t->shape);
        if (!w) return util::makeError(where + w.error());
        auto b = biasValues(file, s, t->shape[0]);
        if (!b) return util::makeError(where + b.error());
        c.weights = std::move(*w);
        c.biases = std::move(*b);
        channels = t->shape[0];
        convs.push_back(std::move(c));
    }
    return convs;
}

util::Result<std::unique_ptr<FloatModel>> buildModel(const Safetensors& file, const Json& m) {
    if (!m.is_object()) return util::makeError("the description is not a JSON object");
    if (auto e = unknownKey(m,
                            {"format", "version", "model", "encoding", "scale", "perspective",
                             "conv", "layers", "comment"},
                            "the description"))
        return util::makeError(*e);
    const auto format = m.find("format");
    if (format == m.end() || *format != kFloatModelFormat)
        return util::makeError(std::string("'format' must be '") + kFloatModelFormat + "'");
    const auto version = m.find("version");
    if (version == m.end() || !version->is_number_integer() ||
        version->get<long long>() != kFloatModelFormatVersion)
        return util::makeError("'version' must be " + std::to_string(kFloatModelFormatVersion));
    const auto kind = m.find("model");
    if (kind == m.end() || (*kind != "mlp" && *kind != "cnn"))
        return util::makeError("'model' must be 'mlp' or 'cnn'");
    const auto enc = m.find("encoding");
    const auto encoding = enc != m.end() && enc->is_string()
                              ? parseEncoding(enc->get_ref<const std::string&>())
                              : std::nullopt;
    if (!encoding) return util::makeError("'encoding' must be 'onehot768+' or 'planes8x8x14+6'");
    OutputHead head;
    const auto scale = m.find("scale");
    if (scale == m.end() || !scale->is_number() || !std::isfinite(scale->get<double>()) ||
        scale->get<double>() <= 0)
        return util::makeError("'scale' must be a positive number (centipawns per output unit)");
    head.scale = scale->get<float>();
    const auto persp = m.find("perspective");
    if (persp == m.end() || (*persp != "white" && *persp != "side_to_move"))
        return util::makeError("'perspective' must be 'white' or 'side_to_move'");
    head.perspective = *persp == "white" ? ScorePerspective::White : ScorePerspective::SideToMove;

    const EncodingShape shape = encodingShape(*encoding);
    const bool cnn = *kind == "cnn";
    if (!cnn && m.contains("conv")) return util::makeError("an mlp has no 'conv' layers");
    auto convSpecs = parseLayerSpecs(m, "conv", cnn);
    if (!convSpecs) return util::makeError(convSpecs.error());
    auto denseSpecs = parseLayerSpecs(m, "layers", true);
    if (!denseSpecs) return util::makeError(denseSpecs.error());

    if (!cnn) {
        auto dense = buildDense(file, *denseSpecs, shape.size());
        if (!dense) return util::makeError(dense.error());
        auto mlp = DenseMlp::create(*encoding, std::move(*dense), head);
        if (!mlp) return util::makeError(mlp.error());
        return std::unique_ptr<FloatModel>(std::make_unique<DenseMlp>(std::move(*mlp)));
    }
    auto convs = buildConvs(file, *convSpecs, shape.planes);
    if (!convs) return util::makeError(convs.error());
    const int flattened = convs->back().outChannels * chess::kNumSquares + shape.scalars;
    auto dense = buildDense(file, *denseSpecs, flattened);
    if (!dense)
        return util::makeError(dense.error() +
                               " (the first layer receives the flattened "
                               "convolution output, channels x 64 + " +
                               std::to_string(shape.scalars) +
                               " scalars = " + std::to_string(flattened) + ")");
    auto model = Cnn::create(*encoding, std::move(*convs), std::move(*dense), head);
    if (!model) return util::makeError(model.error());
    return std::unique_ptr<FloatModel>(std::make_unique<Cnn>(std::move(*model)));
}

} // namespace

util::Result<std::unique_ptr<FloatModel>> parseFloatModel(const Safetensors& file) {
    if (isPerspectiveNetwork(file)) {
        auto net = parseFloatNetwork(file);
        if (!net) return util::makeError(net.error());
        return std::unique_ptr<FloatModel>(
            std::make_unique<PerspectiveFloatModel>(std::move(*net)));
    }
    const auto it = file.metadata().find(kFloatModelMetadataKey);
    if (it == file.metadata().end())
        return fail(std::string("no '") + kFloatModelMetadataKey +
                    "' entry in __metadata__ describing the model (docs/float-nets.md), and "
                    "not an axon-perspective network");
    Json description;
    try {
        description = Json::parse(it->second);
    } catch (const Json::exception& e) {
        return fail(std::string("the '") + kFloatModelMetadataKey +
                    "' metadata is not valid JSON: " + e.what());
    }
    auto model = buildModel(file, description);
    if (!model) return fail(model.error());
    return model;
}

util::Result<std::unique_ptr<FloatModel>> loadFloatModel(const std::string& path) {
    auto file = readSafetensorsFile(path);
    if (!file) return util::makeError(file.error());
    auto model = parseFloatModel(*file);
    if (!model) return util::makeError(path + ": " + model.error());
    return model;
}

} // namespace axon::nn
