/* bench_sweep.c - clsel bench --sweep N: Select timed on N random broadcast patterns
 * instead of the named cases, so that what the report claims holds for shapes nobody
 * picked. Each pattern is drawn from its own seed (the run's seed and its index), so
 * pattern k is the same whatever N is, and two runs with one seed time the same shapes.
 *
 * The distribution (what the patterns are drawn from):
 *  - element width 1, 2, 4 or 8 bytes, equally likely, and a dtype of that width;
 *  - numpy with a one-way cond (40 %), numpy with a two-way cond (30 %), pdpd (20 %),
 *    none (10 %);
 *  - output rank 1 to 8; each dim 1-64 (70 %) or 65-4096 (30 %, log-uniform), then one
 *    dim at random scaled (or dims halved) until the output holds the size drawn:
 *    64-128 MiB (2-4 MiB with --quick, 64-128 KiB for --model), log-uniform, so
 *    that it leaves the caches;
 *  - each input broadcast on a random subset of dims (every dim kept with a probability
 *    of 0, 1/4, 1/2, 3/4 or 1, drawn per input), leading dims dropped now and then, a
 *    scalar now and then; pdpd inputs placed at a random axis or the default one;
 *  - cond random 50 % (55 %), random 10 % (15 %), all true (15 %), all false (15 %).
 * Patterns the library refuses (a pdpd placement that does not fit, say) are drawn
 * again. That is the "broad" draw. The "short" draw makes the structures whose gathers
 * repeat with a short period (an element repeated over a short dim, a short row tiled,
 * interleaved): numpy (60 % one-way cond, 40 % two-way), rank 2-6, every dim but the
 * outermost from {1,2,3,4,5,7,8,13,16,31,40}, the outermost grown to the size drawn,
 * each input full on a random subset of the dims (each dim kept with a probability
 * drawn as above), leading dims dropped now and then, conds as above. The default,
 * "mixed", draws pattern k short when k % 3 == 2 and broad otherwise. The "interleaved" draw
 * is the short one drawn differently, to check what was tuned on it: rank 3 or 4, the inner
 * dims any of 2-16 (uniform), each input keeping each inner dim with probability 1/2 and the
 * outermost with 3/4, so that inputs repeated along one short dim meet inputs tiled along
 * another (then [N,1,b] against else [N,a,1], say). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_sweep.h"

#include "clsel_cl.h" /* clsel_cl_plan_access */

#include "bench_cl.h"
#include "bench_cpu.h"
#include "bench_inputs.h"

enum {
    SWEEP_MAX = BENCH_MAX_RESULTS,
    WORST_LISTED = 8
};

static bench_case sweep_cases[SWEEP_MAX];
static char sweep_names[SWEEP_MAX][16];
static char sweep_whats[SWEEP_MAX][200];

