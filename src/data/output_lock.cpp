// SPDX-License-Identifier: GPL-3.0-or-later
// The output folder's lock (output_lock.h): flock on the folder itself, so no lock file is
// created, left behind or mistaken for data.
#include "data/output_lock.h"

#include <cerrno>
#include <cstring>
#include <utility>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace axon::data {

util::Result<OutputLock> OutputLock::acquire(const std::string& dir, const std::string& job) {
    // O_CLOEXEC: engines started by the job (a teacher, an opponent) must not inherit the lock,
    // or one outliving a killed job would keep its folder locked.
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return util::makeError("cannot open " + dir + ": " + std::strerror(errno));
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        const int error = errno;
        ::close(fd);
        if (error == EWOULDBLOCK)
            return util::makeError(dir + " is in use by another running " + job +
                                   ": wait for it to finish (or stop it), or choose another --out");
        return util::makeError("cannot lock " + dir + ": " + std::strerror(error));
    }
    return OutputLock(fd);
}

OutputLock::OutputLock(OutputLock&& other) noexcept : m_fd(std::exchange(other.m_fd, -1)) {}

OutputLock& OutputLock::operator=(OutputLock&& other) noexcept {
    if (this != &other) {
        release();
        m_fd = std::exchange(other.m_fd, -1);
    }
    return *this;
}

OutputLock::~OutputLock() { release(); }

void OutputLock::release() {
    if (m_fd >= 0) ::close(m_fd); // the last descriptor of the lock: the lock goes with it
    m_fd = -1;
}

} // namespace axon::data
