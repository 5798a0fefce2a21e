/* duel-fio-import.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <sys/stat.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/duel-analysis.h"
#include "duel-error.h"
#include "duel-fio-import.h"
#include "duel-json.h"
#include "result/duel-json-shape-private.h"
#include "result/duel-result-private.h"
#include "duel-text.h"
#include "engine/duel-workload-option.h"

/* A fio log file of more lines than this is not an interval log. */
#define MAX_LOG_LINES 50000000
/* As for a result file (duel-result-reader.c). */
#define MAX_FILE_SIZE (G_GUINT64_CONSTANT (2) << 30)

typedef struct
{
  const char *name;    /* the file, for messages */
  GError    **error;
  DuelShaped *shaped;  /* the bins taken from the text */
} Importer;

/* ---- What the importer reads of fio's JSON (duel-json-shape-private.h) ---- */

static const DuelShape keep = { DUEL_SHAPE_KEEP, 0, NULL, NULL, 0 };
/* The bins taken as (latency, count) pairs: lat_ns's by direction, then
 * clat_ns's (CLAT_BINS_ID()), read when lat_ns has none (import_histogram()). */
#define CLAT_BINS_ID(d) (DUEL_N_DIRECTIONS + (d))
static const DuelShape bins_shapes[2 * DUEL_N_DIRECTIONS] = {
  { DUEL_SHAPE_UINT_MAP, 0, NULL, NULL, DUEL_DIRECTION_READ },
  { DUEL_SHAPE_UINT_MAP, 0, NULL, NULL, DUEL_DIRECTION_WRITE },
  { DUEL_SHAPE_UINT_MAP, 0, NULL, NULL, CLAT_BINS_ID (DUEL_DIRECTION_READ) },
  { DUEL_SHAPE_UINT_MAP, 0, NULL, NULL, CLAT_BINS_ID (DUEL_DIRECTION_WRITE) },
};
#define LAT_MEMBERS(id) { \
  { "N", &keep }, { "mean", &keep }, { "stddev", &keep }, { "min", &keep }, { "max", &keep }, \
  { "bins", &bins_shapes[id] }, { NULL, NULL } }
static const DuelShapeMember lat_read_members[] = LAT_MEMBERS (DUEL_DIRECTION_READ);
static const DuelShapeMember lat_write_members[] = LAT_MEMBERS (DUEL_DIRECTION_WRITE);
static const DuelShapeMember clat_read_members[] = LAT_MEMBERS (CLAT_BINS_ID (DUEL_DIRECTION_READ));
static const DuelShapeMember clat_write_members[] = LAT_MEMBERS (CLAT_BINS_ID (DUEL_DIRECTION_WRITE));
#undef LAT_MEMBERS
static const DuelShape lat_shapes[DUEL_N_DIRECTIONS] = {
  { DUEL_SHAPE_OBJECT, 0, lat_read_members, NULL, 0 },
  { DUEL_SHAPE_OBJECT, 0, lat_write_members, NULL, 0 },
};
static const DuelShape clat_shapes[DUEL_N_DIRECTIONS] = {
  { DUEL_SHAPE_OBJECT, 0, clat_read_members, NULL, 0 },
  { DUEL_SHAPE_OBJECT, 0, clat_write_members, NULL, 0 },
};
#define SECTION_MEMBERS(d) { \
  { "total_ios", &keep }, { "io_bytes", &keep }, { "runtime", &keep }, \
  { "lat_ns", &lat_shapes[d] }, { "clat_ns", &clat_shapes[d] }, { NULL, NULL } }
static const DuelShapeMember read_members[] = SECTION_MEMBERS (DUEL_DIRECTION_READ);
static const DuelShapeMember write_members[] = SECTION_MEMBERS (DUEL_DIRECTION_WRITE);
#undef SECTION_MEMBERS
static const DuelShape section_shapes[DUEL_N_DIRECTIONS] = {
  { DUEL_SHAPE_OBJECT, 0, read_members, NULL, 0 },
  { DUEL_SHAPE_OBJECT, 0, write_members, NULL, 0 },
};
static const DuelShapeMember job_members[] = {
  { "jobname", &keep }, { "job options", &keep }, { "job_runtime", &keep }, { "error", &keep },
  { "elapsed", &keep }, { "read", &section_shapes[DUEL_DIRECTION_READ] },
  { "write", &section_shapes[DUEL_DIRECTION_WRITE] }, { NULL, NULL }
};
static const DuelShape job_shape = { DUEL_SHAPE_OBJECT, 0, job_members, NULL, 0 };
static const DuelShape jobs_shape = { DUEL_SHAPE_ARRAY, DUEL_SHAPE_INDEXED, NULL, &job_shape, 0 };
static const DuelShapeMember root_members[] = {
  { "fio version", &keep }, { "timestamp", &keep }, { "global options", &keep },
  { "jobs", &jobs_shape }, { NULL, NULL }
};
static const DuelShape fio_shape = { DUEL_SHAPE_OBJECT, 0, root_members, NULL, 0 };

static gboolean
fail (Importer   *importer,
      const char *format,
      ...) G_GNUC_PRINTF (2, 3);

static gboolean
fail (Importer   *importer,
      const char *format,
      ...)
{
  g_autofree char *message = NULL;
  g_autofree char *line = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  /* Names and excerpts from the file: one line, no terminal controls. */
  line = duel_text_escape (message);
  g_set_error (importer->error, DUEL_ERROR, DUEL_ERROR_FORMAT, "%s: %s", importer->name, line);
  return FALSE;
}

/* ---- JSON helpers: every node is checked before use ------------------------- */

/* A count fio printed: absent is 0; a negative, fractional or huge value is
 * refused, so that no total is silently taken as 0. */
static gboolean
member_count (Importer   *importer,
              JsonObject *object,
              const char *where,
              const char *member,
              guint64    *out_value)
{
  JsonNode *node = object ? json_object_get_member (object, member) : NULL;

  *out_value = 0;
  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64 ||
      json_node_get_int (node) < 0)
    return fail (importer, _("%s.%s is not a count of zero or more."), where, member);
  *out_value = (guint64) json_node_get_int (node);
  return TRUE;
}

