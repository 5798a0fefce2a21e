/* duel-checkpointer.c — copies from the engine thread, a journal from a writer thread
 *
 * The engine side (update) only copies: rows it has not handed over yet, a
 * test's description when it appears or changes, and per period the
 * runtime and histograms of a test that is running. The writer side turns
 * the copies into journal lines, folds each line into its shadow result
 * with the loader's own code (duel-journal.c) and appends the lines it
 * could fold; it syncs at most once per period and compacts (a full save
 * of the shadow, then a fresh journal) when the journal has grown past
 * max(1 MiB, the last full save).
 *
 * Every full save gets a new journal id, and the journal's header repeats
 * it: a journal left over from before (a crash between the save and the new
 * journal, or another run) never folds into a file it does not extend.
 *
 * A result already at the path is not replaced before the new run has
 * something to replace it with: the run writes RESULT.new (or .new-2, …:
 * the first name free with its journal) beside it, and renames both over
 * the old ones once a checkpoint holding rows is on disk (a synced
 * journal, a compaction, or the final save) — over a finished result only
 * once it holds at least as many rows, or the run finished too. A run that
 * measured nothing leaves the old result as it was; a run that stopped
 * with fewer rows than a finished result keeps it and is saved as
 * RESULT.stopped-DATE-TIME.json beside it.
 *
 * Every file is written through the one writer (duel-file-writer.h), by
 * name in the result's folder, opened once.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <sched.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "duel-checkpointer-private.h"
#include "duel-checkpointer.h"
#include "duel-error.h"
#include "duel-file-writer.h"
#include "duel-formats.h"
#include "duel-journal-private.h"
#include "duel-preflight.h"
#include "duel-result-private.h"
#include "duel-system.h"

#define NS_PER_SEC             G_GUINT64_CONSTANT (1000000000)
#define DEFAULT_PERIOD_NS      (2 * NS_PER_SEC)
#define DEFAULT_COMPACT_BYTES  (G_GUINT64_CONSTANT (1) << 20)
/* A failing compaction (a full disk) is retried, less and less often. */
#define MAX_RETRY_PERIODS      64
/* Below this much free room (or four whole saves) the run warns. */
#define ROOM_WARNING_BYTES     (G_GUINT64_CONSTANT (8) << 20)

typedef enum
{
  MSG_TEST,
  MSG_ROWS,
  MSG_STATE,
} MsgKind;

typedef struct
{
  MsgKind         kind;
  guint           test;

  /* MSG_TEST: what the test is, in a record of its own (strings, start
   * time and summary owned; no series, no histograms). */
  DuelTestRecord  header;

  /* MSG_ROWS */
  guint           first_row;
  guint           n_rows;
  DuelSeriesRow  *rows;

  /* MSG_STATE: taken after @state_rows rows */
  guint           state_rows;
  guint64         runtime_ns;
  DuelTestStatus  status;
  DuelHistogram  *latency[DUEL_N_DIRECTIONS];
} Msg;

/* What the engine side handed over of one test. */
typedef struct
{
  gboolean        seen;
  gboolean        frozen;          /* its series shrank: no more rows from it */
  gboolean        closed;          /* finished, and a test_finished update said so */
  guint           rows;            /* rows handed over */

  /* what the last state carried */
  guint           state_rows;
  DuelTestStatus  state_status;
  guint64         state_runtime_ns;

  /* what the last MSG_TEST carried, to notice a change in O(1); the
   * pointers are only compared, never followed */
  const char     *name;
  const char     *preset;
  const char     *error_message;
  GDateTime      *started;
  JsonObject     *summary;
  DuelTestStatus  status;
  DuelWorkload    workload;
  guint64         span_offset;
  guint64         span_length;
  guint64         byte_limit;
  gboolean        trimmed;
  guint           n_pauses;
  DuelPause       last_pause;      /* a pause changes only the last one, or adds one */
} Known;

struct _DuelCheckpointer
{
  GObject                parent_instance;

  char                  *result_path;      /* as given, for sentences */
  DuelFolder            *folder;           /* the result's folder, opened once */
  char                  *result_name;
  DuelWriteFlags         result_flags;     /* what may be replaced at result_name */
  char                  *save_name;        /* where saves go */
  char                  *journal_name;
  /* While an old result is kept: where save_name and journal_name go once
   * the run has rows on disk (the writer's, then the caller's after the join). */
  char                  *final_name;
  char                  *final_journal_name;
  guint64                old_rows;         /* of the result kept meanwhile */
  gboolean               old_finished;     /* every test of it complete */
  char                  *kept_name;        /* where this run went when the old one was kept */
  char                  *journal_path;     /* for get_journal_path() */
  gboolean               have_rows;        /* the writer folded a row */
  guint64                rows_folded;      /* the writer's: rows in the shadow */
  struct stat            save_st;          /* what the last save wrote at save_name */
  gboolean               folder_gone;      /* said once */
  gboolean               created_result;   /* no file was at result_name: this run made it */
  gboolean               deferred;         /* beside an old result: nothing written before a row */
  guint64                period_ns;
  guint64                compact_bytes;
  gboolean               compact_exact;    /* a test's threshold: the last save's size does not count */
  gboolean               started;
  gboolean               finished;

  /* The engine thread's. */
  GArray                *known;            /* Known, by test index */
  GPtrArray             *pending;          /* Msg, built before the hand-over */
  guint64                last_state_ns;

  /* Shared, under @lock. */
  GMutex                 lock;
  GCond                  work_cond;        /* the writer has work, or should stop */
  GCond                  done_cond;        /* the writer caught up */
  GPtrArray             *queue;            /* Msg */
  guint64                queued_batches;
  guint64                done_batches;
  gboolean               stopping;
  GError                *error;            /* the writer's first failure */
  gint                   failed;           /* atomic: @error is set, for a cheap poll */
  char                  *room_warning;     /* once, until taken */
  gboolean               room_warned;      /* the writer's */
  DuelCheckpointerStats  stats;            /* the writer's counters */
  GThread               *writer;

