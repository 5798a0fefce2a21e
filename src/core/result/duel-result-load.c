/* duel-result-load.c — a saved result: its file, and the journal beside it folded in
 *
 * duel_result_load() reads the file with the reader's checks
 * (duel-result-reader.c), then folds in a journal that a run left beside
 * it when it stopped while checkpointing (duel-journal.c). It stands above
 * both: the journal itself is read with the reader's checks.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "duel-error.h"
#include "duel-journal-private.h"
#include "duel-result-internal.h"
#include "duel-result-private.h"
#include "duel-result.h"

/* A journal beside the file (a run that was checkpointing when it stopped)
 * is folded in when it names the file's journal_id. The folded result no
 * longer needs that journal: a save of it must not name it again. */
static void
fold_journal (DuelResult *self,
              const char *path)
{
  g_autofree char *target = NULL;
  g_autofree char *journal = NULL;
  g_autofree char *data = NULL;
  g_autoptr(GError) error = NULL;
  gsize length = 0;
  GStatBuf st;

  /* Beside the file a link points to: where its run wrote the journal. */
  target = realpath (path, NULL);
  if (target == NULL)
    return;
  journal = _duel_journal_path_for (target);
  if (g_stat (journal, &st) != 0)
    {
      /* Said to the reader: its tests end at the file's last save. */
      if (errno == ENOENT)
        self->missing_journal = g_steal_pointer (&journal);
      return;
    }
  if (!S_ISREG (st.st_mode) || (guint64) st.st_size > MAX_FILE_SIZE)
    return;
  if (!g_file_get_contents (journal, &data, &length, &error))
    {
      g_debug ("Not folding %s: %s", journal, error->message);
      return;
    }
  /* Its rows are appended to series that grow by doubling: held with the
   * journal's text, within what loading it may take. */
  {
    guint64 lines = 0;

    for (const char *p = data; (p = memchr (p, '\n', length - (gsize) (p - data))) != NULL; p++)
      lines++;
    if (length + lines * 2 * sizeof (DuelSeriesRow) > _duel_result_memory_budget (length, 0))
      {
        g_debug ("Not folding %s: %" G_GUINT64_FORMAT " lines in %" G_GSIZE_FORMAT " bytes would take too much memory",
                 journal, lines, length);
        return;
      }
  }
  if (_duel_journal_fold_data (self, data, length, NULL))
    g_clear_pointer (&self->journal_id, g_free);
}

DuelResult *
duel_result_load (const char  *path,
                  GError     **error)
{
  g_autoptr(DuelResult) result = NULL;
  g_autofree char *display = NULL;
  g_autofree char *data = NULL;
  GStatBuf st;
  gsize length = 0;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  display = g_filename_display_name (path);

  /* Refuse before reading a huge file into memory. */
  if (g_stat (path, &st) == 0 && S_ISREG (st.st_mode) && (guint64) st.st_size > MAX_FILE_SIZE)
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT,
                   _("%s: the file is larger than 2 GiB, too large to be a Drive Duel result."), display);
      return NULL;
    }
  if (!g_file_get_contents (path, &data, &length, error))
    return NULL;

  result = _duel_result_load_from_file_data (&data, length, display, error);
  if (result != NULL && result->journal_id != NULL)
    fold_journal (result, path);
  return g_steal_pointer (&result);
}