/* An option as fio printed it: job options override the global ones. */
static const char *
option (JsonObject *job_options,
        JsonObject *global_options,
        const char *name)
{
  const char *value = duel_json_get_string (job_options, name);

  return value != NULL ? value : duel_json_get_string (global_options, name);
}

static gboolean
option_set (JsonObject *job_options,
            JsonObject *global_options,
            const char *name)
{
  const char *value = option (job_options, global_options, name);

  /* Boolean options print as "1", or as "" when given without a value. */
  return value != NULL && g_strcmp0 (value, "0") != 0;
}

/* The largest size in "4k", "4k,8k" or "4k-16k"; FALSE if any part is not a size. */
static gboolean
parse_fio_size_largest (const char *text,
                        guint64    *out_bytes)
{
  g_auto(GStrv) parts = NULL;

  if (text == NULL || *text == '\0' || strchr (text, '%') != NULL)
    return FALSE;
  parts = g_strsplit_set (text, ",:-", -1);
  *out_bytes = 0;
  for (guint i = 0; parts[i] != NULL; i++)
    {
      guint64 bytes = 0;

      g_strstrip (parts[i]);
      if (*parts[i] == '\0')
        continue;
      if (!duel_parse_size (parts[i], &bytes, NULL))
        return FALSE;
      *out_bytes = MAX (*out_bytes, bytes);
    }
  return *out_bytes > 0;
}

/* ---- Histograms ----------------------------------------------------------------- */

/* fio prints each bin as its midpoint value (plat_idx_to_val); the index of
 * that value is the bin's index, which is ours. fio's lat_ns is from
 * submission to completion, what the engine measures; it has bins with
 * --lat_percentiles=1. By default fio writes the bins of clat_ns only, the
 * completion latency (the submission left out): a job without lat_ns bins
 * is imported from those, and its record says so (DUEL_LATENCY_COMPLETION). */
static void
add_bin (DuelHistogram *hist,
         guint64        ns,
         guint64        count,
         int           *first,
         int           *last)
{
  guint index;

  if (count == 0)
    return;
  index = duel_histogram_bucket_index (ns);
  duel_histogram_add_bucket (hist, index, count);
  if (*first < 0 || (int) index < *first)
    *first = (int) index;
  if ((int) index > *last)
    *last = (int) index;
}

/* The bins of @lat (lat_ns or clat_ns), taken from the text (@id) or left
 * in the tree: one of *@out_pairs and *@out_bins, or neither. */
static void
find_bins (Importer        *importer,
           JsonObject      *lat,
           guint            job,
           guint            id,
           const guint64  **out_pairs,
           gsize           *out_n_pairs,
           JsonObject     **out_bins)
{
  JsonNode *bins_node = lat != NULL ? json_object_get_member (lat, "bins") : NULL;

  *out_pairs = NULL;
  *out_n_pairs = 0;
  *out_bins = duel_json_get_object (lat, "bins");
  /* Bins taken from the text are latencies and counts already. */
  if (bins_node != NULL && JSON_NODE_HOLDS_NULL (bins_node))
    *out_pairs = _duel_json_shaped_get_pairs (importer->shaped, job, id, out_n_pairs);
}

static gboolean
has_bins (Importer   *importer,
          JsonObject *lat,
          guint       job,
          guint       id)
{
  const guint64 *pairs;
  JsonObject *bins;
  gsize n_pairs;

  find_bins (importer, lat, job, id, &pairs, &n_pairs, &bins);
  return pairs != NULL || bins != NULL;
}

/* @section's lat_ns (total latency), or its clat_ns when @completion (the
 * job has no lat_ns bins). @section_where names @section. */
static gboolean
import_histogram (Importer      *importer,
                  JsonObject    *section,
                  gboolean       completion,
                  const char    *section_where,
                  guint          job,
                  DuelDirection  direction,
                  DuelHistogram *hist)
{
  JsonObject *lat = duel_json_get_object (section, completion ? "clat_ns" : "lat_ns");
  g_autofree char *where = g_strdup_printf ("%s.%s", section_where, completion ? "clat_ns" : "lat_ns");
  JsonObject *bins = NULL;
  const guint64 *pairs = NULL;
  gsize n_pairs = 0;
  JsonObjectIter iter;
  const char *key;
  JsonNode *value;
  double n = 0, mean = 0, stddev = 0, min = 0, max = 0;
  int first = -1, last = -1;

  duel_histogram_init (hist);
  if (lat == NULL || !duel_json_get_number (lat, "N", &n) || n <= 0)
    return TRUE;
  find_bins (importer, lat, job, completion ? CLAT_BINS_ID (direction) : direction, &pairs, &n_pairs, &bins);
  if (bins == NULL && pairs == NULL)
    return fail (importer, _("%s has latencies but no histogram bins; run fio with --output-format=json+ --lat_percentiles=1."),
                 where);

  for (gsize k = 0; pairs != NULL && k < n_pairs; k++)
    add_bin (hist, pairs[2 * k], pairs[2 * k + 1], &first, &last);
  if (pairs == NULL)
    json_object_iter_init (&iter, bins);
  while (pairs == NULL && json_object_iter_next (&iter, &key, &value))
    {
      guint64 ns;

      if (!g_ascii_string_to_unsigned (key, 10, 0, G_MAXINT64, &ns, NULL) ||
          !JSON_NODE_HOLDS_VALUE (value) || json_node_get_value_type (value) != G_TYPE_INT64 ||
          json_node_get_int (value) < 0)
        return fail (importer, _("%s.bins has an entry “%s” that is not a latency and a count."), where, key);
      add_bin (hist, ns, (guint64) json_node_get_int (value), &first, &last);
    }

  if (hist->count == 0)
    return TRUE;

  /* The exact statistics from fio, kept consistent with the bins. */
  duel_json_get_number (lat, "mean", &mean);
  duel_json_get_number (lat, "stddev", &stddev);
  duel_json_get_number (lat, "min", &min);
  duel_json_get_number (lat, "max", &max);
  /* Only values an unsigned 64-bit integer can hold are taken as they are. */
  if (min > 0 && min < 1e19 && duel_histogram_bucket_index ((guint64) min) == (guint) first)
    hist->min_ns = (guint64) min;
  else
    hist->min_ns = duel_histogram_bucket_lower_ns ((guint) first);
  if (max > 0 && max < 1e19 && duel_histogram_bucket_index ((guint64) max) == (guint) last)
    hist->max_ns = (guint64) max;
  else
    hist->max_ns = duel_histogram_bucket_upper_ns ((guint) last) - 1;
  if (mean > 0 && mean < 1e19)
    {
      double sum = mean * (double) hist->count;

      sum = CLAMP (sum, (double) hist->min_ns * hist->count, (double) hist->max_ns * hist->count);
      hist->sum_ns = (guint64) llround (sum);
      hist->sum_sq_ns = stddev * stddev * (double) (hist->count - 1) + mean * mean * (double) hist->count;
    }
  return TRUE;
}

