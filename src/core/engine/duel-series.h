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

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DuelSeries, duel_series_free)

G_END_DECLS
