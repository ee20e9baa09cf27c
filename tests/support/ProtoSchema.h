// SPDX-License-Identifier: MIT
// A tiny reader of .proto message and enum definitions, and a check of JSON against them by proto3's JSON mapping (the FUOTA export's tests).
#pragma once
#include <nlohmann/json.hpp>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace dpu::test {

struct ProtoField {
    std::string type; ///< "uint32", "string", "bytes", an enum's or a message's name, "google.protobuf.Duration"
    std::string name; ///< as the .proto writes it: multicast_dr
    int number = 0;
    bool repeated = false;
};

/// The messages and enums of one .proto file (top level; no nested types, oneofs or maps).
struct ProtoSchema {
    std::map<std::string, std::vector<ProtoField>> messages;
    std::map<std::string, std::vector<std::string>> enums; ///< value names
};

/// Reads `message X { [repeated] TYPE name = N; }` and `enum X { NAME = N; }` blocks; comments
/// are dropped. Throws std::runtime_error naming the line it does not understand.
inline ProtoSchema readProtoSchema(const std::string& path)
{
    std::ifstream in(path);
    if (!in)
        throw std::runtime_error(path + ": cannot be read");
    static const std::regex open(R"(^(message|enum)\s+(\w+)\s*\{$)");
    static const std::regex field(R"(^(repeated\s+)?([\w.]+)\s+(\w+)\s*=\s*(\d+)\s*;$)");
    static const std::regex value(R"(^(\w+)\s*=\s*(\d+)\s*;$)");
    ProtoSchema schema;
    std::string line, kind, name;
    for (int n = 1; std::getline(in, line); ++n) {
        line = line.substr(0, line.find("//"));
        line.erase(0, line.find_first_not_of(" \t"));
        line.erase(line.find_last_not_of(" \t\r") + 1);
        std::smatch m;
        if (line.empty() || (kind.empty() && line.back() == ';'))
            continue; // syntax, package, option, import
        if (kind.empty() && std::regex_match(line, m, open)) {
            kind = m[1];
            name = m[2];
            if (kind == "message")
                schema.messages[name];
            else
                schema.enums[name];
        } else if (!kind.empty() && line == "}") {
            kind.clear();
        } else if (kind == "message" && std::regex_match(line, m, field)) {
            schema.messages[name].push_back({m[2], m[3], std::stoi(m[4]), m[1].matched});
        } else if (kind == "enum" && std::regex_match(line, m, value)) {
            schema.enums[name].push_back(m[1]);
        } else {
            throw std::runtime_error(path + ":" + std::to_string(n) + ": not understood: " + line);
        }
    }
    return schema;
}

/// proto3's JSON name of a field: lowerCamelCase of its name (multicast_dr -> multicastDr).
inline std::string jsonName(const std::string& protoName)
{
    std::string out;
    bool upper = false;
    for (char c : protoName) {
        if (c == '_') {
            upper = true;
            continue;
        }
        out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
        upper = false;
    }
    return out;
}

inline bool isBase64(const std::string& s)
{
    static const std::regex b64(R"(^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$)");
    return std::regex_match(s, b64);
}

/// Problems of one value of a field's type at `path` ("" when it conforms).
inline std::vector<std::string> checkProtoJson(const ProtoSchema& schema, const std::string& message,
                                               const nlohmann::json& j, const std::string& path);

inline std::string checkScalar(const ProtoSchema& schema, const std::string& type, const nlohmann::json& v)
{
    if (type == "uint32" || type == "fixed32") {
        const bool fits = v.is_number_unsigned() ? v.get<uint64_t>() <= 0xffffffffu
                                                 : v.is_number_integer() && v.get<int64_t>() >= 0 && v.get<int64_t>() <= 0xffffffff;
        return fits ? "" : "expected an unsigned 32-bit number";
    }
    if (type == "string")
        return v.is_string() ? "" : "expected a string";
    if (type == "bool")
        return v.is_boolean() ? "" : "expected true or false";
    if (type == "bytes")
        return v.is_string() && isBase64(v.get<std::string>()) ? "" : "expected base64 bytes";
    if (type == "google.protobuf.Duration")
        return v.is_string() && std::regex_match(v.get<std::string>(), std::regex(R"(^-?\d+(\.\d{1,9})?s$)"))
                   ? ""
                   : "expected a Duration such as \"60s\"";
    const auto e = schema.enums.find(type);
    if (e != schema.enums.end()) {
        for (const std::string& name : e->second)
            if (v.is_string() && v.get<std::string>() == name)
                return "";
        return "expected a value name of enum " + type;
    }
    return "type " + type + " is not one this check knows";
}

inline std::vector<std::string> checkProtoJson(const ProtoSchema& schema, const std::string& message,
                                               const nlohmann::json& j, const std::string& path)
{
    const auto m = schema.messages.find(message);
    if (m == schema.messages.end())
        return {path + ": no message " + message + " in the definitions"};
    if (!j.is_object())
        return {path + ": expected an object (message " + message + ")"};
    std::vector<std::string> problems;
    for (const auto& [key, value] : j.items()) {
        const ProtoField* f = nullptr;
        for (const ProtoField& candidate : m->second)
            if (jsonName(candidate.name) == key)
                f = &candidate;
        const std::string at = path.empty() ? key : path + "." + key;
        if (!f) {
            problems.push_back(at + ": not a field of " + message);
            continue;
        }
        if (f->repeated != value.is_array()) {
            problems.push_back(at + (f->repeated ? ": expected an array" : ": expected one value, not an array"));
            continue;
        }
        const nlohmann::json items = f->repeated ? value : nlohmann::json::array({value});
        for (const auto& item : items) {
            const std::string itemAt = f->repeated ? at + "[]" : at;
            if (schema.messages.count(f->type)) {
                for (const std::string& p : checkProtoJson(schema, f->type, item, itemAt))
                    problems.push_back(p);
            } else if (const std::string p = checkScalar(schema, f->type, item); !p.empty()) {
                problems.push_back(itemAt + ": " + p + ", found " + item.dump());
            }
        }
    }
    return problems;
}

} // namespace dpu::test