/* ---- The IOPS log ------------------------------------------------------------------- */

typedef struct
{
  guint64 t_ms;
  double  iops[DUEL_N_DIRECTIONS];
  guint64 bs[DUEL_N_DIRECTIONS];
  gboolean seen[DUEL_N_DIRECTIONS];
} LogRow;

/* Lines in @text, as g_strsplit() on "\n" would give them. */
static guint64
count_lines (const char *text)
{
  guint64 n = 1;

  for (const char *p = text; (p = strchr (p, '\n')) != NULL; p++)
    n++;
  return n;
}

typedef void (*LogRowFunc) (const LogRow *row,
                            gpointer      user_data);

/* Lines "time_ms, value, direction, bs, offset[, prio]": with log_avg_msec the
 * value is the mean IOPS of the window ending at time_ms, one line per
 * direction. Lines of one window are grouped into one row, handed to
 * @func as it is complete. Line by line, each line copied alone: the log
 * is never held twice. */
static gboolean
read_iops_log (Importer   *importer,
               const char *text,
               guint       interval_ms,
               LogRowFunc  func,
               gpointer    user_data)
{
  LogRow row = { 0, };
  gboolean have_row = FALSE, saw_one = FALSE;
  guint line_number = 0;

  if (count_lines (text) > MAX_LOG_LINES)
    return fail (importer, _("the IOPS log has too many lines."));

  for (const char *p = text, *next; p != NULL; p = next)
    {
      const char *newline = strchr (p, '\n');
      g_autofree char *line = newline != NULL ? g_strndup (p, (gsize) (newline - p)) : g_strdup (p);
      char *fields[4] = { NULL, };
      guint n_fields = 0;
      guint64 t = 0, direction = 0, bs = 0;
      double value;
      char *end = NULL;

      next = newline != NULL ? newline + 1 : NULL;
      line_number++;
      g_strstrip (line);
      if (line[0] == '\0')
        continue;
      /* The first four of its comma-separated fields, white space aside. */
      for (char *field = line; field != NULL && n_fields < G_N_ELEMENTS (fields); n_fields++)
        {
          char *comma = strchr (field, ',');

          if (comma != NULL)
            *comma = '\0';
          fields[n_fields] = g_strstrip (field);
          field = comma != NULL ? comma + 1 : NULL;
        }
      if (n_fields < 3 ||
          !g_ascii_string_to_unsigned (fields[0], 10, 0, G_MAXINT64, &t, NULL) ||
          !g_ascii_string_to_unsigned (fields[2], 10, 0, 2, &direction, NULL))
        return fail (importer, _("line %u of the IOPS log is not “time, value, direction, block size, offset”."), line_number);
      value = g_ascii_strtod (fields[1], &end);
      if (end == fields[1] || *end != '\0' || !isfinite (value) || value < 0)
        return fail (importer, _("line %u of the IOPS log is not “time, value, direction, block size, offset”."), line_number);
      if (fields[3] != NULL)
        g_ascii_string_to_unsigned (fields[3], 10, 0, DUEL_WORKLOAD_MAX_BLOCK_SIZE, &bs, NULL);
      if (direction == 2)   /* trims are not ours */
        continue;
      if (value == 1 && !saw_one && interval_ms == 0)
        saw_one = TRUE;

      /* A new window: this direction is already in the row, or the time moved on. */
      if (!have_row || row.seen[direction] ||
          (interval_ms > 0 ? t > row.t_ms + interval_ms / 2 : t != row.t_ms))
        {
          if (have_row && t < row.t_ms)
            return fail (importer, _("line %u of the IOPS log goes back in time."), line_number);
          if (have_row)
            func (&row, user_data);
          memset (&row, 0, sizeof row);
          row.t_ms = t;
          have_row = TRUE;
        }
      row.iops[direction] += value;
      row.bs[direction] = bs;
      row.seen[direction] = TRUE;
      row.t_ms = MAX (row.t_ms, t);
    }

  if (interval_ms == 0 && saw_one)
    {
      /* Without log_avg_msec fio logs one line per I/O with value 1. */
      return fail (importer, _("the IOPS log has one line per I/O; write it with log_avg_msec (e.g. --log_avg_msec=1000)."));
    }
  if (have_row)
    func (&row, user_data);
  return TRUE;
}

/* The first pass: how many series rows the log makes (rows later than
 * the one before), and when its last window ends. */
typedef struct
{
  guint   n_rows;
  guint64 last_t_ms;
  gboolean any;
} LogCount;

static void
count_log_row (const LogRow *row,
               gpointer      user_data)
{
  LogCount *count = user_data;

  if (row->t_ms > count->last_t_ms)
    count->n_rows++;
  count->last_t_ms = MAX (count->last_t_ms, row->t_ms);
  count->any = TRUE;
}

/* ---- Jobs ------------------------------------------------------------------------------ */

typedef struct
{
  guint64 ops;
  guint64 bytes;
  guint64 runtime_ms;
} DirTotals;

/* The bytes of the first @ops operations at the job's mean I/O size,
 * exact at the total. */
static guint64
bytes_for_ops (const DirTotals *totals,
               guint64          ops)
{
  if (totals->ops == 0)
    return 0;
  return (guint64) (((unsigned __int128) totals->bytes * ops) / totals->ops);
}

/* The series the log makes, held beside its text, within the memory a
 * file of the log's size may take (the fio output's own is checked on
 * its own size). */
static gboolean
check_log_memory (Importer *importer,
                  gsize     log_length,
                  guint     n_rows)
{
  g_autofree char *needed_text = NULL;
  g_autofree char *length_text = NULL;
  guint64 needed = log_length + (guint64) n_rows * sizeof (DuelSeriesRow);

  if (needed <= _duel_result_memory_budget (log_length, 0))
    return TRUE;
  needed_text = g_format_size (needed);
  length_text = g_format_size (log_length);
  return fail (importer, _("the IOPS log makes %u rows, which would take about %s of memory, more than three times the log’s %s."),
               n_rows, needed_text, length_text);
}

