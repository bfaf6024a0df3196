// SPDX-License-Identifier: GPL-3.0-or-later
// Data files, the validation split and the chunked shuffle.
#include "train/dataset.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "util/prng.h"

namespace axon::train {

namespace fs = std::filesystem;

std::uint64_t mixSeed(std::uint64_t a, std::uint64_t b, std::uint64_t c) {
    util::Prng g(a ^ 0x6A09E667F3BCC909ULL);
    std::uint64_t h = g.next() ^ b;
    util::Prng g2(h);
    h = g2.next() ^ c;
    util::Prng g3(h);
    return g3.next();
}

bool RecordFilter::accepts(const data::TrainingRecord& r) const {
    return scoreWithin(r) && !data::validateRecord(r);
}

bool RecordFilter::scoreWithin(const data::TrainingRecord& r) const {
    return std::abs(int(r.score)) <= scoreLimit;
}

namespace {

bool hasDataMagic(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    char magic[sizeof data::kDataMagic] = {};
    in.read(magic, sizeof magic);
    return in && std::memcmp(magic, data::kDataMagic, sizeof magic) == 0;
}

util::Result<std::vector<std::string>> expandPaths(const std::vector<std::string>& given) {
    std::vector<std::string> out;
    for (const std::string& g : given) {
        std::error_code ec;
        if (fs::is_directory(g, ec)) {
            std::vector<std::string> inDir;
            for (const auto& e : fs::directory_iterator(g, ec))
                if (e.is_regular_file() && hasDataMagic(e.path())) inDir.push_back(e.path());
            if (ec) return util::makeError("cannot list " + g + ": " + ec.message());
            if (inDir.empty()) return util::makeError("no data files in directory " + g);
            std::sort(inDir.begin(), inDir.end());
            out.insert(out.end(), inDir.begin(), inDir.end());
        } else {
            out.push_back(g);
        }
    }
    return out;
}

} // namespace

util::Result<std::unique_ptr<TrainingData>> TrainingData::open(const TrainConfig& config) {
    auto data = std::unique_ptr<TrainingData>(new TrainingData());
    auto trainPaths = expandPaths(config.data);
    if (!trainPaths) return util::makeError(trainPaths.error());
    auto valPaths = expandPaths(config.valFiles);
    if (!valPaths) return util::makeError(valPaths.error());
    auto add = [&](const std::string& path) -> util::Result<std::size_t> {
        auto mapped = data::MappedRecords::open(path);
        if (!mapped) return util::makeError(mapped.error());
        data->m_paths.push_back(path);
        data->m_files.push_back(std::move(*mapped));
        return data->m_files.size() - 1;
    };
    for (const std::string& p : *trainPaths) {
        auto index = add(p);
        if (!index) return util::makeError(index.error());
        const std::uint64_t n = data->m_files[*index]->records().size();
        const std::uint64_t val =
            config.valFiles.empty() ? std::uint64_t(double(n) * config.valFraction) : 0;
        if (n - val > 0) data->m_train.push_back({*index, 0, n - val});
        if (val > 0) data->m_validation.push_back({*index, n - val, n});
    }
    for (const std::string& p : *valPaths) {
        auto index = add(p);
        if (!index) return util::makeError(index.error());
        const std::uint64_t n = data->m_files[*index]->records().size();
        if (n > 0) data->m_validation.push_back({*index, 0, n});
    }
    if (data->trainCount() == 0) return util::makeError("the training data holds no records");
    return data;
}

std::uint64_t TrainingData::trainCount() const {
    std::uint64_t n = 0;
    for (const auto& r : m_train) n += r.end - r.begin;
    return n;
}

std::uint64_t TrainingData::validationCount() const {
    std::uint64_t n = 0;
    for (const auto& r : m_validation) n += r.end - r.begin;
    return n;
}

std::vector<data::TrainingRecord> TrainingData::validationSample(std::int64_t max,
                                                                 const RecordFilter& filter) const {
    std::vector<data::TrainingRecord> out;
    const std::uint64_t total = validationCount();
    if (total == 0 || max <= 0) return out;
    const std::uint64_t take = std::min<std::uint64_t>(total, std::uint64_t(max));
    out.reserve(take);
    std::size_t range = 0;
    std::uint64_t rangeStart = 0; // global index of m_validation[range].begin
    for (std::uint64_t i = 0; i < take; ++i) {
        const std::uint64_t g =
            std::min(total - 1, std::uint64_t(double(i) * double(total) / double(take)));
        while (g >= rangeStart + (m_validation[range].end - m_validation[range].begin)) {
            rangeStart += m_validation[range].end - m_validation[range].begin;
            // The sample touches a page per record: give a range's pages back once done.
            release(m_validation[range].file, m_validation[range].begin, m_validation[range].end);
            ++range;
        }
        const RecordRange& r = m_validation[range];
        const auto& rec = records(r.file)[r.begin + (g - rangeStart)];
        if (filter.accepts(rec)) out.push_back(rec);
    }
    release(m_validation[range].file, m_validation[range].begin, m_validation[range].end);
    return out;
}

void TrainingData::release(std::size_t file, std::uint64_t begin, std::uint64_t end) const {
    const auto recs = records(file);
    static const std::uintptr_t page = std::uintptr_t(::sysconf(_SC_PAGESIZE));
    std::uintptr_t a = reinterpret_cast<std::uintptr_t>(recs.data() + begin);
    std::uintptr_t b = reinterpret_cast<std::uintptr_t>(recs.data() + end);
    a = (a + page - 1) / page * page;
    b = b / page * page;
    // Only a hint: if it fails the pages stay resident until the kernel wants them.
    if (b > a) ::madvise(reinterpret_cast<void*>(a), b - a, MADV_DONTNEED);
}

BatchLoader::BatchLoader(const TrainingData& data, const TrainConfig& config)
    : m_data(data), m_seed(config.seed), m_filter{config.scoreLimit},
      m_bufferChunks(config.bufferChunks) {
    const std::uint64_t chunk = std::uint64_t(config.chunkRecords);
    for (const RecordRange& r : data.trainRanges())
        for (std::uint64_t b = r.begin; b < r.end; b += chunk)
            m_chunks.push_back({r.file, b, std::min(r.end, b + chunk)});
    m_chunkValid.assign(m_chunks.size(), 0);
    m_buffer.reserve(std::size_t(config.bufferChunks) * std::size_t(chunk));
}

std::uint64_t BatchLoader::groupsPerPass() const {
    return (m_chunks.size() + std::size_t(m_bufferChunks) - 1) / std::size_t(m_bufferChunks);
}

std::vector<std::size_t> BatchLoader::chunkOrder(std::uint64_t pass) const {
    std::vector<std::size_t> order(m_chunks.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    util::Prng rng(mixSeed(m_seed, 1, pass));
    for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng.below(i)]);
    return order;
}

