/* duel-cli-figures.h — printing summary figures, shared by `run --preset` and `analyze`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "analysis/duel-analysis.h"
#include "result/duel-result.h"

G_BEGIN_DECLS

/* One test: a heading, then "label  value" per figure of @summary.
 * @missing_journal: the journal a loaded file names that was not beside
 * it (duel_result_get_missing_journal()), or NULL. */
void duel_cli_print_figures (const DuelTestRecord *record,
                             const DuelSummary    *summary,
                             const char           *missing_journal);

/* "  ⚠ Sequential read: 2,000.0 MB/s is faster than the link (600 MB/s): a
 * cache, not the drive." for each throughput of @record above the link
 * ceiling @result's device records (duel_analysis_dup_ceiling_notes());
 * @summary NULL: a plain run's totals. Nothing without a ceiling. */
void duel_cli_print_ceiling_notes (DuelResult           *result,
                                   const DuelTestRecord *record,
                                   const DuelSummary    *summary);

/* The CrystalDiskMark grid of @result (duel-cdm-grid.h): its best passes
 * in MB/s, IOPS and µs, with each step's best-of-N line, as CrystalDiskMark's
 * "Copy" text. Nothing when @result ran no step of the set. */
void duel_cli_print_cdm_grid (DuelResult *result);

/* A test run in rounds (SNIA PTS): whether and where it was steady, the
 * tracked cell's window against its limits, and the matrix of each cell's
 * IOPS, the mean over that window (duel-rounds.h). Nothing without one. */
void duel_cli_print_rounds (DuelResult *result);

G_END_DECLS
