/* bench_literals.h - literals for the benchmark's case tables (bench_cases.c, bench_model.c):
 * Sn(dims...) is the clsel_shape of rank n with those dims, outermost first; NUMPY and NUMPY2 are
 * a case's broadcast mode, axis and cond rule (numpy with cond one-way, and both ways). */
#ifndef CLSEL_TOOLS_BENCH_LITERALS_H
#define CLSEL_TOOLS_BENCH_LITERALS_H

/* Not formatted: one literal a line (the formatter spreads a braced macro over seven). */
/* clang-format off */
#define S0 {0, {0}}
#define S1(a) {1, {a}}
#define S2(a, b) {2, {a, b}}
#define S3(a, b, c) {3, {a, b, c}}
#define S4(a, b, c, d) {4, {a, b, c, d}}
#define S8(a, b, c, d, e, f, g, h) {8, {a, b, c, d, e, f, g, h}}
/* clang-format on */

#define NUMPY CLSEL_BROADCAST_NUMPY, -1, CLSEL_COND_ONE_WAY
#define NUMPY2 CLSEL_BROADCAST_NUMPY, -1, CLSEL_COND_BIDIRECTIONAL

#endif
