// SPDX-License-Identifier: GPL-3.0-or-later
// Reading, validating and writing safetensors files.
#include "nn/safetensors.h"

#include "util/atomic_file.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <set>

#include "nn/network_file.h"

namespace axon::nn {

static_assert(std::endian::native == std::endian::little,
              "safetensors data is little-endian and read in place");

using Json = nlohmann::json;

namespace {

struct DtypeEntry {
    Dtype dtype;
    std::string_view name;
    std::size_t size;
};

constexpr DtypeEntry kDtypes[] = {
    {Dtype::Bool, "BOOL", 1},      {Dtype::U8, "U8", 1},          {Dtype::I8, "I8", 1},
    {Dtype::F8E5M2, "F8_E5M2", 1}, {Dtype::F8E4M3, "F8_E4M3", 1}, {Dtype::I16, "I16", 2},
    {Dtype::U16, "U16", 2},        {Dtype::F16, "F16", 2},        {Dtype::BF16, "BF16", 2},
    {Dtype::I32, "I32", 4},        {Dtype::U32, "U32", 4},        {Dtype::F32, "F32", 4},
    {Dtype::F64, "F64", 8},        {Dtype::I64, "I64", 8},        {Dtype::U64, "U64", 8},
};

const DtypeEntry& entry(Dtype d) {
    for (const DtypeEntry& e : kDtypes)
        if (e.dtype == d) return e;
    return kDtypes[0];
}

constexpr std::string_view kMetadataKey = "__metadata__";

util::Error fail(const std::string& message) { return util::makeError("safetensors: " + message); }

// The element count of `shape`, or nothing when it overflows 64 bits.
std::optional<std::uint64_t> product(std::span<const std::uint64_t> shape) {
    std::uint64_t n = 1;
    for (std::uint64_t d : shape)
        if (__builtin_mul_overflow(n, d, &n)) return std::nullopt;
    return n;
}

float halfToFloat(std::uint16_t h) {
    const std::uint32_t sign = std::uint32_t(h >> 15) << 31;
    const int exponent = (h >> 10) & 0x1f;
    const std::uint32_t mantissa = h & 0x3ff;
    if (exponent == 0) {
        // Zero or subnormal: mantissa * 2^-24, exact in float.
        const float v = std::ldexp(float(mantissa), -24);
        return sign ? -v : v;
    }
    std::uint32_t bits;
    if (exponent == 0x1f)
        bits = sign | 0x7f800000u | (mantissa << 13); // inf or NaN
    else
        bits = sign | (std::uint32_t(exponent - 15 + 127) << 23) | (mantissa << 13);
    return std::bit_cast<float>(bits);
}

template <typename T>
T load(const std::uint8_t* p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

// Keys of each JSON object seen so far, to refuse duplicates (the JSON library keeps the last).
struct DuplicateKeyCheck {
    std::vector<std::set<std::string>> open;
    std::string duplicate;

    bool operator()(int, Json::parse_event_t event, Json& parsed) {
        if (event == Json::parse_event_t::object_start)
            open.emplace_back();
        else if (event == Json::parse_event_t::object_end && !open.empty())
            open.pop_back();
        else if (event == Json::parse_event_t::key && !open.empty() && parsed.is_string()) {
            const auto& key = parsed.get_ref<const std::string&>();
            if (!open.back().insert(key).second && duplicate.empty()) duplicate = key;
        }
        return true;
    }
};

util::Result<TensorInfo> parseTensorEntry(const std::string& name, const Json& j) {
    const std::string where = "tensor '" + name + "': ";
    if (!j.is_object()) return fail(where + "entry is not an object");
    for (const auto& [key, value] : j.items())
        if (key != "dtype" && key != "shape" && key != "data_offsets")
            return fail(where + "unexpected field '" + key + "'");
    TensorInfo t;
    t.name = name;
    const auto dtype = j.find("dtype");
    if (dtype == j.end() || !dtype->is_string()) return fail(where + "missing dtype string");
    const auto parsedDtype = parseDtype(dtype->get_ref<const std::string&>());
    if (!parsedDtype)
        return fail(where + "unknown dtype '" + dtype->get_ref<const std::string&>() + "'");
    t.dtype = *parsedDtype;
    const auto shape = j.find("shape");
    if (shape == j.end() || !shape->is_array()) return fail(where + "missing shape array");
    for (const Json& d : *shape) {
        if (!d.is_number_unsigned())
            return fail(where + "shape entries must be non-negative integers");
        t.shape.push_back(d.get<std::uint64_t>());
    }
    const auto offsets = j.find("data_offsets");
    if (offsets == j.end() || !offsets->is_array() || offsets->size() != 2 ||
        !(*offsets)[0].is_number_unsigned() || !(*offsets)[1].is_number_unsigned())
        return fail(where + "data_offsets must be two non-negative integers");
    t.begin = (*offsets)[0].get<std::uint64_t>();
    t.end = (*offsets)[1].get<std::uint64_t>();
    if (t.begin > t.end)
        return fail(where + "data_offsets begin " + std::to_string(t.begin) + " > end " +
                    std::to_string(t.end));
    const auto count = product(t.shape);
    std::uint64_t bytes = 0;
    if (!count || __builtin_mul_overflow(*count, std::uint64_t(dtypeSize(t.dtype)), &bytes))
        return fail(where + "shape " + shapeString(t.shape) + " is too large");
    if (bytes != t.end - t.begin)
        return fail(where + "shape " + shapeString(t.shape) + " of " +
                    std::string(dtypeName(t.dtype)) + " needs " + std::to_string(bytes) +
                    " bytes but data_offsets cover " + std::to_string(t.end - t.begin));
    return t;
}

} // namespace

std::string_view dtypeName(Dtype d) { return entry(d).name; }

std::optional<Dtype> parseDtype(std::string_view name) {
    for (const DtypeEntry& e : kDtypes)
        if (e.name == name) return e.dtype;
    return std::nullopt;
}

std::size_t dtypeSize(Dtype d) { return entry(d).size; }

std::uint64_t TensorInfo::elementCount() const { return product(shape).value_or(0); }

std::string shapeString(std::span<const std::uint64_t> shape) {
    std::string s = "[";
    for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + "]";
}

const TensorInfo* Safetensors::find(std::string_view name) const {
    const auto it =
        std::lower_bound(m_tensors.begin(), m_tensors.end(), name,
                         [](const TensorInfo& t, std::string_view n) { return t.name < n; });
    return it != m_tensors.end() && it->name == name ? &*it : nullptr;
}

std::span<const std::uint8_t> Safetensors::bytes(const TensorInfo& t) const {
    return {m_file.data() + m_dataOffset + t.begin, std::size_t(t.end - t.begin)};
}

util::Result<std::vector<float>>
Safetensors::floats(std::string_view name, std::optional<std::vector<std::uint64_t>> shape) const {
    const TensorInfo* t = find(name);
    if (!t) return util::makeError("missing tensor '" + std::string(name) + "'");
    if (shape && *shape != t->shape)
        return util::makeError("tensor '" + t->name + "' has shape " + shapeString(t->shape) +
                               ", expected " + shapeString(*shape));
    const std::span<const std::uint8_t> raw = bytes(*t);
    const std::size_t n = std::size_t(t->elementCount());
    std::vector<float> out(n);
    const std::uint8_t* p = raw.data();
    switch (t->dtype) {
    case Dtype::F32:
        if (n) std::memcpy(out.data(), p, n * sizeof(float));
        break;
    case Dtype::F64:
        for (std::size_t i = 0; i < n; ++i) out[i] = float(load<double>(p + 8 * i));
        break;
    case Dtype::F16:
        for (std::size_t i = 0; i < n; ++i) out[i] = halfToFloat(load<std::uint16_t>(p + 2 * i));
        break;
    case Dtype::BF16:
        for (std::size_t i = 0; i < n; ++i)
            out[i] = std::bit_cast<float>(std::uint32_t(load<std::uint16_t>(p + 2 * i)) << 16);
        break;
    case Dtype::I8:
        for (std::size_t i = 0; i < n; ++i) out[i] = float(std::int8_t(p[i]));
        break;
    case Dtype::U8:
        for (std::size_t i = 0; i < n; ++i) out[i] = float(p[i]);
        break;
    case Dtype::I16:
        for (std::size_t i = 0; i < n; ++i) out[i] = float(load<std::int16_t>(p + 2 * i));
        break;
    case Dtype::I32:
        for (std::size_t i = 0; i < n; ++i) out[i] = float(load<std::int32_t>(p + 4 * i));
        break;
    default:
        return util::makeError("tensor '" + t->name + "' has dtype " +
                               std::string(dtypeName(t->dtype)) +
                               ", which is not converted to "
                               "float (use F32, F64, F16, BF16, I8, U8, I16 or I32)");
    }
    return out;
}

util::Result<Safetensors> parseSafetensors(std::vector<std::uint8_t> file) {
    if (file.size() < 8)
        return fail("file of " + std::to_string(file.size()) +
                    " bytes is shorter than the 8-byte header length");
    const std::uint64_t headerSize = load<std::uint64_t>(file.data());
    if (headerSize > kMaxSafetensorsHeader)
        return fail("header length " + std::to_string(headerSize) + " exceeds the limit of " +
                    std::to_string(kMaxSafetensorsHeader) + " bytes");
    if (headerSize > file.size() - 8)
        return fail("header length " + std::to_string(headerSize) + " runs past the end of the " +
                    std::to_string(file.size()) + "-byte file (truncated?)");
    const std::string_view text(reinterpret_cast<const char*>(file.data()) + 8,
                                std::size_t(headerSize));
    if (text.empty() || text.front() != '{') return fail("header does not start with '{'");

    DuplicateKeyCheck duplicates;
    Json header;
    try {
        header = Json::parse(text, std::ref(duplicates));
    } catch (const Json::exception& e) {
        return fail(std::string("header is not valid JSON: ") + e.what());
    }
    if (!duplicates.duplicate.empty())
        return fail("header repeats the key '" + duplicates.duplicate + "'");
    if (!header.is_object()) return fail("header is not a JSON object");

    Safetensors st;
    for (const auto& [key, value] : header.items()) {
        if (key == kMetadataKey) {
            if (!value.is_object()) return fail("__metadata__ is not an object");
            for (const auto& [mk, mv] : value.items()) {
                if (!mv.is_string())
                    return fail("__metadata__ value of '" + mk + "' is not a string");
                st.m_metadata[mk] = mv.get<std::string>();
            }
            continue;
        }
        auto t = parseTensorEntry(key, value);
        if (!t) return util::makeError(t.error());
        st.m_tensors.push_back(std::move(*t));
    }

    // The tensors must tile the data section exactly: no gap, no overlap, nothing left over.
    const std::uint64_t dataSize = file.size() - 8 - headerSize;
    std::vector<const TensorInfo*> byOffset;
    for (const TensorInfo& t : st.m_tensors) byOffset.push_back(&t);
    std::sort(byOffset.begin(), byOffset.end(), [](const TensorInfo* a, const TensorInfo* b) {
        return a->begin != b->begin ? a->begin < b->begin : a->end < b->end;
    });
    std::uint64_t covered = 0;
    for (const TensorInfo* t : byOffset) {
        if (t->begin != covered)
            return fail("tensor '" + t->name + "' starts at byte " + std::to_string(t->begin) +
                        " of the data, expected " + std::to_string(covered) +
                        (t->begin < covered ? " (tensors overlap)" : " (a gap)"));
        covered = t->end;
    }
    if (covered != dataSize)
        return fail(covered > dataSize
                        ? "tensors need " + std::to_string(covered) +
                              " bytes of data but the file "
                              "has " +
                              std::to_string(dataSize) + " (truncated?)"
                        : "tensors cover " + std::to_string(covered) + " of the " +
                              std::to_string(dataSize) + " data bytes (trailing bytes)");

    std::sort(st.m_tensors.begin(), st.m_tensors.end(),
              [](const TensorInfo& a, const TensorInfo& b) { return a.name < b.name; });
    st.m_dataOffset = std::size_t(8 + headerSize);
    st.m_file = std::move(file);
    return st;
}

util::Result<Safetensors> readSafetensorsFile(const std::string& path) {
    auto bytes = readFileBytes(path);
    if (!bytes) return util::makeError(bytes.error());
    auto st = parseSafetensors(std::move(*bytes));
    if (!st) return util::makeError(path + ": " + st.error());
    return st;
}

util::Result<std::vector<std::uint8_t>>
serializeSafetensors(std::span<const TensorToWrite> tensors,
                     const std::map<std::string, std::string>& metadata) {
    Json header = Json::object();
    if (!metadata.empty()) header[std::string(kMetadataKey)] = metadata;
    std::uint64_t offset = 0;
    for (const TensorToWrite& t : tensors) {
        if (t.name == kMetadataKey || header.contains(t.name))
            return fail("cannot write a tensor named '" + t.name + "' twice or as metadata");
        const auto count = product(t.shape);
        if (!count || *count != t.data.size())
            return fail("tensor '" + t.name + "' has " + std::to_string(t.data.size()) +
                        " values for shape " + shapeString(t.shape));
        const std::uint64_t bytes = *count * sizeof(float);
        header[t.name] = {
            {"dtype", "F32"}, {"shape", t.shape}, {"data_offsets", {offset, offset + bytes}}};
        offset += bytes;
    }
    std::string text;
    try {
        text = header.dump();
    } catch (const Json::exception& e) {
        // Names and metadata must be valid UTF-8.
        return fail(std::string("cannot encode the header: ") + e.what());
    }
    // Spaces are JSON whitespace; they align the data for readers that map it in place.
    text.append((8 - text.size() % 8) % 8, ' ');
    std::vector<std::uint8_t> out(8 + text.size() + std::size_t(offset));
    const std::uint64_t headerSize = text.size();
    std::memcpy(out.data(), &headerSize, 8);
    std::memcpy(out.data() + 8, text.data(), text.size());
    std::size_t at = 8 + text.size();
    for (const TensorToWrite& t : tensors) {
        if (!t.data.empty()) std::memcpy(out.data() + at, t.data.data(), t.data.size_bytes());
        at += t.data.size_bytes();
    }
    return out;
}

std::optional<std::string>
writeSafetensorsFile(const std::string& path, std::span<const TensorToWrite> tensors,
                     const std::map<std::string, std::string>& metadata) {
    auto bytes = serializeSafetensors(tensors, metadata);
    if (!bytes) return bytes.error();
    return util::writeFileAtomically(path, *bytes);
}

util::Result<std::vector<float>> Safetensors::finiteFloats(std::string_view name,
                                                           std::vector<std::uint64_t> shape) const {
    auto values = floats(name, std::move(shape));
    if (!values) return values;
    for (std::size_t i = 0; i < values->size(); ++i)
        if (!std::isfinite((*values)[i]))
            return util::makeError("tensor '" + std::string(name) +
                                   "' holds a non-finite value at index " + std::to_string(i));
    return values;
}

} // namespace axon::nn