/* The second pass: each row later than the one before into the series,
 * its operations from the window's rate, never more than fio counted in
 * total; bytes follow the ops at fio's mean I/O size, so no row has bytes
 * without operations. The last row holds what the log did not show,
 * unless a final row at the job's end does. */
typedef struct
{
  DuelTestRecord  *record;
  const DirTotals *totals;
  guint            n_rows;        /* from the first pass */
  gboolean         final_row;
  guint            taken;
  guint64          prev_t;
  guint64          sum_ops[DUEL_N_DIRECTIONS];
  guint64          sum_bytes[DUEL_N_DIRECTIONS];
} LogSeries;

static void
add_log_row (const LogRow *entry,
             gpointer      user_data)
{
  LogSeries *log = user_data;
  DuelSeriesRow row = { 0, };
  double window_s;

  if (entry->t_ms <= log->prev_t)
    return;
  window_s = (entry->t_ms - log->prev_t) / 1e3;
  row.t_ms = entry->t_ms;
  row.temperature_c = NAN;
  log->taken++;
  for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
    {
      const DirTotals *totals = &log->totals[d];
      guint64 ops = (guint64) llround (entry->iops[d] * window_s);

      row.ops[d] = MIN (ops, totals->ops - log->sum_ops[d]);
      log->sum_ops[d] += row.ops[d];
      row.bytes[d] = bytes_for_ops (totals, log->sum_ops[d]) - log->sum_bytes[d];
      log->sum_bytes[d] += row.bytes[d];
      if (log->taken == log->n_rows && !log->final_row)
        {
          row.ops[d] += totals->ops - log->sum_ops[d];
          row.bytes[d] += totals->bytes - log->sum_bytes[d];
        }
    }
  duel_series_append (log->record->series, &row);
  log->prev_t = entry->t_ms;
}

static gboolean
add_series_from_log (Importer        *importer,
                     DuelTestRecord  *record,
                     const char      *text,
                     guint            interval_ms,
                     const DirTotals  totals[DUEL_N_DIRECTIONS],
                     guint64          job_runtime_ms)
{
  LogSeries log = { record, totals, 0, FALSE, 0, 0, { 0, }, { 0, } };
  LogCount count = { 0, 0, FALSE };

  if (!read_iops_log (importer, text, interval_ms, count_log_row, &count))
    return FALSE;
  log.n_rows = count.n_rows;
  log.final_row = count.n_rows == 0 || job_runtime_ms > count.last_t_ms;
  duel_series_reserve (record->series, log.n_rows + log.final_row);
  read_iops_log (importer, text, interval_ms, add_log_row, &log);
  if (log.final_row)
    {
      DuelSeriesRow row = { 0, };

      row.t_ms = MAX (job_runtime_ms, log.prev_t + 1);
      row.temperature_c = NAN;
      for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
        {
          row.ops[d] = totals[d].ops - log.sum_ops[d];
          row.bytes[d] = totals[d].bytes - log.sum_bytes[d];
        }
      duel_series_append (record->series, &row);
    }
  return TRUE;
}

/* Folds one of a job's numjobs clones, as fio reports each without
 * group_reporting, into the first: what group_reporting would have said.
 * Clones carry no IOPS log (import_job() refuses one), so each has the one
 * row of its totals. */
static void
merge_clone (DuelTestRecord       *into,
             const DuelTestRecord *clone)
{
  DuelSeriesRow row, other;

  duel_series_sum (into->series, &row);
  duel_series_sum (clone->series, &other);
  for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
    {
      row.ops[d] += other.ops[d];
      row.bytes[d] += other.bytes[d];
      row.lat_max_ns[d] = MAX (row.lat_max_ns[d], other.lat_max_ns[d]);
      duel_histogram_merge (into->latency[d], clone->latency[d]);
    }
  row.t_ms = MAX (row.t_ms, other.t_ms);
  g_clear_pointer (&into->series, duel_series_free);
  into->series = duel_series_new ();
  duel_series_append (into->series, &row);

  into->runtime_ns = MAX (into->runtime_ns, clone->runtime_ns);
  if (into->status != DUEL_TEST_STATUS_FAILED && clone->status == DUEL_TEST_STATUS_FAILED)
    {
      into->status = clone->status;
      g_free (into->error_message);
      into->error_message = g_strdup (clone->error_message);
    }
  if (into->started == NULL && clone->started != NULL)
    into->started = g_date_time_ref (clone->started);
  else if (into->started != NULL && clone->started != NULL &&
           g_date_time_compare (clone->started, into->started) < 0)
    {
      g_date_time_unref (into->started);
      into->started = g_date_time_ref (clone->started);
    }
}

static void
apply_analysis (DuelTestRecord *record)
{
  g_autoptr(DuelSummary) summary = NULL;
  DuelAnalysisKind kind = duel_analysis_guess (record);
  DuelAnalysisParams params;

  duel_analysis_params_init (&params);
  summary = duel_analysis_summarize (record, kind, &params);
  duel_analysis_apply (record, kind, &params, summary);
}

/* One entry of fio's "jobs", not analysed yet. *out_clone tells an entry
 * that is one of numjobs clones reported apart (no group_reporting). */
