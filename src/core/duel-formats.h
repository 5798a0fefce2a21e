/* duel-formats.h — the names that begin each kind of file Drive Duel writes
 *
 * A file Drive Duel may replace or remove without asking is recognised by
 * its first bytes (duel-file-writer.h): these names, and the checks that
 * read them, are that recognition, in one place for the writers and for
 * the checks.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* {"format": "driveduel-result", …}: a result file (docs/result-format.md) */
#define DUEL_RESULT_FORMAT      "driveduel-result"
/* "driveduel-journal VERSION ID\n": the checkpoint journal beside a result */
#define DUEL_JOURNAL_FORMAT     "driveduel-journal"
/* "driveduel-lock\n": the lock file beside a result being written */
#define DUEL_LOCK_FORMAT        "driveduel-lock"
/* "driveduel-made-files VERSION\n": the record of files Drive Duel made */
#define DUEL_MADE_FILES_FORMAT  "driveduel-made-files"

/* Whether the file open on @fd begins as a Drive Duel result, a journal,
 * the record of made files. */
gboolean duel_file_is_result      (int fd);
gboolean duel_file_is_journal     (int fd);
gboolean duel_file_is_made_record (int fd);

G_END_DECLS
