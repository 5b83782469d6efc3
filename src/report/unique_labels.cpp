#include "report/unique_labels.h"

#include <algorithm>
#include <utility>

namespace rigbench::report {

void UniqueLabels::finish() {
  std::map<std::string, std::pair<int, std::string>> seen;  // label -> (count, first key)
  for (auto& [key, label] : labels_) {
    auto& [n, first_key] = seen[label];
    if (++n == 1) first_key = key;
    if (n > 1) {
      shared_.push_back({key, label, first_key});
      label += " (" + std::to_string(n) + ")";
    }
  }
}

std::vector<std::string> UniqueLabels::sorted() const {
  std::vector<std::string> v;
  for (const auto& [key, label] : labels_) v.push_back(label);
  std::sort(v.begin(), v.end());
  return v;
}

std::vector<std::string> same_name_notes(const UniqueLabels& machines, const UniqueLabels& models) {
  std::vector<std::string> out;
  auto after_name = [](const std::string& key) {  // a named machine's key: hostname \x1f CPU
    const auto at = key.find('\x1f');
    std::string cpu = at == std::string::npos ? std::string() : key.substr(at + 1);
    if (const auto end = cpu.find('\x1f'); end != std::string::npos) cpu.resize(end);
    return cpu.empty() ? std::string("no CPU named") : cpu;
  };
  for (const UniqueLabels::Shared& s : machines.shared()) {
    out.push_back(machines.of(s.key) + ": another machine named " + s.base + ", told apart by its CPU (" +
                  after_name(s.key) + "; " + s.base + ": " + after_name(s.first_key) + ")");
  }
  for (const UniqueLabels::Shared& s : models.shared()) {
    out.push_back(models.of(s.key) + ": another model named " + s.base +
                  " (another architecture, size, file type or file; compare -o json: each cell's model)");
  }
  return out;
}

}  // namespace rigbench::report
