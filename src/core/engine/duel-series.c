/* duel-series.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include "duel-series.h"
#include "duel-series-private.h"

/* The rows in a buffer of their own rather than a GArray: a GArray holds
 * a power of two, up to twice the rows, and a long run's series is most of
 * the memory a loaded result takes (docs/result-format.md#memory). A
 * series that is appended to (a run) grows by doubling; one the loader
 * reserved or adopted holds its rows exactly. */
struct _DuelSeries
{
  DuelSeriesRow *rows;
  guint          len;
  guint          capacity;
};

DuelSeries *
duel_series_new (void)
{
  return g_new0 (DuelSeries, 1);
}

DuelSeries *
duel_series_copy (const DuelSeries *series)
{
  DuelSeries *copy;

  g_return_val_if_fail (series != NULL, NULL);

  copy = duel_series_new ();
  if (series->len > 0)
    {
      copy->rows = g_memdup2 (series->rows, series->len * sizeof (DuelSeriesRow));
      copy->len = copy->capacity = series->len;
    }
  return copy;
}

void
duel_series_free (DuelSeries *series)
{
  if (series == NULL)
    return;
  g_free (series->rows);
  g_free (series);
}

void
duel_series_append (DuelSeries          *series,
                    const DuelSeriesRow *row)
{
  g_return_if_fail (series != NULL);
  g_return_if_fail (row != NULL);

  if (series->len == series->capacity)
    {
      guint capacity = series->capacity < 16 ? 16 : series->capacity <= G_MAXUINT / 2 ? 2 * series->capacity : G_MAXUINT;

      g_return_if_fail (series->len < G_MAXUINT);
      series->rows = g_renew (DuelSeriesRow, series->rows, capacity);
      series->capacity = capacity;
    }
  series->rows[series->len++] = *row;
}

void
duel_series_reserve (DuelSeries *series,
                     guint       n_rows)
{
  g_return_if_fail (series != NULL);

  /* An empty series takes a buffer of that size. */
  if (series->len == 0 && n_rows > series->capacity)
    {
      g_free (series->rows);
      series->rows = g_new (DuelSeriesRow, n_rows);
      series->capacity = n_rows;
    }
}

void
_duel_series_adopt_rows (DuelSeries    *series,
                         DuelSeriesRow *rows,
                         guint          n_rows)
{
  g_return_if_fail (series != NULL);
  g_return_if_fail (series->len == 0);
  g_return_if_fail (rows != NULL || n_rows == 0);

  g_free (series->rows);
  series->rows = rows;
  series->len = series->capacity = n_rows;
}

guint
duel_series_get_length (const DuelSeries *series)
{
  g_return_val_if_fail (series != NULL, 0);

  return series->len;
}

const DuelSeriesRow *
duel_series_get_row (const DuelSeries *series,
                     guint             index)
{
  g_return_val_if_fail (series != NULL, NULL);
  g_return_val_if_fail (index < series->len, NULL);

  return &series->rows[index];
}

const DuelSeriesRow *
duel_series_get_rows (const DuelSeries *series)
{
  g_return_val_if_fail (series != NULL, NULL);

  return series->rows;
}

void
duel_series_sum (const DuelSeries *series,
                 DuelSeriesRow    *out_total)
{
  g_return_if_fail (series != NULL);
  g_return_if_fail (out_total != NULL);

  *out_total = (DuelSeriesRow) { .temperature_c = NAN };
  for (guint i = 0; i < series->len; i++)
    {
      const DuelSeriesRow *row = &series->rows[i];

      for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
        {
          out_total->ops[d] += row->ops[d];
          out_total->bytes[d] += row->bytes[d];
          out_total->lat_max_ns[d] = MAX (out_total->lat_max_ns[d], row->lat_max_ns[d]);
        }
      out_total->t_ms = row->t_ms;
    }
}

guint64
duel_series_row_duration_ms (const DuelSeries *series,
                             guint             index)
{
  const DuelSeriesRow *row = duel_series_get_row (series, index);

  if (row == NULL)
    return 0;
  if (index == 0)
    return row->t_ms;
  return row->t_ms - duel_series_get_row (series, index - 1)->t_ms;
}

void
duel_series_set_temperature (DuelSeries *series,
                             guint       index,
                             double      temperature_c)
{
  g_return_if_fail (series != NULL);
  g_return_if_fail (index < series->len);

  series->rows[index].temperature_c = temperature_c;
}
