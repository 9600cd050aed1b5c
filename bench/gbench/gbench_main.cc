// Google Benchmark front end of ompext-gbench: registers one benchmark per
// (collective, parameter, team size) and hands the work to the C shim
// (shim.h). Only the front end is C++; see README.md for what is measured.
//
// Each benchmark runs its whole iteration count as one batch on a team kept
// alive across benchmarks: one Google Benchmark iteration is one collective
// operation, and the reported (manual) time is what tid 0 measured for the
// batch, so real_time is the time per operation.

#include "shim.h"

#include <benchmark/benchmark.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace {

struct Options {
  std::vector<int> threads{2};
  int pin = 1;
  int random_root = 1;
  long warmup = 16;
};

Options g_opt;
std::map<int, gb_team_t *> g_teams; // one team (thread set) per size

gb_team_t *team_for(int n) {
  auto it = g_teams.find(n);
  if (it != g_teams.end())
    return it->second;
  gb_team_t *team = gb_team_create(n, g_opt.pin);
  g_teams[n] = team; // a failure is remembered too: no retry per benchmark
  return team;
}

void destroy_teams() {
  for (auto &entry : g_teams)
    gb_team_destroy(entry.second);
  g_teams.clear();
}

void run_collective(benchmark::State &state, const gb_config_t &cfg, int n) {
  gb_team_t *team = team_for(n);
  if (!team) {
    state.SkipWithError("cannot start the team's threads");
    return;
  }
  if (gb_team_configure(team, &cfg) != 0) {
    state.SkipWithError("cannot lay out the collective");
    return;
  }
  const benchmark::IterationCount batch = state.max_iterations;
  unsigned long errors = 0;
  while (state.KeepRunningBatch(batch)) {
    gb_result_t result;
    if (gb_team_run(team, g_opt.warmup, static_cast<long>(batch), &result)) {
      state.SkipWithError("the team could not run");
      break;
    }
    state.SetIterationTime(result.seconds);
    errors += result.errors;
  }
  state.counters["team_size"] = n;
  if (errors) {
    std::string msg = "wrong results in " + std::to_string(errors) +
                      " checks (sums or broadcast stamps)";
    state.SkipWithError(msg.c_str());
  }
}

void add(const std::string &name, const gb_config_t &cfg, int n) {
  std::string full = name + "/threads:" + std::to_string(n);
  benchmark::RegisterBenchmark(full.c_str(),
                               [cfg, n](benchmark::State &state) {
                                 run_collective(state, cfg, n);
                               })
      ->UseManualTime()
      ->MeasureProcessCPUTime();
}

gb_config_t barrier_config(ompext_barrier_alg_t alg, int param) {
  gb_config_t cfg;
  std::memset(&cfg, 0, sizeof(cfg));
  cfg.op = GB_BARRIER;
  cfg.barrier_alg = alg;
  cfg.barrier_param = param;
  return cfg;
}

void register_all() {
  static const size_t kBcastBytes[] = {8, 64, 4096, 65536, 1048576};
  for (int n : g_opt.threads) {
    for (int m = 1; m <= 4; ++m)
      add("BM_Barrier/dissemination/m:" + std::to_string(m),
          barrier_config(OMPEXT_BARRIER_DISSEMINATION, m), n);
    for (int k = 2; k <= 8; ++k)
      add("BM_Barrier/tree/k:" + std::to_string(k),
          barrier_config(OMPEXT_BARRIER_TREE, k), n);
    // Release back down the tournament (the plugin's default for it).
    add("BM_Barrier/tournament", barrier_config(OMPEXT_BARRIER_TOURNAMENT, 0),
        n);
    add("BM_Barrier/centralized",
        barrier_config(OMPEXT_BARRIER_CENTRALIZED, 0), n);

    for (int fanin : {2, 4, 8}) {
      gb_config_t cfg;
      std::memset(&cfg, 0, sizeof(cfg));
      cfg.op = GB_REDUCE;
      cfg.fanin[0] = fanin;
      cfg.fanin_len = 1;
      add("BM_Reduce/tree/fanin:" + std::to_string(fanin), cfg, n);
    }

    for (int flat = 0; flat <= 1; ++flat) {
      for (size_t bytes : kBcastBytes) {
        gb_config_t cfg;
        std::memset(&cfg, 0, sizeof(cfg));
        cfg.op = GB_BCAST;
        cfg.bcast_fanout = flat ? 0 : 2;
        cfg.bcast_bytes = bytes;
        cfg.bcast_random_root = g_opt.random_root;
        add(std::string(flat ? "BM_Bcast/flat" : "BM_Bcast/tree/k:2") +
                "/bytes:" + std::to_string(bytes),
            cfg, n);
      }
    }
  }
}

