#include "cli/args.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <utility>

#include "core/knobs.h"
#include "core/strings.h"
#include "report/table.h"

namespace rigbench::cli {

namespace {

// llama-bench's one-dash spellings (llama-bench --help) and llama.cpp's that fit takes (-np,
// -cmoe): the knobs' (core/knobs.h) and the flags that are not knobs.
std::vector<LlamaSpelling> make_spellings() {
  std::vector<LlamaSpelling> out = {
      {"-pg", "--pg", /*only=*/true},  // llama-bench has no long spelling
      {"-mmp", "--mmap"},
      {"-np", "--parallel"},  // llama.cpp's (llama-server, llama-cli)
      {"-kvu", "--kv-unified"},  // llama-server's
      {"-no-kvu", "--no-kv-unified"},
      {"-dio", "--direct-io"},
      {"-embd", "--embeddings"},
      {"-lzm", "--lazy-mode"},
      {"-fitt", "--fit-target"},  // fit's margin (bench's knob declares its own spelling too)
      {"-oe", "--output-err"},
      {"-hf", "--hf-repo"},
      {"-hfr", "--hf-repo"},
      {"-hff", "--hf-file"},
      {"-hft", "--hf-token"},
  };
  for (const Knob& k : knobs()) {
    if (k.llama_alias.empty()) continue;
    const auto comma = k.flags.rfind(',');
    out.push_back({k.llama_alias, comma == std::string::npos ? k.flags : k.flags.substr(comma + 1)});
  }
  return out;
}

const LlamaSpelling* spelling_of(const std::string& flag) {
  for (const LlamaSpelling& s : llama_spellings()) {
    if (s.alias == flag) return &s;
  }
  return nullptr;
}

}  // namespace

const std::vector<LlamaSpelling>& llama_spellings() {
  static const std::vector<LlamaSpelling> kSpellings = make_spellings();
  return kSpellings;
}

std::vector<std::string> declared_flags(const CLI::App& cmd) {
  std::vector<std::string> names;
  for (const CLI::Option* opt : cmd.get_options()) {
    for (const auto& l : opt->get_lnames()) names.push_back("--" + l);
    for (const auto& s : opt->get_snames()) names.push_back("-" + s);
  }
  return names;
}

namespace {

// `declared` as typed (typed_flags).
std::vector<std::string> typed_names(const std::vector<std::string>& declared) {
  std::vector<std::string> out;
  for (const std::string& name : declared) {
    bool only = false;
    for (const LlamaSpelling& s : llama_spellings()) {
      if (s.name != name) continue;
      out.push_back(s.alias);
      only = only || s.only;
    }
    if (!only) out.push_back(name);
  }
  return out;
}

// The knob whose flag `name` ("--no-kv-offload") is, when it has a bare value; else nullptr.
const Knob* bare_value_knob(const std::string& name) {
  for (const Knob& k : knobs()) {
    if (k.bare_value.empty()) continue;
    for (const std::string& f : split(k.flags, ',')) {
      if (f == name) return &k;
    }
  }
  return nullptr;
}

// Whether `text` is a list of `k`'s values ("0,1").
bool normalize_list(const Knob& k, const std::string& text) {
  if (text.empty()) return false;
  for (const std::string& v : split(text, ',')) {
    if (!normalize_knob(k, v)) return false;
  }
  return true;
}

}  // namespace

std::vector<std::string> typed_flags(const CLI::App& cmd) { return typed_names(declared_flags(cmd)); }

Result<std::vector<std::string>> expand_llama_bench_aliases(const std::vector<std::string>& args,
                                                            const std::string& command,
                                                            const std::vector<std::string>& declared) {
  const auto takes = [&](const std::string& name) {
    return !name.empty() && std::find(declared.begin(), declared.end(), name) != declared.end();
  };
  std::vector<std::string> out;
  out.reserve(args.size());
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const std::string flag = a.substr(0, a.find('='));
    if (i < 2 || flag.size() < 2 || flag[0] != '-') {
      out.push_back(a);
      continue;
    }
    const auto unknown = [&] {
      return fail(ErrorCode::kUsage, unexpected_arguments_message(command, {flag}, typed_names(declared)));
    };
    std::string name = flag;
    if (const LlamaSpelling* s = spelling_of(flag)) {
      if (!takes(s->name)) return unknown();
      name = s->name;
    }
    // A knob llama-server spells as a flag (-nkvo, -cmoe) and llama-bench with a value
    // (-nkvo 0,1): alone it means its bare value; a following value is its own.
    if (const Knob* k = bare_value_knob(name); k != nullptr && takes(name) && a.size() == flag.size()) {
      const bool valued = i + 1 < args.size() && normalize_list(*k, args[i + 1]);
      out.push_back(name + "=" + (valued ? args[++i] : k->bare_value));
      continue;
    }
    if (name != flag) {
      out.push_back(name + a.substr(flag.size()));
      continue;
    }
    for (const LlamaSpelling& s : llama_spellings()) {
      if (s.only && s.name == flag) return unknown();  // "--pg": not a spelling of its own
    }
    out.push_back(a);
  }
  return out;
}