  /* The engine thread's counters, apart: never behind the writer's lock. */
  GMutex                 update_stats_lock;
  DuelCheckpointerStats  update_stats;

  /* The writer thread's (and the caller's before start and after the join). */
  DuelResult            *shadow;
  DuelJournalFold       *fold;
  GString               *out;
  GString               *line;
  int                    fd;
  guint64                journal_bytes;
  guint64                last_save_bytes;
  guint64                last_sync_ns;
  gboolean               unsynced;
  gboolean               broken;           /* the journal cannot be appended to */
  guint64                retry_ns;
  guint64                next_retry_ns;
};

G_DEFINE_FINAL_TYPE (DuelCheckpointer, duel_checkpointer, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_RESULT_PATH,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static guint64
now_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (guint64) ts.tv_sec * NS_PER_SEC + (guint64) ts.tv_nsec;
}

static gboolean
status_is_final (DuelTestStatus status)
{
  return status == DUEL_TEST_STATUS_COMPLETE ||
         status == DUEL_TEST_STATUS_CANCELLED ||
         status == DUEL_TEST_STATUS_FAILED;
}

static void
msg_free (gpointer data)
{
  Msg *msg = data;

  g_free (msg->header.name);
  g_free (msg->header.preset);
  g_free (msg->header.error_message);
  g_clear_pointer (&msg->header.started, g_date_time_unref);
  g_clear_pointer (&msg->header.summary, json_object_unref);
  g_clear_pointer (&msg->header.pauses, g_array_unref);
  g_free (msg->rows);
  for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
    g_free (msg->latency[d]);
  g_free (msg);
}

/* ---- the engine side ---------------------------------------------------- */

static void
remember_header (Known                *known,
                 const DuelTestRecord *record)
{
  known->name = record->name;
  known->preset = record->preset;
  known->error_message = record->error_message;
  known->started = record->started;
  known->summary = record->summary;
  known->status = record->status;
  memcpy (&known->workload, &record->workload, sizeof known->workload);
  known->span_offset = record->span_offset;
  known->span_length = record->span_length;
  known->byte_limit = record->byte_limit;
  known->trimmed = record->trimmed;
  known->n_pauses = duel_test_record_get_n_pauses (record);
  if (known->n_pauses > 0)
    known->last_pause = *duel_test_record_get_pause (record, known->n_pauses - 1);
}

/* A summary changed in place goes unnoticed here: the update after a test
 * got its summary says test_finished, which sends the header anyway. */
static gboolean
header_changed (const Known          *known,
                const DuelTestRecord *record)
{
  return known->name != record->name ||
         known->preset != record->preset ||
         known->error_message != record->error_message ||
         known->started != record->started ||
         known->summary != record->summary ||
         known->status != record->status ||
         memcmp (&known->workload, &record->workload, sizeof known->workload) != 0 ||
         known->span_offset != record->span_offset ||
         known->span_length != record->span_length ||
         known->byte_limit != record->byte_limit ||
         known->trimmed != record->trimmed ||
         known->n_pauses != duel_test_record_get_n_pauses (record) ||
         (known->n_pauses > 0 &&
          memcmp (&known->last_pause, duel_test_record_get_pause (record, known->n_pauses - 1), sizeof (DuelPause)) != 0);
}

static void
remember_state (Known                *known,
                const DuelTestRecord *record)
{
  known->state_rows = known->rows;
  known->state_status = record->status;
  known->state_runtime_ns = record->runtime_ns;
}

/* Histograms change only while a test runs; otherwise a state is sent only
 * when what it says changed. */
static gboolean
state_changed (const Known          *known,
               const DuelTestRecord *record)
{
  return record->status == DUEL_TEST_STATUS_RUNNING ||
         known->state_rows != known->rows ||
         known->state_status != record->status ||
         known->state_runtime_ns != record->runtime_ns;
}

static Msg *
test_msg (guint                 test,
          const DuelTestRecord *record)
{
  Msg *msg = g_new0 (Msg, 1);
  DuelTestRecord *header = &msg->header;

  msg->kind = MSG_TEST;
  msg->test = test;
  header->name = g_strdup (record->name);
  header->preset = g_strdup (record->preset);
  header->workload = record->workload;
  header->span_offset = record->span_offset;
  header->span_length = record->span_length;
  header->byte_limit = record->byte_limit;
  header->trimmed = record->trimmed;
  header->latency_kind = record->latency_kind;
  header->started = record->started != NULL ? g_date_time_ref (record->started) : NULL;
  header->status = record->status;
  header->error_message = g_strdup (record->error_message);
  if (record->pauses != NULL)
    header->pauses = g_array_copy (record->pauses);
  /* A deep copy: the engine thread may change the summary later. */
  if (record->summary != NULL)
    header->summary = _duel_result_copy_json_object (record->summary);
  return msg;
}

static Msg *
rows_msg (guint                test,
          const DuelSeriesRow *rows,
          guint                first,
          guint                n)
{
  Msg *msg = g_new0 (Msg, 1);

  msg->kind = MSG_ROWS;
  msg->test = test;
  msg->first_row = first;
  msg->n_rows = n;
  msg->rows = g_memdup2 (rows + first, (gsize) n * sizeof (DuelSeriesRow));
  return msg;
}

static Msg *
state_msg (guint                 test,
           guint                 rows,
           const DuelTestRecord *record)
{
  Msg *msg = g_new0 (Msg, 1);

  msg->kind = MSG_STATE;
  msg->test = test;
  msg->state_rows = rows;
  msg->runtime_ns = record->runtime_ns;
  msg->status = record->status;
  /* Fixed size, ~20 KiB each: a memcpy. */
  for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
    msg->latency[d] = g_memdup2 (record->latency[d], sizeof (DuelHistogram));
  return msg;
}

