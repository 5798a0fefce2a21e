/* duel-udisks.c — open a block device through UDisks2 when the process may not
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <gio/gunixfdlist.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <grp.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "duel-block-node.h"
#include "duel-error.h"
#include "duel-system.h"
#include "duel-udisks.h"

#define UDISKS_NAME         "org.freedesktop.UDisks2"
#define UDISKS_MANAGER_PATH "/org/freedesktop/UDisks2/Manager"
#define UDISKS_BLOCK_IFACE  "org.freedesktop.UDisks2.Block"

/* The group that owns the device node, when joining it would let this
 * process open the device itself (udev gives block devices to "disk",
 * 0660); NULL when the group has no such right. */
static char *
owner_group (const char *device_path,
             gboolean    write)
{
  g_autofree char *buffer = NULL;
  struct group group, *found = NULL;
  mode_t needed = S_IRGRP | (write ? S_IWGRP : 0);
  struct stat st;
  long size;

  if (stat (device_path, &st) != 0 || (st.st_mode & needed) != needed || st.st_gid == 0)
    return NULL;

  size = sysconf (_SC_GETGR_R_SIZE_MAX);
  size = size > 0 ? size : 16384;
  buffer = g_malloc (size);
  if (getgrgid_r (st.st_gid, &group, buffer, size, &found) == 0 && found != NULL)
    return g_strdup (found->gr_name);
  return g_strdup_printf ("%u", (unsigned int) st.st_gid);
}

/* Which polkit action UDisks checked: system devices (internal disks, loop
 * devices) have their own. */
static const char *
open_action (GDBusConnection *bus,
             const char      *object_path)
{
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariant) value = NULL;

  if (bus == NULL || object_path == NULL)
    return "org.freedesktop.udisks2.open-device-system";
  reply = g_dbus_connection_call_sync (bus, UDISKS_NAME, object_path,
                                       "org.freedesktop.DBus.Properties", "Get",
                                       g_variant_new ("(ss)", UDISKS_BLOCK_IFACE, "HintSystem"),
                                       G_VARIANT_TYPE ("(v)"), G_DBUS_CALL_FLAGS_NONE, 5000,
                                       NULL, NULL);
  if (reply != NULL)
    {
      g_variant_get (reply, "(v)", &value);
      if (g_variant_is_of_type (value, G_VARIANT_TYPE_BOOLEAN) && !g_variant_get_boolean (value))
        return "org.freedesktop.udisks2.open-device";
    }
  return "org.freedesktop.udisks2.open-device-system";
}

/* No UDisks to ask: no bus, no daemon, or one that cannot be started. */
static gboolean
is_unavailable (const GError *error)
{
  static const int codes[] = {
    G_DBUS_ERROR_SERVICE_UNKNOWN, G_DBUS_ERROR_NAME_HAS_NO_OWNER, G_DBUS_ERROR_NO_SERVER,
    G_DBUS_ERROR_NO_REPLY, G_DBUS_ERROR_TIMEOUT, G_DBUS_ERROR_TIMED_OUT,
    G_DBUS_ERROR_DISCONNECTED, G_DBUS_ERROR_SPAWN_EXEC_FAILED, G_DBUS_ERROR_SPAWN_FORK_FAILED,
    G_DBUS_ERROR_SPAWN_CHILD_EXITED, G_DBUS_ERROR_SPAWN_CHILD_SIGNALED, G_DBUS_ERROR_SPAWN_FAILED,
    G_DBUS_ERROR_SPAWN_SERVICE_INVALID, G_DBUS_ERROR_SPAWN_SERVICE_NOT_FOUND,
    G_DBUS_ERROR_SPAWN_PERMISSIONS_INVALID, G_DBUS_ERROR_SPAWN_FILE_INVALID,
  };

  if (error->domain == G_DBUS_ERROR)
    for (guint i = 0; i < G_N_ELEMENTS (codes); i++)
      if (error->code == codes[i])
        return TRUE;
  return g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CLOSED);
}

/* The device's node is not in this sandbox's /dev: UDisks is the only
 * way to it, so "run as root" or a group would not help. */
