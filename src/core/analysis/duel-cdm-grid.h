/* duel-cdm-grid.h — the CrystalDiskMark set as CrystalDiskMark shows it
 *
 * Rows in CrystalDiskMark's own notation (SEQ1M Q8T1, SEQ1M Q1T1 or the
 * NVMe profile's SEQ128K Q32T1, RND4K Q32T16, RND4K Q1T1), a Read and a
 * Write column, one column pair per drive. Each cell is the best pass of its
 * step, the pass the comparison keeps (duel-comparison.h: the best by the
 * step's first ranked figure), in CrystalDiskMark 8's three units: MB/s
 * (10^6 bytes per second, as CrystalDiskMark counts), IOPS and µs (the mean
 * latency of one I/O). Every value is recomputed from the record: its bytes
 * and I/Os over its runtime, its latency histogram's exact sum over its
 * count. The mean of the passes and the lowest and highest pass come with
 * it, unit by unit.
 *
 * The text is CrystalDiskMark's "Copy" text in shape (a [Read] and a
 * [Write] block, each line MB/s [IOPS] <µs>, then the profile, the passes
 * and the test size), with the best-of-N line under each row; Markdown
 * gives a table for a forum.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "duel-comparison.h"
#include "result/duel-result.h"

G_BEGIN_DECLS

typedef enum
{
  DUEL_CDM_UNIT_MB_S,    /* 10^6 bytes per second */
  DUEL_CDM_UNIT_IOPS,
  DUEL_CDM_UNIT_US,      /* mean latency of one I/O, µs */
  DUEL_CDM_N_UNITS
} DuelCdmUnit;

typedef enum
{
  DUEL_CDM_TEXT_PLAIN,     /* CrystalDiskMark's "Copy" text */
  DUEL_CDM_TEXT_MARKDOWN,  /* a table */
} DuelCdmTextFormat;

typedef struct
{
  guint   n_passes;                  /* records of the step; 0: the drive did not run it */
  guint   best_pass;                 /* 1-based, the pass the values are from */
  double  best[DUEL_CDM_N_UNITS];    /* the best pass, NAN where not measured */
  double  mean[DUEL_CDM_N_UNITS];    /* over the passes */
  double  min[DUEL_CDM_N_UNITS];
  double  max[DUEL_CDM_N_UNITS];
  /* The best pass's own totals, from which best[] is computed. */
  guint64 bytes;
  guint64 ops;
  guint64 runtime_ns;
  guint64 test_bytes;                /* the span it ran on */
  guint64 runtime_ms;                /* its time limit (CrystalDiskMark's measure time) */
} DuelCdmCell;

typedef struct _DuelCdmGrid DuelCdmGrid;

/* NULL when no drive of @comparison ran a step of the CrystalDiskMark set. */
DuelCdmGrid       *duel_cdm_grid_new            (DuelComparison *comparison);
/* The same for one result; NULL without such a step (or without a test). */
DuelCdmGrid       *duel_cdm_grid_new_for_result (DuelResult     *result);
void               duel_cdm_grid_free           (DuelCdmGrid    *self);

guint              duel_cdm_grid_get_n_drives   (DuelCdmGrid    *self);
const char        *duel_cdm_grid_get_drive_name (DuelCdmGrid    *self,
                                                 guint           drive);
/* Whether @drive ran CrystalDiskMark's NVMe profile (SEQ128K Q32T1). */
gboolean           duel_cdm_grid_is_nvme        (DuelCdmGrid    *self,
                                                 guint           drive);
/* The rows some drive ran: 4 for one profile, 5 when profiles differ. */
guint              duel_cdm_grid_get_n_rows     (DuelCdmGrid    *self);
/* CrystalDiskMark's notation, the same in every language: "RND4K Q32T16". */
const char        *duel_cdm_grid_get_row_label  (DuelCdmGrid    *self,
                                                 guint           row);
/* The record name of a row's step in one direction ("cdm-rnd4k-q32t16-read"). */
const char        *duel_cdm_grid_get_row_test   (DuelCdmGrid    *self,
                                                 guint           row,
                                                 DuelDirection   direction);
const DuelCdmCell *duel_cdm_grid_get_cell       (DuelCdmGrid    *self,
                                                 guint           drive,
                                                 guint           row,
                                                 DuelDirection   direction);
/* The most passes any step of @drive ran. */
guint              duel_cdm_grid_get_n_passes   (DuelCdmGrid    *self,
                                                 guint           drive);

/* Whether @test (a record name) is a step of the grid. */
gboolean           duel_cdm_grid_has_step       (const char     *test);

/* "MB/s", "IOPS", "µs": symbols, the same in every language. */
const char        *duel_cdm_unit_get_symbol     (DuelCdmUnit     unit);
/* "mbps", "iops", "us" (the CLI's --cdm-units). */
gboolean           duel_cdm_unit_from_nick      (const char     *nick,
                                                 DuelCdmUnit    *out_unit);
/* A value as CrystalDiskMark shows it, grouped as the locale groups:
 * "3,502.12" (MB/s and µs: two decimals; IOPS: one); "–" when not finite. */
char              *duel_cdm_format_value        (double          value,
                                                 DuelCdmUnit     unit);
/* Under a cell: "best of 5 (pass 2), mean 3,300.10, spread 3,100.00–3,502.12
 * MB/s (12 %)"; "run once" for one pass; "" when the step did not run. */
char              *duel_cdm_cell_format_passes  (const DuelCdmCell *cell,
                                                 DuelCdmUnit        unit);

/* The grid as text to paste in a forum: @unit is the unit of Markdown's
 * table and of every best-of-N line (the plain text's rows carry all three,
 * as CrystalDiskMark's do). */
char              *duel_cdm_grid_to_text        (DuelCdmGrid       *self,
                                                 DuelCdmUnit        unit,
                                                 DuelCdmTextFormat  format);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DuelCdmGrid, duel_cdm_grid_free)

G_END_DECLS
