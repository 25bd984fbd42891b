/* cpu_fused.c - the CPU path's fused blocks (cpu_fused.h). A block is dims [0, inner) whole (E
 * elements, a row) and `split` indices of dim `inner`: each row reads input `op` at the same
 * offsets from the row's start, and the rows' starts step by the input's stride along dim `inner`.
 * So G rows, the fewest whose bytes make whole 32-byte vectors, are one shuffle table per input
 * (cpu_loops.h): each output vector a byte shuffle of one or two 16-byte source windows per lane
 * (or, where the loops have AVX-512 VBMI and every table fits, a wide table: one permute of one or
 * two 32-byte windows), and the next G rows the same table a fixed advance on. An input that does
 * not move from row to row is the same G rows for every table: their bytes are computed once and
 * read again. The blend builds each input's vector where it lies, as a run's is loaded, and nothing
 * is gathered: a gathered pattern cost a store and a load of every output byte besides its shuffle
 * (docs/tuning.md, CPU_FUSED_TABLE_BYTES). A block's output vectors start at its first 32-byte
 * boundary (streamed stores need it): the tables are made for that phase, and the few elements
 * before it and after its last whole vector are computed one by one. */
#include <string.h>

#include "common/element_width.h"
#include "common/int_math.h"
#include "common/tuning_constants.h"
#include "cpu/cpu_fused.h"
#include "cpu/cpu_gather.h" /* clsel_priv_cpu_shuffle_table_make, clsel_priv_cpu_source_windows */

enum {
    MAP_BYTES = CPU_FUSED_TABLE_BYTES + 64 /* a table from a phase below 32, and 32 past it */
};

static int64_t row_stride(const cpu_blocks *b, int op)
{
    return b->inner < b->it->rank ? b->it->strides[op][b->inner] : 0;
}

/* The block's rows as a space of their own, with the counter at element `first`: dims [0, inner),
 * then the rows along dim `inner` to element `last` (past its extent where a table's rows reach
 * there: they step on as the blocks' rows do). Where the rows are the whole space, one row whose
 * counter wraps to its first element: a step of 0. */
static void block_rows(const cpu_blocks *b, int64_t first, int64_t last, plan_iter *rows,
                       plan_counter *element)
{
    *rows = *b->it;
    memset(rows->base, 0, sizeof rows->base);
    rows->rank = b->inner;
    rows->count = b->inner_elements;
    if (b->inner < b->it->rank) {
        rows->dims[b->inner] = last / b->inner_elements + 1;
        rows->count *= rows->dims[b->inner];
        rows->rank = b->inner + 1;
    }
    clsel_priv_plan_counter_at(rows, first % rows->count, element);
}

/* Input op's source byte for each of `bytes` output bytes of a block from byte `first` on: its
 * element's byte, or for a cond (a byte an element) the element's one byte. One counter step an
 * element: no division per byte. */
static void source_bytes(const cpu_blocks *b, int op, int64_t first, int64_t bytes, int64_t *at)
{
    const int64_t w = (int64_t)b->w;
    plan_iter rows;
    plan_counter element;
    block_rows(b, first / w, (first + bytes - 1) / w, &rows, &element);
    int64_t byte = first % w;
    for (int64_t x = 0; x < bytes; ++x) {
        const int64_t offset = element.offset[op];
        at[x] = op == PLAN_COND ? offset : offset * w + byte;
        if (++byte == w) {
            byte = 0;
            clsel_priv_plan_counter_next(&rows, &element);
        }
    }
}

/* A wide record's windows for 32 output bytes from their source bytes `at`: the lowest byte, and
 * the lowest 32 or more past it (the first again where there is none); 0 where the bytes do not
 * fit the two. */
static int wide_windows(const int64_t *at, int64_t *first, int64_t *second)
{
    const int windows = clsel_priv_cpu_source_windows(at, 32, 1, first, second);
    if (windows == 1)
        *second = *first;
    return windows > 0;
}

/* The source bytes past a table's start that the loads for output bytes from source bytes `at` on
 * reach, or -1 where they do not fit their windows: 16 bytes in two 16-byte windows (a table of
 * pieces), or 32 in two 32-byte windows (a wide table). */
static int64_t pieces_reach(const int64_t *at)
{
    int64_t first, second;
    if (!clsel_priv_cpu_source_windows(at, 16, 1, &first, &second))
        return -1;
    /* a pair's loads: a second window at `second`, or 16 bytes on beside a partner's */
    return second + 16 > first + 32 ? second + 16 : first + 32;
}
static int64_t wide_reach(const int64_t *at)
{
    int64_t first, second;
    return wide_windows(at, &first, &second) ? second + 32 : -1;
}

