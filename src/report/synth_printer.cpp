#include "report/synth_printer.h"

#include "core/strings.h"
#include "report/table_json.h"

namespace rigbench::report {

namespace {

// One row, the keys of json as columns: csv, json and jsonl from the one table builder.
Table summary_table(const SynthSummary& s) {
  Table t({{"path", "path"},
           {"preset", "preset"},
           {"arch", "arch"},
           {"file_type", "file_type"},
           {"size_bytes", "size_bytes"},
           {"tensor_bytes", "tensor_bytes"},
           {"n_params", "n_params"},
           {"header_only", "header_only"},
           {"tokenizer", "tokenizer"},
           {"synthetic", "synthetic"},
           {"seed", "seed"},
           {"elapsed_s", "elapsed_s"}});
  t.add_row({TableCell::str(s.path), TableCell::str(s.preset), TableCell::str(s.arch), TableCell::str(s.file_type),
             TableCell::count(s.size_bytes), TableCell::count(s.tensor_bytes), TableCell::count(s.n_params),
             TableCell::boolean(s.header_only), TableCell::str(s.tokenizer), TableCell::boolean(true),
             TableCell::count(s.seed), TableCell::number(s.elapsed_s, 1)});
  return t;
}

}  // namespace

void print_synth_summary(const SynthSummary& s, OutputFormat format, std::ostream& out) {
  switch (format) {
    case OutputFormat::kJson: out << row_json(summary_table(s), 0).dump(2) << "\n"; break;
    case OutputFormat::kJsonl: out << row_json(summary_table(s), 0).dump() << "\n"; break;
    case OutputFormat::kCsv: render(summary_table(s), OutputFormat::kCsv, out); break;
    default:  // md
      // One sentence, wrapped at 120 columns (a long path and tokenizer made it 263).
      out << paragraph_lines("wrote " + s.path + ": synthetic " + s.preset + " (" + s.arch + ") " + s.file_type + ", " +
                                 format_bytes(s.size_bytes) + " (" + std::to_string(s.size_bytes) + " bytes)" +
                                 (s.header_only ? " header-only (sparse)" : "") + ", " + format_count(s.n_params) +
                                 " params, tokenizer " + s.tokenizer + ", seed " + std::to_string(s.seed) + ", " +
                                 format_fixed(s.elapsed_s, 1) + " s",
                             "  ");
  }
  out.flush();
}

}  // namespace rigbench::report