void BatchLoader::loadGroup() {
    if (m_orderPass != m_cursor.pass) {
        m_order = chunkOrder(m_cursor.pass);
        m_orderPass = m_cursor.pass;
    }
    m_buffer.clear();
    const std::size_t first = std::size_t(m_cursor.group) * std::size_t(m_bufferChunks);
    const std::size_t last = std::min(m_order.size(), first + std::size_t(m_bufferChunks));
    for (std::size_t i = first; i < last; ++i) {
        const RecordRange& c = m_chunks[m_order[i]];
        const auto recs = m_data.records(c.file);
        // The same records pass either way: a chunk is marked only when none was invalid.
        const bool known = m_chunkValid[m_order[i]] != 0;
        bool allValid = true;
        for (std::uint64_t k = c.begin; k < c.end; ++k) {
            const data::TrainingRecord& r = recs[k];
            bool valid = true;
            if (!known) {
                valid = !data::validateRecord(r);
                allValid = allValid && valid;
            }
            if (valid && m_filter.scoreWithin(r))
                m_buffer.push_back(r);
            else
                ++m_stats.rejected;
        }
        if (!known && allValid) m_chunkValid[m_order[i]] = 1;
        m_data.release(c.file, c.begin, c.end);
    }
    util::Prng rng(mixSeed(m_seed, 2 + m_cursor.pass, m_cursor.group));
    for (std::size_t i = m_buffer.size(); i > 1; --i)
        std::swap(m_buffer[i - 1], m_buffer[rng.below(i)]);
    m_loaded = true;
}

util::Result<bool> BatchLoader::next(std::span<data::TrainingRecord> out) {
    std::size_t filled = 0;
    std::uint64_t emptyGroups = 0;
    while (filled < out.size()) {
        if (!m_loaded) loadGroup();
        const std::size_t avail = m_buffer.size() - std::size_t(m_cursor.offset);
        if (avail == 0) {
            if (m_buffer.empty() && ++emptyGroups > groupsPerPass())
                return util::makeError("no training record is valid with |score| within the "
                                       "limit (--score-limit)");
            m_loaded = false;
            m_cursor.offset = 0;
            if (++m_cursor.group >= groupsPerPass()) {
                m_cursor.group = 0;
                ++m_cursor.pass;
            }
            continue;
        }
        const std::size_t take = std::min(avail, out.size() - filled);
        std::copy_n(m_buffer.begin() + std::ptrdiff_t(m_cursor.offset), take,
                    out.begin() + std::ptrdiff_t(filled));
        filled += take;
        m_cursor.offset += take;
        m_stats.served += take;
    }
    return true;
}

util::Result<bool> BatchLoader::seek(const LoaderCursor& cursor) {
    if (cursor.group >= groupsPerPass())
        return util::makeError("checkpoint's data position does not fit this data");
    m_cursor = cursor;
    loadGroup();
    if (cursor.offset > m_buffer.size())
        return util::makeError("checkpoint's data position does not fit this data");
    return true;
}

} // namespace axon::train
