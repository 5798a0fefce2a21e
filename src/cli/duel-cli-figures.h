/* duel-cli-figures.h — printing summary figures, shared by `run --preset` and `analyze`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "duel-analysis.h"

G_BEGIN_DECLS

/* One test: a heading, then "label  value" per figure of @summary.
 * @missing_journal: the journal a loaded file names that was not beside
 * it (duel_result_get_missing_journal()), or NULL. */
void duel_cli_print_figures (const DuelTestRecord *record,
                             const DuelSummary    *summary,
                             const char           *missing_journal);

G_END_DECLS