/* splitmix64: a pattern's stream from (seed, index), and its steps. */
static uint64_t mix(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static double unit(uint64_t *s)
{
    return (double)(mix(s) >> 11) * (1.0 / 9007199254740992.0);
}

static int64_t between(uint64_t *s, int64_t lo, int64_t hi)
{
    return lo + (int64_t)(mix(s) % (uint64_t)(hi - lo + 1));
}

static double log_uniform(uint64_t *s, double lo, double hi)
{
    return exp(log(lo) + unit(s) * (log(hi) - log(lo)));
}

/* The output shape: random dims, then scaled to about `elements`. */
static void draw_output(uint64_t *s, int32_t rank, double elements, clsel_shape *out)
{
    out->rank = rank;
    double product = 1;
    for (int32_t d = 0; d < rank; ++d) {
        out->dims[d] = unit(s) < 0.7 ? between(s, 1, 64) : (int64_t)log_uniform(s, 65, 4096);
        product *= (double)out->dims[d];
    }
    while (product > elements) { /* halve random dims until it fits */
        int32_t d = (int32_t)between(s, 0, rank - 1);
        if (out->dims[d] == 1)
            continue;
        product /= (double)out->dims[d];
        out->dims[d] = (out->dims[d] + 1) / 2;
        product *= (double)out->dims[d];
    }
    int32_t d = (int32_t)between(s, 0, rank - 1); /* then one dim grows to the size */
    product /= (double)out->dims[d];
    out->dims[d] = (int64_t)ceil(elements / product);
}

/* An input of the numpy modes: out's trailing dims, each kept with probability `keep`
 * (else 1); now and then fewer dims, or none (a scalar). */
static void draw_numpy_input(uint64_t *s, const clsel_shape *out, clsel_shape *in)
{
    static const double keeps[] = {0, 0.25, 0.5, 0.75, 1};
    const double keep = keeps[between(s, 0, 4)];
    int32_t lead = unit(s) < 0.3 ? (int32_t)between(s, 1, out->rank) : 0;
    if (unit(s) < 0.08)
        lead = out->rank;
    in->rank = out->rank - lead;
    for (int32_t j = 0; j < in->rank; ++j)
        in->dims[j] = unit(s) < keep ? out->dims[j + lead] : 1;
}

/* Makes every output dim come from at least one of the inputs that may enlarge the
 * output (`grows`: then and else, and cond when it broadcasts two ways). */
static void cover_output(uint64_t *s, const clsel_shape *out, clsel_shape *in[3],
                         const int grows[3])
{
    int32_t top = 0;
    for (int op = 0; op < 3; ++op)
        if (grows[op] && in[op]->rank > top)
            top = in[op]->rank;
    if (top < out->rank) { /* one enlarging input gets the full rank (new leading dims 1) */
        int op;
        do
            op = (int)between(s, 0, 2);
        while (!grows[op]);
        clsel_shape *x = in[op];
        int32_t lead = out->rank - x->rank;
        memmove(&x->dims[lead], &x->dims[0], (size_t)x->rank * sizeof x->dims[0]);
        for (int32_t j = 0; j < lead; ++j)
            x->dims[j] = 1;
        x->rank = out->rank;
    }
    for (int32_t d = 0; d < out->rank; ++d) {
        if (out->dims[d] == 1)
            continue;
        int covered = 0, candidates = 0;
        for (int op = 0; op < 3; ++op) {
            int32_t j = d - (out->rank - in[op]->rank);
            if (!grows[op] || j < 0)
                continue;
            ++candidates;
            covered |= in[op]->dims[j] == out->dims[d];
        }
        if (covered || !candidates)
            continue;
        for (int pick = (int)between(s, 0, candidates - 1), op = 0; op < 3; ++op) {
            int32_t j = d - (out->rank - in[op]->rank);
            if (!grows[op] || j < 0 || pick--)
                continue;
            in[op]->dims[j] = out->dims[d];
            break;
        }
    }
}

/* A pdpd input: a run of then's dims starting at `at`, each kept or 1. */
static void draw_pdpd_input(uint64_t *s, const clsel_shape *then_shape, int32_t at, int32_t rank,
                            clsel_shape *in)
{
    const double keep = unit(s);
    in->rank = rank;
    for (int32_t j = 0; j < rank; ++j)
        in->dims[j] = unit(s) < keep ? then_shape->dims[at + j] : 1;
}

static const clsel_dtype dtypes_by_width[4][3] = {{CLSEL_U8, CLSEL_I8, CLSEL_BOOLEAN},
                                                  {CLSEL_F16, CLSEL_BF16, CLSEL_I16},
                                                  {CLSEL_F32, CLSEL_I32, CLSEL_U32},
                                                  {CLSEL_F64, CLSEL_I64, CLSEL_U64}};

const char *const bench_sweep_draw_names[SWEEP_DRAWS] = {"mixed", "broad", "short", "interleaved"};

/* The output bytes of each size class (SWEEP_SIZE_*): the draw picks log-uniformly between the
 * two. */
static const double size_bytes[SWEEP_SIZES][2] = {
    [SWEEP_SIZE_FULL] = {64 << 20, 128 << 20},
    [SWEEP_SIZE_QUICK] = {2 << 20, 4 << 20},
    [SWEEP_SIZE_MODEL] = {64 << 10, 128 << 10},
};

/* The cond's pattern for a uniform draw u: random 50 % (55 %), random 10 % (15 %), all true (15 %),
 * all false (15 %). */
static cond_pattern pattern_of(double u)
{
    return u < 0.55   ? COND_RANDOM50
           : u < 0.7  ? COND_RANDOM10
           : u < 0.85 ? COND_ALL_TRUE
                      : COND_ALL_FALSE;
}

/* The first draws of the short and interleaved patterns, in their order: the element's width
 * (returned as its index) and dtype, numpy with a one-way cond (60 %) or a two-way one, the cond's
 * pattern, and the output's bytes (*bytes). */
static int draw_short_kind(uint64_t *s, int size, bench_case *c, double *bytes)
{
    const int w = (int)between(s, 0, 3);
    c->dtype = dtypes_by_width[w][between(s, 0, 2)];
    const double pattern = unit(s);
    c->broadcast = CLSEL_BROADCAST_NUMPY;
    c->cond_broadcast = unit(s) < 0.6 ? CLSEL_COND_ONE_WAY : CLSEL_COND_BIDIRECTIONAL;
    c->axis = -1;
    c->pattern = pattern_of(pattern);
    *bytes = log_uniform(s, size_bytes[size][0], size_bytes[size][1]);
    return w;
}

static void draw_short(uint64_t *s, int size, bench_case *c)
{
    static const int64_t short_dims[] = {1, 2, 3, 4, 5, 7, 8, 13, 16, 31, 40};
    double bytes;
    const int w = draw_short_kind(s, size, c, &bytes);
    clsel_shape out;
    out.rank = (int32_t)between(s, 2, 6);
    double inner = 1;
    for (int32_t d = 1; d < out.rank; ++d) {
        out.dims[d] =
            short_dims[between(s, 0, (int64_t)(sizeof short_dims / sizeof short_dims[0]) - 1)];
        inner *= (double)out.dims[d];
    }
    out.dims[0] = (int64_t)ceil(bytes / (double)(1 << w) / inner);
    clsel_shape *in[3] = {&c->full[0], &c->full[1], &c->full[2]};
    const int grows[3] = {c->cond_broadcast == CLSEL_COND_BIDIRECTIONAL, 1, 1};
    for (int op = 0; op < 3; ++op)
        draw_numpy_input(s, &out, in[op]);
    cover_output(s, &out, in, grows);
    memcpy(c->quick, c->full, sizeof c->full);
}

static void draw_interleaved(uint64_t *s, int size, bench_case *c)
{
    double bytes;
    const int w = draw_short_kind(s, size, c, &bytes);
    clsel_shape out;
    out.rank = (int32_t)between(s, 3, 4);
    double inner = 1;
    for (int32_t d = 1; d < out.rank; ++d) {
        out.dims[d] = between(s, 2, 16);
        inner *= (double)out.dims[d];
    }
    out.dims[0] = (int64_t)ceil(bytes / (double)(1 << w) / inner);
    clsel_shape *in[3] = {&c->full[0], &c->full[1], &c->full[2]};
    for (int op = 0; op < 3; ++op) {
        in[op]->rank = out.rank;
        in[op]->dims[0] = unit(s) < 0.75 ? out.dims[0] : 1;
        for (int32_t d = 1; d < out.rank; ++d)
            in[op]->dims[d] = unit(s) < 0.5 ? out.dims[d] : 1;
    }
    const int grows[3] = {c->cond_broadcast == CLSEL_COND_BIDIRECTIONAL, 1, 1};
    cover_output(s, &out, in, grows);
    memcpy(c->quick, c->full, sizeof c->full);
}

static void draw_broad(uint64_t *s, int size, bench_case *c)
{
    const int w = (int)between(s, 0, 3);
    c->dtype = dtypes_by_width[w][between(s, 0, 2)];
    const double mode = unit(s), pattern = unit(s);
    c->broadcast = mode < 0.7   ? CLSEL_BROADCAST_NUMPY
                   : mode < 0.9 ? CLSEL_BROADCAST_PDPD
                                : CLSEL_BROADCAST_NONE;
    c->cond_broadcast = mode >= 0.4 && mode < 0.7 ? CLSEL_COND_BIDIRECTIONAL : CLSEL_COND_ONE_WAY;
    c->axis = -1;
    c->pattern = pattern_of(pattern);
    const double bytes = log_uniform(s, size_bytes[size][0], size_bytes[size][1]);
    clsel_shape out;
    draw_output(s, (int32_t)between(s, 1, 8), bytes / (double)(1 << w), &out);
    clsel_shape *cond = &c->full[0], *then_shape = &c->full[1], *else_shape = &c->full[2];
    if (c->broadcast == CLSEL_BROADCAST_NONE) {
        *cond = *then_shape = *else_shape = out;
    } else if (c->broadcast == CLSEL_BROADCAST_PDPD) {
        *then_shape = out;
        const int explicit_axis = unit(s) < 0.5;
        const int32_t at = explicit_axis ? (int32_t)between(s, 0, out.rank) : 0;
        for (int k = 0; k < 2; ++k) {
            clsel_shape *x = k ? else_shape : cond;
            int32_t rank = (int32_t)between(s, 0, out.rank - at);
            draw_pdpd_input(s, &out, explicit_axis ? at : out.rank - rank, rank, x);
        }
        c->axis = explicit_axis ? at : -1;
    } else {
        clsel_shape *in[3] = {cond, then_shape, else_shape};
        const int grows[3] = {c->cond_broadcast == CLSEL_COND_BIDIRECTIONAL, 1, 1};
        for (int op = 0; op < 3; ++op)
            draw_numpy_input(s, &out, in[op]);
        cover_output(s, &out, in, grows);
    }
    memcpy(c->quick, c->full, sizeof c->full);
}

static void shape_text(char *buf, size_t size, const clsel_shape *s)
{
    size_t used = (size_t)snprintf(buf, size, "[");
    for (int32_t d = 0; d < s->rank && used < size; ++d)
        used += (size_t)snprintf(buf + used, size - used, "%s%lld", d ? "," : "",
                                 (long long)s->dims[d]);
    if (used < size)
        snprintf(buf + used, size - used, "]");
}

static const char *mode_name(const bench_case *c)
{
    if (c->broadcast == CLSEL_BROADCAST_NUMPY)
        return c->cond_broadcast == CLSEL_COND_BIDIRECTIONAL ? "numpy2" : "numpy";
    return c->broadcast == CLSEL_BROADCAST_PDPD ? "pdpd" : "none";
}

const bench_case *bench_sweep_case(uint64_t seed, int index, int size, int draw)
{
    if (index < 0 || index >= SWEEP_MAX)
        return NULL;
    bench_case *c = &sweep_cases[index];
    uint64_t state = seed * 0x2545F4914F6CDD1Dull + (uint64_t)index * 0x9E3779B97F4A7C15ull;
    for (;;) { /* until the library takes the pattern */
        memset(c, 0, sizeof *c);
        if (draw == SWEEP_DRAW_INTERLEAVED)
            draw_interleaved(&state, size, c);
        else if (draw == SWEEP_DRAW_SHORT || (draw == SWEEP_DRAW_MIXED && index % 3 == 2))
            draw_short(&state, size, c);
        else
            draw_broad(&state, size, c);
        clsel_attrs attrs = bench_attrs(c);
        clsel_shape out;
        if (clsel_infer_shape(&c->full[0], &c->full[1], &c->full[2], &attrs, &out) == CLSEL_SUCCESS)
            break;
    }
    snprintf(sweep_names[index], sizeof sweep_names[index], "sweep-%03d", index);
    char shapes[3][64];
    for (int k = 0; k < 3; ++k)
        shape_text(shapes[k], sizeof shapes[k], &c->full[k]);
    int n = snprintf(sweep_whats[index], sizeof sweep_whats[index], "%s c%s t%s e%s", mode_name(c),
                     shapes[0], shapes[1], shapes[2]);
    if (c->broadcast == CLSEL_BROADCAST_PDPD && c->axis >= 0 && n > 0 &&
        (size_t)n < sizeof sweep_whats[index])
        snprintf(sweep_whats[index] + n, sizeof sweep_whats[index] - (size_t)n, " axis %lld",
                 (long long)c->axis);
    c->name = sweep_names[index];
    c->what = sweep_whats[index];
    return c;
}

/* Percent of copy for the distribution: capped at 100, since a pattern above the copy
 * is one whose byte count overstates what had to move (an input the cond never
 * chooses, say), not one faster than memory. */
static double capped(double pct)
{
    return pct > 100 ? 100 : pct;
}

/* Of the traffic model's ceiling (bench_ceiling): how far the code is from what the
 * memory allows for this pattern's mix of reads and writes. */
static double of_ceiling(const bench_result *r)
{
    return r->model_gbps > 0 ? 100.0 * r->gbps / r->model_gbps : 0;
}

/* Sorts pct (bench_median does) and reads the minimum, the 10th percentile
 * (interpolated) and the median off it. */
static void distribution(double *pct, size_t n, double *min, double *p10, double *median)
{
    *median = bench_median(pct, (int)n);
    const double at = (double)(n - 1) / 10;
    const size_t lo = (size_t)at, hi = lo + 1 < n ? lo + 1 : lo;
    *min = pct[0];
    *p10 = pct[lo] + (at - (double)lo) * (pct[hi] - pct[lo]);
}

void bench_sweep_summarize(const bench_report *report, bench_sweep_stats *st)
{
    memset(st, 0, sizeof *st);
    double *pct = malloc(report->count * sizeof *pct), *ceil = malloc(report->count * sizeof *ceil),
           *events = malloc(report->count * sizeof *events);
    if (pct && ceil && events) {
        for (size_t i = 0; i < report->count; ++i) {
            const bench_result *r = &report->results[i];
            if (*r->error)
                continue;
            pct[st->count] = capped(r->pct_of_copy);
            events[st->count] = capped(r->event_pct_of_copy);
            ceil[st->count++] = capped(of_ceiling(r));
            st->below_70 += r->pct_of_copy < 70, st->below_85 += r->pct_of_copy < 85;
        }
        if (st->count) {
            distribution(pct, st->count, &st->min, &st->p10, &st->median);
            distribution(ceil, st->count, &st->ceiling_min, &st->ceiling_p10, &st->ceiling_median);
            distribution(events, st->count, &st->event_min, &st->event_p10, &st->event_median);
        }
    }
    free(pct);
    free(ceil);
    free(events);
}

/* The OpenCL kernels' 16-byte share for a pattern's plan (bench_result.wide_share). */
static void wide_shares(const clsel_plan *plan, bench_result *r)
{
    clsel_cl_access a;
    r->wide_share = -1;
    if (!plan || clsel_cl_plan_access(plan, &a, NULL, 0) == 0)
        return;
    double moved = 0, wide = 0;
    for (int t = 0; t < 4; ++t)
        moved += a.bytes[t], wide += a.bytes[t] * a.wide[t];
    r->wide_share = moved > 0 ? wide / moved : 0;
}

/* The mean of the patterns' 16-byte shares (clsel_cl_plan_access's model; bench --model counts
 * them). */
static void print_wide_shares(const bench_report *report)
{
    double now = 0;
    size_t n = 0;
    for (size_t i = 0; i < report->count; ++i) {
        const bench_result *r = &report->results[i];
        if (r->wide_share < 0)
            continue;
        now += r->wide_share, ++n;
    }
    if (n)
        printf("  the kernels' bytes moved in 16-byte accesses (fresh buffers, "
               "clsel_cl_plan_access), mean over the "
               "patterns: %.1f%%\n",
               100 * now / (double)n);
}

static void print_summary(const bench_report *report)
{
    bench_sweep_stats st;
    bench_sweep_summarize(report, &st);
    printf(
        "\n%s (%s): best copy %.1f GB/s [%s]; writing alone %.1f GB/s, reading alone %.1f GB/s\n",
        report->device, report->kind, report->copy_gbps, report->copy_method, report->write_gbps,
        report->read_gbps);
    printf("sweep of %zu patterns, %% of copy (capped at 100): min %.1f%%, 10th percentile %.1f%%, "
           "median %.1f%%; "
           "%zu below 85%%, %zu below 70%%\n",
           st.count, st.min, st.p10, st.median, st.below_85, st.below_70);
    printf("  %% of the traffic model's ceiling (capped at 100): min %.1f%%, 10th percentile "
           "%.1f%%, median %.1f%%\n",
           st.ceiling_min, st.ceiling_p10, st.ceiling_median);
    if (report->kind[0] == 'o')
        printf("  %% of copy timed by events on both sides (capped at 100): min %.1f%%, 10th "
               "percentile %.1f%%, "
               "median %.1f%%\n",
               st.event_min, st.event_p10, st.event_median);
    print_wide_shares(report);
    size_t order[SWEEP_MAX], n = 0;
    for (size_t i = 0; i < report->count; ++i)
        if (!*report->results[i].error)
            order[n++] = i;
    for (size_t i = 1; i < n; ++i) /* insertion sort by percent, worst first */
        for (size_t j = i; j > 0 && report->results[order[j]].pct_of_copy <
                                        report->results[order[j - 1]].pct_of_copy;
             --j) {
            size_t t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    printf("worst patterns (%% of copy, the ceiling's %% of copy, %% of the ceiling):\n");
    for (size_t i = 0; i < n && i < WORST_LISTED; ++i) {
        const bench_result *r = &report->results[order[i]];
        printf("  %-10s %5.1f%% %5.1f%% %5.1f%% %8.3f ms %-4s %12lld el  %s\n", r->c->name,
               r->pct_of_copy, r->ceiling_pct, of_ceiling(r), r->median_ms,
               clsel_dtype_name(r->c->dtype), (long long)r->elements, r->c->what);
    }
    for (size_t i = 0; i < report->count; ++i)
        if (*report->results[i].error)
            printf("  %-10s failed: %s (%s)\n", report->results[i].c->name,
                   report->results[i].error, report->results[i].c->what);
}

void bench_sweep_print(const bench_report *reports, size_t count)
{
    for (size_t i = 0; i < count; ++i)
        print_summary(&reports[i]);
}

int bench_sweep(const bench_options *o, int with_opencl, int with_cpu, bench_report *reports,
                size_t *count)
{
    enum {
        PATHS = 3
    };
    bench_cl_env *cl = NULL;
    bench_cpu_env *cpu[2] = {NULL, NULL};
    bench_report *paths[PATHS] = {NULL, NULL, NULL};
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    const int all_cores = o->threads > 1 ? o->threads : cores > 1 ? (int)cores : 1;
    *count = 0;
    if (with_opencl && (cl = bench_cl_open(o, &reports[*count])) != NULL)
        paths[0] = &reports[(*count)++];
    if (with_cpu && (cpu[0] = bench_cpu_open(o, 1, &reports[*count])) != NULL)
        paths[1] = &reports[(*count)++];
    if (with_cpu && all_cores > 1 &&
        (cpu[1] = bench_cpu_open(o, all_cores, &reports[*count])) != NULL)
        paths[2] = &reports[(*count)++];
    const int n = o->sweep < SWEEP_MAX ? o->sweep : SWEEP_MAX;
    for (int i = 0; i < n; ++i) {
        const bench_case *c =
            bench_sweep_case(o->seed, i, o->quick ? SWEEP_SIZE_QUICK : SWEEP_SIZE_FULL, o->draw);
        if (!bench_selected(o, c))
            continue;
        bench_result base;
        bench_inputs in;
        clsel_plan *plan = bench_case_prepare(o, c, &in, &base);
        fprintf(stderr, "sweep %-10s %-4s %11lld el ", c->name, clsel_dtype_name(c->dtype),
                (long long)base.elements);
        for (int p = 0; p < PATHS; ++p) {
            if (!paths[p])
                continue;
            bench_result *r = &paths[p]->results[paths[p]->count++];
            *r = base;
            if (p == 0)
                wide_shares(plan, r);
            if (!*r->error) {
                if (p == 0)
                    bench_cl_time(cl, o, plan, &in, r);
                else
                    bench_cpu_time(cpu[p - 1], o, plan, &in, r);
            }
            if (*r->error)
                fprintf(stderr, " %s failed", paths[p]->kind);
            else
                fprintf(stderr, " %s%s %5.1f%%", paths[p]->kind, p == 2 ? "(all)" : "",
                        r->pct_of_copy);
        }
        fprintf(stderr, "  %s\n", c->what);
        bench_case_release(plan, &in);
    }
    bench_cl_close(cl);
    bench_cpu_close(cpu[0]);
    bench_cpu_close(cpu[1]);
    return *count ? 0 : -1;
}
