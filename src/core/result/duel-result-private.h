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

#include "duel-json-shape-private.h"
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
 * (duel-json-shape-private.h): the same result or the same error,
 * which the tests and the fuzz target hold it to. */
DuelResult     *_duel_result_load_from_data_in_tree (const char  *data,
                                                     gsize        length,
                                                     const char  *source_name,
                                                     GError     **error);
/* The series columns' names as the file has them, and which one is the
 * temperature (a double or null). Taken from the text, the series of
 * test t are the rows of its table 0 (_duel_json_shaped_get_table()),
 * column c being field c. */
const char * const *_duel_result_series_column_names (guint *out_n,
                                                      guint *out_double_column);
/* What the loader reads of a result file (duel-json-shape-private.h). */
const DuelShape    *_duel_result_get_shape          (void);

/* The memory loading text of @length bytes that holds @n_tests tests may
 * take (docs/result-format.md): three times the text, at least 16 MiB,
 * and each test's fixed size (its two histograms). The fio import and the
 * journal keep to it too. */
guint64         _duel_result_memory_budget          (guint64      length,
                                                     guint64      n_tests);
/* The sentence that refuses a load which would take @needed bytes of
 * memory for text of @length bytes, most of it for @region (a path, or
 * NULL), in *@out_message. Returns FALSE. */
gboolean        _duel_result_memory_refusal         (guint64      needed,
                                                     guint64      length,
                                                     const char  *region,
                                                     char       **out_message);

G_END_DECLS
