// SPDX-License-Identifier: GPL-3.0-or-later
// --engine parsing and the self-engine command line.
#include "app/engine_spec.h"

#include <filesystem>
#include <system_error>

#include "match/time_control.h"

namespace axon::app {

std::optional<std::pair<std::string, std::string>> splitKeyValue(const std::string& item) {
    const auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0) return std::nullopt;
    return std::make_pair(item.substr(0, eq), item.substr(eq + 1));
}

util::Result<match::EngineConfig> parseEngineSpec(const std::vector<std::string>& items) {
    match::EngineConfig engine;
    for (const auto& item : items) {
        const auto kv = splitKeyValue(item);
        if (!kv) return util::makeError("--engine expects key=value, got '" + item + "'");
        const auto& [key, value] = *kv;
        if (key == "cmd")
            engine.command = value;
        else if (key == "proto") {
            if (value == "uci")
                engine.protocol = match::Protocol::Uci;
            else if (value == "xboard" || value == "cecp")
                engine.protocol = match::Protocol::Xboard;
            else
                return util::makeError("--engine proto is uci or xboard, got '" + value + "'");
        } else if (key == "name")
            engine.name = value;
        else if (key == "dir")
            engine.workingDir = value;
        else if (key.rfind("option.", 0) == 0 && key.size() > 7)
            engine.options.emplace_back(key.substr(7), value);
        else if (key == "tc" || key == "nodes" || key == "depth" || key == "movetime") {
            auto tc = match::parseTimeControl(key == "tc" ? value : key + "=" + value);
            if (!tc) return util::makeError("--engine " + item + ": " + tc.error());
            engine.timeControl = *tc;
        } else
            return util::makeError(
                "unknown --engine key '" + key +
                "' (cmd, proto, name, dir, option.NAME, tc, nodes, depth, movetime)");
    }
    if (engine.command.empty()) return util::makeError("--engine needs cmd=COMMAND");
    return engine;
}

std::string selfCommand() {
    std::error_code ec;
    auto path = std::filesystem::read_symlink("/proc/self/exe", ec).string();
    if (ec || path.empty()) path = "/proc/self/exe"; // still names this binary when read by us
    // Single quotes keep spaces and shell characters; a quote inside becomes '\''.
    std::string quoted = "'";
    for (char c : path) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

} // namespace axon::app