static DuelTestRecord *
import_job (Importer   *importer,
            JsonObject *root,
            JsonObject *job,
            guint       index,
            const char *iops_log_text,
            guint64    *out_span,
            char      **out_filename,
            gboolean   *out_clone)
{
  JsonObject *global_options = duel_json_get_object (root, "global options");
  JsonObject *job_options = duel_json_get_object (job, "job options");
  g_autoptr(DuelTestRecord) record = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *where = NULL;
  g_autofree char *rw = NULL;
  const char *name, *text;
  DuelWorkload workload;
  DirTotals totals[DUEL_N_DIRECTIONS] = { { 0, }, };
  guint64 value, job_runtime_ms, longest_ms = 0, per_job_limit, log_avg_ms = 0, bs = 4096, largest_bs;
  const DuelWorkloadOption *bs_option;
  gboolean time_based, grouped;
  double number;

  name = duel_json_get_string (job, "jobname");
  if (name == NULL || *name == '\0')
    {
      fail (importer, _("jobs[%u] has no job name; is this fio’s JSON output?"), index);
      return NULL;
    }
  where = g_strdup_printf ("jobs[%u] (%s)", index, name);

  duel_workload_init (&workload);

  /* rw=randread:8 means holes between I/Os; the pattern is what counts. */
  text = option (job_options, global_options, "rw");
  if (text == NULL)
    text = option (job_options, global_options, "readwrite");
  rw = g_strdup (text ? text : "read");
  if (strchr (rw, ':') != NULL)
    *strchr (rw, ':') = '\0';
  if (g_str_has_suffix (rw, "trim") || strstr (rw, "trim") != NULL)
    {
      fail (importer, _("%s uses rw=%s: Drive Duel has no trim workloads."), where, rw);
      return NULL;
    }
  if (!duel_workload_set_rw_name (&workload, rw, &local_error))
    {
      fail (importer, "%s: %s", where, local_error->message);
      return NULL;
    }
  if (duel_workload_is_mixed (&workload))
    {
      /* A mix: rwmixread, or 100 − rwmixwrite; fio's default is 50/50. */
      const DuelWorkloadOption *mix = duel_workload_option_get (DUEL_WORKLOAD_OPTION_READ_PERCENT);
      gboolean of_writes = FALSE;

      workload.read_percent = 50;
      text = option (job_options, global_options, mix->fio_name);
      if (text == NULL && (text = option (job_options, global_options, "rwmixwrite")) != NULL)
        of_writes = TRUE;
      if (text != NULL)
        {
          if (!duel_workload_option_parse_fio (mix, text, &value, &local_error))
            {
              fail (importer, "%s: %s", where, local_error->message);
              return NULL;
            }
          workload.read_percent = (guint) (of_writes ? 100 - value : value);
        }
    }

  bs_option = duel_workload_option_get (DUEL_WORKLOAD_OPTION_BLOCK_SIZE);
  text = option (job_options, global_options, bs_option->fio_name);
  if (text == NULL)
    text = option (job_options, global_options, bs_option->fio_alias);
  if (text != NULL && !duel_workload_option_parse_fio (bs_option, text, &bs, &local_error))
    {
      fail (importer, "%s: %s", where, local_error->message);
      return NULL;
    }
  workload.block_size = (guint32) bs;
  /* bssplit and bsrange make I/Os of other sizes than bs says. */
  largest_bs = DUEL_WORKLOAD_MAX_BLOCK_SIZE;
  if (option (job_options, global_options, "bssplit") == NULL &&
      option (job_options, global_options, "bsrange") == NULL &&
      option (job_options, global_options, "blocksize_range") == NULL)
    {
      if (text == NULL)
        largest_bs = 4096;  /* fio's default bs */
      else if (!parse_fio_size_largest (text, &largest_bs) || largest_bs > DUEL_WORKLOAD_MAX_BLOCK_SIZE)
        largest_bs = DUEL_WORKLOAD_MAX_BLOCK_SIZE;
    }

  /* fio's default depth is 1 and one job; the table's ranges are the
   * engine's. numjobs clones of the job ran at once. With group_reporting
   * fio sums them into one entry: one test of that many jobs, as the engine
   * runs it. Without, it reports each clone as an entry of its own, one
   * after the other; the caller sums them (merge_clone()) into the same one
   * test. */
  workload.queue_depth = 1;
  workload.numjobs = 1;
  {
    static const DuelWorkloadOptionId counted[] = { DUEL_WORKLOAD_OPTION_QUEUE_DEPTH, DUEL_WORKLOAD_OPTION_NUMJOBS };

    for (guint i = 0; i < G_N_ELEMENTS (counted); i++)
      {
        const DuelWorkloadOption *counted_option = duel_workload_option_get (counted[i]);

        if ((text = option (job_options, global_options, counted_option->fio_name)) == NULL)
          continue;
        if (!duel_workload_option_parse_fio (counted_option, text, &value, &local_error))
          {
            fail (importer, "%s: %s", where, local_error->message);
            return NULL;
          }
        duel_workload_option_store (counted_option, &workload, value);
      }
  }

  /* fio's JSON leaves out options given without a value (a bare
   * "group_reporting" or "time_based", in a job file or on the command
   * line); when they are not there, the figures below tell. */
  grouped = option_set (job_options, global_options, "group_reporting");
  /* fio writes a log per clone, even with group_reporting:
   * NAME_iops.1.log, NAME_iops.2.log, … */
  if (workload.numjobs > 1 && iops_log_text != NULL)
    {
      fail (importer, _("%s ran as %u jobs (numjobs) and fio wrote an IOPS log for each, so one log is only part of the run; import it without the IOPS log."),
            where, workload.numjobs);
      return NULL;
    }

  if ((text = option (job_options, global_options, "offset")) != NULL)
    duel_parse_fio_size (text, &workload.span_offset);
  if ((text = option (job_options, global_options, "size")) != NULL)
    duel_parse_fio_size (text, &workload.span_length);
  if ((text = option (job_options, global_options, "io_size")) != NULL ||
      (text = option (job_options, global_options, "io_limit")) != NULL)
    duel_parse_fio_size (text, &workload.size_bytes);
  time_based = option_set (job_options, global_options, "time_based");
  if ((text = option (job_options, global_options, "runtime")) != NULL)
    duel_parse_fio_time_ms (text, &workload.runtime_ms);
  if ((text = option (job_options, global_options, "randseed")) != NULL)
    g_ascii_string_to_unsigned (text, 10, 0, G_MAXUINT64, &workload.seed, NULL);
  if ((text = option (job_options, global_options, "log_avg_msec")) != NULL)
    g_ascii_string_to_unsigned (text, 10, 0, G_MAXUINT32, &log_avg_ms, NULL);

  if (!member_count (importer, job, where, "job_runtime", &job_runtime_ms))
    return NULL;
  for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
    {
      JsonObject *section = duel_json_get_object (job, d == DUEL_DIRECTION_READ ? "read" : "write");

      if (section == NULL)
        {
          fail (importer, _("%s has no “%s” section; is this fio’s JSON output?"), where,
                d == DUEL_DIRECTION_READ ? "read" : "write");
          return NULL;
        }
      g_autofree char *section_where = g_strdup_printf ("%s.%s", where, d == DUEL_DIRECTION_READ ? "read" : "write");

      if (!member_count (importer, section, section_where, "total_ios", &totals[d].ops) ||
          !member_count (importer, section, section_where, "io_bytes", &totals[d].bytes) ||
          !member_count (importer, section, section_where, "runtime", &totals[d].runtime_ms))
        return NULL;
      /* Every I/O moves at least a byte and at most the largest block. */
      if (totals[d].ops == 0 && totals[d].bytes > 0)
        {
          fail (importer, _("%s: io_bytes is %" PRIu64 " but total_ios is 0."), section_where, totals[d].bytes);
          return NULL;
        }
      if (totals[d].ops > 0 && totals[d].bytes == 0)
        {
          fail (importer, _("%s: total_ios is %" PRIu64 " but io_bytes is 0."), section_where, totals[d].ops);
          return NULL;
        }
      if ((unsigned __int128) totals[d].ops * largest_bs < totals[d].bytes)
        {
          fail (importer, _("%s: io_bytes (%" PRIu64 ") is more than total_ios (%" PRIu64 ") times the largest block size (%" PRIu64 " bytes)."),
                section_where, totals[d].bytes, totals[d].ops, largest_bs);
          return NULL;
        }
      longest_ms = MAX (longest_ms, totals[d].runtime_ms);
    }

  /* A group's job_runtime is the sum of its jobs' (the directions' runtime
   * is the longest): the jobs ran side by side. A clone's is its own. */
  if (!grouped && workload.numjobs > 1 && longest_ms > 0 && job_runtime_ms >= longest_ms * 3 / 2)
    grouped = TRUE;
  if (grouped)
    job_runtime_ms /= workload.numjobs;
  job_runtime_ms = MAX (job_runtime_ms, longest_ms);

  /* Without time_based fio stops after size (or io_size) bytes, per job:
   * an entry that moved more ran on time. */
  per_job_limit = workload.size_bytes > 0 ? workload.size_bytes : workload.span_length;
  if (!time_based && per_job_limit > 0 &&
      (unsigned __int128) totals[DUEL_DIRECTION_READ].bytes + totals[DUEL_DIRECTION_WRITE].bytes >
      (unsigned __int128) per_job_limit * (grouped ? workload.numjobs : 1))
    time_based = TRUE;
  if (!time_based && workload.size_bytes == 0)
    workload.size_bytes = workload.span_length;
  /* fio counts them per job; the engine's byte limit is all jobs' total. */
  if (workload.size_bytes > G_MAXINT64 / workload.numjobs)
    {
      fail (importer, _("%s transfers more than a result can record."), where);
      return NULL;
    }
  workload.size_bytes *= workload.numjobs;

  /* Held in ns: up to ~292 years. */
  if (job_runtime_ms > G_MAXINT64 / G_GUINT64_CONSTANT (1000000))
    {
      fail (importer, _("%s ran for %" PRIu64 " ms, longer than a result can record."),
            where, job_runtime_ms);
      return NULL;
    }

  workload.interval_ms = (guint) CLAMP (log_avg_ms > 0 ? log_avg_ms : MAX (job_runtime_ms, 1),
                                        DUEL_WORKLOAD_MIN_INTERVAL_MS, DUEL_WORKLOAD_MAX_INTERVAL_MS);

  record = duel_test_record_new (name, &workload);
  record->span_offset = workload.span_offset;
  record->span_length = workload.span_length;
  record->byte_limit = workload.size_bytes;
  record->runtime_ns = job_runtime_ms * G_GUINT64_CONSTANT (1000000);
  record->status = DUEL_TEST_STATUS_COMPLETE;
  if (duel_json_get_number (job, "error", &number) && number != 0)
    {
      record->status = DUEL_TEST_STATUS_FAILED;
      record->error_message = g_strdup_printf (_("fio reported error %.0f"), number);
    }

  /* A plausible Unix time only: up to the year 9999. */
  if (duel_json_get_number (root, "timestamp", &number) && number > 0 && number < 253402300799.0)
    {
      double elapsed = 0;

      if (!duel_json_get_number (job, "elapsed", &elapsed) || elapsed < 0 || elapsed > number)
        elapsed = 0;
      record->started = g_date_time_new_from_unix_utc ((gint64) (number - elapsed));
    }

  /* fio's lat when it wrote its bins (--lat_percentiles=1), else the
   * completion latency, clat, whose bins it writes by default. */
  {
    gboolean lat_bins = FALSE, clat_bins = FALSE;

    for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
      {
        JsonObject *section = duel_json_get_object (job, d == DUEL_DIRECTION_READ ? "read" : "write");

        lat_bins |= has_bins (importer, duel_json_get_object (section, "lat_ns"), index, d);
        clat_bins |= has_bins (importer, duel_json_get_object (section, "clat_ns"), index, CLAT_BINS_ID (d));
      }
    record->latency_kind = clat_bins && !lat_bins ? DUEL_LATENCY_COMPLETION : DUEL_LATENCY_TOTAL;
  }
  for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
    {
      JsonObject *section = duel_json_get_object (job, d == DUEL_DIRECTION_READ ? "read" : "write");
      g_autofree char *section_where = g_strdup_printf ("%s.%s", where, d == DUEL_DIRECTION_READ ? "read" : "write");

      if (!import_histogram (importer, section, record->latency_kind == DUEL_LATENCY_COMPLETION,
                             section_where, index, d, record->latency[d]))
        return NULL;
    }

  if (iops_log_text != NULL)
    {
      LogCount count = { 0, 0, FALSE };

      /* Counted first: the last window against the job's runtime, the
       * rows against the memory they will take. */
      if (!read_iops_log (importer, iops_log_text, (guint) log_avg_ms, count_log_row, &count))
        return NULL;
      if (count.any && record->status == DUEL_TEST_STATUS_COMPLETE &&
          count.last_t_ms > duel_test_record_latest_row_ms (record))
        {
          fail (importer, _("the IOPS log runs to %.1f s, but %s ran for %.1f s; is the log from another run?"),
                count.last_t_ms / 1e3, where, job_runtime_ms / 1e3);
          return NULL;
        }
      if (!check_log_memory (importer, strlen (iops_log_text), count.n_rows) ||
          !add_series_from_log (importer, record, iops_log_text, (guint) log_avg_ms, totals, job_runtime_ms))
        return NULL;
    }
  else
    {
      DuelSeriesRow row = { 0, };

      /* One row for the whole run: totals without a time profile. */
      row.t_ms = MAX (job_runtime_ms, 1);
      row.temperature_c = NAN;
      for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
        {
          row.ops[d] = totals[d].ops;
          row.bytes[d] = totals[d].bytes;
          row.lat_max_ns[d] = record->latency[d]->count > 0 ? record->latency[d]->max_ns : 0;
        }
      duel_series_append (record->series, &row);
    }

  if (out_span != NULL)
    *out_span = workload.span_offset + workload.span_length;
  if (out_filename != NULL)
    *out_filename = g_strdup (option (job_options, global_options, "filename"));
  *out_clone = workload.numjobs > 1 && !grouped;
  return g_steal_pointer (&record);
}

