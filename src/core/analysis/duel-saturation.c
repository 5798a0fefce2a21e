/* duel-saturation.c — 4K random write from empty to N x the span: points, cliff, plateau (steady state: duel-steady-state.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "duel-analysis-private.h"
#include "duel-json.h"
#include "duel-number.h"

/* ---- Write saturation ------------------------------------------------------ */

static guint64
series_total_bytes (const DuelSeries *series,
                    DuelDirection     direction)
{
  DuelSeriesIter iter;
  const DuelSeriesRow *row;
  guint64 total = 0;

  duel_series_iter_init (&iter, series);
  while ((row = duel_series_iter_next (&iter)) != NULL)
    total += row->bytes[direction];
  return total;
}

/* The window in bytes; duel_analysis_window_mean() converts from % of capacity. */
static void
window_mean_bytes (const DuelSeries *series,
                   DuelDirection     direction,
                   double            lo,
                   double            hi,
                   DuelWindowMean   *out)
{
  DuelSeriesIter iter;
  const DuelSeriesRow *row;
  guint64 cum = 0, prev_t = 0;
  guint64 total = series_total_bytes (series, direction);

  out->ops = 0;
  out->seconds = 0;
  out->iops = NAN;

  duel_series_iter_init (&iter, series);
  while ((row = duel_series_iter_next (&iter)) != NULL)
    {
      guint64 bytes = row->bytes[direction];
      double seconds = (row->t_ms - prev_t) / 1e3;
      double start = (double) cum, end = (double) (cum + bytes);

      if (bytes > 0)
        {
          double overlap = MIN (end, hi) - MAX (start, lo);

          if (overlap > 0)
            {
              double f = overlap / (double) bytes;

              out->ops += row->ops[direction] * f;
              out->seconds += seconds * f;
            }
        }
      else if (start >= lo && start <= hi)
        {
          /* A stall writes nothing: it has no width in bytes, but its time
           * belongs to the window it happened in. */
          out->seconds += seconds;
        }

      cum += bytes;
      prev_t = row->t_ms;
    }

  /* Half a byte of slack absorbs the rounding of % → bytes. */
  if (hi > lo && (double) total + 0.5 >= hi && out->seconds > 0)
    out->iops = out->ops / out->seconds;
}

void
duel_analysis_window_mean (const DuelSeries *series,
                           DuelDirection     direction,
                           guint64           span_bytes,
                           double            lo_pct,
                           double            hi_pct,
                           DuelWindowMean   *out)
{
  g_return_if_fail (series != NULL);
  g_return_if_fail (direction < DUEL_N_DIRECTIONS);
  g_return_if_fail (out != NULL);

  lo_pct = MAX (lo_pct, 0);
  window_mean_bytes (series, direction,
                     lo_pct / 100.0 * (double) span_bytes,
                     hi_pct / 100.0 * (double) span_bytes, out);
  out->lo_pct = lo_pct;
  out->hi_pct = hi_pct;
  if (span_bytes == 0)
    out->iops = NAN;
}

GArray *
duel_analysis_written_pct (const DuelSeries *series,
                           DuelDirection     direction,
                           guint64           span_bytes)
{
  DuelSeriesIter iter;
  const DuelSeriesRow *row;
  guint64 cum = 0;
  GArray *out;

  g_return_val_if_fail (series != NULL, NULL);
  g_return_val_if_fail (direction < DUEL_N_DIRECTIONS, NULL);

  out = g_array_sized_new (FALSE, TRUE, sizeof (double), duel_series_get_length (series));
  duel_series_iter_init (&iter, series);
  while ((row = duel_series_iter_next (&iter)) != NULL)
    {
      double pct;

      cum += row->bytes[direction];
      pct = span_bytes > 0 ? (double) cum / (double) span_bytes * 100.0 : NAN;
      g_array_append_val (out, pct);
    }
  return out;
}

