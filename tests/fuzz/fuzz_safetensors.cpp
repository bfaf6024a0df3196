// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the safetensors reader and the float models built from it (dense MLP, CNN, the
// perspective network in float; docs/float-nets.md): any bytes are either rejected with a
// message or parse into tensors that lie inside the file, and a model that loads evaluates a
// position without a crash or a sanitizer report.
#include <vector>

#include "chess/fen.h"
#include "fuzz_check.h"
#include "nn/float_model.h"
#include "nn/safetensors.h"
#include "nn/safetensors_network.h"

using namespace axon;
using fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    auto file = nn::parseSafetensors(std::vector<std::uint8_t>(data, data + size));
    if (!file) {
        require(!file.error().empty(), "a rejected safetensors file has a message");
        return 0;
    }
    // Every tensor lies inside the file (the reader checked its offsets against the size).
    std::uint32_t sum = 0;
    for (const nn::TensorInfo& tensor : file->tensors()) {
        const auto bytes = file->bytes(tensor);
        require(bytes.size() == tensor.elementCount() * nn::dtypeSize(tensor.dtype),
                "a tensor's byte range matches its shape and dtype", tensor.name);
        for (const std::uint8_t b : bytes) sum += b; // ASan reports a read outside the buffer
    }
    [[maybe_unused]] volatile std::uint32_t keep = sum;
    const chess::Position start = chess::startPosition();
    if (auto model = nn::parseFloatModel(*file)) {
        (void)(*model)->evaluate(start);
    } else {
        require(!model.error().empty(), "a rejected float model has a message");
    }
    if (auto net = nn::parseFloatNetwork(*file); !net)
        require(!net.error().empty(), "a rejected float network has a message");
    return 0;
}
