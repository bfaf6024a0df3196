// SPDX-License-Identifier: GPL-3.0-or-later
// A model's parameters as one flat float array cut into named segments, and the per-thread
// gradient buffer with the same layout. The optimiser, the checkpoint and the gradient
// reduction work on the flat array and need not know the model.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace axon::train {

struct Segment {
    std::string name;
    std::size_t offset = 0;
    std::size_t rows = 0, rowSize = 0; // size = rows * rowSize
    // Limit on |value| after every step (0 = none).
    float clip = 0;
    // Gradients arrive in a few rows per sample (the feature transformer): threads mark the
    // rows they touched so the reduction reads only those.
    bool rowSparse = false;
    std::size_t size() const { return rows * rowSize; }
};

struct ParameterLayout {
    std::vector<Segment> segments;
    std::size_t total = 0;

    std::size_t add(std::string name, std::size_t rows, std::size_t rowSize, float clip,
                    bool rowSparse = false) {
        segments.push_back({std::move(name), total, rows, rowSize, clip, rowSparse});
        total += rows * rowSize;
        return segments.size() - 1;
    }
};

// One thread's gradient sums; `touched` has one flag per row of each row-sparse segment
// (indexed by row within the segment; only one row-sparse segment is supported).
struct Gradients {
    std::vector<float> values;
    std::vector<std::uint8_t> touched;

    explicit Gradients(const ParameterLayout& layout) : values(layout.total, 0.0f) {
        for (const Segment& s : layout.segments)
            if (s.rowSparse) touched.assign(s.rows, 0);
    }
};

} // namespace axon::train
