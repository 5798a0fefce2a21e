/* duel-series.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include "duel-series.h"
#include "duel-series-private.h"

/* Rows [from, to) of a view's base left out; @moved_ms is the time of the
 * rows left out up to @to, this gap's included (wrapping as the rows' times
 * would: their differences telescope). Gaps are in order, apart. */
typedef struct
{
  guint   from, to;
  guint64 moved_ms;
} Gap;

/* The rows in a buffer of their own rather than a GArray: a GArray holds
 * a power of two, up to twice the rows, and a long run's series is most of
 * the memory a loaded result takes (docs/result-format.md#memory). A
 * series that is appended to (a run) grows by doubling; one the loader
 * reserved or adopted holds its rows exactly. */
struct _DuelSeries
{
  DuelSeriesRow *rows;
  guint          len;          /* a view: the rows it has */
  guint          capacity;

  /* A view (duel_series_new_view()): @base's rows without the gaps. */
  const DuelSeries *base;
  Gap              *gaps;
  guint             n_gaps;
};

DuelSeries *
duel_series_new (void)
{
  return g_new0 (DuelSeries, 1);
}

DuelSeries *
duel_series_new_view (const DuelSeries *base)
{
  DuelSeries *view;

  g_return_val_if_fail (base != NULL, NULL);
  g_return_val_if_fail (base->base == NULL, NULL);

  view = duel_series_new ();
  view->base = base;
  view->len = base->len;
  return view;
}

/* The time of the base's rows [from, to), from < to. */
static guint64
span_ms (const DuelSeries *base,
         guint             from,
         guint             to)
{
  return base->rows[to - 1].t_ms - (from > 0 ? base->rows[from - 1].t_ms : 0);
}

void
duel_series_leave_out (DuelSeries *view,
                       guint       first_row,
                       guint       n_rows)
{
  const DuelSeries *base;
  Gap *last;
  guint to;
  guint64 moved_ms;

  g_return_if_fail (view != NULL && view->base != NULL);

  base = view->base;
  to = (guint) MIN ((guint64) first_row + n_rows, (guint64) base->len);
  if (first_row >= to)
    return;
  last = view->n_gaps > 0 ? &view->gaps[view->n_gaps - 1] : NULL;
  g_return_if_fail (last == NULL || first_row >= last->from);

  if (last != NULL && first_row <= last->to)
    {
      /* Over or beside the last gap: it grows. */
      guint64 before = last->moved_ms - span_ms (base, last->from, last->to);

      if (to <= last->to)
        return;
      view->len -= to - last->to;
      last->to = to;
      last->moved_ms = before + span_ms (base, last->from, last->to);
      return;
    }
  moved_ms = (last != NULL ? last->moved_ms : 0) + span_ms (base, first_row, to);
  view->gaps = g_renew (Gap, view->gaps, view->n_gaps + 1);
  view->gaps[view->n_gaps++] = (Gap) { .from = first_row, .to = to, .moved_ms = moved_ms };
  view->len -= to - first_row;
}

DuelSeries *
duel_series_copy (const DuelSeries *series)
{
  DuelSeries *copy;

  g_return_val_if_fail (series != NULL, NULL);

  copy = duel_series_new ();
  if (series->base != NULL)
    {
      DuelSeriesIter iter;
      const DuelSeriesRow *row;

      duel_series_reserve (copy, series->len);
      duel_series_iter_init (&iter, series);
      while ((row = duel_series_iter_next (&iter)) != NULL)
        duel_series_append (copy, row);
      return copy;
    }
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
  g_free (series->gaps);
  g_free (series);
}

void
duel_series_append (DuelSeries          *series,
                    const DuelSeriesRow *row)
{
  g_return_if_fail (series != NULL && series->base == NULL);
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
  g_return_if_fail (series != NULL && series->base == NULL);

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
  g_return_if_fail (series != NULL && series->base == NULL);
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
  g_return_val_if_fail (series != NULL && series->base == NULL, NULL);
  g_return_val_if_fail (index < series->len, NULL);

  return &series->rows[index];
}

const DuelSeriesRow *
duel_series_get_rows (const DuelSeries *series)
{
  g_return_val_if_fail (series != NULL && series->base == NULL, NULL);

  return series->rows;
}

void
duel_series_sum (const DuelSeries *series,
                 DuelSeriesRow    *out_total)
{
  DuelSeriesIter iter;
  const DuelSeriesRow *row;

  g_return_if_fail (series != NULL);
  g_return_if_fail (out_total != NULL);

  *out_total = (DuelSeriesRow) { .temperature_c = NAN };
  duel_series_iter_init (&iter, series);
  while ((row = duel_series_iter_next (&iter)) != NULL)
    {
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
  DuelSeriesRow row, prev;

  g_return_val_if_fail (series != NULL, 0);
  g_return_val_if_fail (index < series->len, 0);

  duel_series_read_row (series, index, &row);
  if (index == 0)
    return row.t_ms;
  duel_series_read_row (series, index - 1, &prev);
  return row.t_ms - prev.t_ms;
}

gboolean
duel_series_read_row (const DuelSeries *series,
                      guint             index,
                      DuelSeriesRow    *out_row)
{
  guint raw = index;
  guint64 moved_ms = 0;

  g_return_val_if_fail (series != NULL, FALSE);
  g_return_val_if_fail (out_row != NULL, FALSE);

  if (index >= series->len)
    return FALSE;
  if (series->base == NULL)
    {
      *out_row = series->rows[index];
      return TRUE;
    }
  /* Past each gap that begins at or before it. */
  for (guint g = 0; g < series->n_gaps && series->gaps[g].from <= raw; g++)
    {
      raw += series->gaps[g].to - series->gaps[g].from;
      moved_ms = series->gaps[g].moved_ms;
    }
  *out_row = series->base->rows[raw];
  out_row->t_ms -= moved_ms;
  return TRUE;
}

void
duel_series_iter_init (DuelSeriesIter   *iter,
                       const DuelSeries *series)
{
  g_return_if_fail (iter != NULL);
  g_return_if_fail (series != NULL);

  iter->series = series;
  iter->index = 0;
  iter->raw = 0;
  iter->gap = 0;
}

const DuelSeriesRow *
duel_series_iter_next (DuelSeriesIter *iter)
{
  const DuelSeries *series, *base;

  g_return_val_if_fail (iter != NULL, NULL);

  series = iter->series;
  base = series->base;
  if (base == NULL)
    return iter->raw < series->len ? &series->rows[iter->raw++] : NULL;
  /* The view's rows, whatever was appended to its base since. */
  if (iter->index >= series->len)
    return NULL;
  if (iter->gap < series->n_gaps && iter->raw == series->gaps[iter->gap].from)
    iter->raw = series->gaps[iter->gap++].to;
  iter->index++;
  iter->row = base->rows[iter->raw++];
  if (iter->gap > 0)
    iter->row.t_ms -= series->gaps[iter->gap - 1].moved_ms;
  return &iter->row;
}

void
duel_series_set_temperature (DuelSeries *series,
                             guint       index,
                             double      temperature_c)
{
  g_return_if_fail (series != NULL && series->base == NULL);
  g_return_if_fail (index < series->len);

  series->rows[index].temperature_c = temperature_c;
}
