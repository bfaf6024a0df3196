// SPDX-License-Identifier: GPL-3.0-or-later
// What --version and `id name` say of the binary: the VERSION file's version, a commit, the
// compiled instruction set and the embedded network's own header hash.
#include <gtest/gtest.h>

#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <regex>
#include <string>

#include "engine/build_info.h"
#include "nn/embedded_net.h"
#include "nn/network_file.h"

using namespace axon;

TEST(EngineBuildInfo, VersionIsTheVersionFiles) {
    std::ifstream file(std::string(AXON_SOURCE_DIR) + "/VERSION");
    std::string expected;
    ASSERT_TRUE(std::getline(file, expected));
    EXPECT_TRUE(std::regex_match(expected, std::regex("[0-9]+\\.[0-9]+\\.[0-9]+")));
    EXPECT_EQ(engine::version(), expected);
}

TEST(EngineBuildInfo, CommitNamesAGitObjectOrSaysUnknown) {
    const std::string commit = engine::buildCommit();
    EXPECT_TRUE(commit == "unknown" ||
                std::regex_match(commit, std::regex("[0-9a-f]{7,40}(-dirty)?")))
        << commit;
}

TEST(EngineBuildInfo, NetworkHashIsTheEmbeddedHeaders) {
    const auto bytes = nn::embeddedNetworkBytes();
    ASSERT_FALSE(bytes.empty()) << "this build embeds no network";
    const auto header = nn::readNetHeader(bytes);
    ASSERT_TRUE(header) << header.error();
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016" PRIx64, header->hash);
    EXPECT_EQ(engine::embeddedNetworkHash(), hex);
    EXPECT_EQ(header->hash, nn::contentHash(bytes)); // the header's hash is the file's own
}

TEST(EngineBuildInfo, VersionTextHasEveryFact) {
    const std::string text = engine::versionText();
    EXPECT_EQ(text.rfind("Axon " + engine::version() + "\n", 0), 0u) << text;
    EXPECT_NE(text.find("\ncommit " + engine::buildCommit() + "\n"), std::string::npos);
    EXPECT_NE(text.find("\ninstruction set " + engine::instructionSet() + "\n"), std::string::npos);
    EXPECT_NE(text.find("\nnetwork " + engine::embeddedNetworkHash() + "\n"), std::string::npos);
#if defined(__AVX2__) && defined(__BMI2__)
    EXPECT_NE(engine::instructionSet().find("x86-64-v"), std::string::npos);
    EXPECT_EQ(engine::instructionSet().find("x86-64-v2"), std::string::npos);
#endif
}
