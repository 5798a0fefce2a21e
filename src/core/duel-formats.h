/* duel-formats.h — the names that begin each kind of file Drive Duel writes
 *
 * A file Drive Duel may replace or remove without asking is recognised by
 * its first bytes (duel-file-writer.h): these names are that recognition,
 * in one place for the writers and for the checks.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

/* {"format": "driveduel-result", …}: a result file (docs/result-format.md) */
#define DUEL_RESULT_FORMAT      "driveduel-result"
/* "driveduel-journal VERSION ID\n": the checkpoint journal beside a result */
#define DUEL_JOURNAL_FORMAT     "driveduel-journal"
/* "driveduel-lock\n": the lock file beside a result being written */
#define DUEL_LOCK_FORMAT        "driveduel-lock"
/* "driveduel-made-files VERSION\n": the record of files Drive Duel made */
#define DUEL_MADE_FILES_FORMAT  "driveduel-made-files"
