/* duel-drive-item.c — a target the user can run on
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "device/duel-device-mounts.h"
#include "duel-drive-item.h"
#include "device/duel-filesystem-note.h"
#include "duel-size.h"

struct _DuelDriveItem
{
  GObject         parent_instance;

  DuelTargetKind  kind;
  char           *path;
  DuelDevice     *device;
  char           *title;
  char           *subtitle;
  char           *confirm_name;
  guint64         size_bytes;
  guint64         create_size;      /* 0: the file is used as it is */
  char           *filesystem;       /* a file's: "ext4", "btrfs"; NULL when unknown */
  const char     *filesystem_note;  /* what a file there measures (duel_filesystem_note()), or NULL */
  double          temperature_c;
};

G_DEFINE_FINAL_TYPE (DuelDriveItem, duel_drive_item, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_TITLE,
  PROP_SUBTITLE,
  PROP_ICON_NAME,
  PROP_TEMPERATURE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static char *
describe_link (DuelDevice *device)
{
  const DuelDeviceLink *link = duel_device_get_link (device);
  g_autofree char *ceiling = NULL;

  if (link == NULL || link->kind == DUEL_LINK_NONE)
    return NULL;

  if (link->ceiling_bytes_per_second > 0)
    ceiling = g_strdup_printf ("%.1f GB/s", link->ceiling_bytes_per_second / 1e9);

  if (link->kind == DUEL_LINK_PCIE && link->hops != NULL && link->hops->len > 0 &&
      g_array_index (link->hops, DuelPcieHop, 0).current_gt_s > 0)
    {
      const DuelPcieHop *hop = &g_array_index (link->hops, DuelPcieHop, 0);
      const char *generation = duel_pcie_generation_name (hop->current_gt_s);
      g_autoptr(GString) text = g_string_new (NULL);

      if (generation != NULL)
        g_string_append (text, generation);
      else
        g_string_append_printf (text, "%.1f GT/s", hop->current_gt_s);
      if (hop->current_width > 0)
        g_string_append_printf (text, " x%u", hop->current_width);
      if (ceiling != NULL)
        g_string_append_printf (text, " (%s)", ceiling);
      if (link->downtrained)
        /* Translators: the PCIe link trained below what the drive supports */
        g_string_append_printf (text, " — %s", _("downtrained"));
      return g_string_free (g_steal_pointer (&text), FALSE);
    }

  if (link->kind == DUEL_LINK_PCIE)
    return g_steal_pointer (&ceiling);
  if (link->line_rate_text != NULL)
    return ceiling != NULL ? g_strdup_printf ("%s (%s)", link->line_rate_text, ceiling)
                           : g_strdup (link->line_rate_text);
  return g_steal_pointer (&ceiling);
}

static void
update_subtitle (DuelDriveItem *self)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *size = NULL;

  /* A drive in its maker's decimal units; a file as it was made ("1 GiB"). */
  if (self->size_bytes > 0)
    size = self->device != NULL ? g_format_size (self->size_bytes) : duel_format_size_as_given (self->size_bytes);

  if (size != NULL)
    g_string_append (text, size);

  if (self->device != NULL)
    {
      g_autofree char *link = describe_link (self->device);
      DuelTransport transport = duel_device_get_transport (self->device);

      if (transport != DUEL_TRANSPORT_UNKNOWN)
        g_string_append_printf (text, " · %s", duel_transport_to_string (transport));
      if (link != NULL)
        g_string_append_printf (text, " · %s", link);
      g_string_append_printf (text, " · %s", duel_device_get_device_path (self->device));
      if (!isnan (self->temperature_c))
        g_string_append_printf (text, " · %.0f °C", self->temperature_c);
      if (duel_device_is_in_use (self->device))
        g_string_append_printf (text, " · %s", _("in use"));
    }
  else
    {
      /* A file the run creates is not there yet: say so beside its size. */
      if (self->create_size > 0 && !g_file_test (self->path, G_FILE_TEST_EXISTS))
        {
          g_string_truncate (text, 0);
          /* Translators: a file target the run creates, e.g. "new file, 1.1 GB" */
          g_string_append_printf (text, _("new file, %s"), size);
        }
      if (self->filesystem != NULL)
        /* A filesystem that measures more than the drive: the row's tooltip says what. */
        g_string_append_printf (text, " · %s%s", self->filesystem, self->filesystem_note != NULL ? " ⚠" : "");
      if (text->len > 0)
        g_string_append (text, " · ");
      g_string_append (text, self->path);
    }

  g_free (self->subtitle);
  self->subtitle = g_string_free (g_steal_pointer (&text), FALSE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SUBTITLE]);
}

static void
duel_drive_item_finalize (GObject *object)
{
  DuelDriveItem *self = DUEL_DRIVE_ITEM (object);

  g_clear_pointer (&self->path, g_free);
  g_clear_pointer (&self->filesystem, g_free);
  g_clear_object (&self->device);
  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->subtitle, g_free);
  g_clear_pointer (&self->confirm_name, g_free);

  G_OBJECT_CLASS (duel_drive_item_parent_class)->finalize (object);
}

