/* duel-result-item.c — one result file the app knows of
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "analysis/duel-analysis.h"
#include "fio/duel-fio-import.h"
#include "run/duel-preset.h"
#include "duel-result-item.h"
#include "duel-system.h"
#include "duel-text.h"
#include "engine/duel-target-lock.h"
#include "result/duel-preflight.h"

struct _DuelResultItem
{
  GObject           parent_instance;

  GFile            *file;
  DuelResultOrigin  origin;
  DuelResult       *result;
  char             *title;
  char             *subtitle;
  char             *figures;
  char             *label;
};

G_DEFINE_FINAL_TYPE (DuelResultItem, duel_result_item, G_TYPE_OBJECT)

G_DEFINE_ENUM_TYPE (DuelResultOrigin, duel_result_origin,
  G_DEFINE_ENUM_VALUE (DUEL_RESULT_ORIGIN_HISTORY, "history"),
  G_DEFINE_ENUM_VALUE (DUEL_RESULT_ORIGIN_REFERENCE, "reference"),
  G_DEFINE_ENUM_VALUE (DUEL_RESULT_ORIGIN_FILE, "file"))

enum {
  PROP_0,
  PROP_FILE,
  PROP_ORIGIN,
  PROP_RESULT,
  PROP_TITLE,
  PROP_SUBTITLE,
  PROP_FIGURES,
  PROP_LABEL,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* Whether another process holds the result's lock: a run writing it. */
static gboolean
is_being_written (DuelResultItem *self)
{
  g_autofree char *path = g_file_get_path (self->file);
  g_autofree char *lock = NULL;

  if (path == NULL)
    return FALSE;
  lock = g_strconcat (path, DUEL_PREFLIGHT_LOCK_SUFFIX, NULL);
  return duel_target_lock_is_held (lock);
}

gboolean
duel_result_item_is_running (DuelResultItem *self)
{
  GPtrArray *tests;

  g_return_val_if_fail (DUEL_IS_RESULT_ITEM (self), FALSE);

  if (self->result == NULL)
    return FALSE;
  tests = duel_result_get_tests (self->result);
  for (guint i = 0; i < tests->len; i++)
    {
      const DuelTestRecord *record = g_ptr_array_index (tests, i);

      if (record->status == DUEL_TEST_STATUS_RUNNING || record->status == DUEL_TEST_STATUS_PENDING)
        return is_being_written (self);
    }
  return FALSE;
}

/* The status of a run as a word, or NULL when every test completed. */
static const char *
describe_status (DuelResultItem *self)
{
  GPtrArray *tests = duel_result_get_tests (self->result);

  for (guint i = 0; i < tests->len; i++)
    {
      DuelTestRecord *record = g_ptr_array_index (tests, i);

      switch (record->status)
        {
        case DUEL_TEST_STATUS_CANCELLED:
          return _("stopped");
        case DUEL_TEST_STATUS_FAILED:
          return _("failed");
        case DUEL_TEST_STATUS_RUNNING:
        case DUEL_TEST_STATUS_PENDING:
          /* A checkpoint: of a run still going (another process, the
           * CLI, holds its result's lock), or of one that never finished. */
          return is_being_written (self) ? _("running") : _("interrupted");
        case DUEL_TEST_STATUS_COMPLETE:
        default:
          break;
        }
    }
  return NULL;
}

/* A few of the review's figures in a line, for a history row: the first
 * test that has each, as the table would print it; NULL with none. */
