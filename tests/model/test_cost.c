/*
 * The cost equations against values computed by hand from the paper's
 * Xeon Phi parameters (xeon-phi-5110p):
 *   R_L = 8.6, R_R = 235.8, R_I = 277.7            (Table 1.5b)
 *   T_C(n) = 320.5 + 56.2 n                        (Table 3.2, E/E; a = 0)
 *   T_N = 76.0 N + 1521.0 - 1096.0/N               (Table 3.1, E/E)
 * Each expected value shows its computation.
 */
#include "model.h"

#include <math.h>
#include <stdio.h>

static int failures;

static void expect(const char *what, double got, double want) {
  if (fabs(got - want) > 1e-6 * (fabs(want) > 1 ? fabs(want) : 1)) {
    fprintf(stderr, "FAIL %s: got %.6f, want %.6f\n", what, got, want);
    ++failures;
  }
}

static void expect_cost(const char *what, ompext_model_cost_t got, double min,
                        double max) {
  char name[256];
  snprintf(name, sizeof(name), "%s (min)", what);
  expect(name, got.min, min);
  snprintf(name, sizeof(name), "%s (max)", what);
  expect(name, got.max, max);
}

static void expect_int(const char *what, int got, int want) {
  if (got != want) {
    fprintf(stderr, "FAIL %s: got %d, want %d\n", what, got, want);
    ++failures;
  }
}

