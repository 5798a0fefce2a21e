/* duel-sequential-write.c — the sustained sequential write's figures and sentences
 *
 * The falls are the fill's (duel_analysis_falls() on the write IOPS
 * against the span written): with one block size throughout, IOPS and
 * MB/s differ by a constant factor, so a fall of one is a fall of the
 * other, at the same place. The levels are converted with the bytes each
 * write carried on average (the block size).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "duel-analysis-private.h"
#include "duel-number.h"
#include "duel-sequential-write.h"

static double
fall_resolution_bytes (const DuelFall *fall,
                       guint64         span_bytes)
{
  return fall->resolution_pct / 100.0 * (double) span_bytes;
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* Most rows' speeds, the last left out (a run's end cuts it short): one
 * slow row (a stall) or fast one is not the write's range. Held when the
 * slower end is within a fall's depth of the faster. */
static void
row_range (const DuelSeries         *series,
           const DuelAnalysisParams *params,
           DuelSequentialWrite      *out)
{
  guint n = duel_series_get_length (series);
  g_autoptr(GArray) speeds = g_array_sized_new (FALSE, FALSE, sizeof (double), n);
  DuelSeriesRow row;

  for (guint i = 0; i + 1 < n && duel_series_read_row (series, i, &row); i++)
    {
      guint64 ms = duel_series_row_duration_ms (series, i);
      double mbps;

      if (ms == 0)
        continue;
      mbps = row.bytes[DUEL_DIRECTION_WRITE] / (ms / 1e3) / 1e6;
      g_array_append_val (speeds, mbps);
    }
  if (speeds->len == 0)
    return;
  g_array_sort (speeds, compare_doubles);
  out->row_low_mbps = g_array_index (speeds, double, (guint) floor (0.05 * (speeds->len - 1)));
  out->row_high_mbps = g_array_index (speeds, double, (guint) ceil (0.95 * (speeds->len - 1)));
  out->held = out->row_low_mbps >= (1 - params->fall_min_drop) * out->row_high_mbps;
}

void
duel_analysis_sequential_write (const DuelSeries         *series,
                                guint64                   span_bytes,
                                const DuelAnalysisParams *params,
                                DuelSequentialWrite      *out)
{
  DuelSeriesRow total;
  guint64 write_ops;

  g_return_if_fail (series != NULL);
  g_return_if_fail (params != NULL);
  g_return_if_fail (out != NULL);

  *out = (DuelSequentialWrite) {
    .span_bytes = span_bytes,
    .cache_mbps = NAN, .after_cache_mbps = NAN, .fold_mbps = NAN,
    .cache_resolution_bytes = NAN, .fold_resolution_bytes = NAN,
    .mean_mbps = NAN, .bytes_per_op = NAN,
    .row_low_mbps = NAN, .row_high_mbps = NAN,
  };
  row_range (series, params, out);
  duel_series_sum (series, &total);
  out->written_bytes = total.bytes[DUEL_DIRECTION_WRITE];
  write_ops = total.ops[DUEL_DIRECTION_WRITE];
  out->seconds = _duel_analysis_series_end_ms (series) / 1e3;
  if (out->seconds > 0)
    out->mean_mbps = out->written_bytes / out->seconds / 1e6;
  if (write_ops > 0)
    out->bytes_per_op = (double) out->written_bytes / (double) write_ops;

  duel_analysis_falls (series, span_bytes, params, &out->falls);
  if (out->falls.falls->len >= 1)
    {
      const DuelFall *cache = &g_array_index (out->falls.falls, DuelFall, 0);

      out->cache_found = TRUE;
      out->cache_bytes = cache->knee_bytes;
      out->cache_resolution_bytes = fall_resolution_bytes (cache, span_bytes);
      out->cache_mbps = cache->level_before_iops * out->bytes_per_op / 1e6;
      out->after_cache_mbps = cache->level_after_iops * out->bytes_per_op / 1e6;
    }
  if (out->falls.falls->len >= 2)
    {
      const DuelFall *fold = &g_array_index (out->falls.falls, DuelFall, 1);

      out->fold_found = TRUE;
      out->fold_bytes = fold->knee_bytes;
      out->fold_resolution_bytes = fall_resolution_bytes (fold, span_bytes);
      out->fold_mbps = fold->level_after_iops * out->bytes_per_op / 1e6;
    }
}

void
duel_sequential_write_clear (DuelSequentialWrite *write)
{
  g_return_if_fail (write != NULL);

  duel_falls_clear (&write->falls);
}

