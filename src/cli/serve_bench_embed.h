// rigbench: `serve-bench URL --embeddings`, the embedding half of serve-bench: an embedding
// server timed as `rigbench embed` times a model in process (measure/serve_embed.h), one
// record per model and concurrency, printed by embed's own table (report/embed_table.h) or as
// records (-o json/jsonl), stored and compared like embed's.
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/serve_bench_command.h"
#include "core/status.h"
#include "measure/energy.h"
#include "measure/job.h"
#include "net/http_client.h"
#include "net/protocol.h"
#include "net/url.h"
#include "report/table.h"
#include "store/sqlite_store.h"

namespace rigbench::cli {

// The flags that only generation uses, refused with --embeddings: "" when none was given, else
// the usage error's text.
std::string embeddings_refusal(const ServeBenchOptions& opts);

// Runs every model at every concurrency of `opts` against `server` (already probed; `models`
// chosen). `db` may be null (--no-db). Errors: the warm-up's (kRuntime, one line), the query
// file's, the store's; kInterrupted after Ctrl-C (the finished records kept and stored).
// `energy` (--energy auto): the same meters as generation, an idle window with the model
// loaded, then the loaded window over the counted requests (phase "pp": J per input token and
// per text, cost per Mtok of input tokens with a price).
Status run_serve_embeddings(const ServeBenchOptions& opts, const net::Url& url, const net::ServerInfo& server,
                            bool ollama, const std::vector<std::string>& models, const std::vector<int>& concurrency,
                            const net::ClientOptions& client, store::SqliteStore* db, report::OutputFormat format,
                            const std::optional<measure::EnergyConfig>& energy);

}  // namespace rigbench::cli
