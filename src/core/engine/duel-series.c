/* duel-series.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include "duel-series.h"
#include "duel-series-private.h"

struct _DuelSeries
{
  GArray *rows;   /* DuelSeriesRow */
};

DuelSeries *
duel_series_new (void)
{
  DuelSeries *self = g_new0 (DuelSeries, 1);

  self->rows = g_array_new (FALSE, TRUE, sizeof (DuelSeriesRow));
  return self;
}

DuelSeries *
duel_series_copy (const DuelSeries *series)
{
  DuelSeries *copy;

  g_return_val_if_fail (series != NULL, NULL);

  copy = duel_series_new ();
  g_array_append_vals (copy->rows, series->rows->data, series->rows->len);
  return copy;
}

void
duel_series_free (DuelSeries *series)
{
  if (series == NULL)
    return;
  g_array_unref (series->rows);
  g_free (series);
}

void
duel_series_append (DuelSeries          *series,
                    const DuelSeriesRow *row)
{
  g_return_if_fail (series != NULL);
  g_return_if_fail (row != NULL);

  g_array_append_vals (series->rows, row, 1);
}

void
duel_series_reserve (DuelSeries *series,
                     guint       n_rows)
{
  g_return_if_fail (series != NULL);

  /* GArray has no reserve: an empty series takes a buffer of that size. */
  if (series->rows->len == 0 && n_rows > 0)
    {
      g_array_unref (series->rows);
      series->rows = g_array_sized_new (FALSE, TRUE, sizeof (DuelSeriesRow), n_rows);
    }
}

void
_duel_series_adopt_rows (DuelSeries *series,
                         GArray     *rows)
{
  g_return_if_fail (series != NULL);
  g_return_if_fail (rows != NULL);
  g_return_if_fail (series->rows->len == 0);
  g_return_if_fail (g_array_get_element_size (rows) == sizeof (DuelSeriesRow));

  g_array_unref (series->rows);
  series->rows = rows;
}

guint
duel_series_get_length (const DuelSeries *series)
{
  g_return_val_if_fail (series != NULL, 0);

  return series->rows->len;
}

const DuelSeriesRow *
duel_series_get_row (const DuelSeries *series,
                     guint             index)
{
  g_return_val_if_fail (series != NULL, NULL);
  g_return_val_if_fail (index < series->rows->len, NULL);

  return &g_array_index (series->rows, DuelSeriesRow, index);
}

const DuelSeriesRow *
duel_series_get_rows (const DuelSeries *series)
{
  g_return_val_if_fail (series != NULL, NULL);

  return (const DuelSeriesRow *) (gpointer) series->rows->data;
}

void
duel_series_sum (const DuelSeries *series,
                 DuelSeriesRow    *out_total)
{
  g_return_if_fail (series != NULL);
  g_return_if_fail (out_total != NULL);

  *out_total = (DuelSeriesRow) { .temperature_c = NAN };
  for (guint i = 0; i < series->rows->len; i++)
    {
      const DuelSeriesRow *row = &g_array_index (series->rows, DuelSeriesRow, i);

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
  g_return_if_fail (index < series->rows->len);

  g_array_index (series->rows, DuelSeriesRow, index).temperature_c = temperature_c;
}
