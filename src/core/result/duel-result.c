/* duel-result.c — the result: the target, its identity and the tests run on it
 *
 * The DuelResult object, its properties and accessors, and its deep copy.
 * Saving is in duel-result-writer.c, loading in duel-result-reader.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "duel-json.h"
#include "duel-result-internal.h"
#include "duel-result-private.h"
#include "duel-result.h"
#include "duel-text.h"

#define TOOL_NAME "driveduel"

G_DEFINE_FINAL_TYPE (DuelResult, duel_result, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_NAME,
  PROP_PUBLISHED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

void
duel_target_info_clear (DuelTargetInfo *info)
{
  g_return_if_fail (info != NULL);

  g_clear_pointer (&info->path, g_free);
  info->kind = DUEL_TARGET_KIND_FILE;
  info->size_bytes = 0;
  info->logical_block_size = 0;
  info->physical_block_size = 0;
}

static void
duel_result_finalize (GObject *object)
{
  DuelResult *self = (DuelResult *) object;

  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->derived_name, g_free);
  g_clear_pointer (&self->tool_name, g_free);
  g_clear_pointer (&self->tool_version, g_free);
  g_clear_pointer (&self->created, g_date_time_unref);
  duel_target_info_clear (&self->target);
  g_clear_pointer (&self->device, json_object_unref);
  g_clear_pointer (&self->rated, json_object_unref);
  g_clear_pointer (&self->journal_id, g_free);
  g_clear_pointer (&self->missing_journal, g_free);
  g_clear_pointer (&self->tests, g_ptr_array_unref);

  G_OBJECT_CLASS (duel_result_parent_class)->finalize (object);
}

static void
duel_result_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  DuelResult *self = DUEL_RESULT (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, duel_result_get_name (self));
      break;

    case PROP_PUBLISHED:
      g_value_set_boolean (value, self->published);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
duel_result_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  DuelResult *self = DUEL_RESULT (object);

  switch (prop_id)
    {
    case PROP_NAME:
      duel_result_set_name (self, g_value_get_string (value));
      break;

    case PROP_PUBLISHED:
      duel_result_set_published (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
duel_result_class_init (DuelResultClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = duel_result_finalize;
  object_class->get_property = duel_result_get_property;
  object_class->set_property = duel_result_set_property;

  /* Reads back the display name: the set one, else a derived one. */
  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_PUBLISHED] =
    g_param_spec_boolean ("published", NULL, NULL,
                          FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
duel_result_init (DuelResult *self)
{
  self->tool_name = g_strdup (TOOL_NAME);
  self->tool_version = g_strdup (PACKAGE_VERSION);
  self->created = g_date_time_new_now_utc ();
  self->tests = g_ptr_array_new_with_free_func ((GDestroyNotify) duel_test_record_unref);
}

DuelResult *
duel_result_new (void)
{
  return g_object_new (DUEL_TYPE_RESULT, NULL);
}

/* ------------------------------------------------------------------------ */
/* Accessors                                                                */

const DuelTargetInfo *
duel_result_get_target (DuelResult *self)
{
  g_return_val_if_fail (DUEL_IS_RESULT (self), NULL);

  return &self->target;
}

void
duel_result_set_target (DuelResult           *self,
                        const DuelTargetInfo *info)
{
  g_autofree char *path = NULL;

  g_return_if_fail (DUEL_IS_RESULT (self));
  g_return_if_fail (info != NULL);

  path = g_strdup (info->path);
  duel_target_info_clear (&self->target);
  self->target = *info;
  self->target.path = g_steal_pointer (&path);
  g_clear_pointer (&self->derived_name, g_free);
  if (self->name == NULL || self->name[0] == '\0')
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NAME]);
}

void
duel_result_set_target_from (DuelResult *self,
                             DuelTarget *target)
{
  DuelTargetInfo info;

  g_return_if_fail (DUEL_IS_RESULT (self));
  g_return_if_fail (DUEL_IS_TARGET (target));

  info = (DuelTargetInfo) {
    .path = (char *) duel_target_get_path (target),
    .kind = duel_target_get_kind (target),
    .size_bytes = duel_target_get_size (target),
    .logical_block_size = duel_target_get_logical_block_size (target),
    .physical_block_size = duel_target_get_physical_block_size (target),
  };
  duel_result_set_target (self, &info);
}

