/*
 * What the runtime keeps of the plugin's reduction method (clang only: gcc's
 * reductions never reach the runtime).  Run with OMPEXT_PLUGIN naming
 * kept_method_plugin.c's library: each team size change gives the team a
 * new context, often at the address of the one just freed.  Phases of
 * ROUNDS regions with one scalar reduction each, at team sizes 2, 3, 2, ...;
 * after each phase:
 *   - the sum is right in every region;
 *   - a phase answered atomics or the lock, marked settled: every thread
 *     asked the phase's context at least once (an answer kept from an
 *     earlier context, even one at the same address, would skip that), and
 *     fewer times than it reduced (the runtime kept the answer);
 *   - the phase answered the tree, marked settled: every reduction asked
 *     (the runtime keeps only atomics and the lock).
 * Exit 0 when all hold, 1 otherwise.
 */
#include <dlfcn.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define ROUNDS 200

typedef long (*calls_fn)(int gen);
typedef uintptr_t (*context_fn)(int gen);
typedef int (*generations_fn)(void);

static int failures;

static void fail(const char *what, int phase, long a, long b) {
  fprintf(stderr, "FAIL: phase %d: %s (%ld, %ld)\n", phase, what, a, b);
  ++failures;
}

int main(void) {
  const char *path = getenv("OMPEXT_PLUGIN");
  /* Start the runtime, which loads the plugin. */
#pragma omp parallel num_threads(2)
  {
  }
  void *plugin = path ? dlopen(path, RTLD_NOW | RTLD_NOLOAD) : NULL;
  if (!plugin) {
    fprintf(stderr, "FAIL: the plugin named by OMPEXT_PLUGIN is not loaded\n");
    return 1;
  }
  calls_fn calls = (calls_fn)dlsym(plugin, "kept_plugin_calls");
  context_fn context = (context_fn)dlsym(plugin, "kept_plugin_context");
  generations_fn generations =
      (generations_fn)dlsym(plugin, "kept_plugin_generations");
  generations_fn tree_generation =
      (generations_fn)dlsym(plugin, "kept_plugin_tree_generation");
  if (!calls || !context || !generations || !tree_generation) {
    fprintf(stderr, "FAIL: the plugin lacks its query functions\n");
    return 1;
  }
  const int sizes[] = {2, 3, 2, 3, 2, 3, 2};
  const int phases = (int)(sizeof(sizes) / sizeof(sizes[0]));
  int tree_phases = 0, reused = 0;
  for (int p = 0; p < phases; ++p) {
    const int nproc = sizes[p];
    const long want = (long)nproc * (nproc + 1) / 2;
    for (int r = 0; r < ROUNDS; ++r) {
      long sum = 0;
#pragma omp parallel num_threads(nproc) reduction(+ : sum)
      sum += omp_get_thread_num() + 1;
      if (sum != want) {
        fail("wrong sum", p, sum, want);
        break;
      }
    }
    const int gen = generations();
    const long asked = calls(gen);
    if (gen < 1) {
      fail("no context", p, gen, 0);
      continue;
    }
    for (int g = 1; g < gen; ++g)
      reused += context(g) == context(gen);
    if (gen == tree_generation()) {
      ++tree_phases;
      if (asked != (long)nproc * ROUNDS)
        fail("tree answers: not every reduction asked", p, asked,
             (long)nproc * ROUNDS);
    } else if (asked < nproc || asked >= (long)nproc * ROUNDS) {
      fail("settled answers: asked outside [team size, reductions)", p, asked,
           (long)nproc * ROUNDS);
    }
    printf("phase %d: team of %d, context %d at %#lx, %ld calls for %d "
           "reductions\n",
           p, nproc, gen, (unsigned long)context(gen), asked, nproc * ROUNDS);
  }
  if (tree_phases != 1)
    fail("phases answered by the tree", -1, tree_phases, 1);
  printf("%d contexts at an address used before\n", reused);
  if (failures)
    return 1;
  printf("ok: kept reduction methods\n");
  return 0;
}
