/* Offline search for a cyclic whist starting round over Z_m: the same two-step search as
 * design_search.starter_whist_start (a random starter gives the partnerships, then seeded
 * backtracking pairs them into tables whose opponent differences cover every class
 * {g, -g} exactly twice; an attempt past the node budget starts again from a new
 * starter), compiled for speed. Prints the starting round as JSON for
 * scripts/precompute_designs.py to check and keep; single-threaded, CPU-time bounded.
 *
 *   cc -O2 -o /tmp/whist_starter scripts/whist_starter.c
 *   /tmp/whist_starter PLAYERS SEED CPU_SECONDS [NODE_BUDGET [MOST_CONSTRAINED [A]]]
 *
 * MOST_CONSTRAINED = 1 branches first on the partnership with the fewest tables still
 * open to it (the plain search takes them in a random order). A > 1 searches over the
 * group Z_A x Z_(m/A) instead of Z_m, its elements numbered i * (m/A) + j as in
 * design_search.Group.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define MAX 256

static uint64_t state;
static uint64_t next(void) { /* xorshift64* */
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 2685821657736338717ULL;
}
static int below(int n) { return (int)(next() % (uint64_t)n); }
static void shuffle(int *a, int n) {
    for (int i = n - 1; i > 0; i--) {
        int j = below(i + 1), t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

static int m, fixed_point, canon[MAX], first_modulus = 1, sub_table[MAX][MAX];
static long nodes, budget;
static int pair_a[MAX], pair_b[MAX], npairs;
static int is_free[MAX], used[MAX], order[MAX];

static int starter(void) {
    int a = -1;
    for (int i = 0; i < m - 1; i++)
        if (is_free[order[i]]) { a = order[i]; break; }
    if (a < 0) return 1;
    if (++nodes > budget) return 0;
    is_free[a] = 0;
    int cand[MAX], nc = 0;
    for (int b = 1; b < m; b++)
        if (is_free[b]) cand[nc++] = b;
    shuffle(cand, nc);
    for (int k = 0; k < nc; k++) {
        int b = cand[k], c = canon[sub_table[a][b]];
        if (used[c]) continue;
        used[c] = 1; is_free[b] = 0;
        pair_a[npairs] = a; pair_b[npairs] = b; npairs++;
        if (starter()) return 1;
        npairs--; is_free[b] = 1; used[c] = 0;
    }
    is_free[a] = 1;
    return 0;
}

static int count[MAX], pool[MAX], npool, table_i[MAX], table_j[MAX], ntables;

static void classes(int i, int j, int *out) {
    int x[2] = {pair_a[i], pair_b[i]}, y[2] = {pair_a[j], pair_b[j]}, k = 0;
    for (int s = 0; s < 2; s++)
        for (int t = 0; t < 2; t++) out[k++] = canon[sub_table[x[s]][y[t]]];
}

static int fits(int i, int j) {
    int cl[4], ok = 1;
    classes(i, j, cl);
    for (int t = 0; t < 4; t++) ok &= ++count[cl[t]] <= 2;
    for (int t = 0; t < 4; t++) count[cl[t]]--;
    return ok;
}

static int most_constrained; /* branch on the partnership with the fewest tables left */

static int arrange(void) {
    if (npool == 0) return 1;
    if (++nodes > budget) return 0;
    if (most_constrained) {
        int best = -1, fewest = MAX;
        for (int a = 0; a < npool && fewest > 1; a++) {
            int n = 0;
            for (int b = 0; b < npool; b++)
                if (a != b && fits(pool[a], pool[b])) n++;
            if (n < fewest) { fewest = n; best = a; }
        }
        if (fewest == 0) return 0;
        int t = pool[best];
        pool[best] = pool[npool - 1];
        pool[npool - 1] = t;
    }
    int i = pool[--npool];
    int cand[MAX];
    for (int k = 0; k < npool; k++) cand[k] = pool[k];
    int nc = npool;
    shuffle(cand, nc);
    for (int k = 0; k < nc; k++) {
        int j = cand[k], cl[4], ok = 1;
        classes(i, j, cl);
        for (int t = 0; t < 4; t++) ok &= ++count[cl[t]] <= 2;
        if (ok) {
            int pos = 0;
            while (pool[pos] != j) pos++;
            pool[pos] = pool[npool - 1]; pool[npool - 1] = j; npool--;
            table_i[ntables] = i; table_j[ntables] = j; ntables++;
            if (arrange()) return 1;
            ntables--;
            npool++; pool[npool - 1] = pool[pos]; pool[pos] = j;
        }
        for (int t = 0; t < 4; t++) count[cl[t]]--;
    }
    pool[npool++] = i;
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: %s PLAYERS SEED CPU_SECONDS [NODES]\n", argv[0]); return 2; }
    int players = atoi(argv[1]);
    long seed = atol(argv[2]);
    double limit = atof(argv[3]);
    long node_budget = argc > 4 ? atol(argv[4]) : 20000;
    most_constrained = argc > 5 ? atoi(argv[5]) : 0;
    fixed_point = players % 4 == 0;
    m = fixed_point ? players - 1 : players;
    if (m % 2 == 0 || m >= MAX || players % 4 > 1) return 2;
    if (argc > 6) first_modulus = atoi(argv[6]);
    if (first_modulus < 1 || m % first_modulus) return 2;
    int b = m / first_modulus; /* the group Z_a x Z_b, a = first_modulus */
    for (int x = 0; x < m; x++)
        for (int y = 0; y < m; y++) {
            int i = ((x / b - y / b) % first_modulus + first_modulus) % first_modulus;
            int j = ((x % b - y % b) % b + b) % b;
            sub_table[x][y] = i * b + j;
        }
    for (int x = 0; x < m; x++) {
        int minus = sub_table[0][x];
        canon[x] = x < minus ? x : minus;
    }
    state = 0x9E3779B97F4A7C15ULL ^ (uint64_t)seed;
    if (!state) state = 1;
    long tries = 0;
    while ((double)clock() / CLOCKS_PER_SEC < limit) {
        tries++;
        do { /* a random starter */
            for (int x = 0; x < m; x++) { is_free[x] = x != 0; used[x] = 0; }
            for (int i = 0; i < m - 1; i++) order[i] = i + 1;
            shuffle(order, m - 1);
            npairs = 0; nodes = 0; budget = 20000;
        } while (!starter());
        for (int x = 0; x < m; x++) count[x] = 0;
        npool = npairs;
        for (int i = 0; i < npairs; i++) pool[i] = i;
        shuffle(pool, npool);
        int with_fixed = -1;
        if (fixed_point) {
            with_fixed = pool[--npool];
            count[canon[pair_a[with_fixed]]]++;
            count[canon[pair_b[with_fixed]]]++;
        }
        ntables = 0; nodes = 0; budget = node_budget;
        if (!arrange()) continue;
        if (first_modulus > 1)
            printf("{\"group\": [%d, %d], ", first_modulus, m / first_modulus);
        else
            printf("{\"group\": [%d], ", m);
        printf("\"fixed_point\": %s, \"start\": [", fixed_point ? "true" : "false");
        if (fixed_point)
            printf("[%d, %d, 0, %d], ", m, pair_a[with_fixed], pair_b[with_fixed]);
        for (int t = 0; t < ntables; t++) {
            int i = table_i[t], j = table_j[t];
            printf("[%d, %d, %d, %d]%s", pair_a[i], pair_a[j], pair_b[i], pair_b[j],
                   t + 1 < ntables ? ", " : "");
        }
        printf("], \"found_by\": \"starter search (scripts/whist_starter.c), seed %ld, "
               "node budget %ld%s, %ld tries, %.1f s CPU\"}\n", seed, node_budget,
               most_constrained ? ", most constrained first" : "", tries, (double)clock() / CLOCKS_PER_SEC);
        return 0;
    }
    fprintf(stderr, "no starting round for %d players in %.0f s (%ld tries)\n", players, limit, tries);
    return 1;
}
