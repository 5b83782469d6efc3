#include "measure/serve_trace.h"

#include <cmath>
#include <nlohmann/json.hpp>
#include <utility>

#include "core/strings.h"
#include "core/text_lines.h"
#include "hw/file_text.h"

namespace rigbench::measure {

Result<std::vector<TraceRequest>> read_trace(const std::string& path) {
  const std::optional<std::string> text = hw::read_file_text(path);
  if (!text) return fail(ErrorCode::kUsage, "--trace '" + path + "': cannot open it");
  std::vector<TraceRequest> trace;
  double first_s = 0;
  for (const auto& [n, line] : nonblank_lines(*text)) {
    const auto bad = [&](const std::string& what) {
      return fail(ErrorCode::kUsage, path + ":" + std::to_string(n) + ": " + what);
    };
    const auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return bad("not a JSON object");
    const auto at = j.find("arrival_s");
    if (at == j.end() || !at->is_number() || !std::isfinite(at->get<double>()) || at->get<double>() < 0)
      return bad("\"arrival_s\" is not a time in seconds >= 0");
    TraceRequest r;
    using Count = std::pair<const char*, int*>;
    for (const auto& [key, count] : {Count{"input_tokens", &r.input_tokens}, Count{"output_tokens", &r.output_tokens}}) {
      const auto v = j.find(key);
      if (v == j.end() || !v->is_number_integer() || v->get<long long>() < 1 || v->get<long long>() > (1 << 24))
        return bad(std::string("\"") + key + "\" is not a token count >= 1");
      *count = v->get<int>();
    }
    const double t = at->get<double>();
    if (trace.empty()) first_s = t;
    if (!trace.empty() && t - first_s < trace.back().arrival_s)
      return bad("arrival_s " + format_fixed(t, 3) + " is before the line before's " +
                 format_fixed(trace.back().arrival_s + first_s, 3) + " (a trace is in arrival order)");
    r.arrival_s = t - first_s;
    trace.push_back(r);
  }
  if (trace.empty()) return fail(ErrorCode::kUsage, "--trace '" + path + "': no requests");
  return trace;
}

std::vector<double> trace_arrivals(const std::vector<TraceRequest>& trace, double scale) {
  std::vector<double> out;
  out.reserve(trace.size());
  for (const TraceRequest& r : trace) out.push_back(r.arrival_s / scale);
  return out;
}

int trace_mean_output_tokens(const std::vector<TraceRequest>& trace) {
  if (trace.empty()) return 0;
  double sum = 0;
  for (const TraceRequest& r : trace) sum += r.output_tokens;
  return static_cast<int>(std::lround(sum / static_cast<double>(trace.size())));
}

}  // namespace rigbench::measure
