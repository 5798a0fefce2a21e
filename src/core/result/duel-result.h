/* duel-result.h — a result file: the target, its identity, and the tests run on it
 *
 * The format is documented in docs/result-format.md.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "duel-file-writer.h"
#include "duel-formats.h"
#include "engine/duel-target.h"
#include "engine/duel-test-record.h"

G_BEGIN_DECLS

#define DUEL_RESULT_VERSION 1
/* Each test holds two ~20 KiB histograms: a small hostile file with
 * millions of tiny tests must not turn into gigabytes. */
#define DUEL_RESULT_MAX_TESTS 4096

#define DUEL_TYPE_RESULT (duel_result_get_type ())

G_DECLARE_FINAL_TYPE (DuelResult, duel_result, DUEL, RESULT, GObject)

typedef struct
{
  char           *path;
  DuelTargetKind  kind;
  guint64         size_bytes;
  guint32         logical_block_size;
  guint32         physical_block_size;
} DuelTargetInfo;

DuelResult           *duel_result_new              (void);
/* Validates format, version, required fields and units; errors name @path.
 * A journal left beside the file by an interrupted run ("<path>.journal",
 * see DuelCheckpointer) is folded in when it belongs to the file. */
DuelResult           *duel_result_load             (const char      *path,
                                                    GError         **error);
/* The same checks on text in memory (what a fuzzer drives); @source_name
 * names the input in errors. */
DuelResult           *duel_result_load_from_data   (const char      *data,
                                                    gsize            length,
                                                    const char      *source_name,
                                                    GError         **error);
DuelResult           *duel_result_new_from_json    (JsonNode        *root,
                                                    const char      *source_name,
                                                    GError         **error);
JsonNode             *duel_result_to_json          (DuelResult      *self);
/* Atomic, through the file writer (duel-file-writer.h): a new file, or one
 * that replaces a Drive Duel result or an empty file at @path (never
 * through a link). Safe to call during a run (a checkpoint) as long as no
 * test record is being changed meanwhile. */
gboolean              duel_result_save             (DuelResult      *self,
                                                    const char      *path,
                                                    GError         **error);
/* The same as @name in @folder, under @flags' rules. */
gboolean              duel_result_save_in          (DuelResult      *self,
                                                    DuelFolder      *folder,
                                                    const char      *name,
                                                    DuelWriteFlags   flags,
                                                    GError         **error);

const DuelTargetInfo *duel_result_get_target       (DuelResult      *self);
void                  duel_result_set_target       (DuelResult      *self,
                                                    const DuelTargetInfo *info);
void                  duel_result_set_target_from  (DuelResult      *self,
                                                    DuelTarget      *target);
/* The program that made the result ("driveduel", or e.g. "fio" for an import). */
const char           *duel_result_get_tool_name    (DuelResult      *self);
const char           *duel_result_get_tool_version (DuelResult      *self);
void                  duel_result_set_tool         (DuelResult      *self,
                                                    const char      *name,
                                                    const char      *version);
GDateTime            *duel_result_get_created      (DuelResult      *self);
/* Stored in UTC; a new result is created "now". */
void                  duel_result_set_created      (DuelResult      *self,
                                                    GDateTime       *created);
/* A user-chosen name ("Intel SSD 750"), else derived from the device model or path. */
const char           *duel_result_get_name         (DuelResult      *self);
void                  duel_result_set_name         (DuelResult      *self,
                                                    const char      *name);
/* Identity and health of the device (model, firmware, link, SMART before/after);
 * free-form, filled by the device layer. May be NULL. The setters take a
 * reference (they do not copy); non-finite numbers are saved as null. */
JsonObject           *duel_result_get_device       (DuelResult      *self);
void                  duel_result_set_device       (DuelResult      *self,
                                                    JsonObject      *device);
/* Vendor-rated figures ("rated" in the file), for "rated vs measured". May be NULL. */
JsonObject           *duel_result_get_rated        (DuelResult      *self);
void                  duel_result_set_rated        (DuelResult      *self,
                                                    JsonObject      *rated);
/* TRUE for reference files of published figures: sparse points, not a measured curve. */
gboolean              duel_result_is_published     (DuelResult      *self);
void                  duel_result_set_published    (DuelResult      *self,
                                                    gboolean         published);

/* Set while a run checkpoints into the file (DuelCheckpointer): names the
 * journal beside it, "<file>.journal", that duel_result_load() folds in.
 * NULL in a finished result. */
const char           *duel_result_get_journal_id   (DuelResult      *self);
void                  duel_result_set_journal_id   (DuelResult      *self,
                                                    const char      *journal_id);
/* After duel_result_load(): the path of the journal the file names when no
 * journal was beside it (copied without it, or removed), so what the run
 * recorded after the file's last save is lost; NULL otherwise. */
const char           *duel_result_get_missing_journal (DuelResult   *self);

GPtrArray            *duel_result_get_tests        (DuelResult      *self);   /* DuelTestRecord */
void                  duel_result_add_test         (DuelResult      *self,
                                                    DuelTestRecord  *record);
DuelTestRecord       *duel_result_find_test        (DuelResult      *self,
                                                    const char      *name);

/* The loader's rule for a file is what every writer must meet: TRUE when
 * what duel_result_save() would write loads again; else the broken rule,
 * as one sentence without a file name. */
gboolean              duel_result_check_loadable   (DuelResult      *self,
                                                    GError         **error);

void                  duel_target_info_clear       (DuelTargetInfo  *info);

G_END_DECLS