static gboolean
is_hidden (const char *device_path)
{
  struct stat st;
  gboolean hidden = FALSE;

  return duel_block_node_stat (device_path, &st, &hidden) == 0 && hidden;
}

/* UDisks tried and failed, in its own words (@detail). */
static void
set_other_error (GError     **error,
                 const char  *device_path,
                 const char  *group,
                 const char  *detail)
{
  if (is_hidden (device_path))
    /* TRANSLATORS: the device, why UDisks failed (its own words) */
    g_set_error (error, DUEL_ERROR, DUEL_ERROR_TARGET,
                 _("“%s” can be opened in this sandbox only through UDisks, and UDisks could not open it (%s)."),
                 device_path, detail);
  else if (group != NULL)
    /* TRANSLATORS: the device, why UDisks failed (its own words), the group
     * that owns the device ("disk") */
    g_set_error (error, DUEL_ERROR, DUEL_ERROR_TARGET,
                 _("Permission denied opening “%s”, and UDisks could not open it (%s): "
                   "run as root or join the group “%s” that owns it."),
                 device_path, detail, group);
  else
    /* TRANSLATORS: the device, why UDisks failed (its own words) */
    g_set_error (error, DUEL_ERROR, DUEL_ERROR_TARGET,
                 _("Permission denied opening “%s”, and UDisks could not open it (%s): run as root."),
                 device_path, detail);
}

/* Every failure is one sentence naming the device and what to do instead;
 * a cancel stays a cancel. Takes @local_error. */
static void
set_error (GError          **error,
           GError           *local_error,
           const char       *device_path,
           gboolean          write,
           GDBusConnection  *bus,
           const char       *object_path)
{
  g_autoptr(GError) cause = local_error;
  g_autofree char *remote = NULL;
  g_autofree char *group = NULL;
  g_autofree char *detail = NULL;

  if (g_error_matches (cause, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_propagate_error (error, g_steal_pointer (&cause));
      return;
    }

  if (g_dbus_error_is_remote_error (cause))
    {
      remote = g_dbus_error_get_remote_error (cause);
      g_dbus_error_strip_remote_error (cause);
    }
  group = owner_group (device_path, write);

  if (g_strcmp0 (remote, "org.freedesktop.UDisks2.Error.NotAuthorizedCanObtain") == 0 ||
      g_strcmp0 (remote, "org.freedesktop.UDisks2.Error.NotAuthorized") == 0 ||
      g_strcmp0 (remote, "org.freedesktop.UDisks2.Error.NotAuthorizedDismissed") == 0)
    {
      const char *action = open_action (bus, object_path);

      if (is_hidden (device_path))
        /* TRANSLATORS: the device, a polkit action id */
        g_set_error (error, DUEL_ERROR, DUEL_ERROR_TARGET,
                     _("“%s” can be opened in this sandbox only through UDisks, and polkit did not allow it: "
                       "allow %s in polkit."),
                     device_path, action);
      else if (group != NULL)
        /* TRANSLATORS: the device, the group that owns it ("disk"), a
         * polkit action id (org.freedesktop.udisks2.open-device) */
        g_set_error (error, DUEL_ERROR, DUEL_ERROR_TARGET,
                     _("Permission denied opening “%s”, and polkit did not allow UDisks to open it: "
                       "run as root, join the group “%s” that owns it, or allow %s in polkit."),
                     device_path, group, action);
      else
        /* TRANSLATORS: the device, a polkit action id */
        g_set_error (error, DUEL_ERROR, DUEL_ERROR_TARGET,
                     _("Permission denied opening “%s”, and polkit did not allow UDisks to open it: "
                       "run as root or allow %s in polkit."),
                     device_path, action);
      return;
    }

  if (bus == NULL || is_unavailable (cause))
    {
      if (is_hidden (device_path))
        /* TRANSLATORS: the device; --system-talk-name=… is a Flatpak
         * permission, not to be translated */
        g_set_error (error, DUEL_ERROR, DUEL_ERROR_TARGET,
                     _("“%s” can be opened in this sandbox only through UDisks, which is not running or cannot "
                       "be reached (a Flatpak needs --system-talk-name=org.freedesktop.UDisks2)."),
                     device_path);
      else if (group != NULL)
        /* TRANSLATORS: the device, the group that owns it ("disk") */
        g_set_error (error, DUEL_ERROR, DUEL_ERROR_TARGET,
                     _("Permission denied opening “%s”, and UDisks, which could open it, is not running: "
                       "run as root, join the group “%s” that owns it, or start udisks2."),
                     device_path, group);
      else
        g_set_error (error, DUEL_ERROR, DUEL_ERROR_TARGET,
                     _("Permission denied opening “%s”, and UDisks, which could open it, is not running: "
                       "run as root or start udisks2."),
                     device_path);
      return;
    }

  /* udisksd says "Error opening device …: %m"; EBUSY is O_EXCL refused. */
  if (g_strcmp0 (remote, "org.freedesktop.UDisks2.Error.Failed") == 0 &&
      g_str_has_suffix (cause->message, ": Device or resource busy"))
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_REFUSED,
                   _("“%s” is busy: another program has it open exclusively."), device_path);
      return;
    }

  detail = g_strdup (cause->message);
  g_strchomp (detail);
  if (g_str_has_suffix (detail, "."))
    detail[strlen (detail) - 1] = '\0';
  set_other_error (error, device_path, group, detail);
}

