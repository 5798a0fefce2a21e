/* duel-workload-option.h — the workload's options in one table: fio's names, ranges, syntax
 *
 * The CLI's run options, the fio import and the fio export, and the checks
 * on a workload all read this table (as fio's own options.c is read by its
 * parser, its help and its job-file writer), so a range or a name is stated
 * once.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "duel-workload.h"

G_BEGIN_DECLS

typedef enum
{
  DUEL_WORKLOAD_OPTION_BLOCK_SIZE,
  DUEL_WORKLOAD_OPTION_QUEUE_DEPTH,
  DUEL_WORKLOAD_OPTION_NUMJOBS,
  DUEL_WORKLOAD_OPTION_READ_PERCENT,
  DUEL_WORKLOAD_OPTION_RUNTIME,
  DUEL_WORKLOAD_OPTION_INTERVAL,
  DUEL_WORKLOAD_OPTION_SEED,
  DUEL_N_WORKLOAD_OPTIONS
} DuelWorkloadOptionId;

typedef enum
{
  DUEL_WORKLOAD_OPTION_KIND_SIZE,     /* bytes; "4k" (powers of 1024) */
  DUEL_WORKLOAD_OPTION_KIND_COUNT,    /* a whole number */
  DUEL_WORKLOAD_OPTION_KIND_PERCENT,  /* 0..100 */
  DUEL_WORKLOAD_OPTION_KIND_TIME,     /* milliseconds; fio: "5" (s), "500ms", "2m" */
} DuelWorkloadOptionKind;

typedef struct
{
  DuelWorkloadOptionId   id;
  const char            *fio_name;    /* fio's option, and the CLI's --NAME where it has one */
  const char            *fio_alias;   /* fio's other name for it, or NULL */
  const char            *cli_name;    /* the CLI's option without "--", or NULL */
  const char            *result_key;  /* its member in a result's workload object */
  DuelWorkloadOptionKind kind;
  guint64                min, max;
  const char            *label;       /* translatable: "block size" (N_) */
} DuelWorkloadOption;

const DuelWorkloadOption *duel_workload_option_get        (DuelWorkloadOptionId      id);
/* By fio's name or alias; NULL when the table has no such option. */
const DuelWorkloadOption *duel_workload_option_find_fio   (const char               *name);

guint64      duel_workload_option_read      (const DuelWorkloadOption *option,
                                             const DuelWorkload       *workload);
/* Stores @value when it is within the option's range; otherwise one
 * sentence naming the option and its range. */
gboolean     duel_workload_option_write     (const DuelWorkloadOption *option,
                                             DuelWorkload             *workload,
                                             guint64                   value,
                                             GError                  **error);
/* Without the range check: for a reader that reports ranges later. */
void         duel_workload_option_store     (const DuelWorkloadOption *option,
                                             DuelWorkload             *workload,
                                             guint64                   value);
gboolean     duel_workload_option_check     (const DuelWorkloadOption *option,
                                             guint64                   value,
                                             GError                  **error);
/* @text in the CLI's syntax (sizes with k/m/g/t, plain whole numbers, the
 * interval in ms), range-checked, into @workload. */
gboolean     duel_workload_option_parse_cli (const DuelWorkloadOption *option,
                                             const char               *text,
                                             DuelWorkload             *workload,
                                             GError                  **error);
/* @text as fio writes it (job files, its JSON's job options), range-checked. */
gboolean     duel_workload_option_parse_fio (const DuelWorkloadOption *option,
                                             const char               *text,
                                             guint64                  *out_value,
                                             GError                  **error);
/* "bs=4096", "runtime=5000ms": a job-file line without its newline. */
char        *duel_workload_option_to_fio    (const DuelWorkloadOption *option,
                                             guint64                   value);

/* fio's syntax, for the import's options outside the table (size, offset). */
gboolean     duel_parse_fio_size            (const char               *text,
                                             guint64                  *out_bytes);
gboolean     duel_parse_fio_time_ms         (const char               *text,
                                             guint64                  *out_ms);

G_END_DECLS
