/* duel-json.h — reading JSON that may hold anything
 *
 * Results, fio output and device records come from files: any member may
 * be missing or of another type. Each getter checks the node first and
 * answers NULL (or FALSE) for anything but what it asks for, so a caller
 * never reads a node of the wrong type. The result reader's checks, which
 * must also say what was wrong and where, are built on the node tests.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* A JSON integer (json-glib's int64). */
gboolean    duel_json_node_is_integer (JsonNode   *node);
/* A JSON number: an integer or a double. */
gboolean    duel_json_node_is_number  (JsonNode   *node);

/* @object's member @member if it is of that type, else NULL; @object may
 * be NULL, so that lookups chain. */
JsonObject *duel_json_get_object      (JsonObject *object,
                                       const char *member);
JsonArray  *duel_json_get_array       (JsonObject *object,
                                       const char *member);
const char *duel_json_get_string      (JsonObject *object,
                                       const char *member);
/* A finite number in *@out_value, else FALSE (missing, null, not a number). */
gboolean    duel_json_get_number      (JsonObject *object,
                                       const char *member,
                                       double     *out_value);

/* Where json-glib's parse error @message ("<data>:LINE:COLUMN: Parse
 * error: …") says the text broke, for a message people read instead of
 * json-glib's English one; FALSE when it does not say. */
gboolean    duel_json_error_position  (const char *message,
                                       guint64    *out_line,
                                       guint64    *out_column);

/* A double as a member: JSON has no NaN or infinity (json-glib would
 * print "nan", which no parser reads back), so a value that could not be
 * computed is null. */
void        duel_json_set_double_or_null (JsonObject *object,
                                          const char *member,
                                          double      value);
/* @value, or the next double away from zero when json-glib would write it
 * as text no parser reads: it appends ".0" to a number written without a
 * point, so 1e-08 becomes "1e-08.0" (1.0000000000000001e-08 is written as
 * it is). Finite values only; others are returned as they are. */
double      duel_json_writable_double    (double      value);
/* A deep copy of free-form data (device, rated, details) with non-finite
 * numbers replaced by null, so that a file written from it always parses. */
JsonObject *duel_json_object_copy_writable (JsonObject *object);

/* What json-glib 1.6 mishandles on hostile text (deep nesting, integers
 * beyond 64 bits, lone surrogates, a NUL escape that would cut a string,
 * more than one top-level value), checked before parsing. Sets @out_problem to a translated phrase. */
gboolean    duel_json_prescan         (const char  *data,
                                       gsize        length,
                                       const char **out_problem);

G_END_DECLS
