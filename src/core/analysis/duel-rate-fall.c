/* duel-rate-fall.c — where a write's rate fell, on rows as they arrive
 *
 * The probe's rule (duel-probe.c), and the cache after idle's: the split
 * of the rows with the largest ratio of the rate before to the rate after,
 * with at least FALL_MIN_ROWS_BEFORE rows before it and FALL_MIN_ROWS_AFTER
 * after, so that one slow last interval is not a fall, and FALL_MIN_OPS
 * writes either side. Two passes over the rows: a run may ask at each
 * interval's end.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "duel-analysis.h"

#define FALL_MIN_ROWS_BEFORE  3
#define FALL_MIN_ROWS_AFTER   5
/* Confirmed with twice that: by then the split one row early (a fast row
 * counted after) no longer beats the true one. */
#define FALL_CONFIRM_ROWS     10
/* Writes on each side at least: rows of one or two 1 MiB writes each are
 * counts, not rates (a 1 / sqrt (16) noise, a quarter, at most). */
#define FALL_MIN_OPS          DUEL_ANALYSIS_RATE_FALL_MIN_OPS

/* Row @index's writes; any series, a view without the rows a pause
 * touched included. */
static guint64
row_writes (const DuelSeries *series,
            guint             index)
{
  DuelSeriesRow row;

  return duel_series_read_row (series, index, &row) ? row.ops[DUEL_DIRECTION_WRITE] : 0;
}

gboolean
duel_analysis_rate_fall (const DuelSeries *series,
                         double            factor,
                         guint            *out_row,
                         gboolean         *out_confirmed)
{
  guint n = series != NULL ? duel_series_get_length (series) : 0;
  guint64 total_ops = 0, total_ms = 0, ops_before = 0, ms_before = 0;
  double best_ratio = 0;
  guint best = 0;
  gboolean confirmed = FALSE;

  for (guint i = 0; i < n; i++)
    {
      total_ops += row_writes (series, i);
      total_ms += duel_series_row_duration_ms (series, i);
    }
  /* Rows before k against rows from k on; only splits with enough rows
   * after, so that one slow last interval is not a fall. */
  for (guint k = 0; k + FALL_MIN_ROWS_AFTER <= n; k++)
    {
      if (k >= FALL_MIN_ROWS_BEFORE && ms_before > 0 && total_ms > ms_before &&
          ops_before >= FALL_MIN_OPS && total_ops - ops_before >= FALL_MIN_OPS)
        {
          double before = (double) ops_before / ms_before;
          double after = (double) (total_ops - ops_before) / (total_ms - ms_before);
          double ratio = after > 0 ? before / after : INFINITY;

          if (ratio > best_ratio)
            {
              best_ratio = ratio;
              best = k;
              confirmed = n - k >= FALL_CONFIRM_ROWS && (total_ms - ms_before) * 4 >= ms_before;
            }
        }
      ops_before += row_writes (series, k);
      ms_before += duel_series_row_duration_ms (series, k);
    }
  if (best_ratio < factor)
    return FALSE;
  if (out_row != NULL)
    *out_row = best;
  if (out_confirmed != NULL)
    *out_confirmed = confirmed;
  return TRUE;
}