void
duel_analysis_saturation (const DuelSeries         *series,
                          guint64                   span_bytes,
                          const DuelAnalysisParams *params,
                          DuelSaturation           *out)
{
  double span = (double) span_bytes, written, edge, point;
  guint64 end_ms;
  g_autoptr(GArray) rounds = NULL;
  DuelSeriesRow total;

  g_return_if_fail (series != NULL);
  g_return_if_fail (params != NULL);
  g_return_if_fail (out != NULL);

  memset (out, 0, sizeof *out);
  duel_series_sum (series, &total);
  end_ms = _duel_analysis_series_end_ms (series);
  out->span_bytes = span_bytes;
  out->written_bytes = total.bytes[DUEL_DIRECTION_WRITE];
  written = (double) out->written_bytes;
  out->written_pct = span > 0 ? written / span * 100.0 : NAN;
  out->write_iops_mean = end_ms > 0 ? total.ops[DUEL_DIRECTION_WRITE] / (end_ms / 1e3) : NAN;

  edge = params->edge_window_pct / 100.0 * span;
  point = params->point_window_pct / 100.0 * span;

  window_mean_bytes (series, DUEL_DIRECTION_WRITE, 0, edge, &out->at_0);
  window_mean_bytes (series, DUEL_DIRECTION_WRITE, 0.5 * span - point, 0.5 * span + point, &out->at_50);
  window_mean_bytes (series, DUEL_DIRECTION_WRITE, span - point, span + point, &out->at_100);
  window_mean_bytes (series, DUEL_DIRECTION_WRITE, MAX (written - edge, 0), written, &out->at_end);
  window_mean_bytes (series, DUEL_DIRECTION_WRITE, written * (1.0 - params->plateau_fraction), written,
                     &out->plateau);
  if (span > 0)
    {
      out->at_0.lo_pct = 0;
      out->at_0.hi_pct = params->edge_window_pct;
      out->at_50.lo_pct = 50 - params->point_window_pct;
      out->at_50.hi_pct = 50 + params->point_window_pct;
      out->at_100.lo_pct = 100 - params->point_window_pct;
      out->at_100.hi_pct = 100 + params->point_window_pct;
      out->at_end.lo_pct = MAX (out->written_pct - params->edge_window_pct, 0);
      out->at_end.hi_pct = out->written_pct;
      out->plateau.lo_pct = out->written_pct * (1.0 - params->plateau_fraction);
      out->plateau.hi_pct = out->written_pct;
    }
  else
    {
      out->at_0.iops = out->at_50.iops = out->at_100.iops = NAN;
      out->at_end.iops = out->plateau.iops = NAN;
    }

  /* The write cliff is the last fall: the one into the plateau. */
  duel_analysis_falls (series, span_bytes, params, &out->falls);
  out->cliff_pct = out->cliff_gb = out->cliff_resolution_pct = NAN;
  out->pre_cliff_iops = out->post_cliff_iops = out->cliff_drop = out->fall_end_pct = NAN;
  if (out->falls.falls->len > 0)
    {
      const DuelFall *last = &g_array_index (out->falls.falls, DuelFall, out->falls.falls->len - 1);

      out->cliff_found = TRUE;
      out->cliff_row = last->knee_row;
      out->cliff_bytes = last->knee_bytes;
      out->cliff_pct = last->knee_pct;
      out->cliff_gb = (double) last->knee_bytes / 1e9;
      out->cliff_resolution_pct = last->resolution_pct;
      out->pre_cliff_iops = last->level_before_iops;
      out->post_cliff_iops = last->level_after_iops;
      out->cliff_drop = last->drop;
      out->fall_end_bytes = last->foot_bytes;
      out->fall_end_pct = last->foot_pct;
      out->fall_end_ms = last->foot_ms;
    }

  rounds = duel_analysis_rounds (series, DUEL_DIRECTION_WRITE, MAX (params->round_ms, 1));
  {
    guint64 round_ms = MAX (params->round_ms, 1);
    /* After the fall: the first round that starts once the plateau began,
     * at the plateau's level (a drive with a write cache can hold a flat
     * level between the cache running out and garbage collection starting,
     * then fall again: that level is not its steady state). */
    guint first = out->cliff_found
                  ? (guint) MIN ((out->fall_end_ms + round_ms - 1) / round_ms, (guint64) G_MAXUINT - 1)
                  : G_MAXUINT;

    duel_analysis_steady_state_from ((const double *) (gpointer) rounds->data, rounds->len, first,
                                     out->plateau.iops, params, &out->steady_state);
  }
}

void
duel_saturation_clear (DuelSaturation *saturation)
{
  g_return_if_fail (saturation != NULL);

  duel_falls_clear (&saturation->falls);
  duel_steady_state_clear (&saturation->steady_state);
}

/* ---- The summary ---------------------------------------------------------- */

static JsonArray *
doubles_to_json (const double *values,
                 guint         n)
{
  JsonArray *array = json_array_new ();

  for (guint i = 0; i < n; i++)
    {
      if (isfinite (values[i]))
        json_array_add_double_element (array, values[i]);
      else
        json_array_add_null_element (array);
    }
  return array;
}

static JsonObject *
window_mean_to_json (const DuelWindowMean *window)
{
  JsonObject *object = json_object_new ();

  duel_json_set_double_or_null (object, "lo_pct", window->lo_pct);
  duel_json_set_double_or_null (object, "hi_pct", window->hi_pct);
  duel_json_set_double_or_null (object, "seconds", window->seconds);
  duel_json_set_double_or_null (object, "iops", window->iops);
  return object;
}