JsonObject *
duel_sequential_write_to_json (const DuelSequentialWrite *write)
{
  JsonObject *object = json_object_new ();
  JsonArray *falls = json_array_new ();

  g_return_val_if_fail (write != NULL, object);

  json_object_set_int_member (object, "span_bytes", (gint64) write->span_bytes);
  json_object_set_int_member (object, "written_bytes", (gint64) write->written_bytes);
  duel_json_set_double_or_null (object, "seconds", write->seconds);
  duel_json_set_double_or_null (object, "mean_mbps", write->mean_mbps);
  duel_json_set_double_or_null (object, "bytes_per_op", write->bytes_per_op);
  duel_json_set_double_or_null (object, "row_low_mbps", write->row_low_mbps);
  duel_json_set_double_or_null (object, "row_high_mbps", write->row_high_mbps);
  json_object_set_boolean_member (object, "held", write->held);
  /* Each fall in the test's own units: where it began, in bytes, and the
   * levels either side in MB/s. */
  for (guint i = 0; i < write->falls.falls->len; i++)
    {
      const DuelFall *fall = &g_array_index (write->falls.falls, DuelFall, i);
      JsonObject *member = json_object_new ();

      json_object_set_int_member (member, "knee_bytes", (gint64) fall->knee_bytes);
      duel_json_set_double_or_null (member, "resolution_bytes", fall_resolution_bytes (fall, write->span_bytes));
      json_object_set_int_member (member, "foot_bytes", (gint64) fall->foot_bytes);
      duel_json_set_double_or_null (member, "level_before_mbps", fall->level_before_iops * write->bytes_per_op / 1e6);
      duel_json_set_double_or_null (member, "level_after_mbps", fall->level_after_iops * write->bytes_per_op / 1e6);
      json_array_add_object_element (falls, member);
    }
  json_object_set_array_member (object, "falls", falls);
  return object;
}

/* "42.3 GB": a tenth of a GB from 1 GB on, a thousandth below (a small
 * target's cache). */
static char *
format_gb (double bytes)
{
  double gb = bytes / 1e9;
  g_autofree char *number = duel_number_format (gb, gb >= 1 ? 1 : 3);

  /* TRANSLATORS: an amount of data in gigabytes (10^9 bytes): "42.3 GB" */
  return g_strdup_printf (_("%s GB"), number);
}

static double
member_or_nan (JsonObject *object,
               const char *name)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return NAN;
  return json_node_get_double (node);
}

/* g_strv_builder_take() is GLib 2.80's. */
static void
take_line (GStrvBuilder *lines,
           char         *line)
{
  g_strv_builder_add (lines, line);
  g_free (line);
}

char **
duel_sequential_write_dup_text (JsonObject *details)
{
  g_autoptr(GStrvBuilder) lines = g_strv_builder_new ();
  JsonObject *write = duel_json_get_object (details, "sequential_write");
  JsonArray *falls;

  if (write == NULL)
    return g_strv_builder_end (lines);
  falls = duel_json_get_array (write, "falls");
  if (falls == NULL || json_array_get_length (falls) == 0)
    {
      double mean = member_or_nan (write, "mean_mbps");
      double low = member_or_nan (write, "row_low_mbps");
      double high = member_or_nan (write, "row_high_mbps");
      g_autofree char *speed = NULL;

      if (!isfinite (mean))
        return g_strv_builder_end (lines);
      speed = duel_number_format (mean, 0);
      /* "Held" only when it did (a file from before "held" says nothing).
       * Rows too coarse to place a fall (a cache written within one or two
       * rows) did not hold, and no fall was found in them. */
      if (!json_object_has_member (write, "held") || json_object_get_boolean_member (write, "held") ||
          !isfinite (low) || !isfinite (high))
        /* TRANSLATORS: a sequential write whose speed never fell (no
         * write cache, or one larger than what was written) */
        take_line (lines, g_strdup_printf (_("No fall: the write held %s MB/s throughout."), speed));
      else
        {
          g_autofree char *slow = duel_number_format (low, 0);
          g_autofree char *fast = duel_number_format (high, 0);

          /* TRANSLATORS: a sequential write in which no fall was found
           * although its speed varied: nine intervals in ten were between
           * the first two speeds; then the mean */
          take_line (lines, g_strdup_printf (_("No fall was found, but the speed varied: 90 %% of the intervals "
                                               "between %s and %s MB/s (%s MB/s on average)."), slow, fast, speed));
        }
      return g_strv_builder_end (lines);
    }
  for (guint i = 0; i < json_array_get_length (falls); i++)
    {
      JsonObject *fall = json_array_get_object_element (falls, i);
      g_autofree char *at = format_gb (member_or_nan (fall, "knee_bytes"));
      g_autofree char *before = duel_number_format (member_or_nan (fall, "level_before_mbps"), 0);
      g_autofree char *after = duel_number_format (member_or_nan (fall, "level_after_mbps"), 0);
      g_autofree char *within = format_gb (member_or_nan (fall, "resolution_bytes"));
      g_autofree char *where = NULL;

      if (isfinite (member_or_nan (fall, "resolution_bytes")))
        /* TRANSLATORS: where a fall of the sequential write began, and how
         * far off that may be: "42.3 GB (± 0.4 GB)" */
        where = g_strdup_printf (_("%s (± %s)"), at, within);
      else
        where = g_strdup (at);
      if (i == 0)
        /* TRANSLATORS: the write cache ran out: where, and the speeds before and after */
        take_line (lines, g_strdup_printf (_("The cache ran out after %s: from %s to %s MB/s."),
                                                     where, before, after));
      else if (i == 1)
        /* TRANSLATORS: a second, slower stretch of the sequential write
         * while the drive moves its cache's contents to its own cells */
        take_line (lines, g_strdup_printf (_("Folding slowed it again after %s: from %s to %s MB/s."),
                                                     where, before, after));
      else
        /* TRANSLATORS: a further fall of the sequential write */
        take_line (lines, g_strdup_printf (_("Another fall after %s: from %s to %s MB/s."),
                                                     where, before, after));
    }
  return g_strv_builder_end (lines);
}

