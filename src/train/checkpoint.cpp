// SPDX-License-Identifier: GPL-3.0-or-later
// Checkpoint serialisation.
#include "train/checkpoint.h"
#include "util/atomic_file.h"

#include <cstring>
#include <fstream>
#include <sstream>

namespace axon::train {

namespace {

constexpr char kMagic[8] = {'A', 'X', 'O', 'N', 'C', 'K', 'P', 'T'};
constexpr std::uint32_t kVersion = 1;

std::uint64_t fnv1a(const char* data, std::size_t n) {
    std::uint64_t h = 0xCBF29CE484222325ULL;
    for (std::size_t i = 0; i < n; ++i) h = (h ^ std::uint8_t(data[i])) * 0x100000001B3ULL;
    return h;
}

class Writer {
  public:
    template <typename T>
    void put(const T& v) {
        static_assert(std::is_trivially_copyable_v<T>);
        m_out.append(reinterpret_cast<const char*>(&v), sizeof v);
    }
    void putFloats(const std::vector<float>& v) {
        put(std::uint64_t(v.size()));
        m_out.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(float));
    }
    std::string& bytes() { return m_out; }

  private:
    std::string m_out;
};

class Reader {
  public:
    explicit Reader(const std::string& s) : m_s(s) {}
    template <typename T>
    bool get(T& v) {
        if (m_pos + sizeof v > m_s.size()) return false;
        std::memcpy(&v, m_s.data() + m_pos, sizeof v);
        m_pos += sizeof v;
        return true;
    }
    bool getFloats(std::vector<float>& v, std::uint64_t max) {
        std::uint64_t n = 0;
        if (!get(n) || n > max || (m_s.size() - m_pos) / sizeof(float) < n) return false;
        v.resize(n);
        std::memcpy(v.data(), m_s.data() + m_pos, n * sizeof(float));
        m_pos += n * sizeof(float);
        return true;
    }
    std::size_t pos() const { return m_pos; }

  private:
    const std::string& m_s;
    std::size_t m_pos = 0;
};

void putArch(Writer& w, const nn::Architecture& a) {
    w.put(std::int32_t(a.hidden));
    w.put(std::uint8_t(a.activation));
    w.put(std::uint8_t(a.mirror));
    w.put(std::int32_t(a.inputBuckets));
    w.put(a.bucketMap);
    w.put(std::int32_t(a.outputBuckets));
    w.put(std::int32_t(a.qa));
    w.put(std::int32_t(a.qb));
    w.put(std::int32_t(a.scale));
}

bool getArch(Reader& r, nn::Architecture& a) {
    std::int32_t hidden, inputs, outputs, qa, qb, scale;
    std::uint8_t activation, mirror;
    if (!r.get(hidden) || !r.get(activation) || !r.get(mirror) || !r.get(inputs) ||
        !r.get(a.bucketMap) || !r.get(outputs) || !r.get(qa) || !r.get(qb) || !r.get(scale))
        return false;
    a.hidden = hidden;
    a.activation = nn::Activation(activation);
    a.mirror = mirror != 0;
    a.inputBuckets = inputs;
    a.outputBuckets = outputs;
    a.qa = qa;
    a.qb = qb;
    a.scale = scale;
    return true;
}

} // namespace

std::string serializeCheckpoint(const Checkpoint& c) {
    Writer w;
    w.bytes().append(kMagic, sizeof kMagic);
    w.put(kVersion);
    w.put(std::uint8_t(c.model));
    putArch(w, c.arch);
    w.put(c.seed);
    w.put(c.batchSize);
    w.put(c.batchesPerSuperbatch);
    w.put(c.trainRecords);
    w.put(c.superbatchesDone);
    w.put(c.adamSteps);
    w.put(c.cursor);
    w.put(std::uint64_t(c.history.size()));
    for (const HistoryRow& h : c.history) w.put(h);
    w.putFloats(c.params);
    w.putFloats(c.m);
    w.putFloats(c.v);
    const std::uint64_t hash = fnv1a(w.bytes().data(), w.bytes().size());
    w.put(hash);
    return std::move(w.bytes());
}

util::Result<Checkpoint> parseCheckpoint(const std::string& bytes) {
    auto bad = [](const std::string& why) { return util::makeError("checkpoint: " + why); };
    if (bytes.size() < sizeof kMagic + sizeof(std::uint64_t) ||
        std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
        return bad("not a checkpoint file");
    std::uint64_t stored = 0;
    std::memcpy(&stored, bytes.data() + bytes.size() - sizeof stored, sizeof stored);
    if (fnv1a(bytes.data(), bytes.size() - sizeof stored) != stored)
        return bad("hash mismatch (cut or damaged file)");
    const std::string body = bytes.substr(sizeof kMagic, bytes.size() - sizeof kMagic - 8);
    Reader r(body);
    Checkpoint c;
    std::uint32_t version = 0;
    std::uint8_t model = 0;
    std::uint64_t rows = 0;
    if (!r.get(version) || version != kVersion) return bad("unsupported version");
    if (!r.get(model) || model > 1) return bad("unknown model");
    c.model = ModelKind(model);
    if (!getArch(r, c.arch) || !r.get(c.seed) || !r.get(c.batchSize) ||
        !r.get(c.batchesPerSuperbatch) || !r.get(c.trainRecords) || !r.get(c.superbatchesDone) ||
        !r.get(c.adamSteps) || !r.get(c.cursor) || !r.get(rows) || rows > 1'000'000)
        return bad("truncated header");
    c.history.resize(rows);
    for (HistoryRow& h : c.history)
        if (!r.get(h)) return bad("truncated history");
    constexpr std::uint64_t kMaxParams = 1ULL << 32;
    if (!r.getFloats(c.params, kMaxParams) || !r.getFloats(c.m, kMaxParams) ||
        !r.getFloats(c.v, kMaxParams))
        return bad("truncated parameters");
    if (c.m.size() != c.params.size() || c.v.size() != c.params.size())
        return bad("moment sizes do not match the parameters");
    if (r.pos() != body.size()) return bad("trailing bytes");
    return c;
}

std::optional<std::string> writeCheckpoint(const Checkpoint& c, const std::string& path) {
    return util::writeFileAtomically(path, serializeCheckpoint(c));
}

util::Result<Checkpoint> readCheckpoint(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return util::makeError("cannot read checkpoint " + path);
    std::ostringstream ss;
    ss << in.rdbuf();
    auto c = parseCheckpoint(ss.str());
    if (!c) return util::makeError(path + ": " + c.error());
    return c;
}

} // namespace axon::train
