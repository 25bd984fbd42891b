/* bench_json.c - see bench_json.h. */
#include "bench_json.h"

#include <stdio.h>

#include "bench_sweep.h"

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; ++s) {
        if (*s == '"' || *s == '\\')
            fputc('\\', f);
        fputc((unsigned char)*s < 0x20 ? ' ' : *s, f);
    }
    fputc('"', f);
}

static void json_shape(FILE *f, const clsel_shape *s)
{
    fputc('[', f);
    for (int32_t d = 0; d < s->rank; ++d)
        fprintf(f, "%s%lld", d ? ", " : "", (long long)s->dims[d]);
    fputc(']', f);
}

/* One case: the figures, then what a script needs to rebuild the same case (the peers'
 * benchmark does): shapes, attributes and cond pattern. */
static void json_case(FILE *f, const bench_result *r)
{
    const bench_case *c = r->c;
    fprintf(f,
            "{\"name\": \"%s\", \"dtype\": \"%s\", \"elements\": %lld, \"bytes\": %llu, "
            "\"median_ms\": %.6f, \"min_ms\": %.6f, \"gbps\": %.4f, \"pct_of_copy\": %.6g, "
            "\"first_call_ms\": %.4f, \"copy_gbps\": %.4f, \"write_bytes\": %llu, \"model_gbps\": "
            "%.4f, "
            "\"ceiling_pct\": %.6g, \"event_median_ms\": %.6f, \"event_pct_of_copy\": %.6g, "
            "\"wide_share\": %.4f, \"what\": ",
            c->name, clsel_dtype_name(c->dtype), (long long)r->elements,
            (unsigned long long)r->bytes, r->median_ms, r->min_ms, r->gbps, r->pct_of_copy,
            r->first_call_ms, r->copy_gbps, (unsigned long long)r->write_bytes, r->model_gbps,
            r->ceiling_pct, r->event_ms, r->event_pct_of_copy, r->wide_share);
    json_string(f, c->what);
    fputs(", \"shapes\": [", f);
    for (int k = 0; k < 3; ++k) {
        if (k)
            fputs(", ", f);
        json_shape(f, &r->shapes[k]);
    }
    fprintf(f,
            "], \"broadcast\": \"%s\", \"axis\": %lld, \"cond_broadcast\": \"%s\", \"pattern\": "
            "\"%s\", "
            "\"view\": \"%s\"}",
            bench_broadcast_name(c->broadcast), (long long)c->axis,
            bench_cond_broadcast_name(c->cond_broadcast), bench_pattern_name(c->pattern),
            bench_view_name(c->view));
}

static void json_thresholds(FILE *f, const bench_thresholds_report *t)
{
    fprintf(f, "{\"threads\": %d, \"runtime_device\": ", t->threads);
    json_string(f, t->runtime_device);
    fputs(", \"auto_device\": ", f);
    json_string(f, t->auto_device);
    fputs(", \"rows\": [", f);
    for (size_t i = 0; i < t->count; ++i)
        fprintf(
            f,
            "%s\n  {\"elements\": %lld, \"bytes\": %llu, \"cpu_ms\": %.6f, \"threads_ms\": %.6f, "
            "\"runtime_ms\": %.6f, \"auto_ms\": %.6f}",
            i ? "," : "", (long long)t->rows[i].elements, (unsigned long long)t->rows[i].bytes,
            t->rows[i].cpu_ms, t->rows[i].threads_ms, t->rows[i].runtime_ms, t->rows[i].auto_ms);
    fputs("\n]", f);
    if (t->chunked_elements)
        fprintf(f,
                ", \"chunked\": {\"elements\": %lld, \"bytes\": %llu, \"max_alloc\": %llu, "
                "\"runtime_ms\": %.3f, "
                "\"cpu_ms\": %.3f}",
                (long long)t->chunked_elements, (unsigned long long)t->chunked_bytes,
                (unsigned long long)t->max_alloc, t->chunked_ms, t->chunked_cpu_ms);
    fputs("}", f);
}

