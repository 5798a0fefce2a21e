/* duel-history.c — every run the app made, as result files in the user's data folder
 *
 * Runs of the CLI without --output join the same folder, and do so while
 * the app is open: the folder is watched (a GFileMonitor), a file that
 * appears or changes there, or whose journal grows (a running result's
 * rows, duel-checkpointer.h), is read again a second after the change and
 * at most every 10 s; one that goes is taken off the list. A file is read
 * again only when it is not what was last read or written here (its inode,
 * size and modification time, and its journal's). A checkpoint whose lock
 * another process holds is "running" and looked at every 10 s until the
 * lock is let go (a killed run saves nothing more). The app's own runs,
 * whose names duel_history_new_path() gave, are filed by the window when
 * they end.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/duel-analysis.h"
#include "duel-history.h"
#include "duel-system.h"
#include "result/duel-history-folder.h"
#include "result/duel-preflight.h"

/* A second after a file's last change, and no sooner than 10 s after it
 * was last read. */
#define WATCH_SETTLE_MS 1000
#define WATCH_EVERY_US  (10 * G_USEC_PER_SEC)

/* What a file was when it was last read or written here, with the journal
 * a running result grows beside it (duel-checkpointer.h). */
typedef struct
{
  dev_t   dev;
  ino_t   ino;
  off_t   size;
  gint64  mtime_ns;
  off_t   journal_size;
  gint64  journal_mtime_ns;
} FileStamp;

/* A file of the folder that changed: when it is read next. */
typedef struct
{
  guint    source;     /* the timeout that reads it, or 0 */
  gint64   read_us;    /* when it was last read, or 0 */
  gboolean reading;
  gboolean again;      /* it changed while it was being read */
} Watched;

struct _DuelHistory
{
  GObject       parent_instance;

  char         *directory;
  GListStore   *store;
  GFileMonitor *monitor;
  GCancellable *cancellable;
  GHashTable   *own;      /* paths duel_history_new_path() gave: the app's runs */
  GHashTable   *stamps;   /* path → FileStamp */
  GHashTable   *watched;  /* path → Watched */
  GHashTable   *running;  /* DuelResultItem (held) another process is writing */
  guint         running_source;
  guint         loaded : 1;
};

G_DEFINE_FINAL_TYPE (DuelHistory, duel_history, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_DIRECTORY,
  PROP_LOADED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static int
compare_items (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  GDateTime *ta = duel_result_item_get_created ((DuelResultItem *) a);
  GDateTime *tb = duel_result_item_get_created ((DuelResultItem *) b);
  g_autofree char *na = NULL;
  g_autofree char *nb = NULL;

  /* Newest first; undated files last, then by file name for a stable order. */
  if (ta != NULL && tb != NULL && g_date_time_compare (ta, tb) != 0)
    return -g_date_time_compare (ta, tb);
  if ((ta == NULL) != (tb == NULL))
    return ta == NULL ? 1 : -1;
  na = g_file_get_basename (duel_result_item_get_file ((DuelResultItem *) a));
  nb = g_file_get_basename (duel_result_item_get_file ((DuelResultItem *) b));
  return -g_strcmp0 (na, nb);
}

/* g_ptr_array_sort passes pointers to the elements. */
static int
compare_item_pointers (gconstpointer a,
                       gconstpointer b,
                       gpointer      user_data)
{
  return compare_items (*(gpointer *) a, *(gpointer *) b, user_data);
}

static void
watched_free (gpointer data)
{
  Watched *watched = data;

  g_clear_handle_id (&watched->source, g_source_remove);
  g_free (watched);
}

static void
duel_history_dispose (GObject *object)
{
  DuelHistory *self = DUEL_HISTORY (object);

  g_cancellable_cancel (self->cancellable);
  if (self->monitor != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->monitor, self);
      g_file_monitor_cancel (self->monitor);
      g_clear_object (&self->monitor);
    }
  g_hash_table_remove_all (self->watched);
  g_hash_table_remove_all (self->running);
  g_clear_handle_id (&self->running_source, g_source_remove);

  G_OBJECT_CLASS (duel_history_parent_class)->dispose (object);
}