void print_help() {
  benchmark::PrintDefaultHelp();
  std::fprintf(
      stdout,
      "\nompext-gbench options (each also read from the environment):\n"
      "  --threads=N1,N2,...   team sizes (OMPEXT_GBENCH_THREADS; default 2)\n"
      "  --pin=1|0             pin tid t to the t-th available CPU, round\n"
      "                        robin (OMPEXT_GBENCH_PIN; default 1)\n"
      "  --root=random|0       broadcast root: drawn per episode, or tid 0\n"
      "                        (OMPEXT_GBENCH_ROOT; default random)\n"
      "  --warmup=N            untimed episodes before each timed batch\n"
      "                        (OMPEXT_GBENCH_WARMUP; default 16)\n"
      "  OMPEXT_SPIN           inline polls before the services wait, as in\n"
      "                        the plugin (default 4096; 0 when the team has\n"
      "                        more threads than CPUs)\n");
}

[[noreturn]] void bad_option(const char *what, const char *value) {
  std::fprintf(stderr, "ompext-gbench: bad %s '%s' (see --help)\n", what,
               value);
  std::exit(2);
}

void set_option(const std::string &key, const char *value) {
  char *end = nullptr;
  if (key == "threads") {
    int list[64];
    int count = gb_parse_list(value, 1, 4096, list, 64);
    if (count <= 0)
      bad_option("thread list", value);
    g_opt.threads.assign(list, list + count);
  } else if (key == "pin") {
    if (std::strcmp(value, "0") && std::strcmp(value, "1"))
      bad_option("pin value", value);
    g_opt.pin = value[0] == '1';
  } else if (key == "root") {
    if (!std::strcmp(value, "random"))
      g_opt.random_root = 1;
    else if (!std::strcmp(value, "0"))
      g_opt.random_root = 0;
    else
      bad_option("root", value);
  } else if (key == "warmup") {
    long v = std::strtol(value, &end, 10);
    if (!*value || *end || v < 0)
      bad_option("warmup", value);
    g_opt.warmup = v;
  }
}

// Environment first, then our flags (removed from argv for the library).
void parse_options(int *argc, char **argv) {
  static const char *const kKeys[] = {"threads", "pin", "root", "warmup"};
  for (const char *key : kKeys) {
    std::string var = "OMPEXT_GBENCH_" + std::string(key);
    for (char &c : var)
      c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    const char *value = std::getenv(var.c_str());
    if (value && *value)
      set_option(key, value);
  }
  int kept = 1;
  for (int i = 1; i < *argc; ++i) {
    bool ours = false;
    for (const char *key : kKeys) {
      std::string prefix = "--" + std::string(key) + "=";
      if (!std::strncmp(argv[i], prefix.c_str(), prefix.size())) {
        set_option(key, argv[i] + prefix.size());
        ours = true;
      }
    }
    if (!ours)
      argv[kept++] = argv[i];
  }
  *argc = kept;
  argv[kept] = nullptr;
}

std::string join_threads() {
  std::string s;
  for (int n : g_opt.threads)
    s += (s.empty() ? "" : ",") + std::to_string(n);
  return s;
}

} // namespace

int main(int argc, char **argv) {
  parse_options(&argc, argv);
  benchmark::Initialize(&argc, argv, print_help);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  if (gb_init() != 0)
    return 1;
  benchmark::AddCustomContext("ompext_threads", join_threads());
  benchmark::AddCustomContext("ompext_cpus", std::to_string(gb_cpu_count()));
  benchmark::AddCustomContext("ompext_pin", g_opt.pin ? "1" : "0");
  benchmark::AddCustomContext("ompext_bcast_root",
                              g_opt.random_root ? "random" : "0");
  benchmark::AddCustomContext("ompext_warmup", std::to_string(g_opt.warmup));
  benchmark::AddCustomContext("ompext_spin_polls",
                              std::to_string(gb_spin_polls(1)));
  register_all();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  destroy_teams();
  return 0;
}
