/* duel-series-columns-private.h — a result's series columns, read straight from the text
 *
 * A result's series grow with the run (10^6 rows and more for a long fill)
 * and are almost all of its file. Parsed into a json-glib tree they cost
 * ~13 times the file; the loader instead takes each column of plain
 * numbers out of the text into a typed array first, and hands json-glib
 * the rest, where each column taken is `null`.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _DuelSeriesColumns DuelSeriesColumns;

/* Takes out of @data every array that is tests[i].series.NAME for a NAME
 * of @names (@n_names of them; @double_column's values are numbers or
 * null, NAN for null, the others integers 0 to 2^63-1) and holds only
 * such values, written as JSON writes them, where json-glib reads it as
 * that key's value and goes on past it ("NAME": [ … ] then , or }).
 * Returns the rest of the text, each array taken replaced by `null`, in
 * *@out_text (NUL-terminated, *@out_length bytes), or NULL with nothing
 * taken when there is nothing to take or when the file names a key on that
 * path twice or with an escape (then the tree alone must decide which
 * value counts). An array that holds anything else is left in the text for
 * the loader's own checks. @data must have passed duel_json_prescan(). */
DuelSeriesColumns *_duel_series_columns_extract (const char         *data,
                                                 gsize               length,
                                                 const char * const *names,
                                                 guint               n_names,
                                                 guint               double_column,
                                                 char              **out_text,
                                                 gsize              *out_length);
/* json-glib's @message about the rest (@rest, from _extract()) with its
 * "<data>:LINE:COLUMN:" as that place is in the file (@data): a parse error
 * never falls on a column taken or right after it, so the rest of the
 * message is the file's. NULL when the message has no such place. */
char              *_duel_series_columns_map_error (DuelSeriesColumns *columns,
                                                   const char        *data,
                                                   gsize              length,
                                                   const char        *rest,
                                                   gsize              rest_length,
                                                   const char        *message);
void               _duel_series_columns_free    (DuelSeriesColumns  *columns);

/* Column @column of test @test, or NULL when it was not taken; its
 * length in *@out_n. Integer columns as guint64, @double_column as double. */
const guint64     *_duel_series_columns_get_uint   (DuelSeriesColumns *columns,
                                                    guint              test,
                                                    guint              column,
                                                    gsize             *out_n);
const double      *_duel_series_columns_get_double (DuelSeriesColumns *columns,
                                                    guint              test,
                                                    guint              column,
                                                    gsize             *out_n);
/* Frees test @test's columns once they have been read. */
void               _duel_series_columns_release    (DuelSeriesColumns *columns,
                                                    guint              test);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DuelSeriesColumns, _duel_series_columns_free)

G_END_DECLS