int
duel_udisks_open_device (const char    *device_path,
                         gboolean       write,
                         int            open_flags,
                         GCancellable  *cancellable,
                         GError       **error)
{
  g_autoptr(GDBusConnection) bus = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GUnixFDList) fd_list = NULL;
  g_autofree const char **objects = NULL;
  g_autofree char *object_path = NULL;
  GVariantBuilder spec, options;
  GError *local_error = NULL;
  gint32 handle = -1;
  int fd;

  g_return_val_if_fail (device_path != NULL, -1);
  g_return_val_if_fail (error == NULL || *error == NULL, -1);

  bus = g_bus_get_sync (G_BUS_TYPE_SYSTEM, cancellable, &local_error);
  if (bus == NULL)
    {
      set_error (error, local_error, device_path, write, NULL, NULL);
      return -1;
    }

  g_variant_builder_init (&spec, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&spec, "{sv}", "path", g_variant_new_string (device_path));
  reply = g_dbus_connection_call_sync (bus, UDISKS_NAME, UDISKS_MANAGER_PATH,
                                       "org.freedesktop.UDisks2.Manager", "ResolveDevice",
                                       g_variant_new ("(a{sv}a{sv})", &spec, NULL),
                                       G_VARIANT_TYPE ("(ao)"), G_DBUS_CALL_FLAGS_NONE, 10000,
                                       cancellable, &local_error);
  if (reply == NULL)
    {
      set_error (error, local_error, device_path, write, bus, NULL);
      return -1;
    }
  g_variant_get (reply, "(^a&o)", &objects);
  if (objects == NULL || objects[0] == NULL)
    {
      g_autofree char *group = owner_group (device_path, write);

      /* TRANSLATORS: why UDisks could not open a device */
      set_other_error (error, device_path, group, _("it knows no such device"));
      return -1;
    }
  object_path = g_strdup (objects[0]);
  g_clear_pointer (&reply, g_variant_unref);

  g_variant_builder_init (&options, G_VARIANT_TYPE_VARDICT);
  if (open_flags != 0)
    g_variant_builder_add (&options, "{sv}", "flags", g_variant_new_int32 (open_flags));

  /* polkit may ask for a password: no timeout on the answer. */
  reply = g_dbus_connection_call_with_unix_fd_list_sync (bus, UDISKS_NAME, object_path,
                                                         UDISKS_BLOCK_IFACE, "OpenDevice",
                                                         g_variant_new ("(sa{sv})", write ? "rw" : "r", &options),
                                                         G_VARIANT_TYPE ("(h)"),
                                                         G_DBUS_CALL_FLAGS_ALLOW_INTERACTIVE_AUTHORIZATION,
                                                         G_MAXINT, NULL, &fd_list,
                                                         cancellable, &local_error);
  if (reply == NULL)
    {
      set_error (error, local_error, device_path, write, bus, object_path);
      return -1;
    }

  g_variant_get (reply, "(h)", &handle);
  if (fd_list == NULL || handle < 0 || handle >= g_unix_fd_list_get_length (fd_list))
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_TARGET,
                   _("UDisks opened “%s” but passed back no descriptor."), device_path);
      return -1;
    }
  fd = g_unix_fd_list_get (fd_list, handle, &local_error);
  if (fd < 0)
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_TARGET,
                   _("UDisks opened “%s” but its descriptor could not be taken: %s"),
                   device_path, local_error->message);
      g_error_free (local_error);
      return -1;
    }
  return fd;
}

