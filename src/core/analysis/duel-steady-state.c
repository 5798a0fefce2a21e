/* duel-steady-state.c — SNIA PTS steady state: rounds, the window test, the first steady round
 *
 * The rounds of a run (its rows summed per round_ms from the start) and
 * SNIA's test on a window of them (max − min within ss_data_limit of the
 * mean, the fitted line's excursion within ss_slope_limit); the first
 * window that passes from a given round on, and only near a given level
 * (docs/analysis.md, "Steady state after the cliff"). Any test with rounds
 * uses it; the fill's is the one the review reports.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "duel-analysis-private.h"

gboolean
duel_analysis_steady_state_window (const double          *round_values,
                                   guint                  n_rounds,
                                   guint                  first,
                                   guint                  n,
                                   double                 data_limit,
                                   double                 slope_limit,
                                   DuelSteadyStateWindow *out)
{
  double sum = 0, min = INFINITY, max = -INFINITY;
  double x_mean, sxx = 0, sxy = 0;

  g_return_val_if_fail (out != NULL, FALSE);
  g_return_val_if_fail (n >= 1 && n <= DUEL_STEADY_STATE_MAX_WINDOW, FALSE);

  memset (out, 0, sizeof *out);
  out->first_round = first + 1;
  out->n = n;
  out->mean = out->slope = out->intercept = NAN;
  out->data_excursion = out->data_limit = NAN;
  out->slope_excursion = out->slope_excursion_tkperf = out->slope_limit = NAN;

  if (round_values == NULL || first + n > n_rounds)
    return FALSE;

  for (guint i = 0; i < n; i++)
    {
      double y = round_values[first + i];

      out->values[i] = y;
      sum += y;
      min = MIN (min, y);
      max = MAX (max, y);
    }
  out->complete = TRUE;
  out->mean = sum / n;

  /* Least squares over (round number, value); the round numbers are 1-based. */
  x_mean = first + 1 + (n - 1) / 2.0;
  for (guint i = 0; i < n; i++)
    {
      double dx = (first + 1 + i) - x_mean;

      sxx += dx * dx;
      sxy += dx * (out->values[i] - out->mean);
    }
  out->slope = sxx > 0 ? sxy / sxx : 0;
  out->intercept = out->mean - out->slope * x_mean;

  out->data_excursion = max - min;
  out->data_limit = data_limit * out->mean;
  out->slope_excursion = fabs (out->slope) * (n - 1);
  out->slope_excursion_tkperf = fabs (out->slope) * n;
  out->slope_limit = slope_limit * out->mean;
  out->data_ok = out->data_excursion <= out->data_limit;
  out->slope_ok = out->slope_excursion <= out->slope_limit;
  out->slope_ok_tkperf = out->slope_excursion_tkperf <= out->slope_limit;
  out->steady = out->data_ok && out->slope_ok;
  return TRUE;
}

GArray *
duel_analysis_rounds (const DuelSeries *series,
                      DuelDirection     direction,
                      guint64           round_ms)
{
  DuelSeriesIter iter;
  const DuelSeriesRow *row;
  guint n_rounds;
  guint64 prev_t = 0;
  GArray *values;

  g_return_val_if_fail (series != NULL, NULL);
  g_return_val_if_fail (round_ms > 0, NULL);

  n_rounds = (guint) (_duel_analysis_series_end_ms (series) / round_ms);

  values = g_array_sized_new (FALSE, TRUE, sizeof (double), n_rounds);
  g_array_set_size (values, n_rounds);

  duel_series_iter_init (&iter, series);
  while ((row = duel_series_iter_next (&iter)) != NULL)
    {
      guint64 start = prev_t, end = row->t_ms;
      double ops = row->ops[direction];

      prev_t = end;
      if (end <= start)
        continue;
      for (guint64 r = start / round_ms; r < n_rounds && r * round_ms < end; r++)
        {
          guint64 lo = MAX (start, r * round_ms);
          guint64 hi = MIN (end, (r + 1) * round_ms);

          if (hi > lo)
            g_array_index (values, double, r) += ops * (double) (hi - lo) / (double) (end - start);
        }
    }

  for (guint r = 0; r < n_rounds; r++)
    g_array_index (values, double, r) /= round_ms / 1e3;

  return values;
}

void
duel_analysis_steady_state_from (const double             *round_values,
                                 guint                     n_rounds,
                                 guint                     first_round,
                                 double                    level,
                                 const DuelAnalysisParams *params,
                                 DuelSteadyState          *out)
{
  guint n;

  g_return_if_fail (params != NULL);
  g_return_if_fail (out != NULL);

  n = CLAMP (params->ss_window_rounds, 1, DUEL_STEADY_STATE_MAX_WINDOW);

  memset (out, 0, sizeof *out);
  out->rounds = g_array_sized_new (FALSE, TRUE, sizeof (double), n_rounds);
  if (n_rounds > 0)
    g_array_append_vals (out->rounds, round_values, n_rounds);

  duel_analysis_steady_state_window (round_values, n_rounds,
                                     n_rounds >= n ? n_rounds - n : 0, n,
                                     params->ss_data_limit, params->ss_slope_limit,
                                     &out->last);

  if (first_round == G_MAXUINT)
    return;
  out->searched = TRUE;
  out->search_from_round = first_round + 1;

  /* SNIA: check from round n on, stop at the first window that passes. */
  for (guint end = MAX (n, first_round + n); end <= n_rounds; end++)
    {
      DuelSteadyStateWindow window;

      duel_analysis_steady_state_window (round_values, n_rounds, end - n, n,
                                         params->ss_data_limit, params->ss_slope_limit,
                                         &window);
      if (window.steady &&
          (!isfinite (level) || fabs (window.mean - level) <= params->ss_data_limit * level))
        {
          out->found = TRUE;
          out->first_steady_round = end;
          out->first = window;
          break;
        }
    }
}

void
duel_analysis_steady_state (const double             *round_values,
                            guint                     n_rounds,
                            const DuelAnalysisParams *params,
                            DuelSteadyState          *out)
{
  duel_analysis_steady_state_from (round_values, n_rounds, 0, NAN, params, out);
}

void
duel_steady_state_clear (DuelSteadyState *state)
{
  g_return_if_fail (state != NULL);

  g_clear_pointer (&state->rounds, g_array_unref);
}
