/* duel-text.h — untrusted text made safe to show
 *
 * Names and strings in a result or an fio file come from whoever wrote the
 * file. Shown raw, a name holding ESC sequences rewrites the terminal
 * ("\x1b[2J"), bidirectional overrides reorder what is read, and a name of
 * 100 KB makes every table and file name built from it unusable. Loaders
 * pass every string through here once, so that every consumer (the CLI,
 * the window, the exports) gets printable text.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* Names ("name" members: the result's, a test's; fio's "jobname") longer
 * than this many characters are cut there, ending in "…". */
#define DUEL_TEXT_NAME_MAX_CHARS 256

/* TRUE when @text (valid UTF-8) holds a character that controls a terminal
 * or the reading order: C0 controls, DEL, C1 controls, bidirectional
 * embeddings, overrides and isolates. */
gboolean duel_text_has_controls   (const char *text);
/* @text with each such character written out: \n, \t, \r, \x1b for the
 * ASCII ones, \u202E for the others; a copy when there is none. A message
 * quoting a file's contents stays one line and cannot drive the terminal. */
char    *duel_text_escape         (const char *text);
/* @time in the local zone as a person reads it, translated: "Dec 6, 2026
 * 11:30" (never "12/06/26", which reads two ways). */
char    *duel_text_format_time    (GDateTime  *time);
/* @seconds as a person reads a duration, translated: "2 h 05 min",
 * "3 min 20 s", "45 s"; "?" when not finite or negative. */
char    *duel_text_format_duration (double      seconds);
/* @text cut to @max_chars characters, the last one "…"; a copy when shorter. */
char    *duel_text_bound          (const char *text,
                                   gsize       max_chars);
/* Every string value of the tree under @root escaped, and every name
 * bounded to DUEL_TEXT_NAME_MAX_CHARS, in place. Strings that need
 * neither are left as they are. */
void     duel_text_make_printable (JsonNode   *root);
/* Terminal columns @text takes: two for a wide (CJK) character, none for
 * a combining mark, one for the rest. */
glong    duel_text_columns        (const char *text);

G_END_DECLS
