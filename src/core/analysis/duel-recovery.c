/* duel-recovery.c — recovery after idle: 4 KiB random writes after the drive rested, against its fresh speed
 *
 * After a fill has brought a drive to its dirty, steady speed, the drive
 * is left idle (no I/O from the run) for a while; background garbage
 * collection may free blocks, a pseudo-SLC cache may be rebuilt. Right
 * after it, 1 MiB sequential writes until their rate falls measure the
 * cache (below); then a short burst of 4 KiB random writes at QD32, the
 * cache used up, measures what garbage collection gave back. The
 * run keeps, in the burst's details.recovery, how long the idle lasted and
 * the two speeds it is measured against (duel-run-steps.c): fresh, the
 * same burst on the trimmed drive before the fill (its recovery_iops), and
 * dirty, the fill's plateau (plateau_iops). The figures:
 *  - recovery_iops: the burst's write IOPS, all of it;
 *  - recovery_fresh_pct: that as a share of the fresh speed;
 *  - recovery_regained_pct: the share of the way from dirty back to fresh
 *    (0 %: nothing came back; 100 %: as fresh), where fresh is above dirty;
 *  - idle_s: how long the drive rested.
 * The sequential write before the burst, until its rate falls (or a
 * quarter of the span, or two minutes): the cache the idle rebuilt
 * (recovery_cache_gb, what they wrote before the fall; NAN when they
 * never fell), the rates before and after it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "duel-analysis-private.h"

/* Row @index of @series (a view too): its writes and their bytes. */
static DuelSeriesRow
read_row (const DuelSeries *series,
          guint             index)
{
  DuelSeriesRow row = { 0 };

  duel_series_read_row (series, index, &row);
  return row;
}

/* Write MB/s of rows [@from, @to). */
static double
rows_mbps (const DuelSeries *series,
           guint             from,
           guint             to)
{
  guint64 bytes = 0, ms = 0;

  for (guint i = from; i < to; i++)
    {
      bytes += read_row (series, i).bytes[DUEL_DIRECTION_WRITE];
      ms += duel_series_row_duration_ms (series, i);
    }
  return ms > 0 ? bytes / (ms / 1e3) / 1e6 : NAN;
}

/* The sequential write after an idle, until its rate fell: the cache the
 * idle rebuilt is what it wrote before the fall, by the rule that ended it
 * (duel_analysis_rate_fall(), a fall of fall_min_drop); the fall lies in
 * the row before the split or the one after it, so either's bytes is how
 * far off it may be, or anywhere before a split the rule could place no
 * earlier. Without a fall, what it wrote held one rate. */
static void
summarize_cache (const DuelTestRecord     *record,
                 const DuelAnalysisParams *params,
                 DuelSummary              *summary)
{
  g_autoptr(DuelSeries) unpaused = NULL;
  /* Rows a pause of the process touched are not the drive's. */
  const DuelSeries *series = duel_test_record_get_figure_series (record, &unpaused);
  guint n = duel_series_get_length (series), split = 0;
  guint64 before = 0, ops_before = 0, resolution;
  gboolean confirmed = FALSE;

  duel_summary_add (summary, "recovery_seq_gb", duel_test_record_get_bytes (record, DUEL_DIRECTION_WRITE) / 1e9);
  if (n == 0 || !duel_analysis_rate_fall (series, 1 / (1 - params->fall_min_drop), &split, &confirmed))
    {
      duel_summary_add (summary, "recovery_cache_gb", NAN);
      duel_summary_add (summary, "recovery_cache_mbps", rows_mbps (series, 0, n));
      return;
    }
  for (guint i = 0; i < split; i++)
    {
      DuelSeriesRow row = read_row (series, i);

      before += row.bytes[DUEL_DIRECTION_WRITE];
      ops_before += row.ops[DUEL_DIRECTION_WRITE];
    }
  resolution = MAX (read_row (series, split - 1).bytes[DUEL_DIRECTION_WRITE],
                    read_row (series, split).bytes[DUEL_DIRECTION_WRITE]);
  /* A split the rule could place no earlier (its writes before a fall,
   * and the row that reached them): the fall may lie anywhere before. */
  if (ops_before <= DUEL_ANALYSIS_RATE_FALL_MIN_OPS + read_row (series, split - 1).ops[DUEL_DIRECTION_WRITE])
    resolution = MAX (resolution, before);
  duel_summary_add (summary, "recovery_cache_gb", before / 1e9);
  duel_summary_add (summary, "recovery_cache_resolution_gb", resolution / 1e9);
  duel_summary_add (summary, "recovery_cache_mbps", rows_mbps (series, 0, split));
  duel_summary_add (summary, "recovery_after_cache_mbps", rows_mbps (series, split, n));
}