static JsonObject *
steady_state_window_to_json (const DuelSteadyStateWindow *window)
{
  JsonObject *object = json_object_new ();

  json_object_set_boolean_member (object, "complete", window->complete);
  json_object_set_int_member (object, "first_round", window->first_round);
  json_object_set_int_member (object, "rounds", window->n);
  if (window->complete)
    json_object_set_array_member (object, "values", doubles_to_json (window->values, window->n));
  duel_json_set_double_or_null (object, "mean", window->mean);
  duel_json_set_double_or_null (object, "slope", window->slope);
  duel_json_set_double_or_null (object, "intercept", window->intercept);
  duel_json_set_double_or_null (object, "data_excursion", window->data_excursion);
  duel_json_set_double_or_null (object, "data_excursion_limit", window->data_limit);
  duel_json_set_double_or_null (object, "slope_excursion", window->slope_excursion);
  duel_json_set_double_or_null (object, "slope_excursion_tkperf", window->slope_excursion_tkperf);
  duel_json_set_double_or_null (object, "slope_excursion_limit", window->slope_limit);
  json_object_set_boolean_member (object, "data_ok", window->data_ok);
  json_object_set_boolean_member (object, "slope_ok", window->slope_ok);
  json_object_set_boolean_member (object, "slope_ok_tkperf", window->slope_ok_tkperf);
  json_object_set_boolean_member (object, "steady", window->steady);
  return object;
}

static JsonArray *
falls_to_json (GArray *falls)
{
  JsonArray *array = json_array_new ();

  for (guint i = 0; i < falls->len; i++)
    {
      const DuelFall *fall = &g_array_index (falls, DuelFall, i);
      JsonObject *object = json_object_new ();

      json_object_set_int_member (object, "knee_bytes", (gint64) fall->knee_bytes);
      json_object_set_double_member (object, "knee_pct", fall->knee_pct);
      json_object_set_int_member (object, "knee_row", fall->knee_row);
      json_object_set_int_member (object, "foot_bytes", (gint64) fall->foot_bytes);
      json_object_set_double_member (object, "foot_pct", fall->foot_pct);
      json_object_set_int_member (object, "foot_ms", (gint64) fall->foot_ms);
      json_object_set_double_member (object, "level_before_iops", fall->level_before_iops);
      json_object_set_double_member (object, "level_after_iops", fall->level_after_iops);
      json_object_set_double_member (object, "drop", fall->drop);
      json_object_set_double_member (object, "resolution_pct", fall->resolution_pct);
      json_array_add_object_element (array, object);
    }
  return array;
}

static JsonArray *
declines_to_json (GArray *declines)
{
  JsonArray *array = json_array_new ();

  for (guint i = 0; i < declines->len; i++)
    {
      const DuelDecline *decline = &g_array_index (declines, DuelDecline, i);
      JsonObject *object = json_object_new ();

      json_object_set_double_member (object, "from_pct", decline->from_pct);
      json_object_set_double_member (object, "to_pct", decline->to_pct);
      json_object_set_double_member (object, "from_iops", decline->from_iops);
      json_object_set_double_member (object, "to_iops", decline->to_iops);
      json_object_set_double_member (object, "top_pct", decline->top_pct);
      json_object_set_double_member (object, "bottom_pct", decline->bottom_pct);
      json_array_add_object_element (array, object);
    }
  return array;
}

static JsonArray *
recoveries_to_json (GArray *recoveries)
{
  JsonArray *array = json_array_new ();

  for (guint i = 0; i < recoveries->len; i++)
    {
      const DuelRecovery *recovery = &g_array_index (recoveries, DuelRecovery, i);
      JsonObject *object = json_object_new ();

      json_object_set_int_member (object, "fall", recovery->fall);
      json_object_set_double_member (object, "from_pct", recovery->from_pct);
      json_object_set_double_member (object, "to_pct", recovery->to_pct);
      json_object_set_double_member (object, "from_iops", recovery->from_iops);
      json_object_set_double_member (object, "to_iops", recovery->to_iops);
      json_array_add_object_element (array, object);
    }
  return array;
}

static double
pct_of (double part,
        double whole)
{
  return whole > 0 && isfinite (part) ? part / whole * 100.0 : NAN;
}

/* What the charts read, straight from the analysis: the same values the
 * JSON above holds (test-analysis checks both ways agree). */