void
duel_checkpointer_update (DuelCheckpointer *self,
                          DuelResult       *result,
                          gboolean          test_finished)
{
  GPtrArray *tests;
  guint64 start_ns, end_ns, took;
  gboolean period_due;

  g_return_if_fail (DUEL_IS_CHECKPOINTER (self));
  g_return_if_fail (DUEL_IS_RESULT (result));
  g_return_if_fail (self->started && !self->finished);

  start_ns = now_ns ();
  tests = duel_result_get_tests (result);
  period_due = self->period_ns == 0 || start_ns - self->last_state_ns >= self->period_ns;

  if (self->known->len < tests->len)
    g_array_set_size (self->known, tests->len);

  for (guint i = 0; i < tests->len; i++)
    {
      DuelTestRecord *record = g_ptr_array_index (tests, i);
      Known *known = &g_array_index (self->known, Known, i);
      guint n = duel_series_get_length (record->series);
      gboolean appeared = !known->seen;
      /* A test_finished update describes every open test again: its
       * summary may have changed in place. */
      gboolean force = test_finished && !known->closed;

      /* A test is described before its first row, so the fold can add it. */
      if (appeared)
        {
          known->seen = TRUE;
          remember_header (known, record);
          g_ptr_array_add (self->pending, test_msg (i, record));
        }

      if (n < known->rows && !known->frozen)
        {
          g_debug ("The series of test %u shrank; its rows are left to the final save", i);
          known->frozen = TRUE;
        }
      if (!known->frozen && n > known->rows)
        {
          g_ptr_array_add (self->pending, rows_msg (i, duel_series_get_rows (record->series), known->rows, n - known->rows));
          known->rows = n;
        }

      if (!known->frozen && (force || period_due) && state_changed (known, record))
        {
          g_ptr_array_add (self->pending, state_msg (i, known->rows, record));
          remember_state (known, record);
        }

      /* After the state, so a finished test is never complete without its runtime. */
      if (!appeared && (force || header_changed (known, record)))
        {
          remember_header (known, record);
          g_ptr_array_add (self->pending, test_msg (i, record));
        }

      if (test_finished && status_is_final (record->status))
        known->closed = TRUE;
    }
  if (period_due)
    self->last_state_ns = start_ns;

  g_mutex_lock (&self->lock);
  for (guint i = 0; i < self->pending->len; i++)
    g_ptr_array_add (self->queue, g_ptr_array_index (self->pending, i));
  g_ptr_array_set_size (self->pending, 0);
  self->queued_batches++;
  g_mutex_unlock (&self->lock);
  /* After the unlock: the writer wakes to a free mutex, not to ours. */
  g_cond_signal (&self->work_cond);

  end_ns = now_ns ();
  took = end_ns - start_ns;
  g_mutex_lock (&self->update_stats_lock);
  self->update_stats.updates++;
  self->update_stats.update_total_ns += took;
  self->update_stats.update_max_ns = MAX (self->update_stats.update_max_ns, took);
  g_mutex_unlock (&self->update_stats_lock);
}

/* ---- the writer side ---------------------------------------------------- */

/* Keeps the first failure for dup_error(); later ones are only counted. */
static void
note_error (DuelCheckpointer *self,
            GError           *error)
{
  g_debug ("Checkpoint of %s/%s: %s", duel_folder_get_path (self->folder), self->save_name, error->message);
  g_mutex_lock (&self->lock);
  self->stats.errors++;
  if (self->error == NULL)
    self->error = g_error_copy (error);
  g_mutex_unlock (&self->lock);
  g_atomic_int_set (&self->failed, TRUE);
}

/* The free room of the result's filesystem, watched at each pass: a
 * warning, once, while a whole save (which the final one and a compaction
 * need beside the journal) still fits a few times over. */
static void
watch_room (DuelCheckpointer *self)
{
  struct statvfs sv;
  guint64 room, whole, need;
  g_autofree char *folder = NULL;

  if (self->room_warned || fstatvfs (self->fd, &sv) != 0)
    return;
  room = (guint64) sv.f_bavail * sv.f_frsize;
  whole = self->last_save_bytes + self->journal_bytes;
  need = MAX (4 * whole, (guint64) ROOM_WARNING_BYTES);
  if (room >= need)
    return;
  self->room_warned = TRUE;
  folder = g_filename_display_name (duel_folder_get_path (self->folder));
  g_mutex_lock (&self->lock);
  g_free (self->room_warning);
  /* TRANSLATORS: the folder of the result file, then a size in MiB */
  self->room_warning = g_strdup_printf (_("The filesystem of %s has only %.1f MiB left for the result; "
                                          "the run stops when a checkpoint no longer fits."),
                                        folder, room / 1048576.0);
  g_mutex_unlock (&self->lock);
}

static gboolean
write_all (DuelCheckpointer  *self,
           const char        *data,
           gsize              length,
           GError           **error)
{
  while (length > 0)
    {
      ssize_t n = write (self->fd, data, length);

      if (n < 0)
        {
          int saved_errno = errno;
          g_autofree char *display = NULL;

          if (saved_errno == EINTR)
            continue;
          display = duel_folder_dup_display (self->folder, self->journal_name);
          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                       _("Could not write the journal “%s”: %s"), display, g_strerror (saved_errno));
          return FALSE;
        }
      data += n;
      length -= (gsize) n;
    }
  return TRUE;
}

/* A fresh journal holding only its header, in place atomically, then
 * appended to through the same descriptor: the name is never opened again,
 * so nothing planted at it meanwhile is written to. */
static gboolean
open_journal (DuelCheckpointer  *self,
              const char        *journal_id,
              GError           **error)
{
  g_autoptr(GString) header = g_string_new (NULL);
  g_autoptr(DuelFileWriter) writer = NULL;

  _duel_journal_append_header (header, journal_id);
  writer = duel_file_writer_new_in (self->folder, self->journal_name,
                                    DUEL_WRITE_REPLACE_JOURNAL | DUEL_WRITE_REPLACE_EMPTY, error);
  if (writer == NULL ||
      !duel_file_writer_write (writer, header->str, header->len, error) ||
      !duel_file_writer_commit (writer, error))
    return FALSE;
  if (self->fd >= 0)
    close (self->fd);
  self->fd = duel_file_writer_steal_fd (writer);
  self->journal_bytes = header->len;
  self->unsynced = FALSE;
  return TRUE;
}