const char *
duel_result_get_tool_name (DuelResult *self)
{
  g_return_val_if_fail (DUEL_IS_RESULT (self), NULL);

  return self->tool_name;
}

const char *
duel_result_get_tool_version (DuelResult *self)
{
  g_return_val_if_fail (DUEL_IS_RESULT (self), NULL);

  return self->tool_version;
}

void
duel_result_set_tool (DuelResult *self,
                      const char *name,
                      const char *version)
{
  g_return_if_fail (DUEL_IS_RESULT (self));
  g_return_if_fail (name != NULL);
  g_return_if_fail (version != NULL);

  g_free (self->tool_name);
  self->tool_name = g_strdup (name);
  g_free (self->tool_version);
  self->tool_version = g_strdup (version);
}

GDateTime *
duel_result_get_created (DuelResult *self)
{
  g_return_val_if_fail (DUEL_IS_RESULT (self), NULL);

  return self->created;
}

void
duel_result_set_created (DuelResult *self,
                         GDateTime  *created)
{
  g_return_if_fail (DUEL_IS_RESULT (self));
  g_return_if_fail (created != NULL);

  g_clear_pointer (&self->created, g_date_time_unref);
  self->created = g_date_time_to_utc (created);
}

static const char *
device_model (DuelResult *self)
{
  JsonNode *node;

  if (self->device == NULL)
    return NULL;
  node = json_object_get_member (self->device, "model");
  if (node == NULL || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

const char *
duel_result_get_name (DuelResult *self)
{
  const char *model;

  g_return_val_if_fail (DUEL_IS_RESULT (self), NULL);

  if (self->name != NULL && self->name[0] != '\0')
    return self->name;

  if (self->derived_name == NULL)
    {
      model = device_model (self);
      if (model != NULL)
        {
          /* NVMe model strings are space-padded. */
          self->derived_name = g_strstrip (g_strdup (model));
        }
      if ((self->derived_name == NULL || self->derived_name[0] == '\0') &&
          self->target.path != NULL && self->target.path[0] != '\0')
        {
          g_free (self->derived_name);
          self->derived_name = g_path_get_basename (self->target.path);
        }
      if (self->derived_name == NULL)
        self->derived_name = g_strdup ("");
      /* A model or a path from the file is a name like the file's own
       * "name": bounded the same way. */
      else if (g_utf8_validate (self->derived_name, -1, NULL) &&
               g_utf8_strlen (self->derived_name, -1) > DUEL_TEXT_NAME_MAX_CHARS)
        {
          char *bounded = duel_text_bound (self->derived_name, DUEL_TEXT_NAME_MAX_CHARS);

          g_free (self->derived_name);
          self->derived_name = bounded;
        }
    }

  return self->derived_name;
}

void
duel_result_set_name (DuelResult *self,
                      const char *name)
{
  g_return_if_fail (DUEL_IS_RESULT (self));

  if (g_strcmp0 (self->name, name) == 0)
    return;
  g_free (self->name);
  self->name = g_strdup (name);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NAME]);
}

JsonObject *
duel_result_get_device (DuelResult *self)
{
  g_return_val_if_fail (DUEL_IS_RESULT (self), NULL);

  return self->device;
}

void
duel_result_set_device (DuelResult *self,
                        JsonObject *device)
{
  g_return_if_fail (DUEL_IS_RESULT (self));

  if (device == self->device)
    return;
  if (device != NULL)
    json_object_ref (device);
  g_clear_pointer (&self->device, json_object_unref);
  self->device = device;
  g_clear_pointer (&self->derived_name, g_free);
  if (self->name == NULL || self->name[0] == '\0')
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NAME]);
}

JsonObject *
duel_result_get_rated (DuelResult *self)
{
  g_return_val_if_fail (DUEL_IS_RESULT (self), NULL);

  return self->rated;
}

void
duel_result_set_rated (DuelResult *self,
                       JsonObject *rated)
{
  g_return_if_fail (DUEL_IS_RESULT (self));

  if (rated == self->rated)
    return;
  if (rated != NULL)
    json_object_ref (rated);
  g_clear_pointer (&self->rated, json_object_unref);
  self->rated = rated;
}