static void
set_typed_summary (const DuelSaturation *sat,
                   DuelSummary          *summary)
{
  DuelSaturationSummary typed = {
    .iops_at_pct = { sat->at_0.iops, sat->at_50.iops, sat->at_100.iops, sat->at_end.iops },
    .written_pct = sat->written_pct,
    .plateau_iops = sat->plateau.iops,
    .plateau_lo_pct = sat->plateau.lo_pct,
    .plateau_hi_pct = sat->plateau.hi_pct,
    .cliff_pct = sat->cliff_pct,
  };

  for (guint i = 0; i < sat->falls.falls->len && typed.n_falls < DUEL_SATURATION_MAX_FALLS; i++)
    {
      const DuelFall *fall = &g_array_index (sat->falls.falls, DuelFall, i);

      if (!isfinite (fall->knee_pct))
        continue;
      typed.falls[typed.n_falls].knee_pct = fall->knee_pct;
      typed.falls[typed.n_falls].resolution_pct = fall->resolution_pct;
      typed.falls[typed.n_falls].before_iops = fall->level_before_iops;
      typed.falls[typed.n_falls].after_iops = fall->level_after_iops;
      typed.n_falls++;
    }
  if (typed.n_falls == 0 && isfinite (typed.cliff_pct))
    {
      typed.falls[0].knee_pct = typed.cliff_pct;
      typed.falls[0].resolution_pct = typed.falls[0].before_iops = typed.falls[0].after_iops = NAN;
      typed.n_falls = 1;
    }
  _duel_summary_set_typed (summary, &typed, sizeof typed);
}

JsonObject *
duel_saturation_to_json (const DuelSaturation     *sat,
                         const DuelAnalysisParams *params)
{
  JsonObject *details = json_object_new ();
  JsonObject *points = json_object_new ();
  JsonObject *cliff = json_object_new ();
  JsonObject *ss = json_object_new ();

  g_return_val_if_fail (sat != NULL, details);
  g_return_val_if_fail (params != NULL, details);

  json_object_set_int_member (details, "span_bytes", (gint64) sat->span_bytes);
  json_object_set_int_member (details, "written_bytes", (gint64) sat->written_bytes);
  json_object_set_object_member (points, "0pct", window_mean_to_json (&sat->at_0));
  json_object_set_object_member (points, "50pct", window_mean_to_json (&sat->at_50));
  json_object_set_object_member (points, "100pct", window_mean_to_json (&sat->at_100));
  json_object_set_object_member (points, "end", window_mean_to_json (&sat->at_end));
  json_object_set_object_member (points, "plateau", window_mean_to_json (&sat->plateau));
  json_object_set_object_member (details, "points", points);

  json_object_set_string_member (cliff, "rule", "last-fall");
  json_object_set_boolean_member (cliff, "found", sat->cliff_found);
  if (sat->cliff_found)
    {
      json_object_set_int_member (cliff, "fall", sat->falls.falls->len - 1);
      json_object_set_int_member (cliff, "row", sat->cliff_row);
      json_object_set_int_member (cliff, "bytes_before", (gint64) sat->cliff_bytes);
      json_object_set_double_member (cliff, "pct", sat->cliff_pct);
      json_object_set_double_member (cliff, "resolution_pct", sat->cliff_resolution_pct);
      json_object_set_double_member (cliff, "pre_cliff_iops", sat->pre_cliff_iops);
      json_object_set_double_member (cliff, "post_cliff_iops", sat->post_cliff_iops);
      json_object_set_double_member (cliff, "drop", sat->cliff_drop);
      json_object_set_int_member (cliff, "fall_end_bytes", (gint64) sat->fall_end_bytes);
      json_object_set_double_member (cliff, "fall_end_pct", sat->fall_end_pct);
      json_object_set_int_member (cliff, "fall_end_ms", (gint64) sat->fall_end_ms);
    }
  json_object_set_array_member (details, "falls", falls_to_json (sat->falls.falls));
  json_object_set_array_member (details, "declines", declines_to_json (sat->falls.declines));
  json_object_set_array_member (details, "recoveries", recoveries_to_json (sat->falls.recoveries));
  json_object_set_object_member (details, "cliff", cliff);

  json_object_set_int_member (ss, "round_ms", (gint64) params->round_ms);
  json_object_set_array_member (ss, "round_iops",
                                doubles_to_json ((const double *) (gpointer) sat->steady_state.rounds->data,
                                                 sat->steady_state.rounds->len));
  json_object_set_object_member (ss, "last_window", steady_state_window_to_json (&sat->steady_state.last));
  /* The first passing window is only looked for after the cliff. */
  if (sat->steady_state.searched)
    json_object_set_int_member (ss, "search_from_round", sat->steady_state.search_from_round);
  else
    json_object_set_null_member (ss, "search_from_round");
  json_object_set_boolean_member (ss, "found", sat->steady_state.found);
  if (sat->steady_state.found)
    {
      json_object_set_int_member (ss, "first_steady_round", sat->steady_state.first_steady_round);
      json_object_set_object_member (ss, "first_steady_window",
                                     steady_state_window_to_json (&sat->steady_state.first));
    }
  json_object_set_object_member (details, "steady_state", ss);
  return details;
}