static void
summarize (const DuelTestRecord     *record,
           const DuelAnalysisParams *params,
           DuelSummary              *summary)
{
  DuelSequentialWrite write;
  guint64 span = record->span_length > 0 ? record->span_length : record->workload.span_length;
  g_autoptr(DuelSeries) unpaused = NULL;

  /* Rows a pause of the process touched are not the drive's. */
  duel_analysis_sequential_write (duel_test_record_get_figure_series (record, &unpaused), span, params, &write);

  duel_summary_add (summary, "seqw_written_gb", write.written_bytes / 1e9);
  duel_summary_add (summary, "seqw_cache_gb", write.cache_found ? write.cache_bytes / 1e9 : NAN);
  duel_summary_add (summary, "seqw_cache_resolution_gb", write.cache_found ? write.cache_resolution_bytes / 1e9 : NAN);
  duel_summary_add (summary, "seqw_cache_mbps", write.cache_mbps);
  duel_summary_add (summary, "seqw_after_cache_mbps", write.after_cache_mbps);
  duel_summary_add (summary, "seqw_fold_gb", write.fold_found ? write.fold_bytes / 1e9 : NAN);
  duel_summary_add (summary, "seqw_fold_mbps", write.fold_mbps);
  duel_summary_add (summary, "seqw_mean_mbps", write.mean_mbps);
  duel_summary_add (summary, "seqw_time_s", write.seconds);

  json_object_set_object_member (duel_summary_get_details (summary), "sequential_write",
                                 duel_sequential_write_to_json (&write));
  duel_sequential_write_clear (&write);
}

static const DuelFigureInfo figures[] = {
  { "seqw_written_gb",          "GB",   DUEL_BETTER_NONE,   N_("Data written sequentially") },
  { "seqw_cache_gb",            "GB",   DUEL_BETTER_HIGHER, N_("Write cache (written before the first fall)") },
  { "seqw_cache_resolution_gb", "GB",   DUEL_BETTER_NONE,   N_("Write cache, ± how far off") },
  { "seqw_cache_mbps",          "MB/s", DUEL_BETTER_HIGHER, N_("Sequential write in the cache") },
  { "seqw_after_cache_mbps",    "MB/s", DUEL_BETTER_HIGHER, N_("Sequential write after the cache") },
  { "seqw_fold_gb",             "GB",   DUEL_BETTER_NONE,   N_("Folding began after") },
  { "seqw_fold_mbps",           "MB/s", DUEL_BETTER_HIGHER, N_("Sequential write while folding") },
  { "seqw_mean_mbps",           "MB/s", DUEL_BETTER_HIGHER, N_("Sequential write, mean over the whole write") },
  { "seqw_time_s",              "s",    DUEL_BETTER_LOWER,  N_("Time to write the drive") },
};

/* Only the preset names its record: an imported sequential write is the
 * standard set's, as it was. */
static gboolean
fits (const DuelTestRecord *record)
{
  return FALSE;
}

const DuelAnalysisOps _duel_analysis_sequential_write_ops = {
  .kind = DUEL_ANALYSIS_SEQUENTIAL_WRITE,
  .name = "sequential-write",
  .figures = figures,
  .n_figures = G_N_ELEMENTS (figures),
  .fits = fits,
  .summarize = summarize,
};
