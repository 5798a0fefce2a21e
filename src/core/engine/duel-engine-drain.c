/* duel-engine-drain.c — what a stop waits for, and giving up the wait
 *
 * After a cancel, each engine loop (each job's) waits for its I/O in
 * flight: a run ends when the device has answered everything it was
 * asked. A device that does not answer (a hung drive, a FUSE server that
 * stopped) makes that wait endless. The loops report here what they wait
 * for, so that the run's owner can say it, and read here whether to give
 * the wait up. The state hangs on the run's cancellable, which every loop
 * of the run already has.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "duel-engine-private.h"

struct _DuelDrain
{
  GMutex   lock;
  guint    stopping;          /* loops waiting for their I/O */
  guint    in_flight;         /* the I/Os they wait for */
  guint64  last_answer_ns;    /* the device's last answer, or the first stop */
  guint    abandoned;         /* I/Os left in flight */
  gint     given_up;          /* atomic: read once per pass */
};

static GQuark
drain_quark (void)
{
  static gsize quark;

  if (g_once_init_enter (&quark))
    g_once_init_leave (&quark, g_quark_from_static_string ("duel-engine-drain"));
  return (GQuark) quark;
}

static GMutex drains_lock;

static void
drain_clear (gpointer data)
{
  DuelDrain *drain = data;

  g_mutex_clear (&drain->lock);
}

/* A drain is shared by a cancellable and the own stops made from it. */
static void
drain_unref (gpointer data)
{
  g_atomic_rc_box_release_full (data, drain_clear);
}

DuelDrain *
_duel_drain_get (GCancellable *cancellable)
{
  DuelDrain *drain;

  if (cancellable == NULL)
    return NULL;
  g_mutex_lock (&drains_lock);
  drain = g_object_get_qdata (G_OBJECT (cancellable), drain_quark ());
  if (drain == NULL)
    {
      drain = g_atomic_rc_box_new0 (DuelDrain);
      g_mutex_init (&drain->lock);
      g_object_set_qdata_full (G_OBJECT (cancellable), drain_quark (), drain, drain_unref);
    }
  g_mutex_unlock (&drains_lock);
  return drain;
}

typedef struct
{
  GCancellable *cancellable;
  gulong        handler;
} OwnStop;

static GQuark
own_stop_quark (void)
{
  static gsize quark;

  if (g_once_init_enter (&quark))
    g_once_init_leave (&quark, g_quark_from_static_string ("duel-engine-own-stop"));
  return (GQuark) quark;
}

static void
forward_cancel (GCancellable *cancellable,
                gpointer      user_data)
{
  g_cancellable_cancel (G_CANCELLABLE (user_data));
}

GCancellable *
duel_engine_own_stop_new (GCancellable *cancellable)
{
  GCancellable *stop;
  OwnStop *own;

  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);

  stop = g_cancellable_new ();
  if (cancellable == NULL)
    return stop;
  /* The run's loops report to, and read, the caller's drain. */
  g_object_set_qdata_full (G_OBJECT (stop), drain_quark (), g_atomic_rc_box_acquire (_duel_drain_get (cancellable)),
                           drain_unref);
  own = g_new0 (OwnStop, 1);
  own->cancellable = g_object_ref (cancellable);
  own->handler = g_cancellable_connect (cancellable, G_CALLBACK (forward_cancel), g_object_ref (stop),
                                        g_object_unref);
  g_object_set_qdata (G_OBJECT (stop), own_stop_quark (), own);
  return stop;
}

void
duel_engine_own_stop_free (GCancellable *stop)
{
  OwnStop *own;

  if (stop == NULL)
    return;
  g_return_if_fail (G_IS_CANCELLABLE (stop));

  own = g_object_steal_qdata (G_OBJECT (stop), own_stop_quark ());
  if (own != NULL)
    {
      g_cancellable_disconnect (own->cancellable, own->handler);
      g_object_unref (own->cancellable);
      g_free (own);
    }
  g_object_unref (stop);
}

void
_duel_drain_begin (DuelDrain *drain,
                   guint64    now_ns)
{
  g_mutex_lock (&drain->lock);
  /* The wait counts from the first loop's stop. */
  if (drain->stopping == 0)
    drain->last_answer_ns = now_ns;
  drain->stopping++;
  g_mutex_unlock (&drain->lock);
}

void
_duel_drain_update (DuelDrain *drain,
                    gint       delta,
                    gboolean   answered,
                    guint64    now_ns)
{
  g_mutex_lock (&drain->lock);
  drain->in_flight = (guint) MAX ((gint64) drain->in_flight + delta, 0);
  if (answered)
    drain->last_answer_ns = now_ns;
  g_mutex_unlock (&drain->lock);
}

void
_duel_drain_end (DuelDrain *drain,
                 guint      abandoned)
{
  g_mutex_lock (&drain->lock);
  drain->stopping--;
  drain->abandoned += abandoned;
  g_mutex_unlock (&drain->lock);
}

gboolean
_duel_drain_given_up (DuelDrain *drain)
{
  return g_atomic_int_get (&drain->given_up) != 0;
}

gboolean
duel_engine_get_drain (GCancellable *cancellable,
                       guint        *out_in_flight,
                       guint64      *out_unanswered_ns)
{
  DuelDrain *drain;
  gboolean waiting;
  guint64 now = _duel_engine_now_ns ();

  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), FALSE);

  drain = _duel_drain_get (cancellable);
  if (drain == NULL)
    return FALSE;
  g_mutex_lock (&drain->lock);
  waiting = drain->stopping > 0 && drain->in_flight > 0;
  if (waiting && out_in_flight != NULL)
    *out_in_flight = drain->in_flight;
  if (waiting && out_unanswered_ns != NULL)
    *out_unanswered_ns = now > drain->last_answer_ns ? now - drain->last_answer_ns : 0;
  g_mutex_unlock (&drain->lock);
  return waiting;
}

void
duel_engine_give_up (GCancellable *cancellable)
{
  g_return_if_fail (G_IS_CANCELLABLE (cancellable));

  g_atomic_int_set (&_duel_drain_get (cancellable)->given_up, 1);
}

guint
duel_engine_get_abandoned (GCancellable *cancellable)
{
  DuelDrain *drain;
  guint abandoned;

  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), 0);

  drain = _duel_drain_get (cancellable);
  if (drain == NULL)
    return 0;
  g_mutex_lock (&drain->lock);
  abandoned = drain->abandoned;
  g_mutex_unlock (&drain->lock);
  return abandoned;
}
