// SPDX-License-Identifier: GPL-3.0-or-later
// Option registry implementation.
#include "engine/options.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace axon::engine {

namespace {

bool equalsIgnoreCase(const std::string& a, const std::string& b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) ==
                      std::tolower(static_cast<unsigned char>(y));
           });
}

} // namespace

void Options::addCheck(std::string name, bool value, std::function<void(bool)> onChange) {
    m_options.push_back(
        {std::move(name), Type::Check, value ? "true" : "false", 0, 0, value ? "true" : "false",
         [cb = std::move(onChange)](const std::string& v) -> std::optional<std::string> {
             if (v != "true" && v != "false") return "expected true or false";
             cb(v == "true");
             return std::nullopt;
         }});
}

void Options::addSpin(std::string name, long long value, long long min, long long max,
                      std::function<void(long long)> onChange) {
    m_options.push_back(
        {std::move(name), Type::Spin, std::to_string(value), min, max, std::to_string(value),
         [cb = std::move(onChange), min, max](const std::string& v) -> std::optional<std::string> {
             long long n = 0;
             auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
             if (ec != std::errc() || end != v.data() + v.size()) return "expected an integer";
             if (n < min || n > max)
                 return "expected a value from " + std::to_string(min) + " to " +
                        std::to_string(max);
             cb(n);
             return std::nullopt;
         }});
}

void Options::addButton(std::string name, std::function<void()> onPress) {
    m_options.push_back(
        {std::move(name), Type::Button, "", 0, 0, "",
         [cb = std::move(onPress)](const std::string&) -> std::optional<std::string> {
             cb();
             return std::nullopt;
         }});
}

void Options::addString(std::string name, std::string value,
                        std::function<std::optional<std::string>(const std::string&)> onChange) {
    m_options.push_back({std::move(name), Type::String, value, 0, 0, value, std::move(onChange)});
}

const Options::Option* Options::find(const std::string& name) const {
    for (const Option& o : m_options)
        if (equalsIgnoreCase(o.name, name)) return &o;
    return nullptr;
}

std::optional<std::string> Options::set(const std::string& name, const std::string& value) {
    for (Option& o : m_options) {
        if (!equalsIgnoreCase(o.name, name)) continue;
        if (auto error = o.onChange(value)) return "option '" + o.name + "': " + *error;
        if (o.type != Type::Button) o.value = value;
        return std::nullopt;
    }
    return "unknown option '" + name + "'";
}

std::string Options::uciListing() const {
    std::string out;
    for (const Option& o : m_options) {
        out += "option name " + o.name + " type ";
        switch (o.type) {
        case Type::Check: out += "check default " + o.defaultValue; break;
        case Type::Spin:
            out += "spin default " + o.defaultValue + " min " + std::to_string(o.min) + " max " +
                   std::to_string(o.max);
            break;
        case Type::Button: out += "button"; break;
        case Type::String:
            out += "string default " + (o.defaultValue.empty() ? "<empty>" : o.defaultValue);
            break;
        }
        out += '\n';
    }
    return out;
}

} // namespace axon::engine
