/* duel-journal-private.h — the checkpoint journal: its lines and how they fold into a result
 *
 * A run that checkpoints (DuelCheckpointer) appends what changed to
 * "<result>.journal" instead of saving the whole result; duel_result_load()
 * folds the journal back in. The format is documented in
 * docs/result-format.md ("The checkpoint journal").
 *
 * The writer folds each line it writes into its own copy of the result with
 * the same code the loader uses, so what it saves at a compaction is what a
 * loader would have made of file and journal.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "duel-formats.h"
#include "duel-result.h"

G_BEGIN_DECLS

#define DUEL_JOURNAL_VERSION 1

typedef enum
{
  DUEL_JOURNAL_LINE_FOLDED,    /* the result changed */
  DUEL_JOURNAL_LINE_KNOWN,     /* already in the result (an older row or state) */
  DUEL_JOURNAL_LINE_INVALID,   /* corrupt, or would make the result unloadable: stop here */
} DuelJournalLine;

typedef struct _DuelJournalFold DuelJournalFold;

/* "<save_path>.journal" */
char            *_duel_journal_path_for      (const char            *save_path);

/* Each appends one whole line, '\n' included. */
void             _duel_journal_append_header (GString               *out,
                                              const char            *journal_id);
void             _duel_journal_append_test   (GString               *out,
                                              guint                  test,
                                              const DuelTestRecord  *record);
void             _duel_journal_append_row    (GString               *out,
                                              guint                  test,
                                              guint                  index,
                                              const DuelSeriesRow   *row);
void             _duel_journal_append_state  (GString               *out,
                                              guint                  test,
                                              guint                  rows,
                                              guint64                runtime_ns,
                                              DuelTestStatus         status,
                                              const DuelHistogram   *read,
                                              const DuelHistogram   *write);

/* Folds lines into @result (not owned; it must outlive the fold). */
DuelJournalFold *_duel_journal_fold_new      (DuelResult            *result);
void             _duel_journal_fold_free     (DuelJournalFold       *fold);
/* One line without its '\n'; @error says why it is invalid (for debugging). */
DuelJournalLine  _duel_journal_fold_line     (DuelJournalFold       *fold,
                                              const char            *line,
                                              gsize                  length,
                                              GError               **error);

/* A whole journal: FALSE (nothing folded) unless its header names
 * @result's journal id; then its lines up to the first invalid one or the
 * torn last one. @out_folded: lines that changed the result. */
gboolean         _duel_journal_fold_data     (DuelResult            *result,
                                              const char            *data,
                                              gsize                  length,
                                              guint                 *out_folded);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DuelJournalFold, _duel_journal_fold_free)

G_END_DECLS