typedef struct
{
  char     *device_path;
  gboolean  write;
  int       open_flags;
} OpenData;

static void
open_data_free (OpenData *data)
{
  g_free (data->device_path);
  g_free (data);
}

static void
open_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  OpenData *data = task_data;
  GError *error = NULL;
  int fd;

  fd = duel_udisks_open_device (data->device_path, data->write, data->open_flags, cancellable, &error);
  if (fd < 0)
    g_task_return_error (task, error);
  else if (g_task_return_error_if_cancelled (task))
    g_close (fd, NULL);     /* nobody is left to take it */
  else
    g_task_return_int (task, fd);
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

  task = duel_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, duel_udisks_open_device_async);
  g_task_set_task_data (task, data, (GDestroyNotify) open_data_free);
  duel_task_run_in_thread (task, open_thread);
}

int
duel_udisks_open_device_finish (GAsyncResult  *result,
                                GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), -1);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == duel_udisks_open_device_async, -1);

  return (int) g_task_propagate_int (G_TASK (result), error);
}

/* --- what UDisks says is mounted ------------------------------------------------ */

void
duel_udisks_use_free (DuelUDisksUse *use)
{
  if (use == NULL)
    return;
  g_free (use->name);
  g_free (use->fstype);
  g_strfreev (use->mount_points);
  g_free (use);
}

/* One interface's property, or NULL. */
static GVariant *
lookup_property (GVariant   *interfaces,
                 const char *interface,
                 const char *property,
                 const char *type)
{
  g_autoptr(GVariant) properties = g_variant_lookup_value (interfaces, interface, G_VARIANT_TYPE_VARDICT);

  if (properties == NULL)
    return NULL;
  return g_variant_lookup_value (properties, property, G_VARIANT_TYPE (type));
}

static DuelUDisksUse *
use_new (GVariant *interfaces,
         gboolean  whole)
{
  g_autoptr(GVariant) device = lookup_property (interfaces, UDISKS_BLOCK_IFACE, "Device", "ay");
  g_autoptr(GVariant) mount_points = lookup_property (interfaces, "org.freedesktop.UDisks2.Filesystem",
                                                      "MountPoints", "aay");
  g_autoptr(GVariant) active = lookup_property (interfaces, "org.freedesktop.UDisks2.Swapspace", "Active", "b");
  g_autoptr(GVariant) number = lookup_property (interfaces, UDISKS_BLOCK_IFACE, "DeviceNumber", "t");
  g_autoptr(GVariant) id_type = lookup_property (interfaces, UDISKS_BLOCK_IFACE, "IdType", "s");
  g_autoptr(GPtrArray) points = g_ptr_array_new ();
  DuelUDisksUse *use = g_new0 (DuelUDisksUse, 1);

  use->name = device != NULL ? g_path_get_basename (g_variant_get_bytestring (device)) : g_strdup ("?");
  if (number != NULL)
    {
      use->major = major (g_variant_get_uint64 (number));
      use->minor = minor (g_variant_get_uint64 (number));
    }
  if (id_type != NULL && *g_variant_get_string (id_type, NULL) != '\0')
    use->fstype = g_variant_dup_string (id_type, NULL);
  use->whole = whole;
  if (mount_points != NULL)
    for (gsize i = 0; i < g_variant_n_children (mount_points); i++)
      {
        g_autoptr(GVariant) point = g_variant_get_child_value (mount_points, i);

        g_ptr_array_add (points, g_strdup (g_variant_get_bytestring (point)));
      }
  g_ptr_array_add (points, NULL);
  use->mount_points = (GStrv) g_ptr_array_free (g_steal_pointer (&points), FALSE);
  use->swap = active != NULL && g_variant_get_boolean (active);
  return use;
}