static void
summarize (const DuelTestRecord     *record,
           const DuelAnalysisParams *params,
           DuelSummary              *summary)
{
  DuelSaturation sat;
  guint64 span = record->span_length > 0 ? record->span_length : record->workload.span_length;
  const DuelSteadyStateWindow *last;

  g_autoptr(DuelSeries) unpaused = NULL;

  /* Rows a pause of the process touched are not the drive's. */
  duel_analysis_saturation (duel_test_record_get_figure_series (record, &unpaused), span, params, &sat);
  last = &sat.steady_state.last;

  duel_summary_add (summary, "written_gb", sat.written_bytes / 1e9);
  duel_summary_add (summary, "capacity_written_pct", sat.written_pct);
  duel_summary_add (summary, "write_iops_mean", sat.write_iops_mean);
  duel_summary_add (summary, "iops_at_0pct", sat.at_0.iops);
  duel_summary_add (summary, "iops_at_50pct", sat.at_50.iops);
  duel_summary_add (summary, "iops_at_100pct", sat.at_100.iops);
  duel_summary_add (summary, "iops_at_end", sat.at_end.iops);
  duel_summary_add (summary, "plateau_iops", sat.plateau.iops);
  duel_summary_add (summary, "cliff_pct", sat.cliff_pct);
  duel_summary_add (summary, "cliff_gb", sat.cliff_gb);
  /* A fall before the cliff: on most drives, the write cache running out. */
  duel_summary_add (summary, "first_fall_pct",
                    sat.falls.falls->len >= 2 ? g_array_index (sat.falls.falls, DuelFall, 0).knee_pct : NAN);
  duel_summary_add (summary, "ss_rounds", sat.steady_state.rounds->len);
  duel_summary_add (summary, "ss_window_mean_iops", last->complete ? last->mean : NAN);
  duel_summary_add (summary, "ss_data_excursion_pct",
                    last->complete ? pct_of (last->data_excursion, last->mean) : NAN);
  duel_summary_add (summary, "ss_slope_excursion_pct",
                    last->complete ? pct_of (last->slope_excursion, last->mean) : NAN);
  duel_summary_add (summary, "ss_steady", last->complete ? (last->steady ? 1 : 0) : NAN);
  duel_summary_add (summary, "ss_first_steady_round",
                    sat.steady_state.found ? sat.steady_state.first_steady_round : NAN);

  json_object_set_object_member (duel_summary_get_details (summary), "saturation",
                                 duel_saturation_to_json (&sat, params));
  set_typed_summary (&sat, summary);
  duel_saturation_clear (&sat);
}

static const DuelFigureInfo figures[] = {
  { "written_gb",             "GB",     DUEL_BETTER_NONE,   N_("Data written") },
  { "capacity_written_pct",   "%",      DUEL_BETTER_NONE,   N_("Capacity written") },
  { "write_iops_mean",        "IOPS",   DUEL_BETTER_HIGHER, N_("4K random write, mean over the run") },
  { "review_write_score_iops", "IOPS",  DUEL_BETTER_HIGHER, N_("The review’s 4K write score (method not stated)") },
  { "iops_at_0pct",           "IOPS",   DUEL_BETTER_HIGHER, N_("4K random write at 0 % written") },
  { "iops_at_50pct",          "IOPS",   DUEL_BETTER_HIGHER, N_("4K random write at 50 % written") },
  { "iops_at_100pct",         "IOPS",   DUEL_BETTER_HIGHER, N_("4K random write at 100 % written") },
  { "iops_at_end",            "IOPS",   DUEL_BETTER_HIGHER, N_("4K random write at the end") },
  { "plateau_iops",           "IOPS",   DUEL_BETTER_HIGHER, N_("4K random write plateau (last 10 % written)") },
  /* xgettext:no-c-format */
  { "cliff_pct",              "%",      DUEL_BETTER_HIGHER, N_("Write cliff, % of capacity written") },
  { "cliff_gb",               "GB",     DUEL_BETTER_HIGHER, N_("Data written before the write cliff") },
  /* xgettext:no-c-format */
  { "first_fall_pct",         "%",      DUEL_BETTER_HIGHER, N_("First fall before the cliff, % of capacity written") },
  { "ss_rounds",              "rounds", DUEL_BETTER_NONE,   N_("Steady-state rounds measured") },
  { "ss_window_mean_iops",    "IOPS",   DUEL_BETTER_HIGHER, N_("Steady-state window mean") },
  { "ss_data_excursion_pct",  "%",      DUEL_BETTER_LOWER,  N_("Steady-state data excursion") },
  { "ss_slope_excursion_pct", "%",      DUEL_BETTER_LOWER,  N_("Steady-state slope excursion") },
  { "ss_steady",              "",       DUEL_BETTER_HIGHER, N_("Steady state reached (last window)") },
  { "ss_first_steady_round",  "rounds", DUEL_BETTER_NONE,   N_("First steady-state round after the write cliff") },
};

static JsonArray *saturation_details_array (JsonObject *details,
                                            const char *name);
static void       falls_from_details       (JsonObject            *details,
                                            DuelSaturationSummary *out);

/* A number member, or NAN. */
static double
member_or_nan (JsonObject *object,
               const char *member)
{
  double value;

  return duel_json_get_number (object, member, &value) ? value : NAN;
}