static char *
describe_figures (DuelResult *result)
{
  static const struct { const char *key; const char *name; } picks[] = {
    /* TRANSLATORS: the history's one-line summary of a run: the fill's
     * first IOPS, its plateau, where its cliff is, the read score, the
     * slowest consistency interval, QoS at QD1 ("start 112,540 IOPS") */
    { "iops_at_0pct",             N_("start") },
    { "plateau_iops",             N_("plateau") },
    { "cliff_pct",                N_("cliff at") },
    { "read_score_iops",          N_("read score") },
    { "consistency_slowest_iops", N_("slowest interval") },
    { "qos_read_qd1_p99_99_us",   N_("QD1 read, 99.99 %") },
  };
  GPtrArray *tests = duel_result_get_tests (result);
  g_autoptr(GString) line = g_string_new (NULL);

  for (guint k = 0; k < G_N_ELEMENTS (picks); k++)
    for (guint i = 0; i < tests->len; i++)
      {
        double value = duel_test_record_get_figure_value (g_ptr_array_index (tests, i), picks[k].key);

        if (isfinite (value))
          {
            g_autofree char *text = duel_figure_format (picks[k].key, value);

            g_string_append_printf (line, "%s%s %s", line->len > 0 ? " · " : "", _(picks[k].name), text);
            break;
          }
      }
  return line->len > 0 ? g_string_free (g_steal_pointer (&line), FALSE) : NULL;
}

/* The preset the run's tests came from, NULL for a plain run. */
static const char *
result_preset (DuelResult *result)
{
  GPtrArray *tests = duel_result_get_tests (result);

  for (guint i = 0; i < tests->len; i++)
    {
      DuelTestRecord *record = g_ptr_array_index (tests, i);

      if (record->preset != NULL)
        return record->preset;
    }
  return NULL;
}

static void
update_texts (DuelResultItem *self)
{
  g_autoptr(GString) subtitle = g_string_new (NULL);
  const char *title = NULL;

  if (self->result != NULL)
    title = duel_result_get_name (self->result);
  if (title == NULL || *title == '\0')
    {
      g_autofree char *basename = g_file_get_basename (self->file);
      g_free (self->title);
      self->title = g_strdup (basename);
    }
  else if (g_strcmp0 (title, self->title) != 0)
    {
      g_free (self->title);
      self->title = g_strdup (title);
    }

  if (self->result != NULL)
    {
      const DuelTargetInfo *target = duel_result_get_target (self->result);
      GDateTime *created = duel_result_get_created (self->result);
      GPtrArray *tests = duel_result_get_tests (self->result);
      const char *status = describe_status (self);

      if (self->origin == DUEL_RESULT_ORIGIN_REFERENCE || duel_result_is_published (self->result))
        g_string_append (subtitle, _("Published figures"));
      else if (created != NULL)
        {
          g_autofree char *when = duel_text_format_time (created);
          g_string_append (subtitle, when);
        }

      if (target != NULL && target->size_bytes > 0)
        {
          g_autofree char *size = g_format_size (target->size_bytes);
          g_string_append_printf (subtitle, subtitle->len ? " · %s" : "%s", size);
        }
      if (self->origin != DUEL_RESULT_ORIGIN_REFERENCE && target != NULL && target->path != NULL)
        g_string_append_printf (subtitle, subtitle->len ? " · %s" : "%s", target->path);

      g_string_append (subtitle, subtitle->len ? " · " : "");
      g_string_append_printf (subtitle, g_dngettext (GETTEXT_PACKAGE, "%u test", "%u tests", tests->len),
                              tests->len);
      if (status != NULL)
        g_string_append_printf (subtitle, " · %s", status);
    }

  g_free (self->subtitle);
  self->subtitle = g_string_free (g_steal_pointer (&subtitle), FALSE);
  g_free (self->figures);
  self->figures = self->result != NULL ? describe_figures (self->result) : NULL;

  g_free (self->label);
  switch (self->origin)
    {
    case DUEL_RESULT_ORIGIN_REFERENCE:
      /* Translators: a drive's name in a drop-down, e.g. "Intel SSD 750 (reference)" */
      self->label = g_strdup_printf (_("%s (reference)"), self->title);
      break;
    case DUEL_RESULT_ORIGIN_FILE:
      {
        g_autofree char *basename = g_file_get_basename (self->file);
        /* Translators: a drive's name and the file it came from */
        self->label = g_strdup_printf (_("%s (%s)"), self->title, basename);
      }
      break;
    case DUEL_RESULT_ORIGIN_HISTORY:
    default:
      /* Runs of one target tell apart by what ran, when, and how it ended:
       * "scratch.img · Quick Review · Dec 6, 2026 11:30 · stopped". */
      {
        g_autoptr(GString) label = g_string_new (self->title);
        const char *preset = self->result != NULL ? result_preset (self->result) : NULL;
        const char *status = self->result != NULL ? describe_status (self) : NULL;

        if (preset != NULL)
          g_string_append_printf (label, " · %s", duel_preset_get_title_for_name (preset));
        if (self->result != NULL && duel_result_get_created (self->result) != NULL)
          {
            g_autofree char *when = duel_text_format_time (duel_result_get_created (self->result));

            g_string_append_printf (label, " · %s", when);
          }
        if (status != NULL)
          g_string_append_printf (label, " · %s", status);
        self->label = g_string_free (g_steal_pointer (&label), FALSE);
      }
      break;
    }

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SUBTITLE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FIGURES]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LABEL]);
}

