// SPDX-License-Identifier: GPL-3.0-or-later
// The option registry: each engine option is declared once (name, type, default, range,
// callback); the UCI listing and `setoption` both come from it.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace axon::engine {

class Options {
  public:
    enum class Type { Check, Spin, Button, String };
    struct Option {
        std::string name;
        Type type;
        std::string defaultValue;
        long long min = 0, max = 0;
        std::string value;
        // Applies a validated value; may reject it with a message.
        std::function<std::optional<std::string>(const std::string&)> onChange;
    };

    void addCheck(std::string name, bool value, std::function<void(bool)> onChange);
    void addSpin(std::string name, long long value, long long min, long long max,
                 std::function<void(long long)> onChange);
    void addButton(std::string name, std::function<void()> onPress);
    void addString(std::string name, std::string value,
                   std::function<std::optional<std::string>(const std::string&)> onChange);

    // Sets an option by case-insensitive exact name; returns an error message on failure.
    std::optional<std::string> set(const std::string& name, const std::string& value);
    const std::vector<Option>& all() const { return m_options; }
    const Option* find(const std::string& name) const;
    // The `option name ... type ...` lines of the UCI handshake.
    std::string uciListing() const;

  private:
    std::vector<Option> m_options;
};

} // namespace axon::engine
