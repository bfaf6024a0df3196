// SPDX-License-Identifier: GPL-3.0-or-later
// One run per output folder (data/output_lock.h): a second holder is refused while the first
// lives, the lock goes with its process even under kill -9, and datagen and label refuse a
// folder in use before touching the temporary files another run is writing.
#include <atomic>
#include <filesystem>
#include <fstream>
#include <memory>

#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

#include "data/datagen.h"
#include "data/labeler.h"
#include "data/output_lock.h"
#include "test_helpers.h"

namespace axon::test {
namespace {

using namespace data;
namespace fs = std::filesystem;

TEST(OutputLock, ASecondHolderIsRefusedUntilTheFirstLetsGo) {
    const std::string dir = scratchDir("lock-basic");
    {
        auto first = OutputLock::acquire(dir, "axon datagen");
        ASSERT_TRUE(first) << first.error();
        auto second = OutputLock::acquire(dir, "axon datagen");
        ASSERT_FALSE(second);
        EXPECT_NE(second.error().find(dir), std::string::npos) << second.error();
        EXPECT_NE(second.error().find("in use by another running axon datagen"), std::string::npos)
            << second.error();
        // Moving the lock keeps it held; only its last owner's end releases it.
        OutputLock moved = std::move(*first);
        EXPECT_FALSE(OutputLock::acquire(dir, "axon datagen"));
    }
    auto third = OutputLock::acquire(dir, "axon datagen");
    EXPECT_TRUE(third) << third.error();
    // The lock is on the folder itself: nothing is created in it.
    EXPECT_TRUE(fs::is_empty(dir));
}

TEST(OutputLock, AMissingFolderIsAnError) {
    const std::string dir = scratchDir("lock-missing") + "/absent";
    auto lock = OutputLock::acquire(dir, "axon label");
    ASSERT_FALSE(lock);
    EXPECT_NE(lock.error().find("cannot open " + dir), std::string::npos) << lock.error();
}

TEST(OutputLock, AKilledHolderLeavesNoStaleLock) {
    const std::string dir = scratchDir("lock-killed");
    int ready[2];
    ASSERT_EQ(::pipe(ready), 0);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        // The holder: takes the lock, says so, then waits to be killed.
        auto lock = OutputLock::acquire(dir, "axon train");
        const char byte = lock ? '1' : '0';
        if (::write(ready[1], &byte, 1) != 1) ::_exit(2);
        for (;;) ::pause();
    }
    ::close(ready[1]);
    char byte = 0;
    ASSERT_EQ(::read(ready[0], &byte, 1), 1);
    ::close(ready[0]);
    EXPECT_EQ(byte, '1') << "the child could not take the lock";
    EXPECT_FALSE(OutputLock::acquire(dir, "axon train")) << "held by the child";
    ::kill(child, SIGKILL);
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    auto after = OutputLock::acquire(dir, "axon train");
    EXPECT_TRUE(after) << after.error();
}

// A datagen aimed at a folder another datagen is writing stops before removing its .tmp chunks.
TEST(OutputLock, DatagenRefusesAFolderInUseAndKeepsItsWork) {
    const std::string dir = scratchDir("lock-datagen");
    const fs::path inProgress = fs::path(dir) / (chunkFileName(11, 0, 0) + ".tmp");
    std::ofstream(inProgress) << "the other run's chunk in progress";
    auto other = OutputLock::acquire(dir, "axon datagen");
    ASSERT_TRUE(other) << other.error();

    DatagenConfig config;
    config.outDir = dir;
    config.positions = 30;
    config.chunkPositions = 30;
    config.softNodes = 300;
    config.seed = 11;
    std::atomic<bool> stop{false};
    auto run = runDatagen(config, stop, {});
    ASSERT_FALSE(run.ok());
    EXPECT_NE(run.error().find("in use by another running axon datagen"), std::string::npos)
        << run.error();
    EXPECT_TRUE(fs::exists(inProgress));
}

// The same for label: the parts folder is locked before its .tmp parts are cleared.
TEST(OutputLock, LabelRefusesAnOutputInUseAndKeepsItsWork) {
    const std::string dir = scratchDir("lock-label");
    std::ofstream(dir + "/in.epd") << "4k3/8/8/8/8/8/8/3QK3 w - - 0 1\n";
    const std::string output = dir + "/out.bin";
    const fs::path parts = output + ".parts";
    fs::create_directories(parts);
    const fs::path inProgress = parts / "part-000000.bin.tmp";
    std::ofstream(inProgress) << "the other run's part in progress";
    auto other = OutputLock::acquire(parts.string(), "axon label");
    ASSERT_TRUE(other) << other.error();

    LabelConfig config;
    config.inputs = {dir + "/in.epd"};
    config.output = output;
    config.limit.depth = 1;
    std::atomic<bool> stop{false};
    bool teacherStarted = false;
    auto run = runLabel(config,
                        [&]() -> std::unique_ptr<match::Engine> {
                            teacherStarted = true;
                            return nullptr;
                        },
                        stop, {});
    ASSERT_FALSE(run.ok());
    EXPECT_NE(run.error().find("in use by another running axon label"), std::string::npos)
        << run.error();
    EXPECT_FALSE(teacherStarted);
    EXPECT_TRUE(fs::exists(inProgress));
    EXPECT_FALSE(fs::exists(output));
}

} // namespace
} // namespace axon::test