void
duel_saturation_summary_from_record (const DuelTestRecord  *record,
                                     DuelSaturationSummary *out)
{
  static const char * const point_keys[] = { "iops_at_0pct", "iops_at_50pct", "iops_at_100pct", "iops_at_end" };
  JsonObject *plateau;

  g_return_if_fail (record != NULL);
  g_return_if_fail (out != NULL);

  /* Summarised in this process: the analysis's own values. */
  if (record->typed_summary != NULL && g_bytes_get_size (record->typed_summary) == sizeof *out)
    {
      memcpy (out, g_bytes_get_data (record->typed_summary, NULL), sizeof *out);
      return;
    }
  /* Loaded from a file: its JSON, read here at the file's boundary. */
  for (guint i = 0; i < G_N_ELEMENTS (point_keys); i++)
    out->iops_at_pct[i] = duel_test_record_get_figure_value (record, point_keys[i]);
  out->written_pct = duel_test_record_get_figure_value (record, "capacity_written_pct");
  out->plateau_iops = duel_test_record_get_figure_value (record, "plateau_iops");
  out->cliff_pct = duel_test_record_get_figure_value (record, "cliff_pct");
  out->plateau_lo_pct = out->plateau_hi_pct = NAN;
  /* summarize() above writes details.saturation.points.plateau. */
  plateau = duel_json_get_object (duel_json_get_object (duel_json_get_object (duel_json_get_object (record->summary, "details"), "saturation"),
                                          "points"),
                           "plateau");
  if (plateau != NULL)
    {
      out->plateau_lo_pct = json_object_get_double_member_with_default (plateau, "lo_pct", NAN);
      out->plateau_hi_pct = json_object_get_double_member_with_default (plateau, "hi_pct", NAN);
    }

  falls_from_details (duel_json_get_object (record->summary, "details"), out);
  if (out->n_falls == 0 && isfinite (out->cliff_pct))
    {
      out->falls[0].knee_pct = out->cliff_pct;
      out->falls[0].resolution_pct = out->falls[0].before_iops = out->falls[0].after_iops = NAN;
      out->n_falls = 1;
    }
}

static JsonArray *
saturation_details_array (JsonObject *details,
                          const char *name)
{
  return duel_json_get_array (duel_json_get_object (details, "saturation"), name);
}

/* summarize() writes details.saturation.falls. */
static void
falls_from_details (JsonObject            *details,
                    DuelSaturationSummary *out)
{
  JsonArray *falls = saturation_details_array (details, "falls");

  out->n_falls = 0;
  for (guint i = 0; falls != NULL && i < json_array_get_length (falls) && out->n_falls < DUEL_SATURATION_MAX_FALLS; i++)
    {
      JsonNode *node = json_array_get_element (falls, i);
      JsonObject *fall = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      double knee = fall != NULL ? member_or_nan (fall, "knee_pct") : NAN;

      if (!isfinite (knee))
        continue;
      out->falls[out->n_falls].knee_pct = knee;
      out->falls[out->n_falls].resolution_pct = member_or_nan (fall, "resolution_pct");
      out->falls[out->n_falls].before_iops = member_or_nan (fall, "level_before_iops");
      out->falls[out->n_falls].after_iops = member_or_nan (fall, "level_after_iops");
      out->n_falls++;
    }
}

/* ---- The falls in words, and as a list ------------------------------------- */

typedef enum
{
  EVENT_FALL,
  EVENT_CLIFF,
  EVENT_RECOVERY,
  EVENT_DECLINE,
} EventKind;

/* A fall, the cliff, a recovery or a decline as details.saturation holds
 * it (docs/result-format.md), in the terms analyze --json lists them. */
typedef struct
{
  EventKind kind;
  double    knee_pct;         /* where it begins: a fall's knee, a decline's top */
  double    foot_pct;         /* where it ends */
  double    before_iops;      /* the level it leaves */
  double    after_iops;       /* the level it reaches */
  double    resolution_pct;   /* ± how far the knee may be off; NAN when not known */
  double    mostly_from_pct;  /* a decline: mostly between these */
  double    mostly_to_pct;
  gboolean  into_plateau;     /* the cliff: its level after is the plateau */
} Event;

/* The cliff falls into the plateau where its level after is within this
 * share of the plateau's IOPS. */
#define INTO_PLATEAU_WITHIN 0.10
/* Half the point of capacity the falls' throughput is read over
 * (duel-falls.c): where a recovery's or a decline's running median turns. */
#define RUNNING_RESOLUTION_PCT 0.5

static const char * const event_kinds[] = { "fall", "cliff", "recovery", "decline" };

static int
compare_events (gconstpointer a,
                gconstpointer b)
{
  const Event *x = a, *y = b;

  /* Knees in order; a recovery after the fall it follows. */
  if (x->knee_pct != y->knee_pct)
    return x->knee_pct < y->knee_pct ? -1 : 1;
  return (int) x->kind - (int) y->kind;
}

