// SPDX-License-Identifier: GPL-3.0-or-later
// Result<T>: a value or an error message, for parsers that must not throw (the WASM build runs
// without exceptions).
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace axon::util {

struct Error {
    std::string message;
};

template <typename T>
class Result {
  public:
    Result(T value) : m_data(std::move(value)) {}
    Result(Error error) : m_data(std::move(error)) {}

    bool ok() const { return m_data.index() == 0; }
    explicit operator bool() const { return ok(); }
    T& value() { return std::get<0>(m_data); }
    const T& value() const { return std::get<0>(m_data); }
    T& operator*() { return value(); }
    const T& operator*() const { return value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    const std::string& error() const { return std::get<1>(m_data).message; }

  private:
    std::variant<T, Error> m_data;
};

inline Error makeError(std::string message) { return Error{std::move(message)}; }

} // namespace axon::util
