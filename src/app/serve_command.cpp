// SPDX-License-Identifier: GPL-3.0-or-later
// `axon serve`: options, validation of the web root, then the server until a signal.
#include "app/serve_command.h"

#include <filesystem>
#include <iostream>

#include "server/static_files.h"

namespace axon::app {

CLI::App* addServeCommand(CLI::App& app, ServeCommandArgs& args) {
    auto* cmd =
        app.add_subcommand("serve", "Serve the web front end and a WebSocket JSON API (/ws) "
                                    "over the engine");
    auto& c = args.config;
    cmd->add_option("--host", c.host, "IPv4 address to bind (loopback unless told otherwise)")
        ->capture_default_str();
    cmd->add_option("--port", c.port, "TCP port (0: any free one)")
        ->check(CLI::Range(0, 65535))
        ->capture_default_str();
    cmd->add_option("--threads", c.session.threads, "Search threads of a new session")
        ->check(CLI::Range(1, 256))
        ->capture_default_str();
    cmd->add_option("--hash", c.session.hashMb, "Hash table of a new session, MiB")
        ->check(CLI::Range(1, 65536))
        ->capture_default_str();
    cmd->add_option("--max-threads", c.maxThreads,
                    "Most threads a session may ask for (0: --total-threads)")
        ->check(CLI::Range(0, 256))
        ->capture_default_str();
    cmd->add_option("--max-hash", c.maxHashMb,
                    "Most hash a session may ask for, MiB (0: 1024, at least --hash)")
        ->check(CLI::Range(0, 65536))
        ->capture_default_str();
    cmd->add_option("--total-threads,--max-searches", c.totalThreads,
                    "Search threads at once over all sessions; a search takes its session's "
                    "threads, others queue (0: the cores)")
        ->check(CLI::Range(0, 1024))
        ->capture_default_str();
    cmd->add_option("--total-hash", c.totalHashMb,
                    "Hash over all sessions, MiB (0: --max-sessions x --hash + --max-hash)")
        ->check(CLI::Range(0, 1 << 24))
        ->capture_default_str();
    cmd->add_option("--local-analysis", args.localAnalysis,
                    "unlimited: analysis from this machine runs until stopped; capped: it "
                    "stops at --max-think-ms like every other search")
        ->check(CLI::IsMember({"unlimited", "capped"}))
        ->capture_default_str();
    cmd->add_option(
        "--web-root", args.webRoot,
        "Folder of the built front end (default: web/dist of the source tree, if built)");
    cmd->add_option("--max-sessions", c.maxSessions, "Concurrent WebSocket sessions")
        ->check(CLI::Range(1, 1000))
        ->capture_default_str();
    cmd->add_option("--max-think-ms", c.session.maxThinkMs,
                    "Longest search: every game move, and analysis from other machines (or "
                    "with --local-analysis capped)")
        ->check(CLI::Range(1, 3600000))
        ->capture_default_str();
    cmd->add_option("--allow-host", c.allowedHosts,
                    "Also accept requests whose Host is this name (.example.org: its "
                    "subdomains); IP addresses and localhost always are. Repeatable");
    cmd->add_option("--allow-origin", c.allowedOrigins,
                    "Also accept WebSocket connections from pages of this origin "
                    "(https://app.example.org); the server's own page always is. Repeatable");
    cmd->add_option("--syzygy-path", args.syzygyPath,
                    "Syzygy tablebase directories (':'-separated, ';' on Windows) for every "
                    "session's search and the analysis tablebase panel");
    cmd->add_option("--idle-minutes", args.idleMinutes, "Close sessions idle this long")
        ->check(CLI::Range(1, 10080))
        ->capture_default_str();
    return cmd;
}

int runServeCommand(ServeCommandArgs& args) {
    namespace fs = std::filesystem;
    auto& c = args.config;
    if (!args.webRoot.empty()) {
        std::error_code ec;
        if (!fs::is_directory(args.webRoot, ec)) {
            std::cerr << "axon serve: --web-root '" << args.webRoot << "' is not a folder"
                      << std::endl;
            return 1;
        }
        c.webRoot = fs::canonical(args.webRoot, ec);
    } else {
        c.webRoot = server::defaultWebRoot();
    }
    if (!args.syzygyPath.empty()) {
        auto tables = tablebase::Tablebases::open(args.syzygyPath);
        if (!tables) {
            std::cerr << "axon serve: --syzygy-path: " << tables.error() << std::endl;
            return 1;
        }
        std::cerr << "axon serve: " << (*tables)->wdlCount() << " tablebases (up to "
                  << (*tables)->maxPieces() << " pieces) from " << args.syzygyPath << std::endl;
        c.session.tablebases = std::move(*tables);
    }
    c.session.idleTimeoutMs = std::int64_t(args.idleMinutes) * 60 * 1000;
    c.localAnalysis = args.localAnalysis == "capped" ? server::LocalAnalysis::Capped
                                                     : server::LocalAnalysis::Unlimited;
    return server::runServer(c);
}

} // namespace axon::app
