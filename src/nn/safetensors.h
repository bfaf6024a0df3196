// SPDX-License-Identifier: GPL-3.0-or-later
// The safetensors container (https://github.com/huggingface/safetensors): an 8-byte
// little-endian header length, a JSON header naming each tensor's dtype, shape and byte range,
// an optional "__metadata__" map of strings, then the raw little-endian tensor data. Reading
// validates the whole layout and reports any defect as an error value; writing is atomic.
// Native only (library axon_nn_float): it parses JSON with nlohmann-json, which the
// WebAssembly build does not carry.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "util/result.h"

namespace axon::nn {

// Every dtype the format defines; reading accepts files holding any of them, converting to
// float is offered for the numeric ones tensorToFloats() lists.
enum class Dtype : std::uint8_t {
    Bool,
    U8,
    I8,
    F8E5M2,
    F8E4M3,
    I16,
    U16,
    F16,
    BF16,
    I32,
    U32,
    F32,
    F64,
    I64,
    U64
};

std::string_view dtypeName(Dtype d);
std::optional<Dtype> parseDtype(std::string_view name);
std::size_t dtypeSize(Dtype d);

struct TensorInfo {
    std::string name;
    Dtype dtype = Dtype::F32;
    std::vector<std::uint64_t> shape;
    std::uint64_t begin = 0, end = 0; // byte range inside the data section

    std::uint64_t elementCount() const;
};

// A parsed file: it owns the bytes; tensors are sorted by name.
class Safetensors {
  public:
    const std::vector<TensorInfo>& tensors() const { return m_tensors; }
    const std::map<std::string, std::string>& metadata() const { return m_metadata; }
    const TensorInfo* find(std::string_view name) const;
    // The tensor's raw little-endian bytes.
    std::span<const std::uint8_t> bytes(const TensorInfo& t) const;

    // The named tensor converted to float (F32, F64, F16, BF16, I8, U8, I16, I32), checked to
    // have exactly `shape` when one is given. Errors name the tensor and what was expected.
    util::Result<std::vector<float>> floats(std::string_view name,
                                            std::optional<std::vector<std::uint64_t>> shape) const;
    // The same, refusing NaN and infinities (what a model's parameters must not hold).
    util::Result<std::vector<float>> finiteFloats(std::string_view name,
                                                  std::vector<std::uint64_t> shape) const;

  private:
    friend util::Result<Safetensors> parseSafetensors(std::vector<std::uint8_t> file);
    std::vector<std::uint8_t> m_file;
    std::size_t m_dataOffset = 0;
    std::vector<TensorInfo> m_tensors;
    std::map<std::string, std::string> m_metadata;
};

// Header limit, as the reference implementation has it: a larger header is taken for damage.
constexpr std::uint64_t kMaxSafetensorsHeader = 100'000'000;

util::Result<Safetensors> parseSafetensors(std::vector<std::uint8_t> file);
util::Result<Safetensors> readSafetensorsFile(const std::string& path);

// "[a, b, c]", for messages.
std::string shapeString(std::span<const std::uint64_t> shape);

// One F32 tensor to write; `data` must hold the product of `shape` values.
struct TensorToWrite {
    std::string name;
    std::vector<std::uint64_t> shape;
    std::span<const float> data;
};

// The file's bytes: tensors in the order given, header padded with spaces to a multiple of 8
// bytes so the data is aligned. Names must be unique and not "__metadata__".
util::Result<std::vector<std::uint8_t>>
serializeSafetensors(std::span<const TensorToWrite> tensors,
                     const std::map<std::string, std::string>& metadata);
std::optional<std::string> writeSafetensorsFile(const std::string& path,
                                                std::span<const TensorToWrite> tensors,
                                                const std::map<std::string, std::string>& metadata);

} // namespace axon::nn