/* The memory the import will hold while json-glib parses the rest and
 * while the tests are made, from the shape's estimate (the fio text is
 * kept until the jobs are read). */
static gboolean
check_memory (Importer   *importer,
              gsize       length,
              gsize       log_length)
{
  DuelShapeEstimate e;
  g_autofree char *message = NULL;
  guint64 needed;

  _duel_json_shaped_get_estimate (importer->shaped, &e);
  needed = length + _duel_json_shaped_get_rest_length (importer->shaped) + e.taken_bytes + e.tree_bytes;
  if (needed <= _duel_result_memory_budget (length + log_length, e.n_indexed))
    return TRUE;
  _duel_result_memory_refusal (needed, length + log_length, e.region, &message);
  return fail (importer, "%s", message);
}

static DuelResult *
import_data (const char  *json_text,
             gsize        json_length,
             char       **owned_text,
             const char  *json_name,
             const char  *iops_log_text,
             char       **owned_log_text,
             const char  *iops_log_name,
             GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(DuelResult) result = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(DuelShaped) shaped = NULL;
  g_autofree char *filename = NULL;
  Importer importer = { json_name ? json_name : "fio", error, NULL };
  const char *start, *version, *rest;
  const char *problem = NULL;
  JsonNode *root_node;
  JsonObject *root;
  JsonArray *jobs;
  DuelTargetInfo target = { 0, };
  guint64 largest_span = 0;
  gsize length, rest_length = 0;
  guint log_job = 0;

  /* fio may print warnings before the JSON when both go to one stream. */
  start = memchr (json_text, '{', json_length);
  if (start == NULL)
    {
      fail (&importer, _("this is not fio JSON output: there is no JSON object in it."));
      return NULL;
    }
  length = json_length - (gsize) (start - json_text);
  if (!duel_json_prescan (start, length, &problem))
    {
      fail (&importer, _("this is not fio JSON output: %s."), problem);
      return NULL;
    }
  /* What the import does not read is cut, the bins are taken, and the
   * rest's tree is known to be bounded before json-glib builds it. */
  importer.shaped = shaped = _duel_json_shape (start, length, &fio_shape,
                                               _duel_result_memory_budget (json_length, 0) - json_length);
  if (!check_memory (&importer, json_length, iops_log_text != NULL ? strlen (iops_log_text) : 0))
    return NULL;
  rest = _duel_json_shaped_get_rest (shaped, &rest_length);
  if (!json_parser_load_from_data (parser, rest != NULL ? rest : start,
                                   (gssize) (rest != NULL ? rest_length : length), &local_error))
    {
      g_autofree char *message = rest != NULL ? _duel_json_shaped_map_error (shaped, start, length, local_error->message)
                                              : NULL;

      guint64 line, column;
      const char *detail = message != NULL ? message : local_error->message;

      if (duel_json_error_position (detail, &line, &column))
        fail (&importer, _("this is not valid JSON (it breaks at line %u, column %u); the file may be truncated."),
              (guint) MIN (line, G_MAXUINT), (guint) MIN (column, G_MAXUINT));
      else
        fail (&importer, _("this is not valid JSON (%s); the file may be truncated."), detail);
      return NULL;
    }
  _duel_json_shaped_drop_rest (shaped);

  root_node = json_parser_get_root (parser);
  /* Job names and options from the file are shown and written: escaped once. */
  if (root_node != NULL)
    duel_text_make_printable (root_node);
  root = root_node && JSON_NODE_HOLDS_OBJECT (root_node) ? json_node_get_object (root_node) : NULL;
  version = duel_json_get_string (root, "fio version");
  jobs = duel_json_get_array (root, "jobs");
  if (version == NULL || jobs == NULL)
    {
      fail (&importer, _("this is not fio JSON output: “fio version” or “jobs” is missing."));
      return NULL;
    }
  if (json_array_get_length (jobs) == 0)
    {
      fail (&importer, _("the fio output holds no job."));
      return NULL;
    }
  if (json_array_get_length (jobs) > DUEL_RESULT_MAX_TESTS)
    {
      fail (&importer, _("the fio output holds %u jobs; a result holds at most %u."),
            json_array_get_length (jobs), DUEL_RESULT_MAX_TESTS);
      return NULL;
    }

  /* fio names the log after the job: NAME_iops.N.log. */
  if (iops_log_text != NULL && iops_log_name != NULL)
    {
      g_autofree char *base = g_path_get_basename (iops_log_name);

      for (guint i = 0; i < json_array_get_length (jobs); i++)
        {
          JsonNode *node = json_array_get_element (jobs, i);
          const char *jobname = JSON_NODE_HOLDS_OBJECT (node)
                                ? duel_json_get_string (json_node_get_object (node), "jobname") : NULL;
          g_autofree char *prefix = jobname ? g_strdup_printf ("%s_iops", jobname) : NULL;

          if (prefix != NULL && g_str_has_prefix (base, prefix))
            {
              log_job = i;
              break;
            }
        }
    }

  result = duel_result_new ();
  duel_result_set_tool (result, "fio", g_str_has_prefix (version, "fio-") ? version + 4 : version);
  for (guint i = 0; i < json_array_get_length (jobs); i++)
    {
      JsonNode *node = json_array_get_element (jobs, i);
      g_autoptr(DuelTestRecord) record = NULL;
      g_autofree char *job_filename = NULL;
      guint64 span = 0;
      gboolean clone = FALSE;
      guint first = i;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        {
          fail (&importer, _("jobs[%u] is not an object; is this fio’s JSON output?"), i);
          return NULL;
        }
      record = import_job (&importer, root, json_node_get_object (node), i,
                           i == log_job ? iops_log_text : NULL, &span, &job_filename, &clone);
      if (record == NULL)
        return NULL;

      /* The job's other clones follow it, under the same name. */
      for (guint c = 1; clone && c < record->workload.numjobs; c++)
        {
          g_autoptr(DuelTestRecord) other = NULL;
          JsonNode *next = ++i < json_array_get_length (jobs) ? json_array_get_element (jobs, i) : NULL;
          gboolean other_clone = FALSE;

          if (next == NULL || !JSON_NODE_HOLDS_OBJECT (next) ||
              g_strcmp0 (duel_json_get_string (json_node_get_object (next), "jobname"), record->name) != 0)
            {
              fail (&importer, _("jobs[%u] (%s) is one of %u jobs (numjobs) that fio reported one by one, but the others do not follow it; run fio with group_reporting."),
                    first, record->name, record->workload.numjobs);
              return NULL;
            }
          other = import_job (&importer, root, json_node_get_object (next), i,
                              i == log_job ? iops_log_text : NULL, NULL, NULL, &other_clone);
          if (other == NULL)
            return NULL;
          /* A clone of another latency would make a histogram of both. */
          if (!other_clone || other->workload.numjobs != record->workload.numjobs ||
              other->latency_kind != record->latency_kind)
            {
              fail (&importer, _("jobs[%u] (%s) is one of %u jobs (numjobs) that fio reported one by one, but the others do not follow it; run fio with group_reporting."),
                    first, record->name, record->workload.numjobs);
              return NULL;
            }
          merge_clone (record, other);
        }
      apply_analysis (record);
      if (duel_result_find_test (result, record->name) != NULL)
        {
          g_autofree char *unique = g_strdup_printf ("%s-%u", record->name, i + 1);
          g_free (record->name);
          record->name = g_steal_pointer (&unique);
        }
      largest_span = MAX (largest_span, span);
      if (filename == NULL && job_filename != NULL)
        filename = g_steal_pointer (&job_filename);
      duel_result_add_test (result, record);
    }

  /* What the rest needs is in the result: the fio text and its tree go
   * before the result is checked (a second copy of it). */
  g_clear_object (&parser);
  if (owned_text != NULL)
    g_clear_pointer (owned_text, g_free);
  if (owned_log_text != NULL)
    g_clear_pointer (owned_log_text, g_free);

  /* The target as far as fio tells: its name and the region the jobs used. */
  target.path = filename ? filename : (char *) "";
  target.kind = filename && g_str_has_prefix (filename, "/dev/") ? DUEL_TARGET_KIND_BLOCK : DUEL_TARGET_KIND_FILE;
  target.size_bytes = largest_span;
  duel_result_set_target (result, &target);

  {
    g_autofree char *base = json_name ? g_path_get_basename (json_name) : NULL;
    g_autofree char *name = NULL;

    if (filename != NULL)
      name = g_strdup_printf ("%s (fio)", filename);
    else
      name = g_strdup_printf ("%s (fio)", base ? base : "fio");
    duel_result_set_name (result, name);
  }

  /* Whatever the checks above missed: never hand on a result that would
   * not open again. */
  if (!duel_result_check_loadable (result, &local_error))
    {
      fail (&importer, _("this fio output makes a result Drive Duel cannot open: %s"), local_error->message);
      return NULL;
    }

  return g_steal_pointer (&result);
}

