/* duel-result-private.h — the loader's and the writer's pieces a journal reuses
 *
 * The checkpointer's journal (duel-journal.c) carries tests in the result
 * file's own JSON shape and histograms under the file's rules, so it is
 * read with the loader's own checks and what it folds into a result always
 * saves and loads again.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "duel-result.h"

G_BEGIN_DECLS

/* A deep copy: the header, every test, its rows and histograms. */
DuelResult     *_duel_result_copy                  (DuelResult           *self);
/* A deep copy of free-form JSON, non-finite numbers as null (what a save writes). */
JsonObject     *_duel_result_copy_json_object      (JsonObject           *object);
/* A test as the file has it up to "interval_ms", plus its "summary": no
 * runtime, series or totals. */
JsonObject     *_duel_result_test_header_to_json   (const DuelTestRecord *record);
/* The reverse, with the loader's checks for tests[@index] of a result on
 * @target; the record's series and histograms are empty, its runtime 0. */
DuelTestRecord *_duel_result_test_header_from_json (JsonObject           *test,
                                                    guint                 index,
                                                    const DuelTargetInfo *target,
                                                    GError              **error);
/* The loader's rules for a histogram's totals against its buckets (count,
 * min and max in the first and last bucket used, the sums); @prefix names
 * it in errors. */
gboolean        _duel_result_check_histogram       (DuelHistogram        *hist,
                                                    const char           *prefix,
                                                    GError              **error);

/* duel_result_load_from_data() with every series column parsed in the
 * json-glib tree, as before the columns were taken from the text
 * (duel-series-columns-private.h): the same result or the same error,
 * which the tests and the fuzz target hold it to. */
DuelResult     *_duel_result_load_from_data_in_tree (const char  *data,
                                                     gsize        length,
                                                     const char  *source_name,
                                                     GError     **error);
/* The series columns' names as the file has them, and which one is the
 * temperature (a double or null). */
const char * const *_duel_result_series_column_names (guint *out_n,
                                                      guint *out_double_column);

G_END_DECLS
