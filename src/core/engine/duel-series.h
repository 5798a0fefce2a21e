/* duel-series.h — per-interval counters of a run, one row per interval
 *
 * Memory grows with the number of intervals, never with the number of I/Os.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  DUEL_DIRECTION_READ = 0,
  DUEL_DIRECTION_WRITE = 1,
  DUEL_N_DIRECTIONS
} DuelDirection;

typedef struct
{
  guint64 t_ms;                              /* end of the interval, from the run's start */
  guint64 ops[DUEL_N_DIRECTIONS];
  guint64 bytes[DUEL_N_DIRECTIONS];
  guint64 lat_max_ns[DUEL_N_DIRECTIONS];
  double  temperature_c;                     /* NAN when not polled */
} DuelSeriesRow;

typedef struct _DuelSeries DuelSeries;

DuelSeries          *duel_series_new          (void);
/* A view of @base: its rows without those left out (duel_series_leave_out()),
 * each later row moved back in time by the time of the rows left out before
 * it, as if they had never been. No row is copied: a long run's rows are
 * most of the memory a loaded result takes (docs/result-format.md#memory).
 * @base must outlive the view and not change while it is read. A view is
 * read by the functions below that take a const series, and in order with
 * duel_series_iter_*(); it has no row pointers (duel_series_get_row(),
 * _get_rows() return NULL) and takes no rows. */
DuelSeries          *duel_series_new_view     (const DuelSeries    *base);
/* Leaves @base's rows [@first_row, @first_row + @n_rows) out of @view
 * (those it has); ranges in order of @first_row, they may overlap. */
void                 duel_series_leave_out    (DuelSeries          *view,
                                               guint                first_row,
                                               guint                n_rows);
DuelSeries          *duel_series_copy         (const DuelSeries    *series);
void                 duel_series_free         (DuelSeries          *series);
/* Room for @n_rows rows in an empty series, so that appending them does
 * not grow it by doubling (a loader knows the count). */
void                 duel_series_reserve      (DuelSeries          *series,
                                               guint                n_rows);
void                 duel_series_append       (DuelSeries          *series,
                                               const DuelSeriesRow *row);
guint                duel_series_get_length   (const DuelSeries    *series);
const DuelSeriesRow *duel_series_get_row      (const DuelSeries    *series,
                                               guint                index);
const DuelSeriesRow *duel_series_get_rows     (const DuelSeries    *series);
void                 duel_series_sum          (const DuelSeries    *series,
                                               DuelSeriesRow       *out_total);
/* Annotates a row already appended (the temperature is polled apart from the I/O). */
void                 duel_series_set_temperature (DuelSeries *series,
                                                  guint       index,
                                                  double      temperature_c);
/* Interval length of row @index in ms (the first row starts at 0). */
guint64              duel_series_row_duration_ms (const DuelSeries *series,
                                                  guint             index);
/* Row @index of any series, a view's included, into @out_row; FALSE past the end. */
gboolean             duel_series_read_row     (const DuelSeries    *series,
                                               guint                index,
                                               DuelSeriesRow       *out_row);

/* Reads the rows of any series in order, a view's included:
 *
 *   DuelSeriesIter iter;
 *   const DuelSeriesRow *row;
 *
 *   duel_series_iter_init (&iter, series);
 *   while ((row = duel_series_iter_next (&iter)) != NULL)
 *     …
 *
 * A row stays valid until the next call. */
typedef struct
{
  /*< private >*/
  const DuelSeries *series;
  guint             index;   /* the next row */
  guint             raw;     /* the next of the rows read (a view's base's) */
  guint             gap;     /* the next range left out */
  DuelSeriesRow     row;     /* a view's row, moved back */
} DuelSeriesIter;

void                 duel_series_iter_init    (DuelSeriesIter      *iter,
                                               const DuelSeries    *series);
const DuelSeriesRow *duel_series_iter_next    (DuelSeriesIter      *iter);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DuelSeries, duel_series_free)

G_END_DECLS