static void
duel_result_item_constructed (GObject *object)
{
  DuelResultItem *self = DUEL_RESULT_ITEM (object);

  G_OBJECT_CLASS (duel_result_item_parent_class)->constructed (object);

  g_assert (self->file != NULL);
  update_texts (self);
}

static void
duel_result_item_finalize (GObject *object)
{
  DuelResultItem *self = DUEL_RESULT_ITEM (object);

  g_clear_object (&self->file);
  g_clear_object (&self->result);
  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->subtitle, g_free);
  g_clear_pointer (&self->figures, g_free);
  g_clear_pointer (&self->label, g_free);

  G_OBJECT_CLASS (duel_result_item_parent_class)->finalize (object);
}

static void
duel_result_item_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  DuelResultItem *self = DUEL_RESULT_ITEM (object);

  switch (prop_id)
    {
    case PROP_FILE:
      g_value_set_object (value, self->file);
      break;
    case PROP_ORIGIN:
      g_value_set_enum (value, self->origin);
      break;
    case PROP_RESULT:
      g_value_set_object (value, self->result);
      break;
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case PROP_SUBTITLE:
      g_value_set_string (value, self->subtitle);
      break;
    case PROP_FIGURES:
      g_value_set_string (value, self->figures);
      break;
    case PROP_LABEL:
      g_value_set_string (value, self->label);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
duel_result_item_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  DuelResultItem *self = DUEL_RESULT_ITEM (object);

  switch (prop_id)
    {
    case PROP_FILE:
      self->file = g_value_dup_object (value);
      break;
    case PROP_ORIGIN:
      self->origin = g_value_get_enum (value);
      break;
    case PROP_RESULT:
      duel_result_item_set_result (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
duel_result_item_class_init (DuelResultItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = duel_result_item_constructed;
  object_class->finalize = duel_result_item_finalize;
  object_class->get_property = duel_result_item_get_property;
  object_class->set_property = duel_result_item_set_property;

  properties[PROP_FILE] =
    g_param_spec_object ("file", NULL, NULL, G_TYPE_FILE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ORIGIN] =
    g_param_spec_enum ("origin", NULL, NULL, DUEL_TYPE_RESULT_ORIGIN, DUEL_RESULT_ORIGIN_FILE,
                       G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_RESULT] =
    g_param_spec_object ("result", NULL, NULL, DUEL_TYPE_RESULT,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SUBTITLE] =
    g_param_spec_string ("subtitle", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* A few of the run's headline figures in a line; NULL without any. */
  properties[PROP_FIGURES] =
    g_param_spec_string ("figures", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_LABEL] =
    g_param_spec_string ("label", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
duel_result_item_init (DuelResultItem *self)
{
  self->origin = DUEL_RESULT_ORIGIN_FILE;
}

DuelResultItem *
duel_result_item_new (GFile            *file,
                      DuelResultOrigin  origin,
                      DuelResult       *result)
{
  g_return_val_if_fail (G_IS_FILE (file), NULL);
  g_return_val_if_fail (result == NULL || DUEL_IS_RESULT (result), NULL);

  return g_object_new (DUEL_TYPE_RESULT_ITEM,
                       "file", file,
                       "origin", origin,
                       "result", result,
                       NULL);
}

GFile *
duel_result_item_get_file (DuelResultItem *self)
{
  g_return_val_if_fail (DUEL_IS_RESULT_ITEM (self), NULL);
  return self->file;
}

DuelResultOrigin
duel_result_item_get_origin (DuelResultItem *self)
{
  g_return_val_if_fail (DUEL_IS_RESULT_ITEM (self), DUEL_RESULT_ORIGIN_FILE);
  return self->origin;
}

DuelResult *
duel_result_item_get_result (DuelResultItem *self)
{
  g_return_val_if_fail (DUEL_IS_RESULT_ITEM (self), NULL);
  return self->result;
}

void
duel_result_item_set_result (DuelResultItem *self,
                             DuelResult     *result)
{
  g_return_if_fail (DUEL_IS_RESULT_ITEM (self));
  g_return_if_fail (result == NULL || DUEL_IS_RESULT (result));

  if (g_set_object (&self->result, result))
    {
      if (self->file != NULL)
        update_texts (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RESULT]);
    }
}

const char *
duel_result_item_get_title (DuelResultItem *self)
{
  g_return_val_if_fail (DUEL_IS_RESULT_ITEM (self), NULL);
  return self->title;
}

const char *
duel_result_item_get_figures (DuelResultItem *self)
{
  g_return_val_if_fail (DUEL_IS_RESULT_ITEM (self), NULL);

  return self->figures;
}

const char *
duel_result_item_get_subtitle (DuelResultItem *self)
{
  g_return_val_if_fail (DUEL_IS_RESULT_ITEM (self), NULL);
  return self->subtitle;
}

const char *
duel_result_item_get_label (DuelResultItem *self)
{
  g_return_val_if_fail (DUEL_IS_RESULT_ITEM (self), NULL);
  return self->label;
}

GDateTime *
duel_result_item_get_created (DuelResultItem *self)
{
  g_return_val_if_fail (DUEL_IS_RESULT_ITEM (self), NULL);
  return self->result != NULL ? duel_result_get_created (self->result) : NULL;
}

void
duel_result_item_refresh (DuelResultItem *self)
{
  g_return_if_fail (DUEL_IS_RESULT_ITEM (self));
  update_texts (self);
}

typedef struct
{
  GFile            *file;
  DuelResultOrigin  origin;
} LoadData;

static void
load_data_free (LoadData *data)
{
  g_clear_object (&data->file);
  g_free (data);
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  LoadData *data = task_data;
  g_autofree char *path = g_file_get_path (data->file);
  g_autoptr(DuelResult) result = NULL;
  GError *error = NULL;

  if (path == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                               _("Only local files can be opened."));
      return;
    }

  /* A file opened or dropped may be fio's JSON output: imported as
   * `driveduel-cli import` does, without an IOPS log. Only a file of the
   * user's: the history's are results it may save over. */
  if (data->origin == DUEL_RESULT_ORIGIN_FILE && duel_fio_import_is_fio_file (path))
    result = duel_fio_import_file (path, NULL, &error);
  else
    {
      result = duel_result_load (path, &error);
      if (result != NULL)
        duel_analysis_update_result (result);
    }
  if (result == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, g_steal_pointer (&result), g_object_unref);
}

void
duel_result_item_load_async (GFile               *file,
                             DuelResultOrigin     origin,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  LoadData *data;

  g_return_if_fail (G_IS_FILE (file));

  data = g_new0 (LoadData, 1);
  data->file = g_object_ref (file);
  data->origin = origin;

  task = duel_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, duel_result_item_load_async);
  g_task_set_task_data (task, data, (GDestroyNotify) load_data_free);
  duel_task_run_in_thread (task, load_thread);
}

DuelResultItem *
duel_result_item_load_finish (GAsyncResult  *result,
                              GError       **error)
{
  LoadData *data;
  g_autoptr(DuelResult) loaded = NULL;

  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == duel_result_item_load_async, NULL);

  loaded = g_task_propagate_pointer (G_TASK (result), error);
  if (loaded == NULL)
    return NULL;

  data = g_task_get_task_data (G_TASK (result));
  return duel_result_item_new (data->file, data->origin, loaded);
}