/* Whether input op's tables fit their windows (`reach_of`: pieces_reach or wide_reach) from any
 * element boundary, whatever the phase of the tables, with their loads within
 * CPU_FUSED_REACH_BYTES of their start. The first row's starts tell: a row on, the same bytes are
 * read a row's stride on, so the same windows fit, that much further, counted here at the last
 * row that a table from a phase below 32 reaches. Every start of a table checked took 39 % of
 * the library's time in a fused run on two threads (docs/tuning.md, CPU_FUSED_TABLE_BYTES). */
static int fits_tables(const cpu_blocks *b, int op, int64_t span,
                       int64_t (*reach_of)(const int64_t *))
{
    const int64_t w = (int64_t)b->w, row_bytes = b->inner_elements * w;
    const int64_t stride = row_stride(b, op) * (int64_t)clsel_priv_operand_width(op, b->w);
    for (int32_t d = 0; d <= b->inner && d < b->it->rank; ++d)
        if (b->it->strides[op][d] < 0)
            return 0; /* the tables' loads are bounded for sources walked forwards */
    int64_t at[MAP_BYTES];
    source_bytes(b, op, 0, row_bytes + 64, at); /* a row is at most a table's span */
    for (int64_t start = 0; start < row_bytes; start += w) {
        const int64_t reach = reach_of(at + start), last_row = (span + 31 - start) / row_bytes;
        if (reach < 0 || reach + last_row * stride > CPU_FUSED_REACH_BYTES)
            return 0;
    }
    return 1;
}

/* The kind of input op's reads: a run, a table or a repeat. */
static cpu_fused_kind fused_kind(const cpu_blocks *b, int op)
{
    return b->access[op] == CPU_ACCESS_RUN ? CPU_FUSED_RUN
           : row_stride(b, op) == 0        ? CPU_FUSED_REPEAT
                                           : CPU_FUSED_TABLE;
}

/* Output bytes the blocks fuse at one phase of their vectors before the next block starts at
 * another: from the first block to that of the lowest walk level whose step moves the output by
 * other than whole vectors (INT64_MAX: none does, one phase throughout). */
static int64_t bytes_per_phase(const cpu_blocks *b)
{
    int64_t bytes = b->elements * (int64_t)b->w;
    for (int32_t level = 0; level < b->order.rank; ++level) {
        if (b->order.strides[PLAN_OUT][level] * (int64_t)b->w % 32 != 0)
            return bytes;
        if (bytes > INT64_MAX / b->order.dims[level])
            return INT64_MAX;
        bytes *= b->order.dims[level];
    }
    return INT64_MAX;
}

void clsel_priv_cpu_fused_choose(cpu_walk *walk, int final_blocks)
{
    cpu_fused *f = &walk->fused;
    const cpu_blocks *b = &walk->blocks;
    memset(f, 0, sizeof *f);
    if (!walk->loops->fused || walk->scatters || walk->by_chunk || walk->row_dims > 0 ||
        b->it == &walk->tiled || b->access[PLAN_OUT] != CPU_ACCESS_RUN ||
        b->access[PLAN_COND] == CPU_ACCESS_FIXED)
        return;
    const int64_t row_bytes = b->inner_elements * (int64_t)b->w;
    f->rows = 32 / clsel_priv_gcd(row_bytes, 32);
    f->span = f->rows * row_bytes;
    if (f->span > CPU_FUSED_TABLE_BYTES)
        return;
    /* tables of at least CPU_FUSED_LEAST_TABLE_BYTES: the loop's work per table (the prefetches,
     * the inputs moving on) over a few vectors only */
    const int64_t times = (CPU_FUSED_LEAST_TABLE_BYTES + f->span - 1) / f->span;
    if (f->span * times <= CPU_FUSED_TABLE_BYTES) {
        f->rows *= times;
        f->span *= times;
    }
    /* every table wide where the loops have wide ones and each fits, else each one of pieces */
    int tables = 0;
    f->wide = walk->loops->fused_wide != NULL;
    for (int op = PLAN_COND; op <= PLAN_ELSE; ++op) {
        f->kind[op] = fused_kind(b, op);
        tables += f->kind[op] == CPU_FUSED_TABLE;
        f->wide =
            f->wide && (f->kind[op] != CPU_FUSED_TABLE || fits_tables(b, op, f->span, wide_reach));
    }
    for (int op = PLAN_COND; op <= PLAN_ELSE && !f->wide; ++op)
        if (f->kind[op] == CPU_FUSED_TABLE && !fits_tables(b, op, f->span, pieces_reach))
            return;
    /* One table or more, beside runs of any width: a pattern that moves from row to row,
     * gathered, cost a store and a load of every output byte, more than its shuffle fused, and the
     * rows' runs of lines side by side (CPU_STORES_SPLIT) did not make up for it beside a run as
     * wide as the output's elements (docs/tuning.md, CPU_FUSED_TABLE_BYTES). A table made again at
     * each new phase costs some 30 instructions per byte, the fused loop about one per output byte
     * (CPU_FUSED_OUTPUT_PER_TABLE_BYTE). */
    const int64_t made = (int64_t)tables * f->span;
    f->on = tables >= 1 &&
            (!final_blocks || bytes_per_phase(b) / CPU_FUSED_OUTPUT_PER_TABLE_BYTE >= made);
}