static void
duel_drive_item_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  DuelDriveItem *self = DUEL_DRIVE_ITEM (object);

  switch (prop_id)
    {
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case PROP_SUBTITLE:
      g_value_set_string (value, self->subtitle);
      break;
    case PROP_ICON_NAME:
      g_value_set_string (value, duel_drive_item_get_icon_name (self));
      break;
    case PROP_TEMPERATURE:
      g_value_set_double (value, self->temperature_c);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
duel_drive_item_class_init (DuelDriveItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = duel_drive_item_finalize;
  object_class->get_property = duel_drive_item_get_property;

  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SUBTITLE] =
    g_param_spec_string ("subtitle", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ICON_NAME] =
    g_param_spec_string ("icon-name", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_TEMPERATURE] =
    g_param_spec_double ("temperature", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
duel_drive_item_init (DuelDriveItem *self)
{
  self->temperature_c = NAN;
}

DuelDriveItem *
duel_drive_item_new_for_device (DuelDevice *device)
{
  DuelDriveItem *self;
  const char *vendor, *model;

  g_return_val_if_fail (DUEL_IS_DEVICE (device), NULL);

  self = g_object_new (DUEL_TYPE_DRIVE_ITEM, NULL);
  self->kind = DUEL_TARGET_KIND_BLOCK;
  self->device = g_object_ref (device);
  self->path = g_strdup (duel_device_get_device_path (device));
  self->size_bytes = duel_device_get_size_bytes (device);
  self->confirm_name = g_strdup (duel_device_get_name (device));

  vendor = duel_device_get_vendor (device);
  model = duel_device_get_model (device);
  if (model != NULL && vendor != NULL && !g_str_has_prefix (model, vendor) &&
      g_ascii_strcasecmp (vendor, "ATA") != 0)
    self->title = g_strdup_printf ("%s %s", vendor, model);
  else if (model != NULL)
    self->title = g_strdup (model);
  else if (duel_device_get_backing_file (device) != NULL)
    /* Translators: a loop device, e.g. "Loop device loop0" */
    self->title = g_strdup_printf (_("Loop device %s"), duel_device_get_name (device));
  else
    self->title = g_strdup (duel_device_get_name (device));

  duel_drive_item_refresh_temperature (self);
  update_subtitle (self);
  return self;
}

/* The filesystem that holds @path (or its folder, for a file not made yet):
 * what a file target measures goes through it. The mount table names it
 * ("ext4"); GIO's statfs() guess cannot tell ext2, 3 and 4 apart.
 * @out_note: what a file there measures when it is not the drive (tmpfs,
 * NFS, ZFS, a compressing btrfs…), or NULL. */
static char *
filesystem_of (const char  *path,
               const char **out_note)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFile) folder = g_file_get_parent (file);
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(DuelDeviceMounts) mounts = duel_device_mounts_load_here ("/", NULL);
  g_autofree char *real = realpath (path, NULL);

  if (real == NULL && folder != NULL)
    {
      g_autofree char *parent = g_file_get_path (folder);

      real = realpath (parent, NULL);
    }
  if (mounts != NULL && real != NULL)
    {
      const DuelDeviceMount *mount = duel_device_mounts_find_for_path (mounts, real);

      if (mount != NULL && mount->fstype != NULL)
        {
          *out_note = duel_filesystem_note (mount->fstype, mount->options);
          return g_strdup (mount->fstype);
        }
    }

  info = g_file_query_filesystem_info (file, G_FILE_ATTRIBUTE_FILESYSTEM_TYPE, NULL, NULL);
  if (info == NULL && folder != NULL)
    info = g_file_query_filesystem_info (folder, G_FILE_ATTRIBUTE_FILESYSTEM_TYPE, NULL, NULL);
  if (info == NULL || !g_file_info_has_attribute (info, G_FILE_ATTRIBUTE_FILESYSTEM_TYPE))
    return NULL;
  *out_note = duel_filesystem_note (g_file_info_get_attribute_string (info, G_FILE_ATTRIBUTE_FILESYSTEM_TYPE), NULL);
  return g_strdup (g_file_info_get_attribute_string (info, G_FILE_ATTRIBUTE_FILESYSTEM_TYPE));
}

static DuelDriveItem *
new_file_item (const char *path)
{
  DuelDriveItem *self = g_object_new (DUEL_TYPE_DRIVE_ITEM, NULL);

  self->kind = DUEL_TARGET_KIND_FILE;
  self->path = g_strdup (path);
  self->title = g_path_get_basename (path);
  self->confirm_name = g_strdup (self->title);
  self->filesystem = filesystem_of (path, &self->filesystem_note);
  return self;
}

DuelDriveItem *
duel_drive_item_new_for_file (const char *path,
                              guint64     size_bytes)
{
  DuelDriveItem *self;
  GStatBuf st;

  g_return_val_if_fail (path != NULL, NULL);

  self = new_file_item (path);
  /* An existing file is used as it is: its own size, never grown or cut. */
  if (g_stat (path, &st) == 0 && S_ISREG (st.st_mode))
    self->size_bytes = st.st_size;
  else
    self->size_bytes = self->create_size = size_bytes;
  update_subtitle (self);
  return self;
}

