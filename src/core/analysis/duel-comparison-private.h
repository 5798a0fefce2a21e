/* duel-comparison-private.h — what the comparison's files share, for them alone
 *
 * duel-comparison.c makes the comparison (its assembly, the winners, what
 * it is asked), duel-comparison-rows.c its rows, duel-comparison-checks.c
 * its warnings and notes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "duel-comparison.h"

G_BEGIN_DECLS

/* What a fairness warning is about, for grouping: its cause (a phrase
 * marked for translation, kept untranslated) and its test's title; a
 * warning with no cause stands alone. */
typedef struct
{
  const char *cause;
  const char *title;      /* the comparison's own string, or NULL */
} DuelWarningOrigin;

struct _DuelComparison
{
  GObject     parent_instance;

  DuelResult *results[DUEL_COMPARISON_MAX_DRIVES];
  char       *names[DUEL_COMPARISON_MAX_DRIVES];
  guint       n_drives;
  GArray     *rows;        /* DuelComparisonRow */
  GPtrArray  *tests;       /* char*, NULL-terminated */
  GPtrArray  *warnings;    /* char*, NULL-terminated */
  GArray     *origins;     /* DuelWarningOrigin, one per warning: how they group */
  char       *missing_causes[DUEL_COMPARISON_MAX_DRIVES];  /* "X has no results", made on first use */
  GHashTable *notes;       /* test name → GPtrArray of char*, NULL-terminated */
  GHashTable *section_titles;   /* test name → its heading, made on first use */
  GArray     *headline;   /* guint: indices of the rows the review leads with */
  gboolean    has_rated;
  /* The drives some row rates, found once on the first ask (the rows are
   * made by then); n_rated_drives -1 until then. */
  gint        n_rated_drives;
  guint       rated_drives[DUEL_COMPARISON_MAX_DRIVES];
  guint       rated_attached[DUEL_COMPARISON_MAX_DRIVES];   /* bit per rated_keys[] entry */
};

/* duel-comparison.c */
void _duel_comparison_row_clear           (gpointer           data);
/* The winner columns of a row from its values. */
void _duel_comparison_settle_row          (DuelComparisonRow *row,
                                           guint              n_drives);

/* duel-comparison-rows.c */
void _duel_comparison_add_identity_rows   (DuelComparison    *self);
void _duel_comparison_add_test_rows       (DuelComparison    *self,
                                           const char        *test);
void _duel_comparison_add_rated_rows      (DuelComparison    *self);

/* duel-comparison-checks.c */
void _duel_comparison_warn_missing        (DuelComparison    *self,
                                           const char        *test,
                                           guint              drive);
void _duel_comparison_check_fairness      (DuelComparison    *self,
                                           const char        *test,
                                           guint              i,
                                           guint              j);
void _duel_comparison_warn_left_out       (DuelComparison    *self,
                                           GPtrArray         *only[DUEL_COMPARISON_MAX_DRIVES]);
void _duel_comparison_check_target_kinds  (DuelComparison    *self);
void _duel_comparison_add_notes           (DuelComparison    *self,
                                           const char        *test);
void _duel_comparison_check_honesty       (DuelComparison    *self);

G_END_DECLS
