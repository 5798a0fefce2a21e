/* duel-chart-matrix.h — SNIA's matrix plots: a test in rounds, cell by cell, from its window means
 *
 * The base of the SNIA PTS result charts (IOPS, latency, throughput): each
 * drive's cells (block size × read/write mix) as the means over its
 * measurement window (analysis/duel-rounds.h). One drive: SNIA's 2D plot,
 * a line per mix across the block sizes (log axes); IOPS and latency
 * compared over drives: the chosen block size ("block-size", 4 KiB), a bar
 * per drive for each mix, as the other comparison charts draw; throughput
 * always as bars, a group per block size and direction. A subclass names
 * its tests and what it plots in its class; nothing else.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "duel-chart-private.h"

G_BEGIN_DECLS

typedef enum
{
  DUEL_CHART_MATRIX_IOPS,        /* IOPS */
  DUEL_CHART_MATRIX_LATENCY,     /* mean and maximum latency */
  DUEL_CHART_MATRIX_THROUGHPUT,  /* MB/s, read and write */
} DuelChartMatrixKind;

#define DUEL_TYPE_CHART_MATRIX (duel_chart_matrix_get_type ())

G_DECLARE_DERIVABLE_TYPE (DuelChartMatrix, duel_chart_matrix, DUEL, CHART_MATRIX, DuelChart)

struct _DuelChartMatrixClass
{
  DuelChartClass      parent_class;

  /* The tests it shows: every test in rounds whose id starts so
   * ("pts-throughput" takes both block sizes' tests). */
  const char         *section_prefix;
  DuelChartMatrixKind kind;
};

/* The block size compared across drives: "block-size", or the smallest
 * the drives ran where none ran that. */
guint32 duel_chart_matrix_get_block_size (DuelChartMatrix *self);

G_END_DECLS