/* Every fall, recovery and decline of @details (a summary's details, the
 * saturation member in it), in order of where each begins. The resolution
 * of a recovery or a decline is half the point of capacity the falls'
 * throughput is read over: where its running median turns. */
static GArray *
events_from_details (JsonObject *details)
{
  GArray *events = g_array_new (FALSE, TRUE, sizeof (Event));
  JsonArray *falls = saturation_details_array (details, "falls");
  JsonArray *recoveries = saturation_details_array (details, "recoveries");
  JsonArray *declines = saturation_details_array (details, "declines");
  JsonObject *plateau = duel_json_get_object (duel_json_get_object (duel_json_get_object (details, "saturation"), "points"),
                                              "plateau");
  double plateau_iops = plateau != NULL ? member_or_nan (plateau, "iops") : NAN;
  guint n_falls = 0;

  for (guint i = 0; falls != NULL && i < json_array_get_length (falls); i++)
    {
      JsonNode *node = json_array_get_element (falls, i);
      JsonObject *fall = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      Event e = { .kind = EVENT_FALL };

      if (fall == NULL || !isfinite (member_or_nan (fall, "knee_pct")))
        continue;
      e.knee_pct = member_or_nan (fall, "knee_pct");
      e.foot_pct = member_or_nan (fall, "foot_pct");
      e.before_iops = member_or_nan (fall, "level_before_iops");
      e.after_iops = member_or_nan (fall, "level_after_iops");
      e.resolution_pct = member_or_nan (fall, "resolution_pct");
      e.mostly_from_pct = e.mostly_to_pct = NAN;
      g_array_append_val (events, e);
      n_falls++;
    }
  /* The last fall is the write cliff. */
  if (n_falls > 0)
    {
      Event *cliff = &g_array_index (events, Event, events->len - 1);

      cliff->kind = EVENT_CLIFF;
      cliff->into_plateau = isfinite (cliff->after_iops) && plateau_iops > 0 &&
                            fabs (cliff->after_iops / plateau_iops - 1) <= INTO_PLATEAU_WITHIN;
    }
  for (guint i = 0; recoveries != NULL && i < json_array_get_length (recoveries); i++)
    {
      JsonNode *node = json_array_get_element (recoveries, i);
      JsonObject *r = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      Event e = { .kind = EVENT_RECOVERY, .resolution_pct = RUNNING_RESOLUTION_PCT };

      if (r == NULL)
        continue;
      e.knee_pct = member_or_nan (r, "from_pct");
      e.foot_pct = member_or_nan (r, "to_pct");
      e.before_iops = member_or_nan (r, "from_iops");
      e.after_iops = member_or_nan (r, "to_iops");
      e.mostly_from_pct = e.mostly_to_pct = NAN;
      if (isfinite (e.knee_pct))
        g_array_append_val (events, e);
    }
  for (guint i = 0; declines != NULL && i < json_array_get_length (declines); i++)
    {
      JsonNode *node = json_array_get_element (declines, i);
      JsonObject *d = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      Event e = { .kind = EVENT_DECLINE, .resolution_pct = RUNNING_RESOLUTION_PCT };

      if (d == NULL)
        continue;
      e.mostly_from_pct = member_or_nan (d, "from_pct");
      e.mostly_to_pct = member_or_nan (d, "to_pct");
      /* Files before the top was stored hold "mostly between" alone. */
      e.knee_pct = json_object_has_member (d, "top_pct") ? member_or_nan (d, "top_pct") : e.mostly_from_pct;
      e.foot_pct = json_object_has_member (d, "bottom_pct") ? member_or_nan (d, "bottom_pct") : e.mostly_to_pct;
      e.before_iops = member_or_nan (d, "from_iops");
      e.after_iops = member_or_nan (d, "to_iops");
      if (isfinite (e.knee_pct))
        g_array_append_val (events, e);
    }
  g_array_sort (events, compare_events);
  return events;
}

