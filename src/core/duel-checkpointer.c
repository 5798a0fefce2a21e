/* duel-checkpointer.c — whole-file saves, rate-limited (to be replaced by a journal)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "duel-checkpointer.h"

#define CHECKPOINT_INTERVAL_US (2 * G_TIME_SPAN_SECOND)

struct _DuelCheckpointer
{
  GObject               parent_instance;
  char                 *path;
  gint64                last_us;
  gboolean              failed;
  DuelCheckpointerStats stats;
};

G_DEFINE_FINAL_TYPE (DuelCheckpointer, duel_checkpointer, G_TYPE_OBJECT)

static void
duel_checkpointer_finalize (GObject *object)
{
  DuelCheckpointer *self = DUEL_CHECKPOINTER (object);

  g_clear_pointer (&self->path, g_free);
  G_OBJECT_CLASS (duel_checkpointer_parent_class)->finalize (object);
}

static void
duel_checkpointer_class_init (DuelCheckpointerClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = duel_checkpointer_finalize;
}

static void
duel_checkpointer_init (DuelCheckpointer *self)
{
}

DuelCheckpointer *
duel_checkpointer_new (const char *result_path)
{
  DuelCheckpointer *self;

  g_return_val_if_fail (result_path != NULL, NULL);

  self = g_object_new (DUEL_TYPE_CHECKPOINTER, NULL);
  self->path = g_strdup (result_path);
  return self;
}

gboolean
duel_checkpointer_start (DuelCheckpointer  *self,
                         DuelResult        *result,
                         GError           **error)
{
  g_return_val_if_fail (DUEL_IS_CHECKPOINTER (self), FALSE);

  self->last_us = g_get_monotonic_time ();
  return duel_result_save (result, self->path, error);
}

void
duel_checkpointer_update (DuelCheckpointer *self,
                          DuelResult       *result,
                          gboolean          test_finished)
{
  g_autoptr(GError) error = NULL;
  gint64 start = g_get_monotonic_time ();
  guint64 spent;

  g_return_if_fail (DUEL_IS_CHECKPOINTER (self));

  if (!test_finished && start - self->last_us < CHECKPOINT_INTERVAL_US)
    return;
  self->last_us = start;
  if (!duel_result_save (result, self->path, &error) && !self->failed)
    {
      self->failed = TRUE;
      g_warning ("Could not checkpoint %s: %s", self->path, error->message);
    }
  spent = (guint64) (g_get_monotonic_time () - start) * 1000;
  self->stats.n_checkpoints++;
  self->stats.total_update_ns += spent;
  self->stats.longest_update_ns = MAX (self->stats.longest_update_ns, spent);
}

gboolean
duel_checkpointer_finish (DuelCheckpointer  *self,
                          DuelResult        *result,
                          GError           **error)
{
  g_return_val_if_fail (DUEL_IS_CHECKPOINTER (self), FALSE);

  return duel_result_save (result, self->path, error);
}

void
duel_checkpointer_get_stats (DuelCheckpointer      *self,
                             DuelCheckpointerStats *out)
{
  g_return_if_fail (DUEL_IS_CHECKPOINTER (self));
  *out = self->stats;
}