gboolean
duel_result_is_published (DuelResult *self)
{
  g_return_val_if_fail (DUEL_IS_RESULT (self), FALSE);

  return self->published;
}

void
duel_result_set_published (DuelResult *self,
                           gboolean    published)
{
  g_return_if_fail (DUEL_IS_RESULT (self));

  published = !!published;
  if (self->published == published)
    return;
  self->published = published;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PUBLISHED]);
}

const char *
duel_result_get_journal_id (DuelResult *self)
{
  g_return_val_if_fail (DUEL_IS_RESULT (self), NULL);

  return self->journal_id;
}

void
duel_result_set_journal_id (DuelResult *self,
                            const char *journal_id)
{
  g_return_if_fail (DUEL_IS_RESULT (self));

  if (g_strcmp0 (self->journal_id, journal_id) == 0)
    return;
  g_free (self->journal_id);
  self->journal_id = g_strdup (journal_id);
}

const char *
duel_result_get_missing_journal (DuelResult *self)
{
  g_return_val_if_fail (DUEL_IS_RESULT (self), NULL);

  return self->missing_journal;
}

GPtrArray *
duel_result_get_tests (DuelResult *self)
{
  g_return_val_if_fail (DUEL_IS_RESULT (self), NULL);

  return self->tests;
}

void
duel_result_add_test (DuelResult     *self,
                      DuelTestRecord *record)
{
  g_return_if_fail (DUEL_IS_RESULT (self));
  g_return_if_fail (record != NULL);

  g_ptr_array_add (self->tests, duel_test_record_ref (record));
}

DuelTestRecord *
duel_result_find_test (DuelResult *self,
                       const char *name)
{
  g_return_val_if_fail (DUEL_IS_RESULT (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  for (guint i = 0; i < self->tests->len; i++)
    {
      DuelTestRecord *record = g_ptr_array_index (self->tests, i);

      if (g_strcmp0 (record->name, name) == 0)
        return record;
    }
  return NULL;
}

/* ------------------------------------------------------------------------ */
/* For the checkpointer's journal (duel-result-private.h)                   */

static DuelTestRecord *
copy_record (const DuelTestRecord *from)
{
  DuelTestRecord *copy = duel_test_record_new (from->name != NULL ? from->name : "", &from->workload);

  copy->preset = g_strdup (from->preset);
  copy->span_offset = from->span_offset;
  copy->span_length = from->span_length;
  copy->byte_limit = from->byte_limit;
  copy->trimmed = from->trimmed;
  copy->latency_kind = from->latency_kind;
  copy->started = from->started != NULL ? g_date_time_ref (from->started) : NULL;
  copy->runtime_ns = from->runtime_ns;
  copy->status = from->status;
  copy->error_message = g_strdup (from->error_message);
  if (from->series != NULL)
    {
      duel_series_free (copy->series);
      copy->series = duel_series_copy (from->series);
    }
  for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
    if (from->latency[d] != NULL)
      memcpy (copy->latency[d], from->latency[d], sizeof (DuelHistogram));
  if (from->summary != NULL)
    copy->summary = duel_json_object_copy_writable (from->summary);
  if (from->pauses != NULL)
    copy->pauses = g_array_copy (from->pauses);
  return copy;
}

DuelResult *
_duel_result_copy (DuelResult *self)
{
  DuelResult *copy;

  g_return_val_if_fail (DUEL_IS_RESULT (self), NULL);

  copy = g_object_new (DUEL_TYPE_RESULT, NULL);
  copy->name = g_strdup (self->name);
  duel_result_set_tool (copy, self->tool_name, self->tool_version);
  if (self->created != NULL)
    duel_result_set_created (copy, self->created);
  copy->published = self->published;
  duel_result_set_target (copy, &self->target);
  if (self->device != NULL)
    copy->device = duel_json_object_copy_writable (self->device);
  if (self->rated != NULL)
    copy->rated = duel_json_object_copy_writable (self->rated);
  copy->journal_id = g_strdup (self->journal_id);
  copy->missing_journal = g_strdup (self->missing_journal);
  for (guint i = 0; i < self->tests->len; i++)
    g_ptr_array_add (copy->tests, copy_record (g_ptr_array_index (self->tests, i)));
  return copy;
}
