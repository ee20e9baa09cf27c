// SPDX-License-Identifier: MIT
// Reads a TorchScript archive without its debug records, and names why LibTorch refused one.
#include "models/ScriptLoad.h"
#include "models/ScriptTensors.h"
#include <caffe2/serialize/inline_container.h>
#include <caffe2/serialize/versions.h>
#include <map>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <utility>
#include <vector>

namespace dpu {

namespace {

bool endsWithText(const std::string& s, const std::string& tail)
{
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

} // namespace

torch::jit::Module loadWithoutDebugRecords(const std::string& path)
{
    caffe2::serialize::PyTorchStreamReader reader(path);
    if (reader.version() < caffe2::serialize::kMinProducedFileFormatVersion)
        throw std::runtime_error("its format version " + std::to_string(reader.version()) + " is older than " +
                                 std::to_string(caffe2::serialize::kMinProducedFileFormatVersion) +
                                 ", which this LibTorch cannot load safely: save it again with torch.jit.save");
    std::vector<std::pair<std::string, std::tuple<at::DataPtr, size_t>>> records;
    for (const std::string& name : reader.getAllRecords())
        if (!endsWithText(name, ".debug_pkl") && name != "version" && name != ".data/version") // the writer adds the version
            records.emplace_back(name, reader.getRecord(name));
    // Before LibTorch builds a tensor larger than its record (see recordProblem).
    std::map<std::string, ArchiveRecord> byName;
    for (const auto& [name, record] : records)
        byName[name] = {std::get<0>(record).get(), std::get<1>(record)};
    if (const std::string problem = recordProblem(byName, reader.version()); !problem.empty())
        throw std::runtime_error(problem);
    std::string archive;
    {
        caffe2::serialize::PyTorchStreamWriter writer([&archive](const void* data, size_t size) {
            archive.append(static_cast<const char*>(data), size);
            return size;
        });
        writer.setMinVersion(reader.version());
        for (const auto& [name, record] : records)
            writer.writeRecord(name, std::get<0>(record).get(), std::get<1>(record));
        writer.writeEndOfFile();
    }
    records.clear();
    std::istringstream in(std::move(archive));
    // Load on the CPU whatever device the module was saved from; the runner moves it.
    return torch::jit::load(in, torch::kCPU);
}

std::string scriptReasonOf(const std::exception& e)
{
    const std::string text = e.what();
    const auto start = text.find_first_not_of("\n \t");
    if (start == std::string::npos)
        return kNoScriptReason;
    const auto end = text.find('\n', start);
    std::string line = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    // A compile error's line ends "here:" (or ":") and an excerpt of the code follows, opening
    // with where it is: say where instead of pointing at lines that are not shown.
    if (end == std::string::npos || line.empty() || line.back() != ':')
        return line;
    const auto from = text.find_first_not_of("\n \t", end);
    const std::string opening = "File \"";
    if (from == std::string::npos || text.compare(from, opening.size(), opening) != 0)
        return line;
    const auto fileEnd = text.find("\", line ", from + opening.size());
    const auto lineEnd = text.find('\n', from);
    if (fileEnd == std::string::npos || (lineEnd != std::string::npos && fileEnd > lineEnd))
        return line;
    const std::string file = text.substr(from + opening.size(), fileEnd - from - opening.size());
    const std::string number = text.substr(fileEnd + 8, lineEnd == std::string::npos ? std::string::npos : lineEnd - fileEnd - 8);
    if (number.empty() || number.size() > 9 || number.find_first_not_of("0123456789") != std::string::npos)
        return line;
    line.resize(line.size() - (endsWithText(line, " here:") ? 6 : 1));
    return line + " in " + file + ", line " + number;
}

} // namespace dpu