/* What a fused run keeps from block to block: the tables, and the repeated inputs' bytes, of the
 * phase (and sources) they were made for. */
typedef struct fused_job {
    const cpu_walk *walk;
    const cpu_tensors *t;
    cpu_fused_fn fn[2]; /* [streamed stores] */
    int64_t phase;      /* of the tables; -1: none yet */
    cpu_shuffle_table tables[3];
    union { /* the tables' records */
        cpu_shuffle_pair pairs[3][CPU_FUSED_TABLE_BYTES / 32];
        cpu_wide_record wide[3][CPU_FUSED_TABLE_BYTES / 32];
    } records;
    const uint8_t *repeated_from[3]; /* the source a repeated input's bytes are of */
    int64_t repeated_phase[3];
    _Alignas(32) uint8_t repeated[3][CPU_FUSED_TABLE_BYTES];
    _Alignas(32) uint8_t window[3][CPU_FUSED_REACH_BYTES]; /* a table's sources at an input's end */
} fused_job;

/* A wide table of `vectors` records (cpu_loops.h, cpu_wide_record) from each output byte's source
 * byte `at`: its records, its reach and whether they read second windows (`two`). 0 where a
 * vector's bytes do not fit two windows. */
static int make_wide(const int64_t *at, int64_t vectors, cpu_wide_record *records,
                     cpu_shuffle_table *t)
{
    t->pieces = (int)(2 * vectors);
    t->shared = 0;
    t->two = 0;
    t->reach = 0;
    t->pairs = NULL;
    t->wide = records;
    for (int64_t v = 0; v < vectors; ++v) {
        const int64_t *from = at + 32 * v;
        int64_t first, second;
        if (!wide_windows(from, &first, &second) || second + 32 > INT32_MAX)
            return 0;
        cpu_wide_record *r = &records[v];
        r->first = (int32_t)first;
        r->second = (int32_t)second;
        for (int j = 0; j < 32; ++j)
            r->order[j] = (uint8_t)(from[j] < first + 32 ? from[j] - first : 32 + from[j] - second);
        t->two |= second != first;
        t->reach = second + 32 > t->reach ? second + 32 : t->reach;
    }
    return 1;
}

/* Input op's table for a block's vectors from output byte `phase` on. */
static int make_table(const cpu_walk *walk, int op, int64_t phase, fused_job *job,
                      cpu_shuffle_table *t)
{
    const cpu_blocks *b = &walk->blocks;
    const int64_t span = walk->fused.span, w = (int64_t)clsel_priv_operand_width(op, b->w);
    int64_t at[MAP_BYTES];
    source_bytes(b, op, phase, span, at);
    if (walk->fused.wide
            ? !make_wide(at, span / 32, job->records.wide[op], t)
            : !clsel_priv_cpu_shuffle_table_make(at, span / 16, 1, job->records.pairs[op], t))
        return 0;
    if (t->reach > CPU_FUSED_REACH_BYTES)
        return 0; /* fits_tables bounds it; the window an input's last tables read holds no more */
    t->rows = walk->fused.rows;
    t->advance = t->rows * row_stride(b, op) * w;
    return 1;
}

/* A repeated input's elements for one table from output byte `phase` on, from src (its block's
 * first element): a byte an element for a cond, whose source bytes repeat for each byte of its
 * element. */