static guint64
count_rows (DuelResult *result)
{
  GPtrArray *tests = duel_result_get_tests (result);
  guint64 rows = 0;

  for (guint i = 0; i < tests->len; i++)
    rows += duel_series_get_length (((DuelTestRecord *) g_ptr_array_index (tests, i))->series);
  return rows;
}

static gboolean
all_complete (DuelResult *result)
{
  GPtrArray *tests = duel_result_get_tests (result);

  for (guint i = 0; i < tests->len; i++)
    if (((DuelTestRecord *) g_ptr_array_index (tests, i))->status != DUEL_TEST_STATUS_COMPLETE)
      return FALSE;
  return tests->len > 0;
}

/* The new result and its journal take the old one's names: from here on
 * the old result is gone. The journal's descriptor stays open on its file.
 * What is at the old names is checked again first: only what the run was
 * allowed to replace when it started is replaced now. */
static gboolean
commit (DuelCheckpointer  *self,
        GError           **error)
{
  g_autoptr(GError) local_error = NULL;

  if (self->final_name == NULL)
    return TRUE;
  if (!duel_file_writer_check_in (self->folder, self->final_name, self->result_flags, error) ||
      !duel_folder_rename (self->folder, self->save_name, self->final_name, TRUE, error))
    return FALSE;
  /* A crash between the two renames leaves the new file without its last
   * lines (at RESULT.new.journal), never a file with another's journal:
   * the ids differ. */
  if (!duel_file_writer_check_in (self->folder, self->final_journal_name,
                                  DUEL_WRITE_REPLACE_JOURNAL | DUEL_WRITE_REPLACE_EMPTY, &local_error) ||
      !duel_folder_rename (self->folder, self->journal_name, self->final_journal_name, TRUE, &local_error))
    {
      /* The result names a journal no loader finds: lines after the last
       * compaction would be lost to a crash. Said, and the run stops. */
      g_propagate_error (error, g_steal_pointer (&local_error));
      g_free (self->save_name);
      self->save_name = g_steal_pointer (&self->final_name);
      return FALSE;
    }
  g_free (self->save_name);
  self->save_name = g_steal_pointer (&self->final_name);
  g_free (self->journal_name);
  self->journal_name = g_steal_pointer (&self->final_journal_name);
  return TRUE;
}

/* Once rows are on disk, they replace an old result: a finished one only
 * once they are at least as many (a run stopped early must not cost it). */
static void
commit_if_measured (DuelCheckpointer *self)
{
  g_autoptr(GError) error = NULL;

  if (self->final_name != NULL && self->have_rows &&
      (!self->old_finished || self->rows_folded >= self->old_rows) &&
      !commit (self, &error))
    note_error (self, error);
}

/* @result whole at save_name: a new file there, or over this run's last
 * save (a result); remembered, so the run removes only what it wrote. */
static gboolean
save_whole (DuelCheckpointer  *self,
            DuelResult        *result,
            GError           **error)
{
  if (!duel_result_save_in (result, self->folder, self->save_name,
                            DUEL_WRITE_REPLACE_RESULT | DUEL_WRITE_REPLACE_EMPTY, error))
    return FALSE;
  if (duel_folder_stat (self->folder, self->save_name, &self->save_st) != 0)
    memset (&self->save_st, 0, sizeof self->save_st);
  return TRUE;
}

/* The shadow saved whole under a new journal id, then a journal for that id. */
static gboolean
save_shadow (DuelCheckpointer  *self,
             GError           **error)
{
  g_autofree char *journal_id = g_uuid_string_random ();
  g_autofree char *old_id = g_strdup (duel_result_get_journal_id (self->shadow));

  duel_result_set_journal_id (self->shadow, journal_id);
  if (!save_whole (self, self->shadow, error))
    {
      /* The file on disk still names the old journal, which goes on. */
      duel_result_set_journal_id (self->shadow, old_id);
      return FALSE;
    }
  self->last_save_bytes = (guint64) self->save_st.st_size;
  self->deferred = FALSE;
  /* Everything is in the file now: without a journal nothing is lost yet,
   * but the next lines need one. */
  if (!open_journal (self, journal_id, error))
    {
      self->broken = TRUE;
      return FALSE;
    }
  self->broken = FALSE;
  return TRUE;
}

static void
compact (DuelCheckpointer *self,
         guint64           now)
{
  g_autoptr(GError) error = NULL;
  guint64 start = now_ns (), took;

  if (save_shadow (self, &error))
    {
      self->retry_ns = self->period_ns;
      self->next_retry_ns = 0;
      commit_if_measured (self);
    }
  else
    {
      note_error (self, error);
      self->next_retry_ns = now + MAX (self->retry_ns, NS_PER_SEC / 10);
      self->retry_ns = MIN (MAX (self->retry_ns, NS_PER_SEC / 10) * 2,
                            MAX_RETRY_PERIODS * MAX (self->period_ns, NS_PER_SEC / 10));
    }
  took = now_ns () - start;

  g_mutex_lock (&self->lock);
  self->stats.compactions += error == NULL;
  self->stats.compaction_total_ns += took;
  self->stats.compaction_max_ns = MAX (self->stats.compaction_max_ns, took);
  g_mutex_unlock (&self->lock);
}

/* The line in self->line, folded into the shadow; kept for the journal
 * only when it folded (a line the loader would stop at is never written). */
static void
fold_line (DuelCheckpointer *self)
{
  g_autoptr(GError) error = NULL;
  DuelJournalLine kind;

  g_assert (self->line->len > 0 && self->line->str[self->line->len - 1] == '\n');

  kind = _duel_journal_fold_line (self->fold, self->line->str, self->line->len - 1, &error);
  if (kind == DUEL_JOURNAL_LINE_FOLDED)
    g_string_append_len (self->out, self->line->str, (gssize) self->line->len);
  else if (kind == DUEL_JOURNAL_LINE_INVALID)
    g_debug ("Not journalling a line the loader would refuse: %s", error != NULL ? error->message : "");
  g_string_truncate (self->line, 0);
}