DuelDriveItem *
duel_drive_item_new_for_scratch (const char *path,
                                 guint64     size_bytes)
{
  DuelDriveItem *self;

  g_return_val_if_fail (path != NULL, NULL);

  self = new_file_item (path);
  self->size_bytes = self->create_size = size_bytes;
  update_subtitle (self);
  return self;
}

guint64
duel_drive_item_get_create_size (DuelDriveItem *self)
{
  g_return_val_if_fail (DUEL_IS_DRIVE_ITEM (self), 0);
  return self->create_size;
}

void
duel_drive_item_make_folder (DuelDriveItem *self)
{
  g_autofree char *folder = NULL;

  g_return_if_fail (DUEL_IS_DRIVE_ITEM (self));

  if (self->kind != DUEL_TARGET_KIND_FILE)
    return;
  folder = g_path_get_dirname (self->path);
  g_mkdir_with_parents (folder, 0700);
}

DuelTargetKind
duel_drive_item_get_kind (DuelDriveItem *self)
{
  g_return_val_if_fail (DUEL_IS_DRIVE_ITEM (self), DUEL_TARGET_KIND_FILE);
  return self->kind;
}

const char *
duel_drive_item_get_path (DuelDriveItem *self)
{
  g_return_val_if_fail (DUEL_IS_DRIVE_ITEM (self), NULL);
  return self->path;
}

DuelDevice *
duel_drive_item_get_device (DuelDriveItem *self)
{
  g_return_val_if_fail (DUEL_IS_DRIVE_ITEM (self), NULL);
  return self->device;
}

const char *
duel_drive_item_get_title (DuelDriveItem *self)
{
  g_return_val_if_fail (DUEL_IS_DRIVE_ITEM (self), NULL);
  return self->title;
}

const char *
duel_drive_item_get_filesystem_note (DuelDriveItem *self)
{
  g_return_val_if_fail (DUEL_IS_DRIVE_ITEM (self), NULL);

  return self->filesystem_note;
}

const char *
duel_drive_item_get_subtitle (DuelDriveItem *self)
{
  g_return_val_if_fail (DUEL_IS_DRIVE_ITEM (self), NULL);
  return self->subtitle;
}

const char *
duel_drive_item_get_icon_name (DuelDriveItem *self)
{
  g_return_val_if_fail (DUEL_IS_DRIVE_ITEM (self), NULL);

  if (self->device == NULL)
    return "text-x-generic-symbolic";
  if (duel_device_get_removable (self->device) ||
      duel_device_get_transport (self->device) == DUEL_TRANSPORT_USB)
    return "drive-removable-media-symbolic";
  return "drive-harddisk-symbolic";
}

guint64
duel_drive_item_get_size_bytes (DuelDriveItem *self)
{
  g_return_val_if_fail (DUEL_IS_DRIVE_ITEM (self), 0);
  return self->size_bytes;
}

double
duel_drive_item_get_ceiling (DuelDriveItem *self)
{
  const DuelDeviceLink *link;

  g_return_val_if_fail (DUEL_IS_DRIVE_ITEM (self), 0);

  if (self->device == NULL)
    return 0;
  link = duel_device_get_link (self->device);
  return link != NULL ? link->ceiling_bytes_per_second : 0;
}

double
duel_drive_item_get_temperature (DuelDriveItem *self)
{
  g_return_val_if_fail (DUEL_IS_DRIVE_ITEM (self), NAN);
  return self->temperature_c;
}

gboolean
duel_drive_item_refresh_temperature (DuelDriveItem *self)
{
  g_autofree char *contents = NULL;
  const char *path;
  double value = NAN;

  g_return_val_if_fail (DUEL_IS_DRIVE_ITEM (self), FALSE);

  if (self->device == NULL ||
      (path = duel_device_get_hwmon_temperature_path (self->device)) == NULL)
    return FALSE;

  /* hwmon reports millidegrees Celsius. */
  if (g_file_get_contents (path, &contents, NULL, NULL))
    {
      char *end = NULL;
      gint64 milli = g_ascii_strtoll (contents, &end, 10);

      if (end != contents)
        value = milli / 1000.0;
    }

  if ((isnan (value) && isnan (self->temperature_c)) || value == self->temperature_c)
    return FALSE;

  self->temperature_c = value;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEMPERATURE]);
  if (self->subtitle != NULL)
    update_subtitle (self);
  return TRUE;
}

gboolean
duel_drive_item_is_in_use (DuelDriveItem *self)
{
  g_return_val_if_fail (DUEL_IS_DRIVE_ITEM (self), FALSE);
  return self->device != NULL && duel_device_is_in_use (self->device);
}

const char *
duel_drive_item_get_confirm_name (DuelDriveItem *self)
{
  g_return_val_if_fail (DUEL_IS_DRIVE_ITEM (self), NULL);
  return self->confirm_name;
}