DuelResult *
duel_fio_import_data (const char  *json_text,
                      gsize        json_length,
                      const char  *json_name,
                      const char  *iops_log_text,
                      const char  *iops_log_name,
                      GError     **error)
{
  g_return_val_if_fail (json_text != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return import_data (json_text, json_length, NULL, json_name, iops_log_text, NULL, iops_log_name, error);
}

/* fio writes "fio version" first; a JSON tool that sorts keys puts at most
 * "disk_util" before it. A result names its format first. */
#define SNIFF_LENGTH 4096

gboolean
duel_fio_import_is_fio_file (const char *path)
{
  char head[SNIFF_LENGTH + 1];
  gsize length;
  FILE *file;

  g_return_val_if_fail (path != NULL, FALSE);

  file = g_fopen (path, "rb");
  if (file == NULL)
    return FALSE;
  length = fread (head, 1, SNIFF_LENGTH, file);
  fclose (file);
  head[length] = '\0';
  /* A NUL cuts the look short: such a file is neither. */
  return memchr (head, '{', length) != NULL &&
         strstr (head, "\"fio version\"") != NULL &&
         strstr (head, "\"" DUEL_RESULT_FORMAT "\"") == NULL;
}

DuelResult *
duel_fio_import_file (const char  *json_path,
                      const char  *iops_log_path,
                      GError     **error)
{
  g_autofree char *json_text = NULL;
  g_autofree char *log_text = NULL;
  g_autofree char *display = NULL;
  gsize json_length = 0;

  g_return_val_if_fail (json_path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  /* Refused before either is read into memory. */
  for (guint i = 0; i < 2; i++)
    {
      const char *path = i == 0 ? json_path : iops_log_path;
      GStatBuf st;

      if (path != NULL && g_stat (path, &st) == 0 && S_ISREG (st.st_mode) && (guint64) st.st_size > MAX_FILE_SIZE)
        {
          g_autofree char *name = g_filename_display_name (path);

          g_set_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT,
                       _("%s: the file is larger than 2 GiB, too large to import."), name);
          return NULL;
        }
    }
  if (!g_file_get_contents (json_path, &json_text, &json_length, error))
    return NULL;
  if (iops_log_path != NULL && !g_file_get_contents (iops_log_path, &log_text, NULL, error))
    return NULL;

  display = g_filename_display_name (json_path);
  if (!g_utf8_validate_len (json_text, json_length, NULL))
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT,
                   _("%s: this is not fio JSON output: the file is not text."), display);
      return NULL;
    }
  return import_data (json_text, json_length, &json_text, display, log_text, &log_text, iops_log_path, error);
}
