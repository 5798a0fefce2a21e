/* duel-udisks.c — open a block device through UDisks2 when the process may not
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <gio/gunixfdlist.h>
#include <glib/gi18n-lib.h>
#include <unistd.h>

#include "duel-error.h"
#include "duel-udisks.h"

#define UDISKS_NAME         "org.freedesktop.UDisks2"
#define UDISKS_MANAGER_PATH "/org/freedesktop/UDisks2/Manager"

typedef struct
{
  char            *device_path;
  gboolean         write;
  int              open_flags;
  GDBusConnection *bus;
} OpenData;

static void
open_data_free (OpenData *data)
{
  g_free (data->device_path);
  g_clear_object (&data->bus);
  g_free (data);
}

/* Errors from the bus become one clear sentence naming the device. */
static void
return_error (GTask      *task,
              GError     *error,
              const char *device_path)
{
  g_autofree char *remote = NULL;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_task_return_error (task, error);
      return;
    }

  if (g_dbus_error_is_remote_error (error))
    {
      remote = g_dbus_error_get_remote_error (error);
      g_dbus_error_strip_remote_error (error);
    }

  if (g_strcmp0 (remote, "org.freedesktop.UDisks2.Error.NotAuthorizedCanObtain") == 0 ||
      g_strcmp0 (remote, "org.freedesktop.UDisks2.Error.NotAuthorized") == 0 ||
      g_strcmp0 (remote, "org.freedesktop.UDisks2.Error.NotAuthorizedDismissed") == 0)
    g_task_return_new_error (task, DUEL_ERROR, DUEL_ERROR_TARGET,
                             _("Access to %s was not granted. Drive Duel needs write access "
                               "to the device: authorize it when asked, or run Drive Duel as a "
                               "user allowed to open it."),
                             device_path);
  else if (g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_SERVICE_UNKNOWN) ||
           g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_NAME_HAS_NO_OWNER) ||
           g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND) ||
           g_error_matches (error, G_IO_ERROR, G_IO_ERROR_FAILED))
    g_task_return_new_error (task, DUEL_ERROR, DUEL_ERROR_TARGET,
                             _("Drive Duel may not open %s, and the UDisks service that could "
                               "open it on its behalf is not available (%s). Run Drive Duel as a "
                               "user with access to the device, or install and start udisks2."),
                             device_path, error->message);
  else
    g_task_return_new_error (task, DUEL_ERROR, DUEL_ERROR_TARGET,
                             _("UDisks could not open %s: %s"), device_path, error->message);
  g_error_free (error);
}

static void
open_device_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  OpenData *data = g_task_get_task_data (task);
  g_autoptr(GUnixFDList) fd_list = NULL;
  g_autoptr(GVariant) reply = NULL;
  GError *error = NULL;
  gint32 handle = -1;
  int fd;

  reply = g_dbus_connection_call_with_unix_fd_list_finish (G_DBUS_CONNECTION (object),
                                                           &fd_list, result, &error);
  if (reply == NULL)
    {
      return_error (task, error, data->device_path);
      return;
    }

  g_variant_get (reply, "(h)", &handle);
  if (fd_list == NULL || handle < 0 || handle >= g_unix_fd_list_get_length (fd_list))
    {
      g_task_return_new_error (task, DUEL_ERROR, DUEL_ERROR_TARGET,
                               _("UDisks opened %s but passed back no descriptor."),
                               data->device_path);
      return;
    }

  fd = g_unix_fd_list_get (fd_list, handle, &error);
  if (fd < 0)
    {
      return_error (task, error, data->device_path);
      return;
    }
  g_task_return_int (task, fd);
}

static void
resolve_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  OpenData *data = g_task_get_task_data (task);
  g_autoptr(GVariant) reply = NULL;
  g_autofree const char **objects = NULL;
  GVariantBuilder options;
  GError *error = NULL;

  reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (object), result, &error);
  if (reply == NULL)
    {
      return_error (task, error, data->device_path);
      return;
    }

  g_variant_get (reply, "(^a&o)", &objects);
  if (objects == NULL || objects[0] == NULL)
    {
      g_task_return_new_error (task, DUEL_ERROR, DUEL_ERROR_TARGET,
                               _("UDisks does not know the device %s."), data->device_path);
      return;
    }

  g_variant_builder_init (&options, G_VARIANT_TYPE_VARDICT);
  if (data->open_flags != 0)
    g_variant_builder_add (&options, "{sv}", "flags", g_variant_new_int32 (data->open_flags));

  /* polkit may show its dialog now, before the run, never in the middle of it. */
  g_dbus_connection_call_with_unix_fd_list (data->bus, UDISKS_NAME, objects[0],
                                            "org.freedesktop.UDisks2.Block", "OpenDevice",
                                            g_variant_new ("(sa{sv})", data->write ? "rw" : "r", &options),
                                            G_VARIANT_TYPE ("(h)"),
                                            G_DBUS_CALL_FLAGS_ALLOW_INTERACTIVE_AUTHORIZATION,
                                            G_MAXINT, NULL,
                                            g_task_get_cancellable (task),
                                            open_device_cb, g_object_ref (task));
}

static void
bus_cb (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  OpenData *data = g_task_get_task_data (task);
  GVariantBuilder spec;
  GError *error = NULL;

  data->bus = g_bus_get_finish (result, &error);
  if (data->bus == NULL)
    {
      return_error (task, error, data->device_path);
      return;
    }

  g_variant_builder_init (&spec, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&spec, "{sv}", "path", g_variant_new_string (data->device_path));
  g_dbus_connection_call (data->bus, UDISKS_NAME, UDISKS_MANAGER_PATH,
                          "org.freedesktop.UDisks2.Manager", "ResolveDevice",
                          g_variant_new ("(a{sv}a{sv})", &spec, NULL),
                          G_VARIANT_TYPE ("(ao)"),
                          G_DBUS_CALL_FLAGS_NONE, 10000,
                          g_task_get_cancellable (task),
                          resolve_cb, g_object_ref (task));
}

void
duel_udisks_open_device_async (const char          *device_path,
                               gboolean             write,
                               int                  open_flags,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  OpenData *data;

  g_return_if_fail (device_path != NULL);

  data = g_new0 (OpenData, 1);
  data->device_path = g_strdup (device_path);
  data->write = write;
  data->open_flags = open_flags;

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, duel_udisks_open_device_async);
  g_task_set_task_data (task, data, (GDestroyNotify) open_data_free);
  g_bus_get (G_BUS_TYPE_SYSTEM, cancellable, bus_cb, g_steal_pointer (&task));
}

int
duel_udisks_open_device_finish (GAsyncResult  *result,
                                GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), -1);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == duel_udisks_open_device_async, -1);

  return (int) g_task_propagate_int (G_TASK (result), error);
}
