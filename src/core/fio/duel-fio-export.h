/* duel-fio-export.h — the fio job file that reproduces a test
 *
 * So that a reader can check a published comparison with fio: every test of
 * a result becomes one job with the same access pattern, block size, queue
 * depth, span, stop rule and log interval.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "result/duel-result.h"

G_BEGIN_DECLS

/* One job section ("[name]" and its options) for @record; @filename may be
 * NULL to leave the target to the [global] section. */
char     *duel_fio_export_job    (const DuelTestRecord *record,
                                  const char           *filename);
/* A whole job file: a [global] section for the target, then every test of
 * @result in order, each waiting for the previous one (stonewall). */
char     *duel_fio_export_result (DuelResult           *result);
gboolean  duel_fio_export_save   (DuelResult           *result,
                                  const char           *path,
                                  GError              **error);

G_END_DECLS
