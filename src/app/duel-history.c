/* duel-history.c — every run the app made, as result files in the user's data folder
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "analysis/duel-analysis.h"
#include "duel-history.h"
#include "duel-system.h"

struct _DuelHistory
{
  GObject     parent_instance;

  char       *directory;
  GListStore *store;
  guint       loaded : 1;
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
duel_history_finalize (GObject *object)
{
  DuelHistory *self = DUEL_HISTORY (object);

  g_clear_pointer (&self->directory, g_free);
  g_clear_object (&self->store);

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
        : g_build_filename (g_get_user_data_dir (), "driveduel", "history", NULL);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
duel_history_class_init (DuelHistoryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

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

/* Worker: the paths and parsed results of every *.json in the folder. */
static void
reload_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  const char *directory = task_data;
  g_autoptr(GPtrArray) loaded = g_ptr_array_new_with_free_func (g_object_unref);
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
      g_autofree char *path = NULL;
      g_autoptr(DuelResult) result = NULL;
      g_autoptr(GError) load_error = NULL;
      g_autoptr(GFile) file = NULL;

      if (g_task_return_error_if_cancelled (task))
        return;
      /* Temporary files of an atomic save start with a dot. */
      if (name[0] == '.' || !g_str_has_suffix (name, ".json"))
        continue;

      path = g_build_filename (directory, name, NULL);
      result = duel_result_load (path, &load_error);
      if (result == NULL)
        {
          g_debug ("Skipping %s in the history: %s", path, load_error->message);
          continue;
        }
      duel_analysis_update_result (result);
      file = g_file_new_for_path (path);
      g_ptr_array_add (loaded, duel_result_item_new (file, DUEL_RESULT_ORIGIN_HISTORY, result));
    }

  g_task_return_pointer (task, g_steal_pointer (&loaded), (GDestroyNotify) g_ptr_array_unref);
}

void
duel_history_reload_async (DuelHistory         *self,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (DUEL_IS_HISTORY (self));

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

  g_return_val_if_fail (DUEL_IS_HISTORY (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  loaded = g_task_propagate_pointer (G_TASK (result), error);
  if (loaded == NULL)
    return FALSE;

  g_ptr_array_sort_with_data (loaded, compare_item_pointers, NULL);
  g_list_store_splice (self->store, 0, g_list_model_get_n_items (G_LIST_MODEL (self->store)),
                       loaded->pdata, loaded->len);

  if (!self->loaded)
    {
      self->loaded = TRUE;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADED]);
    }
  return TRUE;
}

/* "Samsung 970 EVO!" → "samsung-970-evo" */
static char *
slugify (const char *text)
{
  g_autofree char *ascii = g_str_to_ascii (text != NULL ? text : "", "C");
  GString *slug = g_string_new (NULL);

  for (const char *p = ascii; *p != '\0' && slug->len < 40; p++)
    {
      if (g_ascii_isalnum (*p))
        g_string_append_c (slug, g_ascii_tolower (*p));
      else if (slug->len > 0 && slug->str[slug->len - 1] != '-')
        g_string_append_c (slug, '-');
    }
  while (slug->len > 0 && slug->str[slug->len - 1] == '-')
    g_string_truncate (slug, slug->len - 1);
  if (slug->len == 0)
    g_string_append (slug, "run");
  return g_string_free (slug, FALSE);
}

char *
duel_history_new_path (DuelHistory  *self,
                       const char   *hint,
                       GError      **error)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%d-%H%M%S");
  g_autofree char *slug = slugify (hint);

  g_return_val_if_fail (DUEL_IS_HISTORY (self), NULL);

  if (g_mkdir_with_parents (self->directory, 0700) != 0)
    {
      int saved_errno = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   _("Could not create the history folder %s: %s"),
                   self->directory, g_strerror (saved_errno));
      return NULL;
    }

  for (guint n = 0; n < 1000; n++)
    {
      g_autofree char *name = n == 0 ? g_strdup_printf ("%s-%s.json", stamp, slug)
                                     : g_strdup_printf ("%s-%s-%u.json", stamp, slug, n);
      g_autofree char *path = g_build_filename (self->directory, name, NULL);

      if (!g_file_test (path, G_FILE_TEST_EXISTS))
        return g_steal_pointer (&path);
    }

  g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS,
               _("Could not find a free file name in %s."), self->directory);
  return NULL;
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

DuelResultItem *
duel_history_add (DuelHistory *self,
                  const char  *path,
                  DuelResult  *result)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(DuelResultItem) item = NULL;
  DuelResultItem *existing;
  guint position;

  g_return_val_if_fail (DUEL_IS_HISTORY (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (DUEL_IS_RESULT (result), NULL);

  file = g_file_new_for_path (path);
  existing = duel_history_lookup (self, file);
  if (existing != NULL && g_list_store_find (self->store, existing, &position))
    g_list_store_remove (self->store, position);

  item = duel_result_item_new (file, DUEL_RESULT_ORIGIN_HISTORY, result);
  g_list_store_insert_sorted (self->store, item, compare_items, NULL);
  return item;
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

  if (g_list_store_find (self->store, item, &position))
    g_list_store_remove (self->store, position);
  return TRUE;
}
