// SPDX-License-Identifier: GPL-3.0-or-later
// One run per output folder. `axon datagen`, `label` and `train` treat the temporary files they
// find in their output folder as leftovers of a killed run and delete them; a second run aimed
// at the same --out while the first is alive would delete the first one's work in progress. So
// each takes an advisory lock (flock) on the folder it writes into and a second run stops with a
// clear error. The kernel drops the lock when its process ends, kill -9 included: a killed job
// never leaves a stale lock behind, and resuming needs no clean-up.
#pragma once

#include <string>

#include "util/result.h"

namespace axon::data {

class OutputLock {
  public:
    // Locks the existing folder `dir` for `job` (named in the error, "axon datagen"); an error
    // when another process holds it or the folder cannot be opened.
    static util::Result<OutputLock> acquire(const std::string& dir, const std::string& job);

    OutputLock(OutputLock&& other) noexcept;
    OutputLock& operator=(OutputLock&& other) noexcept;
    OutputLock(const OutputLock&) = delete;
    OutputLock& operator=(const OutputLock&) = delete;
    ~OutputLock();

  private:
    explicit OutputLock(int fd) : m_fd(fd) {}
    void release();

    int m_fd = -1; // the folder, opened for the lock only; closing it releases the lock
};

} // namespace axon::data