int main(void) {
  ompext_model_params_t p;
  if (ompext_model_params_builtin("xeon-phi-5110p", &p) != 0) {
    fprintf(stderr, "FAIL: no xeon-phi-5110p\n");
    return 1;
  }

  /* ---- pieces ---- */
  /* T_C(4) = 320.5 + 56.2*4 = 320.5 + 224.8 = 545.3 */
  expect("T_C(4)", ompext_model_tc(&p, 4), 545.3);
  /* T_N(2) = 76*2 + 1521 - 1096/2 = 152 + 1521 - 548 = 1125 */
  expect("T_N(2)", ompext_model_tn(&p, 2), 1125.0);
  /* T_N(1) = 76 + 1521 - 1096 = 501 (the one-line ping-pong q + o - p) */
  expect("T_N(1)", ompext_model_tn(&p, 1), 501.0);
  /* T_nb(5): min R_I + 4 R_R = 277.7 + 943.2 = 1220.9
              max R_I + 8 R_R = 277.7 + 1886.4 = 2164.1 */
  expect_cost("T_nb(5)", ompext_model_notify_back(&p, 5), 1220.9, 2164.1);
  {
    /* Eq. 3.3 with the I/I row of Table 3.2 (b = 1202, c = 23.4,
       a = 695.8): T_C(4) = 1202 + 93.6 - 695.8/4 = 1295.6 - 173.95
       = 1121.65 */
    ompext_model_params_t q = p;
    q.a = 695.8;
    q.b = 1202.0;
    q.c = 23.4;
    expect("T_C(4), I/I row", ompext_model_tc(&q, 4), 1121.65);
  }

  /* ---- rounds ---- */
  /* paper: ceil(log_4 60) = 3 (4^2 = 16 < 60 <= 64 = 4^3) */
  expect_int("r paper n=60 m=4",
             ompext_model_dissemination_rounds(60, 4, OMPEXT_MODEL_ROUNDS_PAPER),
             3);
  /* paper: ceil(log_4 25) = 3 (16 < 25 <= 64); algorithm: ceil(log_5 25) = 2 */
  expect_int("r paper n=25 m=4",
             ompext_model_dissemination_rounds(25, 4, OMPEXT_MODEL_ROUNDS_PAPER),
             3);
  expect_int("r algorithm n=25 m=4",
             ompext_model_dissemination_rounds(25, 4,
                                               OMPEXT_MODEL_ROUNDS_ALGORITHM),
             2);
  /* m = 1: paper only n = 2 (r = 1, Table B.2); algorithm ceil(log2 n) */
  expect_int("r paper n=2 m=1",
             ompext_model_dissemination_rounds(2, 1, OMPEXT_MODEL_ROUNDS_PAPER),
             1);
  expect_int("r paper n=3 m=1",
             ompext_model_dissemination_rounds(3, 1, OMPEXT_MODEL_ROUNDS_PAPER),
             -1);
  expect_int("r algorithm n=5 m=1",
             ompext_model_dissemination_rounds(5, 1,
                                               OMPEXT_MODEL_ROUNDS_ALGORITHM),
             3);
  /* depth of a complete tree: 1+2+4 = 7 >= 5 -> 2; 1+3 = 4 >= 4 -> 1 */
  expect_int("depth(5, 2)", ompext_model_uniform_depth(5, 2), 2);
  expect_int("depth(4, 3)", ompext_model_uniform_depth(4, 3), 1);
  expect_int("depth(4, 1)", ompext_model_uniform_depth(4, 1), 3);
  {
    /* coverage of k = 3,2: 1 + 3 + 6 = 10 (Eq. 4.4) */
    const int k[] = {3, 2};
    expect_int("coverage(3,2)", (int)ompext_model_tree_coverage(2, k, 1000),
               10);
  }

  /* ---- barriers ---- */
  /* Dissemination, n = 60, m = 4, r = 3 (either rounds mode):
       min 3 (R_L + 4 R_R + R_R) = 3 (8.6 + 1179.0) = 3562.8
       max 3 (R_R + 16 R_R + 9 R_R) = 3 * 26 * 235.8 = 18392.4 */
  expect_cost("dissemination n=60 m=4 paper",
              ompext_model_barrier_dissemination(&p, 60, 4,
                                                 OMPEXT_MODEL_ROUNDS_PAPER),
              3562.8, 18392.4);
  /* n = 25, m = 4: algorithm r = 2: min 2 * 1187.6 = 2375.2,
     max 2 * 26 * 235.8 = 12261.6; paper r = 3: 3562.8, 18392.4 */
  expect_cost("dissemination n=25 m=4 algorithm",
              ompext_model_barrier_dissemination(
                  &p, 25, 4, OMPEXT_MODEL_ROUNDS_ALGORITHM),
              2375.2, 12261.6);
  expect_cost("dissemination n=25 m=4 paper",
              ompext_model_barrier_dissemination(&p, 25, 4,
                                                 OMPEXT_MODEL_ROUNDS_PAPER),
              3562.8, 18392.4);
  /* n = 2, m = 1, r = 1: min 8.6 + 2*235.8 = 480.2, max 8 * 235.8 = 1886.4 */
  expect_cost("dissemination n=2 m=1 paper",
              ompext_model_barrier_dissemination(&p, 2, 1,
                                                 OMPEXT_MODEL_ROUNDS_PAPER),
              480.2, 1886.4);
  {
    ompext_model_cost_t c = ompext_model_barrier_dissemination(
        &p, 3, 1, OMPEXT_MODEL_ROUNDS_PAPER);
    if (!isnan(c.min) || !isnan(c.max)) {
      fprintf(stderr, "FAIL dissemination n=3 m=1 paper is not invalid\n");
      ++failures;
    }
  }
  /* Tree barrier n = 5, k = 2: d = 2; per level
       G_min(2) = R_L + 2 R_R = 8.6 + 471.6 = 480.2, S_min(2) = 3 R_R = 707.4
       -> 2 * 1187.6 = 2375.2
       G_max(2) = R_R + 4 R_R = 1179.0, S_max(2) = 5 R_R = 1179.0
       -> 2 * 2358.0 = 4716.0 */
  expect_cost("tree barrier n=5 k=2", ompext_model_barrier_tree(&p, 5, 2),
              2375.2, 4716.0);
  /* Tournament n = 5, k = 0: R = 3 rounds;
       G(1) = {R_L + R_R, 3 R_R} = {244.4, 707.4},
       S(1) = {2 R_R, 3 R_R} = {471.6, 707.4}
       min 3*244.4 + 3*471.6 = 733.2 + 1414.8 = 2148.0
       max 3*707.4 + 3*707.4 = 4244.4 */
  expect_cost("tournament n=5 k=0", ompext_model_barrier_tournament(&p, 5, 0),
              2148.0, 4244.4);
  /* Tournament n = 5, k = 4: gather as above, release one level of S(4):
       min 733.2 + 5 R_R = 733.2 + 1179.0 = 1912.2
       max 2122.2 + 9 R_R = 2122.2 + 2122.2 = 4244.4 */
  expect_cost("tournament n=5 k=4", ompext_model_barrier_tournament(&p, 5, 4),
              1912.2, 4244.4);
  /* Centralized n = 5: T_nb(5) + S(4):
       min 1220.9 + 5 R_R = 1220.9 + 1179.0 = 2399.9
       max 2164.1 + 9 R_R = 2164.1 + 2122.2 = 4286.3 */
  expect_cost("centralized n=5", ompext_model_barrier_centralized(&p, 5),
              2399.9, 4286.3);

  /* ---- broadcasts ---- */
  {
    /* Small broadcast tree k = 3,2 (n = 10), one line (Eq. B.1):
         T_fw,min = 3 R_I + 4 R_L = 833.1 + 34.4 = 867.5
         data     = T_C(3) + T_C(2) = 489.1 + 432.9 = 922.0
         T_nb,min(4) + T_nb,min(3) = (277.7 + 707.4) + (277.7 + 471.6)
                                   = 985.1 + 749.3 = 1734.4
         min = 867.5 + 922.0 + 1734.4 = 3523.9
         T_fw,max = R_I + 2 (R_R + T_C(3)) + 2 (R_R + T_C(2))
                  = 277.7 + 1449.8 + 1337.4 = 3064.9
         T_nb,max(4) + T_nb,max(3) = (277.7 + 1414.8) + (277.7 + 943.2)
                                   = 1692.5 + 1220.9 = 2913.4
         max = 3064.9 + 922.0 + 2913.4 = 6900.3 */
    const int k[] = {3, 2};
    expect_cost("bcast tree 3,2", ompext_model_bcast_tree(&p, 1, 2, k), 3523.9,
                6900.3);
    /* k = 4, three lines (extension: data + o (N-1)):
         T_fw,min = 2 R_I + 2 R_L = 555.4 + 17.2 = 572.6
         data = T_C(4) + 76*2 = 545.3 + 152 = 697.3
         T_nb,min(5) = 1220.9
         min = 572.6 + 697.3 + 1220.9 = 2490.8
         max = R_I + 2 (R_R + T_C(4)) + data + T_nb,max(5)
             = 277.7 + 1562.2 + 697.3 + 2164.1 = 4701.3 */
    const int k4[] = {4};
    expect_cost("bcast tree 4, 3 lines", ompext_model_bcast_tree(&p, 3, 1, k4),
                2490.8, 4701.3);
  }
  /* Pipelined n = 5, P = 4 packets of 2 lines (8 lines, Eq. 4.8/4.9);
     T_C(4) = 545.3, T_N(2) = 1125:
       min: init R_I + 2 R_L = 294.9
            1st  2 R_L + T_C(4) + T_N(2) = 17.2 + 545.3 + 1125 = 1687.5
            rest 3 (R_R + R_L + T_N(2)) = 3 * 1369.4 = 4108.2
            fin  2 R_R + R_L = 480.2
            sum  6570.8
       max: init R_I + 2 (R_R + T_C(4)) + R_R = 277.7 + 1562.2 + 235.8
                 = 2075.7
            1st  2 R_R + T_C(4) + T_N(2) = 471.6 + 545.3 + 1125 = 2141.9
            rest 3 (2 R_R + T_N(2)) = 3 * 1596.6 = 4789.8
            fin  480.2
            sum  9487.6 */
  expect_cost("pipelined n=5 P=4 N_cl=2",
              ompext_model_bcast_pipelined(&p, 5, 4, 2), 6570.8, 9487.6);
  /* The paper's own slicing, 8 KB = 128 lines over n = 60: P = 59,
     N_cl = 128/59 (fractional): T_C(59) = 320.5 + 3315.8 = 3636.3,
     T_N(128/59) = 76*128/59 + 1521 - 1096*59/128
                 = 164.881356 + 1521 - 505.1875 = 1180.693856
       min = 294.9 + (17.2 + 3636.3 + 1180.693856)
             + 58 (244.4 + 1180.693856) + 480.2
           = 294.9 + 4834.193856 + 82655.443644 + 480.2 = 88264.7375 */
  expect("pipelined paper 8KB n=60 (min)",
         ompext_model_bcast_pipelined(&p, 60, 59, 128.0 / 59).min,
         88264.7375);
  /* Flat n = 5, 8 lines (Eq. 4.10):
       copy = b + 3c + 8 o = 320.5 + 168.6 + 608 = 1097.1
       notif min = R_I + 3 R_L + R_R + T_C(4) + 4 R_R
                 = 277.7 + 25.8 + 235.8 + 545.3 + 943.2 = 2027.8
       notif max = R_I + R_L + 3 R_R + 2 T_C(4) + 8 R_R
                 = 277.7 + 8.6 + 707.4 + 1090.6 + 1886.4 = 3970.7
       min 3124.9, max 5067.8 */
  expect_cost("flat n=5 8 lines", ompext_model_bcast_flat(&p, 5, 8), 3124.9,
              5067.8);

  /* ---- reductions ---- */
  {
    /* Reduction tree k = 3,2 (Eq. 4.13/4.14, B.3):
         T_N(3) = 228 + 1521 - 365.333333 = 1383.666667
         level k=3 min: R_I + T_C(3) + 4 R_R + R_L + T_N(3)
                      = 277.7 + 489.1 + 943.2 + 8.6 + 1383.666667
                      = 3102.266667
         level k=2 min: 277.7 + 432.9 + 707.4 + 8.6 + 1125 = 2551.6
         min = 3102.266667 + 2551.6 + R_R = 5889.666667
         level k=3 max: R_I + 2 T_C(3) + 8 R_R + R_L + T_N(3)
                      = 277.7 + 978.2 + 1886.4 + 8.6 + 1383.666667
                      = 4534.566667
         level k=2 max: 277.7 + 865.8 + 1414.8 + 8.6 + 1125 = 3691.9
         max = 4534.566667 + 3691.9 + 235.8 = 8462.266667 */
    const int k[] = {3, 2};
    expect_cost("reduce tree 3,2", ompext_model_reduce_tree(&p, 2, k),
                5889.666667, 8462.266667);
  }
  /* Atomic n = 5: T_nb(5) + 4 R_L: min 1220.9 + 34.4 = 1255.3,
     max 2164.1 + 34.4 = 2198.5 */
  expect_cost("reduce atomic n=5", ompext_model_reduce_atomic(&p, 5), 1255.3,
              2198.5);
  /* By size, one line: the one-item costs. */
  expect_cost("reduce atomic n=5, 1 line",
              ompext_model_reduce_atomic_lines(&p, 5, 1), 1255.3, 2198.5);
  {
    const int k[] = {3, 2};
    expect_cost("reduce tree 3,2, 1 line",
                ompext_model_reduce_tree_lines(&p, 2, k, 1), 5889.666667,
                8462.266667);
  }
  /* Atomic n = 2, 2 lines of 64 bytes = 16 items:
       min T_nb,min(2) + 15 * 1 * R_R + 1 * 16 * R_L
           = 513.5 + 3537 + 137.6 = 4188.1
       max 16 * T_nb,max(2) + 16 R_L = 16 * 749.3 + 137.6 = 12126.4 */
  expect_cost("reduce atomic n=2, 2 lines",
              ompext_model_reduce_atomic_lines(&p, 2, 2), 4188.1, 12126.4);
  /* Critical n = 2, 2 lines: T_N(2) = 1125, T_C(2) = b + 2c - a/2; the
     first thread reads the lock line from memory, the second from it:
       min R_I + R_R + 2 (T_N(2) + R_L) = 513.5 + 2 * 1133.6 = 2780.7
       max R_I + R_R + 2 (T_C(2) + T_N(2)) */
  expect_cost("reduce critical n=2, 2 lines",
              ompext_model_reduce_critical(&p, 2, 2), 2780.7,
              277.7 + 235.8 + 2 * (ompext_model_tc(&p, 2) + 1125.0));
  {
    /* Two cores sharing an L3 (a calibration of the 2-core development
       machine): R_R 28.17, R_I 139.27, R_L 0.63, T_C = 20.03, T_N = 3.43 N
       + 23.46.  One scalar at 2 threads: atomics R_I + R_R + R_L = 168.07,
       the lock R_I + R_R + 2 (T_N(1) + R_L) = 222.52; measured, the lock
       took 15 % longer.  With the first lock fetch charged R_R, the lock
       came to 111.4 and was chosen.  8 lines: the lock, 270.9, against
       atomics' 64 items moving the line 63 times. */
    ompext_model_params_t l3 = p;
    l3.r_l = 0.63;
    l3.r_r = 28.17;
    l3.r_i = 139.27;
    l3.a = 0;
    l3.b = 20.03;
    l3.c = 0;
    l3.o = 3.43;
    l3.q = 23.46;
    l3.p = 0;
    expect("shared L3: critical n=2, 1 line (min)",
           ompext_model_reduce_critical(&l3, 2, 1).min,
           139.27 + 28.17 + 2 * (3.43 + 23.46 + 0.63));
    expect_int("shared L3: atomics beat the lock for one scalar at n=2",
               ompext_model_reduce_atomic_lines(&l3, 2, 1).min <
                   ompext_model_reduce_critical(&l3, 2, 1).min,
               1);
    expect_int("shared L3: the lock beats atomics for 8 lines at n=2",
               ompext_model_reduce_critical(&l3, 2, 8).min <
                   ompext_model_reduce_atomic_lines(&l3, 2, 8).min,
               1);
  }
  /* Tree k = 1 over 2 lines: R_R + o*(2-1) + R_I + T_C(1) + 2 R_R + R_L
     + T_N(2) (one child's 2 lines) */
  {
    const int k[] = {1};
    const double level_min =
        277.7 + ompext_model_tc(&p, 1) + 2 * 235.8 + 8.6 + 1125.0;
    const double level_max =
        277.7 + 2 * ompext_model_tc(&p, 1) + 4 * 235.8 + 8.6 + 1125.0;
    expect_cost("reduce tree 1, 2 lines",
                ompext_model_reduce_tree_lines(&p, 1, k, 2),
                235.8 + 76 + level_min, 235.8 + 76 + level_max);
  }

  /* ---- evaluate(): validity ---- */
  {
    ompext_model_options_t o;
    ompext_model_options_default(&o);
    ompext_model_choice_t c = {0};
    c.alg = OMPEXT_MODEL_BCAST_TREE;
    c.n = 11; /* k = 3,2 reaches 10 < 11 */
    c.lines = 1;
    c.depth = 2;
    c.fanout[0] = 3;
    c.fanout[1] = 2;
    expect_int("tree 3,2 cannot serve 11", ompext_model_evaluate(&p, &o, &c),
               -1);
    c.n = 4; /* k = 3 alone reaches 4: the second level is not needed */
    expect_int("tree 3,2 too deep for 4", ompext_model_evaluate(&p, &o, &c),
               -1);
    c.n = 10;
    expect_int("tree 3,2 serves 10", ompext_model_evaluate(&p, &o, &c), 0);
    expect("tree 3,2 n=10 via evaluate", c.cost.min, 3523.9);
    ompext_model_choice_t d = {0};
    d.alg = OMPEXT_MODEL_BCAST_PIPELINED;
    d.n = 10;
    d.lines = 8; /* 8 lines cannot make 9 packets */
    d.chunk_lines = 1;
    expect_int("pipelined needs n-1 packets", ompext_model_evaluate(&p, &o, &d),
               -1);
  }

  if (failures) {
    fprintf(stderr, "%d check(s) failed\n", failures);
    return 1;
  }
  printf("ok\n");
  return 0;
}