static const uint8_t *repeated_bytes(fused_job *job, int op, const uint8_t *src, int64_t phase)
{
    if (job->repeated_from[op] == src && job->repeated_phase[op] == phase)
        return job->repeated[op];
    const cpu_blocks *b = &job->walk->blocks;
    const int64_t span = job->walk->fused.span, step = op == PLAN_COND ? (int64_t)b->w : 1;
    /* The same in every row: one row's bytes looked up, then copied on, doubling (made for every
     * block whose source moved, where a lookup per byte of the table cost the rows' speed). */
    const int64_t entries = span / step, period = b->inner_elements * (int64_t)b->w / step,
                  looked_up = period < entries ? period : entries;
    uint8_t *bytes = job->repeated[op];
    int64_t at[MAP_BYTES];
    const int64_t looked_up_bytes = looked_up * step;
    source_bytes(b, op, phase, looked_up_bytes, at);
    for (int64_t x = 0; x < looked_up_bytes; x += step)
        bytes[x / step] = src[at[x]];
    for (int64_t done = looked_up; done < entries;) {
        const int64_t copied = done < entries - done ? done : entries - done;
        memcpy(bytes + done, bytes, (size_t)copied);
        done += copied;
    }
    job->repeated_from[op] = src;
    job->repeated_phase[op] = phase;
    return bytes;
}

/* Elements [first, last) of a block, one by one. */
static void block_elements(const cpu_walk *walk, const uint8_t *const src[3], int64_t first,
                           int64_t last, uint8_t *out)
{
    const cpu_blocks *b = &walk->blocks;
    const size_t w = b->w;
    if (first >= last)
        return;
    plan_iter rows;
    plan_counter element;
    block_rows(b, first, last - 1, &rows, &element);
    for (int64_t j = first; j < last; ++j) {
        const int take_then = src[PLAN_COND][element.offset[PLAN_COND]] != 0;
        const int op = take_then ? PLAN_THEN : PLAN_ELSE;
        memcpy(out + j * (int64_t)w, src[op] + element.offset[op] * (int64_t)w, w);
        clsel_priv_plan_counter_next(&rows, &element);
    }
}

/* Whole tables of input op that read only bytes before its end, from src (INT64_MAX: all). */
static int64_t tables_within(const fused_job *job, int op, const uint8_t *src)
{
    const cpu_shuffle_table *t = &job->tables[op];
    const int64_t left = job->t->end[op] - src;
    if (left < t->reach)
        return 0;
    return t->advance > 0 ? (left - t->reach) / t->advance + 1 : INT64_MAX;
}

/* Input op's sources from src, copied to its window where its table would read past its end:
 * the bytes up to its end, then zeros. */
static const uint8_t *window_copy(fused_job *job, int op, const uint8_t *src)
{
    const size_t left = (size_t)(job->t->end[op] - src), reach = (size_t)job->tables[op].reach;
    memcpy(job->window[op], src, left);
    memset(job->window[op] + left, 0, reach - left);
    return job->window[op];
}

/* The block's `vectors` whole vectors from out on, its inputs at in: the tables that stay before
 * every tabled input's end in one call, then table by table, an input whose table would pass its
 * end read from a copy of its last bytes. */
static void block_vectors(fused_job *job, cpu_fused_fn fn, cpu_fused_inputs *in, int64_t vectors,
                          uint8_t *out)
{
    const cpu_fused *f = &job->walk->fused;
    const int64_t pairs = in->pairs;
    int64_t within = INT64_MAX;
    for (int op = PLAN_COND; op <= PLAN_ELSE; ++op)
        if (f->kind[op] == CPU_FUSED_TABLE) {
            const int64_t k = tables_within(job, op, in->src[op]);
            within = k < within ? k : within;
        }
    const int64_t direct = within >= (vectors + pairs - 1) / pairs ? vectors : within * pairs;
    fn(in, direct, out);
    for (int64_t done = direct; done < vectors; done += pairs) {
        cpu_fused_inputs one = *in;
        for (int op = PLAN_COND; op <= PLAN_ELSE; ++op)
            if (f->kind[op] == CPU_FUSED_TABLE && tables_within(job, op, in->src[op]) == 0)
                one.src[op] = window_copy(job, op, in->src[op]);
        const int64_t n = vectors - done < pairs ? vectors - done : pairs;
        fn(&one, n, out + 32 * done);
        for (int op = PLAN_COND; op <= PLAN_ELSE; ++op)
            in->src[op] = f->kind[op] == CPU_FUSED_TABLE ? in->src[op] + job->tables[op].advance
                                                         : one.src[op];
    }
}