static void
append_msg (DuelCheckpointer *self,
            const Msg        *msg)
{
  switch (msg->kind)
    {
    case MSG_TEST:
      _duel_journal_append_test (self->line, msg->test, &msg->header);
      fold_line (self);
      break;

    case MSG_ROWS:
      for (guint i = 0; i < msg->n_rows; i++)
        {
          _duel_journal_append_row (self->line, msg->test, msg->first_row + i, &msg->rows[i]);
          fold_line (self);
        }
      self->have_rows |= msg->n_rows > 0;
      self->rows_folded += msg->n_rows;
      break;

    case MSG_STATE:
      _duel_journal_append_state (self->line, msg->test, msg->state_rows, msg->runtime_ns, msg->status,
                                  msg->latency[DUEL_DIRECTION_READ], msg->latency[DUEL_DIRECTION_WRITE]);
      fold_line (self);
      break;

    default:
      g_assert_not_reached ();
    }
}

static void
write_batch (DuelCheckpointer *self,
             GPtrArray        *batch,
             gboolean          stopping)
{
  guint64 start = now_ns (), now, took;
  gboolean synced = FALSE;

  for (guint i = 0; i < batch->len; i++)
    append_msg (self, g_ptr_array_index (batch, i));

  /* A removed folder takes every later save with it: said at once, not
   * at the final save hours later. */
  if (!self->folder_gone && duel_folder_is_removed (self->folder))
    {
      g_autofree char *display = g_filename_display_name (duel_folder_get_path (self->folder));
      g_autoptr(GError) error = g_error_new (G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                                             _("The folder %s of the result was removed during the run"),
                                             display);

      self->folder_gone = TRUE;
      note_error (self, error);
      self->broken = TRUE;
    }

  /* Beside an old result nothing is written before there is a row to
   * keep: the lines are in the shadow, which the first save writes whole
   * (with a journal from then on). A run stopped before leaves nothing. */
  if (self->deferred)
    {
      g_string_truncate (self->out, 0);
      if (self->have_rows && !self->broken && now_ns () >= self->next_retry_ns)
        compact (self, now_ns ());
    }

  if (self->out->len > 0 && !self->broken)
    {
      g_autoptr(GError) error = NULL;

      if (write_all (self, self->out->str, self->out->len, &error))
        {
          self->journal_bytes += self->out->len;
          self->unsynced = TRUE;
        }
      else
        {
          /* A line may be half written: nothing more goes after it. The
           * shadow has everything; a compaction saves it. */
          note_error (self, error);
          self->broken = TRUE;
        }
    }
  g_string_truncate (self->out, 0);

  now = now_ns ();
  if (self->unsynced && !self->broken &&
      (stopping || self->period_ns == 0 || now - self->last_sync_ns >= self->period_ns))
    {
      if (fdatasync (self->fd) == 0)
        {
          self->unsynced = FALSE;
          self->last_sync_ns = now;
          synced = TRUE;
          commit_if_measured (self);
        }
      else
        {
          int saved_errno = errno;
          g_autofree char *display = duel_folder_dup_display (self->folder, self->journal_name);
          g_autoptr(GError) error = g_error_new (G_IO_ERROR, g_io_error_from_errno (saved_errno),
                                                 _("Could not write the journal “%s”: %s"),
                                                 display, g_strerror (saved_errno));

          note_error (self, error);
          self->broken = TRUE;
        }
    }
  took = now_ns () - start;

  g_mutex_lock (&self->lock);
  self->stats.writer_passes++;
  self->stats.checkpoints += synced;
  self->stats.writer_total_ns += took;
  self->stats.writer_max_ns = MAX (self->stats.writer_max_ns, took);
  g_mutex_unlock (&self->lock);

  /* A failed compaction (a full disk) waits before it is tried again; the
   * last pass never compacts: finish() saves the whole result next. */
  now = now_ns ();
  if (!stopping && now >= self->next_retry_ns &&
      (self->broken ||
       self->journal_bytes > (self->compact_exact ? self->compact_bytes
                                                  : MAX (self->compact_bytes, self->last_save_bytes))))
    compact (self, now);

  if (!self->broken)
    watch_room (self);

  g_mutex_lock (&self->lock);
  self->stats.journal_bytes = self->journal_bytes;
  g_mutex_unlock (&self->lock);
}

static gpointer
writer_main (gpointer data)
{
  DuelCheckpointer *self = data;
  GPtrArray *batch = g_ptr_array_new_with_free_func (msg_free);
  struct sched_param param = { 0 };

  /* Background work: its wake-ups should not preempt the engine thread
   * (SCHED_BATCH is disfavoured on wake-up, never starved). */
  if (sched_setscheduler (0, SCHED_BATCH, &param) != 0)
    g_debug ("SCHED_BATCH for the checkpoint writer: %s", g_strerror (errno));

  g_mutex_lock (&self->lock);
  for (;;)
    {
      GPtrArray *swap;
      guint64 taken;
      gboolean stopping;

      while (self->queue->len == 0 && !self->stopping)
        {
          /* Lines written but not synced are synced a period later even
           * when no update comes. */
          if (self->unsynced && !self->broken)
            {
              guint64 since = now_ns () - self->last_sync_ns;
              gint64 wait_us;

              if (since >= self->period_ns)
                break;
              /* Capped, so a huge period cannot overflow the deadline. */
              wait_us = (gint64) MIN ((self->period_ns - since) / 1000 + 1, (guint64) G_TIME_SPAN_HOUR);
              if (!g_cond_wait_until (&self->work_cond, &self->lock, g_get_monotonic_time () + wait_us))
                break;
            }
          else
            g_cond_wait (&self->work_cond, &self->lock);
        }

      swap = self->queue;
      self->queue = batch;
      batch = swap;
      taken = self->queued_batches;
      stopping = self->stopping;
      g_mutex_unlock (&self->lock);

      write_batch (self, batch, stopping);
      g_ptr_array_set_size (batch, 0);

      g_mutex_lock (&self->lock);
      self->done_batches = taken;
      g_cond_broadcast (&self->done_cond);
      if (stopping && self->queue->len == 0)
        break;
    }
  g_mutex_unlock (&self->lock);

  g_ptr_array_unref (batch);
  return NULL;
}