static void
add_number_or_null (JsonBuilder *builder,
                    const char  *member,
                    double       value)
{
  json_builder_set_member_name (builder, member);
  if (isfinite (value))
    json_builder_add_double_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

JsonNode *
duel_saturation_dup_events_json (JsonObject *details)
{
  g_autoptr(GArray) events = events_from_details (details);
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  json_builder_begin_array (builder);
  for (guint i = 0; i < events->len; i++)
    {
      const Event *e = &g_array_index (events, Event, i);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "kind");
      json_builder_add_string_value (builder, event_kinds[e->kind]);
      add_number_or_null (builder, "knee_pct", e->knee_pct);
      add_number_or_null (builder, "foot_pct", e->foot_pct);
      add_number_or_null (builder, "level_before_iops", e->before_iops);
      add_number_or_null (builder, "level_after_iops", e->after_iops);
      add_number_or_null (builder, "resolution_pct", e->resolution_pct);
      if (e->kind == EVENT_DECLINE)
        {
          add_number_or_null (builder, "mostly_from_pct", e->mostly_from_pct);
          add_number_or_null (builder, "mostly_to_pct", e->mostly_to_pct);
        }
      if (e->kind == EVENT_CLIFF)
        {
          json_builder_set_member_name (builder, "into_plateau");
          json_builder_add_boolean_value (builder, e->into_plateau);
        }
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  return json_builder_get_root (builder);
}

char **
duel_saturation_dup_falls_text (JsonObject *details)
{
  g_autoptr(GStrvBuilder) lines = g_strv_builder_new ();
  g_autoptr(GArray) events = events_from_details (details);

  for (guint i = 0; i < events->len; i++)
    {
      const Event *e = &g_array_index (events, Event, i);
      g_autofree char *before = duel_number_format (e->before_iops, 0);
      g_autofree char *after = duel_number_format (e->after_iops, 0);
      g_autofree char *line = NULL;

      if (e->kind == EVENT_FALL || e->kind == EVENT_CLIFF)
        {
          g_autofree char *at = duel_number_format (e->knee_pct, 1);
          g_autofree char *where = NULL;

          /* Coarse rows: say how far off the knee may be. */
          if (e->resolution_pct >= 1)
            {
              g_autofree char *within = duel_number_format (e->resolution_pct, 1);

              /* TRANSLATORS: where a fall of the write curve begins, in % of
               * capacity written, and how far off that may be ("20.0 % (± 6.0)") */
              where = g_strdup_printf (_("%s %% (± %s)"), at, within);
            }
          else
            /* TRANSLATORS: where a fall of the write curve begins, in % of capacity written */
            where = g_strdup_printf (_("%s %%"), at);

          if (!isfinite (e->before_iops) || !isfinite (e->after_iops))
            line = e->kind == EVENT_CLIFF
                   /* TRANSLATORS: the write cliff: the last fall of the write curve, into its plateau */
                   ? g_strdup_printf (_("Write cliff at %s of capacity written."), where)
                   : g_strdup_printf (_("A fall at %s of capacity written."), where);
          else if (e->kind == EVENT_CLIFF && e->into_plateau)
            /* TRANSLATORS: the write cliff, where it begins, and the IOPS levels before and after it */
            line = g_strdup_printf (_("Write cliff at %s of capacity written: from %s to %s IOPS, into the plateau."),
                                    where, before, after);
          else if (e->kind == EVENT_CLIFF)
            /* TRANSLATORS: the write cliff (the last fall of the write curve),
             * where it begins, and the IOPS levels before and after it; the
             * curve does not stay at the level after (it recovers, or
             * declines further), so the plateau is not named */
            line = g_strdup_printf (_("Write cliff at %s of capacity written: from %s to %s IOPS."), where, before, after);
          else
            /* TRANSLATORS: a fall of the write curve before the cliff (a write cache running out, say) */
            line = g_strdup_printf (_("A fall at %s of capacity written: from %s to %s IOPS."), where, before, after);
        }
      else if (e->kind == EVENT_RECOVERY)
        {
          g_autofree char *at = duel_number_format (e->foot_pct, 0);

          /* TRANSLATORS: after a fall, the write curve climbs back: the IOPS
           * level it reaches, and where, in % of capacity written */
          line = g_strdup_printf (_("The write curve recovers to %s IOPS at %s %% of capacity written."), after, at);
        }
      else
        {
          g_autofree char *lo = duel_number_format (e->mostly_from_pct, 0);
          g_autofree char *hi = duel_number_format (e->mostly_to_pct, 0);

          /* TRANSLATORS: a slow decline of the write curve, not a fall: the
           * IOPS it declines from and to, and where most of it happens, in %
           * of capacity written */
          line = g_strdup_printf (_("A decline, not a fall: from %s to %s IOPS, mostly between %s %% and %s %% "
                                    "of capacity written."), before, after, lo, hi);
        }
      g_strv_builder_add (lines, line);
    }
  return g_strv_builder_end (lines);
}

/* A random write of at least the span once: the drive fills. */
static gboolean
fits (const DuelTestRecord *record)
{
  const DuelWorkload *w = &record->workload;

  return w->pattern == DUEL_PATTERN_RANDOM && !duel_workload_reads (w) && duel_series_get_length (record->series) >= 2 &&
         (w->size_multiple >= 1 || (record->span_length > 0 && record->byte_limit >= record->span_length));
}

const DuelAnalysisOps _duel_analysis_saturation_ops = {
  .kind = DUEL_ANALYSIS_SATURATION,
  .name = "saturation",
  .figures = figures,
  .n_figures = G_N_ELEMENTS (figures),
  .fits = fits,
  .summarize = summarize,
};
