/* duel-result-internal.h — what the result's model, writer and reader share
 *
 * A result is kept in four files by their job: the model
 * (duel-result.c), the writer that turns it into the file's text and saves
 * it (duel-result-writer.c), the loader that reads that text back as
 * hostile input (duel-result-reader.c), and the load of a saved file with
 * the journal beside it folded in (duel-result-load.c). Those four, and
 * nothing else, include this header: the instance struct, the series
 * columns and the directions as the file names them, and the writer's and
 * the reader's pieces the others reuse. What the journal reuses is
 * duel-result-private.h.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "duel-result.h"

G_BEGIN_DECLS

/* A day of 100 ms rows is ~100 MB of JSON; far larger files are not results. */
#define MAX_FILE_SIZE (G_GUINT64_CONSTANT (2) << 30)

struct _DuelResult
{
  GObject         parent_instance;

  char           *name;
  char           *derived_name;    /* cache behind duel_result_get_name() */
  char           *tool_name;
  char           *tool_version;
  GDateTime      *created;
  gboolean        published;
  DuelTargetInfo  target;
  JsonObject     *device;
  JsonObject     *rated;
  char           *journal_id;      /* the journal that extends the file; NULL: none */
  char           *missing_journal; /* that journal's path when it was not beside the file */
  GPtrArray      *tests;           /* DuelTestRecord */
};

/* "read" and "write", by DuelDirection, as the file's totals name them. */
extern const char * const _duel_result_direction_names[DUEL_N_DIRECTIONS];

/* The series' columns, as the file names them. */
typedef enum
{
  COLUMN_T_MS,
  COLUMN_READ_OPS,
  COLUMN_WRITE_OPS,
  COLUMN_READ_BYTES,
  COLUMN_WRITE_BYTES,
  COLUMN_READ_LAT_MAX,
  COLUMN_WRITE_LAT_MAX,
  N_INT_COLUMNS
} Column;

/* The temperature column, a double or null, follows the integer ones. */
#define COLUMN_TEMPERATURE N_INT_COLUMNS
#define N_COLUMNS (N_INT_COLUMNS + 1)

extern const char * const _duel_result_column_names[N_COLUMNS];

/* The field of @row that integer column @column holds. Inline: the writer
 * and the loader call it for every value of every row. */
static inline guint64 *
_duel_result_row_field (DuelSeriesRow *row,
                        Column         column)
{
  switch (column)
    {
    case COLUMN_T_MS:          return &row->t_ms;
    case COLUMN_READ_OPS:      return &row->ops[DUEL_DIRECTION_READ];
    case COLUMN_WRITE_OPS:     return &row->ops[DUEL_DIRECTION_WRITE];
    case COLUMN_READ_BYTES:    return &row->bytes[DUEL_DIRECTION_READ];
    case COLUMN_WRITE_BYTES:   return &row->bytes[DUEL_DIRECTION_WRITE];
    case COLUMN_READ_LAT_MAX:  return &row->lat_max_ns[DUEL_DIRECTION_READ];
    case COLUMN_WRITE_LAT_MAX: return &row->lat_max_ns[DUEL_DIRECTION_WRITE];
    case N_INT_COLUMNS:
    default:
      g_assert_not_reached ();
    }
}

/* The writer's (duel-result-writer.c). */

/* The text of the result file, exactly what duel_result_save() writes. */
GString    *_duel_result_to_text               (DuelResult *self);

/* The reader's (duel-result-reader.c). */

/* duel_result_load_from_data() of a file's text that the load frees as
 * soon as json-glib has parsed it (*@data is then NULL), for
 * duel_result_load(). */
DuelResult *_duel_result_load_from_file_data   (char       **data,
                                                gsize        length,
                                                const char  *source_name,
                                                GError     **error);

G_END_DECLS