static void json_report(FILE *f, const bench_report *report,
                        const bench_thresholds_report *thresholds, const bench_options *o)
{
    fprintf(f, "{\"device\": ");
    json_string(f, report->device);
    fprintf(f,
            ", \"device_kind\": \"%s\", \"quick\": %s, \"copy_gbps\": %.4f, \"read_gbps\": %.4f, "
            "\"write_gbps\": %.4f, \"copy_method\": ",
            report->kind, report->quick ? "true" : "false", report->copy_gbps, report->read_gbps,
            report->write_gbps);
    json_string(f, report->copy_method);
    if (report->kind[0] == 'o')
        fprintf(f, ", \"build_first_ms\": %.3f, \"build_again_ms\": %.3f, \"enqueue_us\": %.3f",
                report->build_first_ms, report->build_again_ms, report->enqueue_us);
    else
        fprintf(f, ", \"threads\": %d, \"plan_us\": %.3f", report->threads, report->plan_us);
    if (o->sweep) {
        bench_sweep_stats st;
        bench_sweep_summarize(report, &st);
        fprintf(f,
                ", \"sweep\": {\"seed\": %llu, \"draw\": \"%s\", \"patterns\": %d, \"ran\": %zu, "
                "\"min\": %.2f, \"p10\": %.2f, "
                "\"median\": %.2f, \"below_85\": %zu, \"below_70\": %zu, \"ceiling_min\": %.2f, "
                "\"ceiling_p10\": %.2f, \"ceiling_median\": %.2f, \"event_min\": %.2f, "
                "\"event_p10\": %.2f, "
                "\"event_median\": %.2f}",
                (unsigned long long)o->seed, bench_sweep_draw_names[o->draw], o->sweep, st.count,
                st.min, st.p10, st.median, st.below_85, st.below_70, st.ceiling_min, st.ceiling_p10,
                st.ceiling_median, st.event_min, st.event_p10, st.event_median);
    }
    fprintf(f, ", \"cases\": [");
    for (size_t i = 0, n = 0; i < report->count; ++i) {
        const bench_result *r = &report->results[i];
        if (*r->error)
            continue;
        fputs(n++ ? ",\n  " : "\n  ", f);
        json_case(f, r);
    }
    fprintf(f, "\n]");
    if (thresholds) {
        fputs(", \"thresholds\": ", f);
        json_thresholds(f, thresholds);
    }
    fputs("}", f);
}

bench_json_status bench_json_write(const char *path, const bench_report *reports, size_t count,
                                   int as_list, const bench_thresholds_report *thresholds,
                                   const bench_options *o)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return BENCH_JSON_CANNOT_OPEN;
    if (as_list)
        fputs("[", f);
    for (size_t i = 0; i < count; ++i) {
        if (i)
            fputs(",\n", f);
        json_report(f, &reports[i], reports[i].kind[0] == 'c' ? thresholds : NULL, o);
    }
    if (as_list)
        fputs("]", f);
    fputs("\n", f);
    return fclose(f) == 0 ? BENCH_JSON_OK : BENCH_JSON_WRITE_ERROR;
}

bench_json_status bench_json_write_first_call(const char *path, const bench_first_call_report *r)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return BENCH_JSON_CANNOT_OPEN;
    fputs("{\"device\": ", f);
    json_string(f, r->device);
    fprintf(
        f,
        ", \"elements\": %lld, \"platform_ms\": %.3f, \"create_ms\": %.3f, \"first_run_ms\": %.3f, "
        "\"second_run_ms\": %.4f}\n",
        (long long)r->elements, r->platform_ms, r->create_ms, r->first_run_ms, r->second_run_ms);
    return fclose(f) == 0 ? BENCH_JSON_OK : BENCH_JSON_WRITE_ERROR;
}
