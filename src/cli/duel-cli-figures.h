/* duel-cli-figures.h — printing summary figures, shared by `run --preset` and `analyze`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "duel-analysis.h"

G_BEGIN_DECLS

/* One test: a heading, then "label  value" per figure of @summary. */
void duel_cli_print_figures (const DuelTestRecord *record,
                             const DuelSummary    *summary);

G_END_DECLS