std::string LlamaSpellingFormatter::make_option_name(const CLI::Option* opt, bool is_positional) const {
  const std::string name = CLI::Formatter::make_option_name(opt, is_positional);
  if (is_positional) return name;
  for (const std::string& l : opt->get_lnames()) {
    for (const LlamaSpelling& s : llama_spellings()) {
      if (s.name != "--" + l) continue;
      return s.only ? s.alias : s.alias + "," + name;
    }
  }
  return name;
}

namespace {

// `text` wrapped at spaces to the columns right of `indent` within a 120-column terminal, its
// lines joined by '\n' (CLI11's format_help indents each to `indent`).
std::string help_column(const std::string& text, std::size_t indent) {
  std::string out;
  for (const std::string& line : split(text, '\n')) {
    std::string wrapped = report::paragraph_lines(line, "", report::kMarkdownWidth - indent);
    if (!out.empty()) out += '\n';
    out += wrapped.substr(0, wrapped.size() - 1);  // less the last '\n'
  }
  return out;
}

}  // namespace

// `text` (a description, a footer) with each line wider than 120 columns wrapped at spaces, its
// continuation lines indented two more than it; shorter lines as they are.
static std::string help_lines(const std::string& text) {
  std::vector<std::string> lines;
  for (const std::string& line : split(text, '\n')) {
    if (report::display_width(line) <= report::kMarkdownWidth) {
      lines.push_back(line);
      continue;
    }
    const std::size_t lead = std::min(line.find_first_not_of(' '), std::size_t{40});
    const std::string wrapped = report::paragraph_lines(line.substr(lead), "  ", report::kMarkdownWidth - lead);
    for (const std::string& l : split(wrapped.substr(0, wrapped.size() - 1), '\n'))
      lines.push_back(std::string(lead, ' ') + l);
  }
  return join(lines, "\n");
}

std::string LlamaSpellingFormatter::make_description(const CLI::App* app) const {
  return help_lines(CLI::Formatter::make_description(app));
}

std::string LlamaSpellingFormatter::make_footer(const CLI::App* app) const {
  return help_lines(CLI::Formatter::make_footer(app));
}

std::string LlamaSpellingFormatter::make_option_desc(const CLI::Option* opt) const {
  return help_column(CLI::Formatter::make_option_desc(opt), get_column_width());
}

std::string LlamaSpellingFormatter::make_subcommand(const CLI::App* sub) const {
  std::stringstream out;
  CLI::detail::format_help(out, sub->get_display_name(true), help_column(sub->get_description(), get_column_width()),
                           get_column_width());
  return out.str();
}

Status check_unsupported_llama_bench_flags(const std::vector<std::string>& args) {
  struct Unsupported {
    const char* names;  // llama-bench's spellings, '/'-separated
    const char* instead;
  };
  static const Unsupported kUnsupported[] = {
      {"-dio/--direct-io", "use -lm dio (or -lm none|mmap)"},
      {"-embd/--embeddings", "embedding models are measured by `rigbench embed MODEL`"},
      {"-C/--cpu-mask", "not taken; pin the process with taskset instead"},
      {"--numa", "not taken; run under numactl instead"},
      {"--prio", "not taken; run under nice/chrt instead"},
      {"-oe/--output-err", "not taken; -o picks the format of standard output"},
      {"--list-devices", "use `rigbench hw`"},
      {"-hf/-hfr/--hf-repo", "not taken; rigbench downloads nothing: give a local GGUF file"},
      {"-hff/--hf-file", "not taken; rigbench downloads nothing: give a local GGUF file"},
      {"-hft/--hf-token", "not taken; rigbench downloads nothing: give a local GGUF file"},
      {"--offline", "not needed; rigbench downloads nothing"},
      {"--no-host", "not taken"},
      {"-lzm/--lazy-mode", "not taken"},
  };
  if (args.size() < 2 || args[1] != "bench") return {};
  for (std::size_t i = 2; i < args.size(); ++i) {
    const std::string flag = args[i].substr(0, args[i].find('='));
    for (const Unsupported& u : kUnsupported) {
      for (const std::string& name : split(u.names, '/')) {
        if (flag == name) {
          return fail(ErrorCode::kUsage,
                      "bench: llama-bench's " + std::string(u.names) + " is not taken here; " + u.instead);
        }
      }
    }
  }
  return {};
}

Status check_currency(const std::string& currency) {
  if (currency.empty() || currency.size() > 8 ||
      currency.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") != std::string::npos) {
    return fail(ErrorCode::kUsage, "--currency '" + currency + "': expected 1 to 8 letters, e.g. EUR");
  }
  return {};
}