/* a{oa{sa{sv}}}: every object UDisks has, with its interfaces. */
static GVariant *
get_managed_objects (GCancellable  *cancellable,
                     GError       **error)
{
  g_autoptr(GDBusConnection) bus = NULL;
  g_autoptr(GVariant) reply = NULL;

  bus = g_bus_get_sync (G_BUS_TYPE_SYSTEM, cancellable, error);
  if (bus == NULL)
    return NULL;
  reply = g_dbus_connection_call_sync (bus, UDISKS_NAME, "/org/freedesktop/UDisks2",
                                       "org.freedesktop.DBus.ObjectManager", "GetManagedObjects",
                                       NULL, G_VARIANT_TYPE ("(a{oa{sa{sv}}})"),
                                       G_DBUS_CALL_FLAGS_NONE, 10000, cancellable, error);
  if (reply == NULL)
    {
      if (error != NULL && *error != NULL)
        g_dbus_error_strip_remote_error (*error);
      return NULL;
    }
  return g_variant_get_child_value (reply, 0);
}

/* The block device MAJOR:MINOR among @objects: its object path, and its
 * interfaces in *@out_interfaces; NULL when UDisks has none. */
static char *
find_block (GVariant   *objects,
            guint       major_number,
            guint       minor_number,
            GVariant  **out_interfaces)
{
  guint64 devnum = makedev (major_number, minor_number);
  GVariantIter iter;
  const char *object_path;
  GVariant *interfaces;

  g_variant_iter_init (&iter, objects);
  while (g_variant_iter_next (&iter, "{&o@a{sa{sv}}}", &object_path, &interfaces))
    {
      g_autoptr(GVariant) owned = interfaces;
      g_autoptr(GVariant) number = lookup_property (interfaces, UDISKS_BLOCK_IFACE, "DeviceNumber", "t");

      if (number != NULL && g_variant_get_uint64 (number) == devnum)
        {
          *out_interfaces = g_steal_pointer (&owned);
          return g_strdup (object_path);
        }
    }
  return NULL;
}

GPtrArray *
duel_udisks_get_mounts (GCancellable  *cancellable,
                        GError       **error)
{
  g_autoptr(GVariant) objects = NULL;
  g_autoptr(GPtrArray) mounts = NULL;
  GVariantIter iter;
  const char *object_path;
  GVariant *interfaces;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  objects = get_managed_objects (cancellable, error);
  if (objects == NULL)
    return NULL;
  mounts = g_ptr_array_new_with_free_func ((GDestroyNotify) duel_udisks_use_free);
  g_variant_iter_init (&iter, objects);
  while (g_variant_iter_next (&iter, "{&o@a{sa{sv}}}", &object_path, &interfaces))
    {
      g_autoptr(GVariant) owned = interfaces;
      DuelUDisksUse *use = use_new (interfaces, TRUE);

      if (use->mount_points[0] != NULL && use->major != 0)
        g_ptr_array_add (mounts, use);
      else
        duel_udisks_use_free (use);
    }
  return g_steal_pointer (&mounts);
}

