/* duel-passes.h — how the records of a repeated test combine
 *
 * A test run in passes leaves one record per pass, all of the test's name
 * (details "pass" and "passes"). Their figures combine into one set: the
 * best pass's, by the test's first figure that has a better side, as
 * CrystalDiskMark picks its best run; every figure is then that pass's, so
 * that figures computed from one another agree. Beside each, the mean,
 * the lowest and the highest of the passes. A test run once is its one
 * record's figures. A test run in rounds to steady state combines its
 * window of rounds instead (duel-rounds.h): their mean. The comparison's
 * rows are made from these.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "duel-analysis.h"
#include "result/duel-result.h"

G_BEGIN_DECLS

/* One figure of a test, its records combined. The strings are the
 * records' own. */
typedef struct
{
  const char *key;
  double      value;      /* NAN for a stored null; the best pass of a test run in passes */
  const char *unit;
  DuelBetter  better;
  guint       n_passes;   /* passes with a value; 0: the test ran once */
  double      mean;       /* of the passes; NAN when it ran once */
  double      min;
  double      max;
  guint       pass;       /* the record @value is from, an index into DuelPasses.records */
} DuelPassFigure;

typedef struct
{
  GPtrArray *records;     /* DuelTestRecord, the result's: the test's records in file order */
  GArray    *figures;     /* DuelPassFigure, keys in the order the passes first hold them */
  /* The record the figures stand for (the best pass): 0 when the test ran
   * once, or when no figure has a better side (then each figure is the
   * best of its own passes, see DuelPassFigure.pass). */
  guint      chosen;
  /* A test in rounds (SNIA PTS): the records are the window's rounds, each
   * figure's value their mean (the longest latency: the longest), and only
   * the figures the test is judged by; 0 and FALSE otherwise. */
  guint      first_round;
  guint      last_round;
  gboolean   steady;
} DuelPasses;

/* The records of @result named @test, combined into @out; clear it with
 * duel_passes_clear(). A test @result does not hold has no records and no
 * figures. */
void                  duel_passes_combine        (DuelResult           *result,
                                                  const char           *test,
                                                  DuelPasses           *out);
void                  duel_passes_clear          (DuelPasses           *passes);
/* Every record of @result named @test, in file order: one, or a test's
 * passes. The records are the result's. */
GPtrArray            *duel_passes_find_records   (DuelResult           *result,
                                                  const char           *test);
/* One record's summary figures in file order (DuelPassFigure, n_passes 0). */
GArray               *duel_passes_record_figures (const DuelTestRecord *record);
/* The figure of @key in @figures (DuelPassFigure), or NULL. */
const DuelPassFigure *duel_passes_find_figure    (GArray               *figures,
                                                  const char           *key);
/* A stored record without figures (an older file, a cancelled run) is
 * summarised again from what it holds, when its analysis is known. */
void                  duel_passes_ensure_summary (DuelTestRecord       *record);

G_END_DECLS