void add_record_filter_flags(CLI::App& cmd, store::RecordFilter& f) {
  cmd.add_option("--model", f.models,
                 "only records whose model (name, file type or file name) contains TEXT; repeatable, any may match")
      ->option_text("TEXT");
  cmd.add_option("--machine", f.machines, "only records whose machine (hostname, CPU or GPU) contains TEXT; repeatable")
      ->option_text("TEXT");
  cmd.add_option("--tag", f.tags, "only records with a tag containing TEXT (bench --tag); repeatable")
      ->option_text("TEXT");
}

namespace {

// A bound as written: whole numbers in full (16777216, not 1.67772e+07), others in the shortest
// form that reads back to the same double (1e-09, 0.01).
std::string bound_text(double v) {
  char buf[64];
  const bool whole = std::fabs(v) < 1e15 && v == std::floor(v);
  const auto [end, ec] = whole ? std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, 0)
                               : std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc() ? std::string(buf, end) : std::to_string(v);
}

// A value of type T (read whole by std::from_chars) within [lo, hi]: "" or what is wrong, in
// the one shape ("'x' is not <kind>", "'2' is out of range [lo, hi]").
template <typename T>
CLI::Validator bounded(T lo, T hi, const std::string& bounds, const char* kind, std::string description) {
  return CLI::Validator(
      [lo, hi, bounds, kind](std::string& v) -> std::string {
        T x{};
        const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
        if (ec != std::errc() || end != v.data() + v.size()) return "'" + v + "' is not " + kind;
        return x >= lo && x <= hi ? "" : "'" + v + "' is out of range " + bounds;
      },
      std::move(description));
}

}  // namespace

CLI::Validator range(double min, double max) {
  const std::string bounds = "[" + bound_text(min) + ", " + bound_text(max) + "]";
  return bounded(min, max, bounds, "a number", bounds);
}

CLI::Validator number() {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  return bounded(-kInf, kInf, "", "a number", "");
}

CLI::Validator int_range(long lo, long hi) {
  const std::string bounds = "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  return bounded(lo, hi, bounds, "an integer", bounds);
}

Status check_list_values(const CLI::App& cmd, const std::vector<std::string>& args) {
  const auto it = std::find(args.begin(), args.end(), cmd.get_name());
  if (it == args.end()) return {};
  for (auto a = it + 1; a != args.end(); ++a) {
    if (*a == "--") break;
    if (a->size() < 2 || (*a)[0] != '-') continue;
    const auto eq = a->find('=');
    const std::string name = a->substr(0, eq);
    const bool is_long = name.rfind("--", 0) == 0;
    const CLI::Option* opt = nullptr;
    for (const CLI::Option* o : cmd.get_options()) {
      const auto& names = is_long ? o->get_lnames() : o->get_snames();
      const std::string bare = name.substr(is_long ? 2 : 1);
      if (std::find(names.begin(), names.end(), bare) != names.end()) opt = o;
    }
    if (opt == nullptr || opt->get_delimiter() == '\0') continue;
    std::string value;
    if (eq != std::string::npos) {
      value = a->substr(eq + 1);
    } else if (a + 1 != args.end()) {
      value = *(a + 1);
    } else {
      continue;
    }
    const char d = opt->get_delimiter();
    const std::string twice(2, d);
    if (value.empty() || value.front() == d || value.back() == d || value.find(twice) != std::string::npos) {
      return fail(ErrorCode::kUsage, cmd.get_name() + ": " + name + " '" + value +
                                         "': an empty item in the list (values separated by single " +
                                         (d == ',' ? std::string("commas, e.g. 1,4)") : "'" + std::string(1, d) + "')"));
    }
  }
  return {};
}

namespace {

// A flag is a token that starts with '-' and is not a number ("-5") or "-" (standard input).
bool looks_like_flag(const std::string& token) {
  if (token.size() < 2 || token[0] != '-') return false;
  char* end = nullptr;
  std::strtod(token.c_str(), &end);
  return *end != '\0';
}

std::string quoted_list(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "'" : ", '") + s + "'";
  return out;
}

}  // namespace

std::string unexpected_arguments_message(const std::string& command, const std::vector<std::string>& extras,
                                         const std::vector<std::string>& known_flags) {
  std::vector<std::string> flags, others;
  for (const auto& token : extras) {
    if (looks_like_flag(token)) flags.push_back(token.substr(0, token.find('=')));
    else others.push_back(token);
  }
  std::string msg = command.empty() ? "" : command + ": ";
  if (!flags.empty()) {
    msg += (flags.size() == 1 ? "unknown flag " : "unknown flags ") + quoted_list(flags);
    if (const std::string near = closest_match(flags.front(), known_flags); !near.empty()) {
      msg += " (did you mean '" + near + "'?)";
    }
    if (!others.empty()) msg += "; not expected either: " + quoted_list(others);
  } else {
    msg += (others.size() == 1 ? "unexpected argument " : "unexpected arguments ") + quoted_list(others);
  }
  return msg + " (see rigbench " + (command.empty() ? "" : command + " ") + "--help)";
}

}  // namespace rigbench::cli