/* The tables for vectors from output byte `phase` on, made again where the phase changed; 0 where
 * one cannot be made. */
static int tables_for(fused_job *job, int64_t phase)
{
    const cpu_fused *f = &job->walk->fused;
    if (phase == job->phase)
        return 1;
    job->phase = -1;
    for (int op = PLAN_COND; op <= PLAN_ELSE; ++op)
        if (f->kind[op] == CPU_FUSED_TABLE &&
            !make_table(job->walk, op, phase, job, &job->tables[op]))
            return 0;
    job->phase = phase;
    return 1;
}

static void fused_block(fused_job *job, const cpu_block *at)
{
    const cpu_walk *walk = job->walk;
    const cpu_blocks *b = &walk->blocks;
    const cpu_fused *f = &walk->fused;
    const int64_t w = (int64_t)b->w, elements = b->inner_elements * at->split;
    uint8_t *out = job->t->out + at->place.offset[PLAN_OUT] * w;
    const uint8_t *src[3];
    for (int op = PLAN_COND; op <= PLAN_ELSE; ++op)
        src[op] =
            job->t->in[op] + at->place.offset[op] * (int64_t)clsel_priv_operand_width(op, b->w);
    /* the vectors start at the output's first 32-byte boundary, where it is one of an element's
     * (streamed stores need it), else at the block's start with plain stores */
    const int64_t misaligned = (int64_t)((uintptr_t)out & 31);
    const int aligned = misaligned % w == 0;
    const int64_t phase = aligned ? (32 - misaligned) & 31 : 0;
    const int64_t vectors = elements * w > phase ? (elements * w - phase) / 32 : 0;
    /* a table's vectors: its span is whole vectors, so none only where the walk was not fused */
    const int64_t pairs = f->span / 32;
    if (vectors == 0 || pairs == 0 || !tables_for(job, phase)) {
        block_elements(walk, src, 0, elements, out);
        return;
    }
    const int64_t first = phase / w, last = first + vectors * 32 / w;
    block_elements(walk, src, 0, first, out);
    cpu_fused_inputs in = {{NULL, NULL, NULL}, {NULL, NULL, NULL}, {0, 0, 0}, pairs};
    for (int op = PLAN_COND; op <= PLAN_ELSE; ++op) {
        const int64_t width = (int64_t)clsel_priv_operand_width(op, b->w);
        const cpu_fused_kind kind = f->kind[op];
        in.table[op] = kind == CPU_FUSED_TABLE ? &job->tables[op] : NULL;
        in.src[op] = kind == CPU_FUSED_TABLE ? src[op]
                     : kind == CPU_FUSED_RUN ? src[op] + first * width
                                             : repeated_bytes(job, op, src[op], phase);
        in.advance[op] = kind == CPU_FUSED_TABLE ? job->tables[op].advance
                         : kind == CPU_FUSED_RUN ? pairs * 32 / w * width
                                                 : 0;
    }
    block_vectors(job, job->fn[walk->stream && aligned], &in, vectors, out + phase);
    block_elements(walk, src, last, elements, out);
}

void clsel_priv_cpu_fused_run(const cpu_walk *walk, const cpu_tensors *t)
{
    const cpu_blocks *b = &walk->blocks;
    const cpu_fused *f = &walk->fused;
    const int slot = clsel_priv_width_slot(b->w);
    const int variant = (f->kind[PLAN_COND] == CPU_FUSED_TABLE) |
                        (f->kind[PLAN_THEN] == CPU_FUSED_TABLE) << 1 |
                        (f->kind[PLAN_ELSE] == CPU_FUSED_TABLE) << 2;
    fused_job job;
    job.walk = walk;
    job.t = t;
    job.phase = -1;
    for (int op = PLAN_COND; op <= PLAN_ELSE; ++op) {
        job.repeated_from[op] = NULL;
        job.repeated_phase[op] = -1;
    }
    for (int streamed = 0; streamed < 2; ++streamed)
        job.fn[streamed] =
            (f->wide ? walk->loops->fused_wide : walk->loops->fused)[streamed][slot][variant];
    cpu_block at;
    clsel_priv_cpu_block_at(b, 0, &at);
    for (int64_t i = 0;;) {
        fused_block(&job, &at);
        if (++i == b->count)
            break;
        clsel_priv_cpu_block_next(b, &at);
    }
    if (walk->stream)
        walk->loops->fence();
}