static void
duel_history_finalize (GObject *object)
{
  DuelHistory *self = DUEL_HISTORY (object);

  g_clear_pointer (&self->directory, g_free);
  g_clear_object (&self->store);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->own, g_hash_table_unref);
  g_clear_pointer (&self->stamps, g_hash_table_unref);
  g_clear_pointer (&self->watched, g_hash_table_unref);
  g_clear_pointer (&self->running, g_hash_table_unref);

  G_OBJECT_CLASS (duel_history_parent_class)->finalize (object);
}

static void
duel_history_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  DuelHistory *self = DUEL_HISTORY (object);

  switch (prop_id)
    {
    case PROP_DIRECTORY:
      g_value_set_string (value, self->directory);
      break;
    case PROP_LOADED:
      g_value_set_boolean (value, self->loaded);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
duel_history_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  DuelHistory *self = DUEL_HISTORY (object);

  switch (prop_id)
    {
    case PROP_DIRECTORY:
      g_free (self->directory);
      self->directory = g_value_get_string (value) != NULL
        ? g_value_dup_string (value)
        : duel_history_folder_get_default ();
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
duel_history_class_init (DuelHistoryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = duel_history_dispose;
  object_class->finalize = duel_history_finalize;
  object_class->get_property = duel_history_get_property;
  object_class->set_property = duel_history_set_property;

  properties[PROP_DIRECTORY] =
    g_param_spec_string ("directory", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_LOADED] =
    g_param_spec_boolean ("loaded", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
duel_history_init (DuelHistory *self)
{
  self->store = g_list_store_new (DUEL_TYPE_RESULT_ITEM);
  self->cancellable = g_cancellable_new ();
  self->own = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->stamps = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->watched = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, watched_free);
  self->running = g_hash_table_new_full (NULL, NULL, g_object_unref, NULL);
}

DuelHistory *
duel_history_new (const char *directory)
{
  return g_object_new (DUEL_TYPE_HISTORY, "directory", directory, NULL);
}

const char *
duel_history_get_directory (DuelHistory *self)
{
  g_return_val_if_fail (DUEL_IS_HISTORY (self), NULL);
  return self->directory;
}

GListModel *
duel_history_get_model (DuelHistory *self)
{
  g_return_val_if_fail (DUEL_IS_HISTORY (self), NULL);
  return G_LIST_MODEL (self->store);
}

gboolean
duel_history_is_loaded (DuelHistory *self)
{
  g_return_val_if_fail (DUEL_IS_HISTORY (self), FALSE);
  return self->loaded;
}

/* ---- What a file was when it was read ------------------------------------- */

static gboolean
file_stamp_read (const char *path,
                 FileStamp  *out)
{
  g_autofree char *journal = g_strconcat (path, DUEL_PREFLIGHT_JOURNAL_SUFFIX, NULL);
  struct stat st;

  if (g_stat (path, &st) != 0)
    return FALSE;
  out->dev = st.st_dev;
  out->ino = st.st_ino;
  out->size = st.st_size;
  out->mtime_ns = (gint64) st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
  out->journal_size = 0;
  out->journal_mtime_ns = 0;
  if (g_stat (journal, &st) == 0)
    {
      out->journal_size = st.st_size;
      out->journal_mtime_ns = (gint64) st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
    }
  return TRUE;
}

/* Remembers @stamp for @path, or with NULL what the file is now. */
static void
remember_stamp (DuelHistory     *self,
                const char      *path,
                const FileStamp *stamp)
{
  FileStamp now;

  if (stamp == NULL)
    {
      if (!file_stamp_read (path, &now))
        return;
      stamp = &now;
    }
  g_hash_table_replace (self->stamps, g_strdup (path), g_memdup2 (stamp, sizeof *stamp));
}

/* Whether @path is still what was last read or written here. */
static gboolean
stamp_unchanged (DuelHistory *self,
                 const char  *path)
{
  const FileStamp *known = g_hash_table_lookup (self->stamps, path);
  FileStamp now;

  return known != NULL && file_stamp_read (path, &now) &&
         now.dev == known->dev && now.ino == known->ino && now.size == known->size && now.mtime_ns == known->mtime_ns &&
         now.journal_size == known->journal_size && now.journal_mtime_ns == known->journal_mtime_ns;
}

/* ---- Reading files ------------------------------------------------------------ */

/* A result file's name: temporary files of an atomic save start with a
 * dot, and the files beside a result (lock, journal) end otherwise. */
static gboolean
is_result_name (const char *name)
{
  return name[0] != '.' && g_str_has_suffix (name, ".json");
}

/* A file read in a worker: its item, and what the file was before it was read. */
typedef struct
{
  char           *path;
  DuelResultItem *item;
  FileStamp       stamp;
} Loaded;

static void
loaded_free (gpointer data)
{
  Loaded *loaded = data;

  g_free (loaded->path);
  g_clear_object (&loaded->item);
  g_free (loaded);
}

/* A result file of the history, or NULL (is_result_name(); anything
 * unreadable is left out). */
static Loaded *
load_one (const char *directory,
          const char *name)
{
  g_autoptr(DuelResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = NULL;
  Loaded *loaded;
  FileStamp stamp;
  char *path;

  if (!is_result_name (name))
    return NULL;
  path = g_build_filename (directory, name, NULL);
  if (!file_stamp_read (path, &stamp) || (result = duel_result_load (path, &error)) == NULL)
    {
      g_debug ("Skipping %s in the history: %s", path, error != NULL ? error->message : g_strerror (errno));
      g_free (path);
      return NULL;
    }
  duel_analysis_update_result (result);
  file = g_file_new_for_path (path);
  loaded = g_new0 (Loaded, 1);
  loaded->path = path;
  loaded->item = duel_result_item_new (file, DUEL_RESULT_ORIGIN_HISTORY, result);
  loaded->stamp = stamp;
  return loaded;
}

/* Worker: every result file of the folder (a GPtrArray of Loaded). */
static void
reload_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  const char *directory = task_data;
  g_autoptr(GPtrArray) loaded = g_ptr_array_new_with_free_func (loaded_free);
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GError) error = NULL;
  const char *name;

  dir = g_dir_open (directory, 0, &error);
  if (dir == NULL)
    {
      /* No folder yet: no runs yet. */
      if (g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        g_task_return_pointer (task, g_steal_pointer (&loaded), (GDestroyNotify) g_ptr_array_unref);
      else
        g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  while ((name = g_dir_read_name (dir)) != NULL)
    {
      Loaded *one;

      if (g_task_return_error_if_cancelled (task))
        return;
      one = load_one (directory, name);
      if (one != NULL)
        g_ptr_array_add (loaded, one);
    }

  g_task_return_pointer (task, g_steal_pointer (&loaded), (GDestroyNotify) g_ptr_array_unref);
}

/* ---- Watching the folder --------------------------------------------------- */

/* A run of another process that is killed saves nothing more, so no event
 * says it ended: while a listed checkpoint's lock is held, it is looked at
 * every 10 s, and once let go its row says "interrupted" (a run that
 * finishes saves, and is read again). */
static gboolean
check_running (gpointer user_data)
{
  DuelHistory *self = user_data;
  GHashTableIter iter;
  gpointer item;

  g_hash_table_iter_init (&iter, self->running);
  while (g_hash_table_iter_next (&iter, &item, NULL))
    if (!duel_result_item_is_running (item))
      {
        duel_result_item_refresh (item);
        g_hash_table_iter_remove (&iter);
      }
  if (g_hash_table_size (self->running) > 0)
    return G_SOURCE_CONTINUE;
  self->running_source = 0;
  return G_SOURCE_REMOVE;
}

/* Follows @item while another process writes it. */
static void
follow_if_running (DuelHistory    *self,
                   DuelResultItem *item)
{
  if (!duel_result_item_is_running (item))
    return;
  g_hash_table_add (self->running, g_object_ref (item));
  if (self->running_source == 0)
    self->running_source = g_timeout_add_seconds (WATCH_EVERY_US / G_USEC_PER_SEC, check_running, self);
}

static void schedule_read (DuelHistory *self, const char *path);
static DuelResultItem *add_item (DuelHistory *self, const char *path, DuelResult *result, const FileStamp *stamp);

/* Worker: one file of the folder (a Loaded), or an error. */
static void
read_one_thread (GTask        *task,
                 gpointer      source_object,
                 gpointer      task_data,
                 GCancellable *cancellable)
{
  const char *path = task_data;
  g_autofree char *directory = g_path_get_dirname (path);
  g_autofree char *name = g_path_get_basename (path);
  Loaded *loaded = load_one (directory, name);

  if (loaded == NULL)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s is no result (yet)", path);
  else
    g_task_return_pointer (task, loaded, loaded_free);
}

static void
read_one_done (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  DuelHistory *self = DUEL_HISTORY (source);
  g_autofree char *path = user_data;
  Loaded *loaded = g_task_propagate_pointer (G_TASK (result), NULL);
  Watched *watched = g_hash_table_lookup (self->watched, path);

  if (loaded != NULL && !g_cancellable_is_cancelled (self->cancellable))
    {
      follow_if_running (self, add_item (self, loaded->path, duel_result_item_get_result (loaded->item), &loaded->stamp));
    }
  g_clear_pointer (&loaded, loaded_free);
  if (watched == NULL)
    return;   /* disposed meanwhile */
  watched->reading = FALSE;
  watched->read_us = g_get_monotonic_time ();
  if (watched->again)
    {
      watched->again = FALSE;
      schedule_read (self, path);
    }
}

/* A timeout's data: the history (not held: dispose removes the timeout)
 * and the file to read. */
typedef struct
{
  DuelHistory *self;
  char        *path;
} ReadDue;

static void
read_due_free (gpointer data)
{
  ReadDue *due = data;

  g_free (due->path);
  g_free (due);
}

static gboolean
read_due (gpointer user_data)
{
  ReadDue *due = user_data;
  DuelHistory *self = due->self;
  Watched *watched = g_hash_table_lookup (self->watched, due->path);
  g_autoptr(GTask) task = NULL;

  watched->source = 0;
  if (stamp_unchanged (self, due->path))
    return G_SOURCE_REMOVE;
  watched->reading = TRUE;
  task = duel_task_new (self, self->cancellable, read_one_done, g_strdup (due->path));
  g_task_set_task_data (task, g_strdup (due->path), g_free);
  duel_task_run_in_thread (task, read_one_thread);
  return G_SOURCE_REMOVE;
}

/* Reads @path again a second after now, and no sooner than WATCH_EVERY_US
 * after it was last read: the app's own runs and files as they were last
 * read or written here are left alone. */
static void
schedule_read (DuelHistory *self,
               const char  *path)
{
  g_autofree char *name = g_path_get_basename (path);
  Watched *watched;
  ReadDue *due;
  gint64 wait_ms;

  if (!is_result_name (name) || g_hash_table_contains (self->own, path))
    return;
  watched = g_hash_table_lookup (self->watched, path);
  if (watched == NULL)
    {
      watched = g_new0 (Watched, 1);
      g_hash_table_insert (self->watched, g_strdup (path), watched);
    }
  if (watched->reading)
    {
      watched->again = TRUE;
      return;
    }
  if (watched->source != 0)
    return;
  wait_ms = watched->read_us == 0 ? WATCH_SETTLE_MS
                                  : MAX (WATCH_SETTLE_MS, (watched->read_us + WATCH_EVERY_US - g_get_monotonic_time ()) / 1000);
  due = g_new0 (ReadDue, 1);
  due->self = self;
  due->path = g_strdup (path);
  watched->source = g_timeout_add_full (G_PRIORITY_DEFAULT, (guint) wait_ms, read_due, due, read_due_free);
}

/* A file that left the folder leaves the list, unless it is back. */
static void
forget_file (DuelHistory *self,
             GFile       *file)
{
  g_autofree char *path = g_file_get_path (file);
  DuelResultItem *item;
  guint position;

  if (path == NULL || g_hash_table_contains (self->own, path) || g_file_test (path, G_FILE_TEST_EXISTS))
    return;
  g_hash_table_remove (self->watched, path);
  g_hash_table_remove (self->stamps, path);
  item = duel_history_lookup (self, file);
  if (item != NULL)
    g_hash_table_remove (self->running, item);
  if (item != NULL && g_list_store_find (self->store, item, &position))
    g_list_store_remove (self->store, position);
}

static void
folder_changed_cb (GFileMonitor      *monitor,
                   GFile             *file,
                   GFile             *other_file,
                   GFileMonitorEvent  event,
                   gpointer           user_data)
{
  DuelHistory *self = user_data;
  g_autofree char *path = NULL;

  switch (event)
    {
    case G_FILE_MONITOR_EVENT_CHANGED:
    case G_FILE_MONITOR_EVENT_CHANGES_DONE_HINT:
    case G_FILE_MONITOR_EVENT_CREATED:
    case G_FILE_MONITOR_EVENT_MOVED_IN:
      path = g_file_get_path (file);
      /* A running result's rows go to its journal: the result changed. */
      if (path != NULL && g_str_has_suffix (path, ".json" DUEL_PREFLIGHT_JOURNAL_SUFFIX))
        path[strlen (path) - strlen (DUEL_PREFLIGHT_JOURNAL_SUFFIX)] = '\0';
      break;
    case G_FILE_MONITOR_EVENT_RENAMED:
      /* An atomic save: the temporary file renamed over the result. */
      forget_file (self, file);
      path = other_file != NULL ? g_file_get_path (other_file) : NULL;
      break;
    case G_FILE_MONITOR_EVENT_DELETED:
    case G_FILE_MONITOR_EVENT_MOVED_OUT:
      forget_file (self, file);
      break;
    case G_FILE_MONITOR_EVENT_ATTRIBUTE_CHANGED:
    case G_FILE_MONITOR_EVENT_PRE_UNMOUNT:
    case G_FILE_MONITOR_EVENT_UNMOUNTED:
    case G_FILE_MONITOR_EVENT_MOVED:
    default:
      break;
    }
  if (path != NULL)
    schedule_read (self, path);
}

/* Watches the folder, made first: GIO looks for a missing folder only
 * every few seconds, and a run of the CLI makes the folder and its result
 * in less; what is in a folder before it is watched makes no event. */
static void
watch_folder (DuelHistory *self)
{
  g_autoptr(GFile) folder = g_file_new_for_path (self->directory);
  g_autoptr(GError) error = NULL;

  if (self->monitor != NULL)
    return;
  if (g_mkdir_with_parents (self->directory, 0700) != 0)
    {
      g_debug ("The history folder %s is not watched: %s", self->directory, g_strerror (errno));
      return;
    }
  self->monitor = g_file_monitor_directory (folder, G_FILE_MONITOR_WATCH_MOVES, NULL, &error);
  if (self->monitor == NULL)
    {
      g_debug ("The history folder %s is not watched: %s", self->directory, error->message);
      return;
    }
  g_signal_connect (self->monitor, "changed", G_CALLBACK (folder_changed_cb), self);
}

void
duel_history_reload_async (DuelHistory         *self,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (DUEL_IS_HISTORY (self));

  /* Before the folder is read: a file saved meanwhile is read again. */
  watch_folder (self);
  task = duel_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, duel_history_reload_async);
  g_task_set_task_data (task, g_strdup (self->directory), g_free);
  duel_task_run_in_thread (task, reload_thread);
}

gboolean
duel_history_reload_finish (DuelHistory   *self,
                            GAsyncResult  *result,
                            GError       **error)
{
  g_autoptr(GPtrArray) loaded = NULL;
  g_autoptr(GPtrArray) items = g_ptr_array_new ();

  g_return_val_if_fail (DUEL_IS_HISTORY (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  loaded = g_task_propagate_pointer (G_TASK (result), error);
  if (loaded == NULL)
    return FALSE;

  for (guint i = 0; i < loaded->len; i++)
    {
      Loaded *one = g_ptr_array_index (loaded, i);

      remember_stamp (self, one->path, &one->stamp);
      follow_if_running (self, one->item);
      g_ptr_array_add (items, one->item);
    }
  g_ptr_array_sort_with_data (items, compare_item_pointers, NULL);
  g_list_store_splice (self->store, 0, g_list_model_get_n_items (G_LIST_MODEL (self->store)),
                       items->pdata, items->len);

  if (!self->loaded)
    {
      self->loaded = TRUE;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADED]);
    }
  return TRUE;
}

char *
duel_history_new_path (DuelHistory  *self,
                       const char   *hint,
                       GError      **error)
{
  char *path;

  g_return_val_if_fail (DUEL_IS_HISTORY (self), NULL);

  path = duel_history_folder_new_path (self->directory, hint, error);
  /* The app's run: the window files it when it ends. */
  if (path != NULL)
    g_hash_table_add (self->own, g_strdup (path));
  return path;
}

DuelResultItem *
duel_history_lookup (DuelHistory *self,
                     GFile       *file)
{
  guint n;

  g_return_val_if_fail (DUEL_IS_HISTORY (self), NULL);
  g_return_val_if_fail (G_IS_FILE (file), NULL);

  n = g_list_model_get_n_items (G_LIST_MODEL (self->store));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(DuelResultItem) item = g_list_model_get_item (G_LIST_MODEL (self->store), i);

      if (g_file_equal (duel_result_item_get_file (item), file))
        return item;  /* the store keeps its reference */
    }
  return NULL;
}

/* Adds or replaces the item of @path; @stamp is what the file was when
 * @result was read from it (NULL: what it is now). */
static DuelResultItem *
add_item (DuelHistory     *self,
          const char      *path,
          DuelResult      *result,
          const FileStamp *stamp)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(DuelResultItem) item = NULL;
  DuelResultItem *existing;
  guint position;

  existing = duel_history_lookup (self, file);
  if (existing != NULL)
    g_hash_table_remove (self->running, existing);
  if (existing != NULL && g_list_store_find (self->store, existing, &position))
    g_list_store_remove (self->store, position);

  item = duel_result_item_new (file, DUEL_RESULT_ORIGIN_HISTORY, result);
  g_list_store_insert_sorted (self->store, item, compare_items, NULL);
  /* Filed: from now on a file of the folder like any other. */
  g_hash_table_remove (self->own, path);
  remember_stamp (self, path, stamp);
  return item;
}

DuelResultItem *
duel_history_add (DuelHistory *self,
                  const char  *path,
                  DuelResult  *result)
{
  g_return_val_if_fail (DUEL_IS_HISTORY (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (DUEL_IS_RESULT (result), NULL);

  return add_item (self, path, result, NULL);
}

gboolean
duel_history_rename (DuelHistory     *self,
                     DuelResultItem  *item,
                     const char      *name,
                     GError         **error)
{
  g_autofree char *path = NULL;
  g_autofree char *stripped = NULL;
  g_autofree char *old_name = NULL;
  DuelResult *result;

  g_return_val_if_fail (DUEL_IS_HISTORY (self), FALSE);
  g_return_val_if_fail (DUEL_IS_RESULT_ITEM (item), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  stripped = g_strstrip (g_strdup (name));
  if (*stripped == '\0')
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("A name cannot be empty."));
      return FALSE;
    }

  result = duel_result_item_get_result (item);
  path = g_file_get_path (duel_result_item_get_file (item));
  g_return_val_if_fail (result != NULL && path != NULL, FALSE);

  old_name = g_strdup (duel_result_get_name (result));
  duel_result_set_name (result, stripped);
  if (!duel_result_save (result, path, error))
    {
      duel_result_set_name (result, old_name);
      return FALSE;
    }

  /* Written here: the folder's watch need not read it again. */
  remember_stamp (self, path, NULL);
  duel_result_item_refresh (item);
  return TRUE;
}

gboolean
duel_history_delete (DuelHistory     *self,
                     DuelResultItem  *item,
                     GError         **error)
{
  g_autoptr(GError) local_error = NULL;
  guint position;

  g_return_val_if_fail (DUEL_IS_HISTORY (self), FALSE);
  g_return_val_if_fail (DUEL_IS_RESULT_ITEM (item), FALSE);

  if (!g_file_delete (duel_result_item_get_file (item), NULL, &local_error) &&
      !g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  g_hash_table_remove (self->running, item);
  if (g_list_store_find (self->store, item, &position))
    g_list_store_remove (self->store, position);
  return TRUE;
}