static void
stop_writer (DuelCheckpointer *self)
{
  if (self->writer == NULL)
    return;
  g_mutex_lock (&self->lock);
  self->stopping = TRUE;
  g_cond_signal (&self->work_cond);
  g_mutex_unlock (&self->lock);
  g_thread_join (g_steal_pointer (&self->writer));
}

/* ---- GObject -------------------------------------------------------------- */

static void
duel_checkpointer_dispose (GObject *object)
{
  DuelCheckpointer *self = (DuelCheckpointer *) object;

  /* Never finished (the caller gave up): the journal stays for a loader. */
  stop_writer (self);

  G_OBJECT_CLASS (duel_checkpointer_parent_class)->dispose (object);
}

static void
duel_checkpointer_finalize (GObject *object)
{
  DuelCheckpointer *self = (DuelCheckpointer *) object;

  if (self->fd >= 0)
    close (self->fd);
  g_clear_pointer (&self->result_path, g_free);
  g_clear_pointer (&self->folder, duel_folder_unref);
  g_clear_pointer (&self->result_name, g_free);
  g_clear_pointer (&self->save_name, g_free);
  g_clear_pointer (&self->journal_name, g_free);
  g_clear_pointer (&self->final_name, g_free);
  g_clear_pointer (&self->final_journal_name, g_free);
  g_clear_pointer (&self->kept_name, g_free);
  g_clear_pointer (&self->journal_path, g_free);
  g_clear_pointer (&self->known, g_array_unref);
  g_clear_pointer (&self->pending, g_ptr_array_unref);
  g_clear_pointer (&self->queue, g_ptr_array_unref);
  g_clear_error (&self->error);
  g_clear_pointer (&self->room_warning, g_free);
  g_clear_pointer (&self->fold, _duel_journal_fold_free);
  g_clear_object (&self->shadow);
  if (self->out != NULL)
    g_string_free (self->out, TRUE);
  if (self->line != NULL)
    g_string_free (self->line, TRUE);
  g_mutex_clear (&self->lock);
  g_mutex_clear (&self->update_stats_lock);
  g_cond_clear (&self->work_cond);
  g_cond_clear (&self->done_cond);

  G_OBJECT_CLASS (duel_checkpointer_parent_class)->finalize (object);
}

