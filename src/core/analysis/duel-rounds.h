/* duel-rounds.h — how the records of a test run in rounds combine: steady state and the matrix
 *
 * A test in rounds (SNIA PTS; review/duel-review-test.h, DuelReviewRounds)
 * leaves one record per cell and round, each with details.round and the
 * rules it ran under in details.rounds. From those
 * records alone (a loaded file as much as a finished run) this finds the
 * tracked cell's value in each round, the first window of rounds that
 * passes SNIA's limits (or, when none did, the last window, and that it
 * did not), and each cell's figures as the mean over that window: the
 * report SNIA asks for.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "duel-analysis.h"
#include "result/duel-result.h"

G_BEGIN_DECLS

/* One cell of the matrix: its figures averaged over the window. */
typedef struct
{
  char    *name;          /* the record name: "pts-iops-4k-r65" */
  guint32  block_size;
  guint    read_percent;
  guint    n_rounds;      /* of the window's rounds that ran it */
  double   iops;          /* NAN when no round of the window had it */
  double   mbps;
  double   latency_mean_us;
  double   latency_p9999_us;
  double   latency_max_us; /* the longest of the window's rounds */
} DuelRoundsCell;

typedef struct
{
  char                 *section;      /* the test's id, from the records */
  guint                 n_rounds;     /* rounds the tracked cell ran */
  guint                 max_rounds;
  guint                 window;
  double                data_limit;
  double                slope_limit;
  char                 *tracked_step;
  char                 *tracked_key;
  GArray               *tracked;      /* double: the tracked figure of each round */
  gboolean              steady;       /* a window passed */
  guint                 steady_round; /* 1-based last round of the first passing window; 0 */
  DuelSteadyStateWindow measured;     /* that window, or the last one when none passed */
  GPtrArray            *cells;        /* DuelRoundsCell, in the order the records ran */
  char                 *purge_method; /* details.discard.method of its preconditioning; NULL: unknown */
  char                 *purge_refused;/* the drive's answer when it refused the format; NULL */
} DuelRoundsReport;

/* The report of the test in rounds named @section in @result (NULL: the
 * first such test); NULL when @result has no records of one. */
DuelRoundsReport *duel_rounds_report_new  (DuelResult       *result,
                                           const char       *section);
void              duel_rounds_report_free (DuelRoundsReport *report);
/* The cell of @block_size and @read_percent; NULL when it did not run. */
const DuelRoundsCell *duel_rounds_report_find_cell (const DuelRoundsReport *report,
                                                    guint32                 block_size,
                                                    guint                   read_percent);
/* The tests in rounds @result holds (their details.section), in the order
 * they ran; empty when none. */
GStrv             duel_rounds_list_sections (DuelResult      *result);
/* The round @record ran in (details.round, from 1); 0 when it ran in none. */
guint             duel_rounds_record_get_round (DuelTestRecord *record);
/* Whether @record ran in a round (details.round). */
gboolean          duel_rounds_record_in_round (DuelTestRecord *record);

/* The purge @method (details.discard.method) in words: "an NVMe format
 * with user data erase (Format NVM)"; NULL for an unknown one. */
const char       *duel_rounds_describe_purge (const char *method);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DuelRoundsReport, duel_rounds_report_free)

G_END_DECLS