static void
summarize (const DuelTestRecord     *record,
           const DuelAnalysisParams *params,
           DuelSummary              *summary)
{
  JsonObject *recovery = duel_json_get_object (duel_json_get_object (record->summary, "details"), "recovery");
  DuelThroughput t;
  double iops, fresh, dirty, idle_ms;

  if (duel_json_get_number (recovery, "idle_ms", &idle_ms))
    duel_summary_add (summary, "idle_s", idle_ms / 1e3);
  if (record->workload.pattern == DUEL_PATTERN_SEQUENTIAL)
    {
      summarize_cache (record, params, summary);
      return;
    }
  duel_analysis_throughput (record->series, record->runtime_ns, &t);
  iops = t.iops[DUEL_DIRECTION_WRITE];
  duel_summary_add (summary, "recovery_iops", iops);
  if (!duel_json_get_number (recovery, "fresh_iops", &fresh) || !(fresh > 0))
    return;
  duel_summary_add (summary, "recovery_fresh_pct", 100 * iops / fresh);
  if (duel_json_get_number (recovery, "dirty_iops", &dirty) && fresh > dirty)
    duel_summary_add (summary, "recovery_regained_pct", 100 * (iops - dirty) / (fresh - dirty));
}

static const DuelFigureInfo figures[] = {
  { "recovery_iops",         "IOPS", DUEL_BETTER_HIGHER, N_("4K random write after idle") },
  /* xgettext:no-c-format */
  { "recovery_fresh_pct",    "%",    DUEL_BETTER_HIGHER, N_("Share of the fresh speed after idle") },
  /* xgettext:no-c-format */
  { "recovery_regained_pct", "%",    DUEL_BETTER_HIGHER, N_("Regained from dirty to fresh after idle") },
  { "recovery_cache_gb",     "GB",   DUEL_BETTER_HIGHER, N_("Cache rebuilt after idle (written before a fall)") },
  { "recovery_cache_resolution_gb", "GB", DUEL_BETTER_NONE, N_("Cache rebuilt after idle, ± how far off") },
  { "recovery_cache_mbps",   "MB/s", DUEL_BETTER_HIGHER, N_("Sequential write after idle, before any fall") },
  { "recovery_after_cache_mbps", "MB/s", DUEL_BETTER_HIGHER, N_("Sequential write after idle, after the fall") },
  { "recovery_seq_gb",       "GB",   DUEL_BETTER_NONE,   N_("Written sequentially after idle") },
  { "idle_s",                "s",    DUEL_BETTER_NONE,   N_("Idle before the burst") },
};

void
duel_recovery_reference_init (DuelRecoveryReference *reference)
{
  g_return_if_fail (reference != NULL);

  reference->fresh_iops = NAN;
  reference->dirty_iops = NAN;
}

void
duel_recovery_reference_take (DuelRecoveryReference *reference,
                              DuelTestRecord        *record)
{
  DuelAnalysisKind kind;

  g_return_if_fail (reference != NULL && record != NULL);

  kind = duel_analysis_kind_of_record (record);
  if (kind == DUEL_ANALYSIS_RECOVERY &&
      duel_json_get_object (duel_test_record_get_details (record), "recovery") == NULL)
    reference->fresh_iops = duel_test_record_get_figure_value (record, "recovery_iops");
  else if (kind == DUEL_ANALYSIS_SATURATION)
    reference->dirty_iops = duel_test_record_get_figure_value (record, "plateau_iops");
}

void
duel_recovery_note_idle (DuelTestRecord              *record,
                         const DuelRecoveryReference *reference,
                         guint64                      idle_planned_ms,
                         guint64                      idle_ms)
{
  JsonObject *recovery;

  g_return_if_fail (record != NULL && reference != NULL);

  recovery = json_object_new ();
  json_object_set_int_member (recovery, "idle_planned_ms", (gint64) idle_planned_ms);
  json_object_set_int_member (recovery, "idle_ms", (gint64) idle_ms);
  duel_json_set_double_or_null (recovery, "fresh_iops", reference->fresh_iops);
  duel_json_set_double_or_null (recovery, "dirty_iops", reference->dirty_iops);
  json_object_set_object_member (duel_test_record_get_details (record), "recovery", recovery);
}

/* Only the recovery test names its bursts: an imported job is never one. */
static gboolean
fits (const DuelTestRecord *record)
{
  return FALSE;
}

const DuelAnalysisOps _duel_analysis_recovery_ops = {
  .kind = DUEL_ANALYSIS_RECOVERY,
  .name = "recovery",
  .figures = figures,
  .n_figures = G_N_ELEMENTS (figures),
  .fits = fits,
  .summarize = summarize,
};