static void
duel_checkpointer_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  DuelCheckpointer *self = DUEL_CHECKPOINTER (object);

  switch (prop_id)
    {
    case PROP_RESULT_PATH:
      g_value_set_string (value, self->result_path);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
duel_checkpointer_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  DuelCheckpointer *self = DUEL_CHECKPOINTER (object);

  switch (prop_id)
    {
    case PROP_RESULT_PATH:
      g_free (self->result_path);
      self->result_path = g_value_dup_string (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
duel_checkpointer_class_init (DuelCheckpointerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = duel_checkpointer_dispose;
  object_class->finalize = duel_checkpointer_finalize;
  object_class->get_property = duel_checkpointer_get_property;
  object_class->set_property = duel_checkpointer_set_property;

  properties[PROP_RESULT_PATH] =
    g_param_spec_string ("result-path", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                          G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
duel_checkpointer_init (DuelCheckpointer *self)
{
  g_mutex_init (&self->lock);
  g_mutex_init (&self->update_stats_lock);
  g_cond_init (&self->work_cond);
  g_cond_init (&self->done_cond);
  self->period_ns = DEFAULT_PERIOD_NS;
  self->compact_bytes = DEFAULT_COMPACT_BYTES;
  self->known = g_array_new (FALSE, TRUE, sizeof (Known));
  self->pending = g_ptr_array_new ();
  self->queue = g_ptr_array_new_with_free_func (msg_free);
  self->out = g_string_new (NULL);
  self->line = g_string_new (NULL);
  self->fd = -1;
}

/* ---- public ----------------------------------------------------------------- */

DuelCheckpointer *
duel_checkpointer_new (const char *result_path)
{
  g_return_val_if_fail (result_path != NULL, NULL);

  return g_object_new (DUEL_TYPE_CHECKPOINTER, "result-path", result_path, NULL);
}

DuelCheckpointer *
duel_checkpointer_new_in (DuelFolder     *folder,
                          const char     *name,
                          DuelWriteFlags  result_flags)
{
  DuelCheckpointer *self;
  g_autofree char *path = NULL;

  g_return_val_if_fail (folder != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  path = g_str_equal (duel_folder_get_path (folder), ".") ? g_strdup (name)
                                                          : g_build_filename (duel_folder_get_path (folder), name, NULL);
  self = duel_checkpointer_new (path);
  self->folder = duel_folder_ref (folder);
  self->result_name = g_strdup (name);
  self->result_flags = result_flags;
  return self;
}

const char *
duel_checkpointer_get_result_path (DuelCheckpointer *self)
{
  g_return_val_if_fail (DUEL_IS_CHECKPOINTER (self), NULL);

  return self->result_path;
}

const char *
duel_checkpointer_get_journal_path (DuelCheckpointer *self)
{
  g_return_val_if_fail (DUEL_IS_CHECKPOINTER (self), NULL);

  if (self->journal_name == NULL)
    return NULL;
  g_free (self->journal_path);
  self->journal_path = g_str_equal (duel_folder_get_path (self->folder), ".")
                         ? g_strdup (self->journal_name)
                         : g_build_filename (duel_folder_get_path (self->folder), self->journal_name, NULL);
  return self->journal_path;
}

const char *
duel_checkpointer_get_kept_name (DuelCheckpointer *self)
{
  g_return_val_if_fail (DUEL_IS_CHECKPOINTER (self), NULL);

  return self->kept_name;
}

/* A name beside @base for the new result and its journal, both free. */
static char *
free_staging_name (DuelFolder *folder,
                   const char *base)
{
  for (guint n = 1; n < 1000; n++)
    {
      g_autofree char *name = n == 1 ? g_strconcat (base, DUEL_PREFLIGHT_STAGING_SUFFIX, NULL)
                                     : g_strdup_printf ("%s" DUEL_PREFLIGHT_STAGING_SUFFIX "-%u", base, n);
      g_autofree char *journal = _duel_journal_path_for (name);
      struct stat st;

      if (duel_folder_stat (folder, name, &st) != 0 && errno == ENOENT &&
          duel_folder_stat (folder, journal, &st) != 0 && errno == ENOENT)
        return g_steal_pointer (&name);
    }
  return NULL;
}

/* What the result about to be replaced holds: a finished one is replaced
 * only by a run that finished too, or holds at least as many rows. */
static void
read_old_result (DuelCheckpointer *self)
{
  g_autoptr(DuelResult) old = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_str_equal (duel_folder_get_path (self->folder), ".")
                            ? g_strdup (self->result_name)
                            : g_build_filename (duel_folder_get_path (self->folder), self->result_name, NULL);
  struct stat st;
  int fd = duel_folder_open_regular (self->folder, self->result_name, &st);
  gboolean is_result = fd >= 0 && duel_file_is_result (fd);

  if (fd >= 0)
    close (fd);
  self->old_rows = 0;
  self->old_finished = FALSE;
  if (!is_result)
    return;
  old = duel_result_load (path, &error);
  if (old == NULL)
    {
      g_debug ("The result at %s does not load (%s): replaced once this run has rows", path, error->message);
      return;
    }
  self->old_rows = count_rows (old);
  self->old_finished = all_complete (old);
}

gboolean
duel_checkpointer_start (DuelCheckpointer  *self,
                         DuelResult        *result,
                         GError           **error)
{
  g_autoptr(DuelResult) shadow = NULL;
  GPtrArray *tests;
  struct stat st;

  g_return_val_if_fail (DUEL_IS_CHECKPOINTER (self), FALSE);
  g_return_val_if_fail (DUEL_IS_RESULT (result), FALSE);
  g_return_val_if_fail (!self->started, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->folder == NULL)
    {
      self->folder = duel_folder_open_for_file (self->result_path, &self->result_name, error);
      if (self->folder == NULL)
        return FALSE;
      self->result_flags = DUEL_WRITE_REPLACE_RESULT | DUEL_WRITE_REPLACE_EMPTY;
    }
  /* The rules before anything is written: the result's name, then its journal's. */
  g_clear_pointer (&self->final_name, g_free);
  g_clear_pointer (&self->final_journal_name, g_free);
  if (!duel_file_writer_check_in (self->folder, self->result_name, self->result_flags, error))
    return FALSE;
  {
    g_autofree char *journal = _duel_journal_path_for (self->result_name);

    if (!duel_file_writer_check_in (self->folder, journal, DUEL_WRITE_REPLACE_JOURNAL | DUEL_WRITE_REPLACE_EMPTY,
                                    error))
      return FALSE;
  }

  g_free (self->save_name);
  if (duel_folder_stat (self->folder, self->result_name, &st) == 0)
    {
      /* Kept until this run has measured something: written beside it. */
      read_old_result (self);
      self->final_name = g_strdup (self->result_name);
      self->final_journal_name = _duel_journal_path_for (self->final_name);
      self->save_name = free_staging_name (self->folder, self->result_name);
      if (self->save_name == NULL)
        {
          g_autofree char *display = duel_folder_dup_display (self->folder, self->result_name);

          g_set_error (error, DUEL_ERROR, DUEL_ERROR_EXISTS,
                       _("No free name for the new result beside “%s”."), display);
          return FALSE;
        }
    }
  else
    {
      self->save_name = g_strdup (self->result_name);
      self->created_result = TRUE;
    }
  g_free (self->journal_name);
  self->journal_name = _duel_journal_path_for (self->save_name);

  /* Before the first save: what killed writers left in the folder (none
   * that a live writer still holds). */
  duel_folder_remove_stale_temporaries (self->folder);

  /* A journal of an earlier attempt names another id, so saving first is
   * safe: the loader ignores that journal from here on. */
  shadow = _duel_result_copy (result);
  self->shadow = g_object_ref (shadow);
  self->deferred = self->final_name != NULL;
  if (!self->deferred && !save_shadow (self, error))
    {
      g_clear_object (&self->shadow);
      return FALSE;
    }
  self->fold = _duel_journal_fold_new (self->shadow);

  /* The tests so far are in the file: hand over only what comes next. */
  tests = duel_result_get_tests (result);
  g_array_set_size (self->known, tests->len);
  for (guint i = 0; i < tests->len; i++)
    {
      DuelTestRecord *record = g_ptr_array_index (tests, i);
      Known *known = &g_array_index (self->known, Known, i);

      known->seen = TRUE;
      known->rows = duel_series_get_length (record->series);
      known->closed = status_is_final (record->status);
      remember_header (known, record);
      remember_state (known, record);
    }

  self->last_state_ns = now_ns ();
  self->last_sync_ns = self->last_state_ns;
  self->retry_ns = self->period_ns;
  /* Out of threads: the run's one sentence for it (DUEL_ERROR_SYSTEM). */
  self->writer = duel_thread_try_new ("duel-checkpoint", writer_main, self, error);
  if (self->writer == NULL)
    return FALSE;
  self->started = TRUE;
  return TRUE;
}

static gboolean
result_has_rows (DuelResult *result)
{
  return count_rows (result) > 0;
}

/* The name a stopped run's result keeps beside a finished one:
 * STEM.stopped-YYYYMMDD-HHMMSS.json (STEM the result's name without
 * ".json"), -2, -3… when taken. */
static gboolean
keep_aside (DuelCheckpointer  *self,
            GError           **error)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%d-%H%M%S");
  g_autofree char *stem = g_str_has_suffix (self->final_name, ".json")
                            ? g_strndup (self->final_name, strlen (self->final_name) - 5)
                            : g_strdup (self->final_name);

  for (guint n = 1; n < 1000; n++)
    {
      g_autoptr(GError) local_error = NULL;
      g_autofree char *name = n == 1 ? g_strdup_printf ("%s.stopped-%s.json", stem, stamp)
                                     : g_strdup_printf ("%s.stopped-%s-%u.json", stem, stamp, n);

      if (duel_folder_rename (self->folder, self->save_name, name, FALSE, &local_error))
        {
          self->kept_name = g_steal_pointer (&name);
          return TRUE;
        }
      if (!g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_EXISTS))
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return FALSE;
        }
    }
  g_set_error (error, DUEL_ERROR, DUEL_ERROR_EXISTS, _("No free name for the stopped run beside “%s”."),
               self->result_path);
  return FALSE;
}

/* This run's journal, gone once its lines are in the saved file. */
static void
remove_journal (DuelCheckpointer *self)
{
  struct stat st;
  int fd = duel_folder_open_regular (self->folder, self->journal_name, &st);

  if (fd < 0)
    return;
  if (duel_file_is_journal (fd) && !duel_folder_unlink_same (self->folder, self->journal_name, &st))
    g_debug ("Could not remove the journal %s: %s", self->journal_name, g_strerror (errno));
  close (fd);
}

gboolean
duel_checkpointer_finish (DuelCheckpointer  *self,
                          DuelResult        *result,
                          GError           **error)
{
  g_return_val_if_fail (DUEL_IS_CHECKPOINTER (self), FALSE);
  g_return_val_if_fail (DUEL_IS_RESULT (result), FALSE);
  g_return_val_if_fail (self->started && !self->finished, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* The writer writes and syncs what is queued before it stops. */
  stop_writer (self);
  self->finished = TRUE;
  if (self->fd >= 0)
    {
      close (self->fd);
      self->fd = -1;
    }

  duel_result_set_journal_id (result, NULL);
  if (self->final_name != NULL && !result_has_rows (result))
    {
      g_autofree char *display = duel_folder_dup_display (self->folder, self->final_name);

      /* Nothing to replace the old result with (and nothing written yet
       * unless a save of the shadow came first). */
      if (!self->deferred)
        {
          remove_journal (self);
          duel_folder_unlink_same (self->folder, self->save_name, &self->save_st);
        }
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_FAILED,
                   _("Nothing was measured, so “%s” was left as it was."), display);
      return FALSE;
    }
  if (!save_whole (self, result, error))
    return FALSE;
  self->have_rows = TRUE;
  if (self->final_name != NULL && self->old_finished && !all_complete (result) &&
      count_rows (result) < self->old_rows)
    {
      /* Stopped short of a finished result: that one stays, this one is
       * kept beside it under a name of its own. */
      if (!keep_aside (self, error))
        return FALSE;
      remove_journal (self);
      return TRUE;
    }
  if (!commit (self, error))
    return FALSE;

  /* Harmless if it stays: the saved file names no journal, so none is folded. */
  remove_journal (self);
  return TRUE;
}

void
duel_checkpointer_discard (DuelCheckpointer *self)
{
  g_return_if_fail (DUEL_IS_CHECKPOINTER (self));
  g_return_if_fail (self->finished);

  /* Only a file this run made: over an old result nothing was renamed yet. */
  if (self->created_result)
    duel_folder_unlink_same (self->folder, self->save_name, &self->save_st);
}

void
duel_checkpointer_get_stats (DuelCheckpointer      *self,
                             DuelCheckpointerStats *out)
{
  g_return_if_fail (DUEL_IS_CHECKPOINTER (self));
  g_return_if_fail (out != NULL);

  g_mutex_lock (&self->lock);
  *out = self->stats;
  g_mutex_unlock (&self->lock);
  g_mutex_lock (&self->update_stats_lock);
  out->updates = self->update_stats.updates;
  out->update_total_ns = self->update_stats.update_total_ns;
  out->update_max_ns = self->update_stats.update_max_ns;
  g_mutex_unlock (&self->update_stats_lock);
}

GError *
duel_checkpointer_dup_error (DuelCheckpointer *self)
{
  GError *error;

  g_return_val_if_fail (DUEL_IS_CHECKPOINTER (self), NULL);

  g_mutex_lock (&self->lock);
  error = self->error != NULL ? g_error_copy (self->error) : NULL;
  g_mutex_unlock (&self->lock);
  return error;
}

gboolean
duel_checkpointer_has_failed (DuelCheckpointer *self)
{
  g_return_val_if_fail (DUEL_IS_CHECKPOINTER (self), FALSE);

  return g_atomic_int_get (&self->failed);
}

char *
duel_checkpointer_take_warning (DuelCheckpointer *self)
{
  char *warning;

  g_return_val_if_fail (DUEL_IS_CHECKPOINTER (self), NULL);

  g_mutex_lock (&self->lock);
  warning = g_steal_pointer (&self->room_warning);
  g_mutex_unlock (&self->lock);
  return warning;
}

/* ---- private ------------------------------------------------------------------ */

void
_duel_checkpointer_set_period (DuelCheckpointer *self,
                               guint64           period_ns)
{
  g_return_if_fail (DUEL_IS_CHECKPOINTER (self));
  g_return_if_fail (!self->started);

  self->period_ns = period_ns;
}

void
_duel_checkpointer_set_compact_threshold (DuelCheckpointer *self,
                                          guint64           bytes)
{
  g_return_if_fail (DUEL_IS_CHECKPOINTER (self));
  g_return_if_fail (!self->started);

  self->compact_bytes = bytes;
  self->compact_exact = TRUE;
}

void
_duel_checkpointer_flush (DuelCheckpointer *self)
{
  guint64 target;

  g_return_if_fail (DUEL_IS_CHECKPOINTER (self));

  g_mutex_lock (&self->lock);
  target = self->queued_batches;
  while (self->writer != NULL && self->done_batches < target)
    g_cond_wait (&self->done_cond, &self->lock);
  g_mutex_unlock (&self->lock);
}