GPtrArray *
duel_udisks_get_uses (guint          major_number,
                      guint          minor_number,
                      GCancellable  *cancellable,
                      GError       **error)
{
  g_autoptr(GVariant) objects = NULL;
  g_autoptr(GVariant) block_interfaces = NULL;
  g_autoptr(GPtrArray) uses = NULL;
  g_autofree char *device_path = NULL;
  GVariantIter iter;
  const char *object_path;
  GVariant *interfaces;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  objects = get_managed_objects (cancellable, error);
  if (objects == NULL)
    return NULL;

  /* The device itself first, then every partition whose table it holds. */
  device_path = find_block (objects, major_number, minor_number, &block_interfaces);
  if (device_path == NULL)
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_TARGET,
                   /* TRANSLATORS: a block device number, "259:0" */
                   _("UDisks knows no block device %u:%u"), major_number, minor_number);
      return NULL;
    }
  uses = g_ptr_array_new_with_free_func ((GDestroyNotify) duel_udisks_use_free);
  g_ptr_array_add (uses, use_new (block_interfaces, TRUE));

  g_variant_iter_init (&iter, objects);
  while (g_variant_iter_next (&iter, "{&o@a{sa{sv}}}", &object_path, &interfaces))
    {
      g_autoptr(GVariant) owned = interfaces;
      g_autoptr(GVariant) table = lookup_property (interfaces, "org.freedesktop.UDisks2.Partition", "Table", "o");

      if (table != NULL && g_strcmp0 (g_variant_get_string (table, NULL), device_path) == 0)
        g_ptr_array_add (uses, use_new (interfaces, FALSE));
    }
  return g_steal_pointer (&uses);
}

/* --- what UDisks read of an ATA drive's SMART data ------------------------------ */

#define UDISKS_ATA_IFACE "org.freedesktop.UDisks2.Drive.Ata"

static gboolean
lookup_boolean (GVariant   *interfaces,
                const char *property)
{
  g_autoptr(GVariant) value = lookup_property (interfaces, UDISKS_ATA_IFACE, property, "b");

  return value != NULL && g_variant_get_boolean (value);
}

static guint64
lookup_uint64 (GVariant   *interfaces,
               const char *property)
{
  g_autoptr(GVariant) value = lookup_property (interfaces, UDISKS_ATA_IFACE, property, "t");

  return value != NULL ? g_variant_get_uint64 (value) : 0;
}

gboolean
duel_udisks_get_ata_smart (guint             major_number,
                           guint             minor_number,
                           DuelUDisksSmart  *out_smart,
                           GCancellable     *cancellable,
                           GError          **error)
{
  g_autoptr(GVariant) objects = NULL;
  g_autoptr(GVariant) block_interfaces = NULL;
  g_autoptr(GVariant) drive = NULL;
  g_autoptr(GVariant) drive_interfaces = NULL;
  g_autoptr(GVariant) temperature = NULL;
  g_autofree char *block_path = NULL;
  const char *drive_path = NULL;

  g_return_val_if_fail (out_smart != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  objects = get_managed_objects (cancellable, error);
  if (objects == NULL)
    return FALSE;

  /* The block device names its drive ("/" for none). */
  block_path = find_block (objects, major_number, minor_number, &block_interfaces);
  if (block_path != NULL)
    drive = lookup_property (block_interfaces, UDISKS_BLOCK_IFACE, "Drive", "o");
  if (drive != NULL && g_strcmp0 (g_variant_get_string (drive, NULL), "/") != 0)
    drive_path = g_variant_get_string (drive, NULL);
  if (drive_path != NULL)
    g_variant_lookup (objects, drive_path, "@a{sa{sv}}", &drive_interfaces);
  if (drive_interfaces == NULL ||
      !g_variant_lookup (drive_interfaces, UDISKS_ATA_IFACE, "@a{sv}", NULL))
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_UNSUPPORTED,
                   /* TRANSLATORS: a block device number, "8:0" */
                   _("UDisks knows no ATA drive with the block device %u:%u"), major_number, minor_number);
      return FALSE;
    }

  memset (out_smart, 0, sizeof *out_smart);
  out_smart->supported = lookup_boolean (drive_interfaces, "SmartSupported");
  out_smart->enabled = lookup_boolean (drive_interfaces, "SmartEnabled");
  out_smart->failing = lookup_boolean (drive_interfaces, "SmartFailing");
  out_smart->updated_s = lookup_uint64 (drive_interfaces, "SmartUpdated");
  out_smart->power_on_seconds = lookup_uint64 (drive_interfaces, "SmartPowerOnSeconds");
  temperature = lookup_property (drive_interfaces, UDISKS_ATA_IFACE, "SmartTemperature", "d");
  out_smart->temperature_k = temperature != NULL ? g_variant_get_double (temperature) : 0;
  return TRUE;
}
