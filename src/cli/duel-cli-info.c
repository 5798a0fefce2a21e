/* duel-cli-info.c — `driveduel-cli list` and `driveduel-cli info TARGET`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <errno.h>
#include <gio/gio.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/duel-block-node.h"
#include "duel-cli.h"
#include "device/duel-device.h"
#include "device/duel-device-describe.h"
#include "device/duel-device-link.h"
#include "device/duel-safety.h"

static void
print_json (JsonNode *node)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autofree char *text = NULL;

  json_generator_set_pretty (generator, TRUE);
  json_generator_set_root (generator, node);
  text = json_generator_to_data (generator, NULL);
  printf ("%s\n", text);
}

static char *
describe_use (DuelDevice *device)
{
  const char * const *mount_points = duel_device_get_mount_points (device);
  const char * const *holders = duel_device_get_holders (device);
  GPtrArray *partitions = duel_device_get_partitions (device);
  g_autoptr(GPtrArray) uses = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; mount_points[i] != NULL; i++)
    g_ptr_array_add (uses, g_strdup (mount_points[i]));
  if (duel_device_get_swap (device))
    g_ptr_array_add (uses, g_strdup (_("swap")));
  for (guint i = 0; holders[i] != NULL; i++)
    g_ptr_array_add (uses, g_strdup_printf (_("held by %s"), holders[i]));
  for (guint i = 0; i < partitions->len; i++)
    {
      const DuelDevicePartition *partition = g_ptr_array_index (partitions, i);

      for (guint j = 0; partition->mount_points[j] != NULL; j++)
        g_ptr_array_add (uses, g_strdup_printf ("%s: %s", partition->name, partition->mount_points[j]));
      if (partition->swap)
        g_ptr_array_add (uses, g_strdup_printf (_("%s: swap"), partition->name));
      for (guint j = 0; partition->holders[j] != NULL; j++)
        g_ptr_array_add (uses, g_strdup_printf (_("%s: held by %s"), partition->name, partition->holders[j]));
    }
  if (uses->len == 0)
    return g_strdup ("-");
  g_ptr_array_add (uses, NULL);
  return g_strjoinv (", ", (char **) uses->pdata);
}

int
duel_cli_list (int    argc,
               char **argv)
{
  gboolean all = FALSE;
  gboolean json = FALSE;
  g_autofree char *root = NULL;
  GOptionEntry entries[] = {
    { "all", 'a', 0, G_OPTION_ARG_NONE, &all, N_("Also list empty devices (unattached loop devices, unset zram)"), NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print JSON"), NULL },
    /* Replays a captured sysfs tree (tests, bug reports). */
    { "root", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_FILENAME, &root, NULL, NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) devices = NULL;
  g_autoptr(GPtrArray) shown = NULL;

  context = g_option_context_new (_("— list the block devices"));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return duel_cli_usage_error (context, "%s", error->message);
  if (argc > 1)
    return duel_cli_usage_error (context, _("“list” takes no arguments."));

  devices = duel_device_enumerate (root != NULL ? root : "/", &error);
  if (devices == NULL)
    {
      duel_cli_print_error (error);
      return DUEL_CLI_EXIT_FAILED;
    }
  shown = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < devices->len; i++)
    {
      DuelDevice *device = g_ptr_array_index (devices, i);

      if (all || duel_device_get_size_bytes (device) > 0)
        g_ptr_array_add (shown, g_object_ref (device));
    }

  if (json)
    {
      g_autoptr(JsonNode) node = duel_device_list_to_json (shown);

      print_json (node);
      return DUEL_CLI_EXIT_OK;
    }

  printf ("%-12s %-9s %10s  %-28s %-20s %s\n",
          _("NAME"), _("TRANSPORT"), _("SIZE"), _("MODEL"), _("SERIAL"), _("IN USE"));
  for (guint i = 0; i < shown->len; i++)
    {
      DuelDevice *device = g_ptr_array_index (shown, i);
      g_autofree char *size = g_format_size (duel_device_get_size_bytes (device));
      g_autofree char *use = describe_use (device);
      const char *model = duel_device_get_model (device);

      if (model == NULL && duel_device_get_backing_file (device) != NULL)
        model = duel_device_get_backing_file (device);
      printf ("%-12s %-9s %10s  %-28s %-20s %s\n",
              duel_device_get_name (device),
              duel_transport_to_string (duel_device_get_transport (device)),
              size,
              model != NULL ? model : "-",
              duel_device_get_serial (device) != NULL ? duel_device_get_serial (device) : "-",
              use);
    }
  return DUEL_CLI_EXIT_OK;
}

/* ------------------------------------------------------------------ info */

static const char *
get_string (JsonObject *object,
            const char *member)
{
  if (object == NULL || !json_object_has_member (object, member))
    return NULL;
  return json_object_get_string_member_with_default (object, member, NULL);
}

static JsonObject *
get_object (JsonObject *object,
            const char *member)
{
  if (object == NULL || !json_object_has_member (object, member))
    return NULL;
  return json_object_get_object_member (object, member);
}

static void
print_field (const char *label,
             const char *value)
{
  /* Pad by characters, not bytes, for translated labels. */
  glong width = g_utf8_strlen (label, -1);
  g_auto(GStrv) lines = g_strsplit (value, "\n", -1);

  printf ("  %s:%*s %s\n", label, (int) MAX (1, 16 - width), "", lines[0]);
  for (guint i = 1; lines[i] != NULL; i++)
    printf ("%*s%s\n", 20, "", g_strstrip (lines[i]));
}

static char *
format_celsius (JsonObject *object,
                const char *member)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, member) : NULL;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return g_strdup (_("unknown"));
  return g_strdup_printf ("%.1f °C", json_node_get_double (node));
}

static void
print_nvme (JsonObject *object)
{
  JsonObject *nvme = get_object (object, "nvme");
  JsonObject *controller = get_object (nvme, "controller");
  JsonObject *ns = get_object (nvme, "namespace");
  JsonObject *oacs = get_object (controller, "optional_admin_commands");
  g_autofree char *line = NULL;

  if (controller == NULL)
    return;
  line = g_strdup_printf (_("version %s, volatile write cache %s, format %s, sanitize %s, self-test %s"),
                          get_string (controller, "nvme_version"),
                          json_object_get_boolean_member (controller, "volatile_write_cache") ? _("yes") : _("no"),
                          oacs != NULL && json_object_get_boolean_member (oacs, "format") ? _("yes") : _("no"),
                          json_object_get_boolean_member (controller, "sanitize") ? _("yes") : _("no"),
                          oacs != NULL && json_object_get_boolean_member (oacs, "self_test") ? _("yes") : _("no"));
  print_field (_("NVMe"), line);
  if (ns != NULL)
    {
      g_autofree char *format = g_strdup_printf (_("namespace %" PRId64 ": LBA format %" PRId64 " of %" PRId64
                                                   " (%" PRId64 " B blocks, %" PRId64 " B metadata)"),
                                                 json_object_get_int_member (ns, "nsid"),
                                                 json_object_get_int_member (ns, "lba_format"),
                                                 json_object_get_int_member (ns, "lba_formats"),
                                                 json_object_get_int_member (ns, "lba_bytes"),
                                                 json_object_get_int_member (ns, "metadata_bytes"));
      print_field (_("Format"), format);
    }
}

static void
print_smart (JsonObject *object)
{
  JsonObject *smart = get_object (object, "smart");
  g_autofree char *temperature = NULL;
  g_autofree char *written = NULL;
  g_autofree char *read = NULL;
  g_autofree char *line = NULL;
  g_autofree char *thermal = NULL;

  if (smart == NULL)
    return;
  temperature = format_celsius (smart, "temperature_c");
  written = g_format_size ((guint64) json_object_get_int_member (smart, "data_units_written") * 512000);
  read = g_format_size ((guint64) json_object_get_int_member (smart, "data_units_read") * 512000);
  line = g_strdup_printf (_("%s, spare %" PRId64 " %% (threshold %" PRId64 " %%), used %" PRId64 " %%, "
                            "critical warning 0x%02" PRIx64),
                          temperature,
                          json_object_get_int_member (smart, "available_spare_percent"),
                          json_object_get_int_member (smart, "available_spare_threshold_percent"),
                          json_object_get_int_member (smart, "percentage_used"),
                          json_object_get_int_member (smart, "critical_warning"));
  print_field (_("Health"), line);
  g_clear_pointer (&line, g_free);
  line = g_strdup_printf (_("%s written, %s read, %" PRId64 " power-on hours, %" PRId64 " power cycles, "
                            "%" PRId64 " unsafe shutdowns, %" PRId64 " media errors"),
                          written, read,
                          json_object_get_int_member (smart, "power_on_hours"),
                          json_object_get_int_member (smart, "power_cycles"),
                          json_object_get_int_member (smart, "unsafe_shutdowns"),
                          json_object_get_int_member (smart, "media_errors"));
  print_field (_("Usage"), line);
  thermal = g_strdup_printf (_("%" PRId64 " min above warning, %" PRId64 " min above critical; "
                               "throttling %" PRId64 "× / %" PRId64 " s (light), %" PRId64 "× / %" PRId64 " s (heavy)"),
                             json_object_get_int_member (smart, "warning_temperature_minutes"),
                             json_object_get_int_member (smart, "critical_temperature_minutes"),
                             json_object_get_int_member (smart, "thermal_transitions_1"),
                             json_object_get_int_member (smart, "thermal_seconds_1"),
                             json_object_get_int_member (smart, "thermal_transitions_2"),
                             json_object_get_int_member (smart, "thermal_seconds_2"));
  print_field (_("Thermal"), thermal);
}

/* SATA and USB drives: SMART attributes through ATA pass-through. */
static void
print_ata_smart (JsonObject *object)
{
  JsonObject *smart = get_object (object, "ata_smart");
  const char *status;
  g_autofree char *temperature = NULL;
  g_autofree char *hours = NULL;
  g_autofree char *cycles = NULL;
  g_autofree char *line = NULL;

  if (smart == NULL)
    return;
  status = get_string (smart, "status");
  temperature = format_celsius (smart, "temperature_c");
  hours = json_object_has_member (smart, "power_on_hours")
          ? g_strdup_printf ("%" PRId64, json_object_get_int_member (smart, "power_on_hours"))
          : g_strdup (_("unknown"));
  cycles = json_object_has_member (smart, "power_cycles")
           ? g_strdup_printf ("%" PRId64, json_object_get_int_member (smart, "power_cycles"))
           : g_strdup (_("unknown"));
  /* TRANSLATORS: the SMART assessment (“passed”, “FAILING”, “status unknown”), then
   * the temperature, the power-on hours and the power cycles of a SATA drive */
  line = g_strdup_printf (_("SMART %s, %s, %s power-on hours, %s power cycles"),
                          g_strcmp0 (status, "passed") == 0 ? _("passed")
                          : g_strcmp0 (status, "failing") == 0 ? _("FAILING") : _("status unknown"),
                          temperature, hours, cycles);
  /* Not read by this process: UDisks read it, as root, when it last looked. */
  if (g_strcmp0 (get_string (smart, "source"), "udisks") == 0)
    {
      g_autofree char *from = g_strdup_printf (_("%s (as UDisks read it)"), line);

      g_free (line);
      line = g_steal_pointer (&from);
    }
  print_field (_("Health"), line);
}

/* An existing block device or regular file; else one sentence naming @path. */
static gboolean
check_info_target (const char  *path,
                   GError     **error)
{
  struct stat st;

  if (duel_block_node_stat (path, &st, NULL) != 0)
    {
      int saved_errno = errno;

      if (saved_errno == ENOENT)
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                     /* TRANSLATORS: the target given to `driveduel-cli info` */
                     _("“%s” does not exist; give a block device (such as /dev/nvme0n1) or a file."), path);
      else
        g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                     _("Cannot look at “%s”: %s"), path, g_strerror (saved_errno));
      return FALSE;
    }
  if (S_ISBLK (st.st_mode) || S_ISREG (st.st_mode))
    return TRUE;

  if (S_ISDIR (st.st_mode))
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY,
                 _("“%s” is a folder; give a file inside it, or a block device."), path);
  else if (S_ISCHR (st.st_mode))
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE,
                 _("“%s” is a character device; give a block device (such as /dev/nvme0n1) or a file."), path);
  else
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE,
                 _("“%s” is neither a file nor a block device."), path);
  return FALSE;
}

int
duel_cli_info (int    argc,
               char **argv)
{
  gboolean json = FALSE;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print JSON (the object a result file stores as “device”)"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) object = NULL;
  g_autoptr(DuelSafetyReport) report = NULL;
  g_autoptr(DuelDevice) device = NULL;
  JsonObject *write_check;
  JsonObject *block;
  const char *path;

  context = g_option_context_new (_("TARGET — identity, interface and health of a drive, or of the drive under a file"));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_description (context,
    _("NVMe identify data and the SMART / health log need administrator rights."));
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return duel_cli_usage_error (context, "%s", error->message);
  if (argc != 2)
    return duel_cli_usage_error (context, _("Give one target: a block device such as /dev/nvme0n1, or a file."));
  path = argv[1];

  /* Only what is there can be described: describe() also takes a file still
   * to be created (a run's target), which info has nothing to say about. */
  if (!check_info_target (path, &error))
    {
      duel_cli_print_error (error);
      return DUEL_CLI_EXIT_FAILED;
    }

  object = duel_device_describe (path, &error);
  if (object == NULL)
    {
      duel_cli_print_error (error);
      return DUEL_CLI_EXIT_FAILED;
    }

  /* Would a write run be allowed? Without flags: the verdict says what it takes. */
  g_clear_error (&error);
  duel_safety_check_write (path, DUEL_SAFETY_FLAGS_NONE, &report, NULL);
  write_check = json_object_new ();
  json_object_set_string_member (write_check, "verdict", duel_safety_verdict_to_string (report->verdict));
  if (report->reason != NULL)
    json_object_set_string_member (write_check, "reason", report->reason);
  if (report->signature != NULL)
    json_object_set_string_member (write_check, "signature", report->signature);
  json_object_set_object_member (object, "write_check", write_check);

  if (json)
    {
      g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);

      json_node_set_object (node, object);
      print_json (node);
      return DUEL_CLI_EXIT_OK;
    }

  block = get_object (object, "block_device");
  printf ("%s — %s\n", path,
          get_string (object, "model") != NULL ? get_string (object, "model")
          : get_string (object, "device_name") != NULL ? get_string (object, "device_name") : _("no block device"));
  if (get_string (object, "partition") != NULL)
    print_field (_("Partition"), get_string (object, "partition"));
  if (get_object (object, "filesystem") != NULL)
    {
      JsonObject *fs = get_object (object, "filesystem");
      g_autofree char *line = g_strdup_printf (_("%s on %s (mounted at %s)"), get_string (fs, "type"),
                                               get_string (fs, "source"), get_string (fs, "mount_point"));
      print_field (_("Filesystem"), line);
    }
  if (get_string (object, "device_name") != NULL)
    print_field (_("Device"), get_string (block, "device_path"));
  if (get_string (object, "serial") != NULL)
    print_field (_("Serial"), get_string (object, "serial"));
  if (get_string (object, "firmware") != NULL)
    print_field (_("Firmware"), get_string (object, "firmware"));
  if (get_string (object, "transport") != NULL)
    print_field (_("Transport"), get_string (object, "transport"));
  if (block != NULL)
    {
      g_autofree char *size = g_format_size ((guint64) json_object_get_int_member (block, "size_bytes"));
      g_autofree char *line = g_strdup_printf (_("%s (%" PRId64 " bytes), %" PRId64 " B logical / %" PRId64 " B physical blocks%s"),
                                               size, json_object_get_int_member (block, "size_bytes"),
                                               json_object_get_int_member (block, "logical_block_size"),
                                               json_object_get_int_member (block, "physical_block_size"),
                                               json_object_get_boolean_member (block, "rotational") ? _(", rotational") : "");
      print_field (_("Capacity"), line);
      if (get_string (block, "backing_file") != NULL)
        print_field (_("Backing file"), get_string (block, "backing_file"));
    }
  print_nvme (object);
  if (get_object (object, "link") != NULL)
    {
      g_autoptr(DuelDevice) again = NULL;

      /* The text form comes from the link itself. */
      if (get_string (object, "device_name") != NULL)
        again = duel_device_new_for_name ("/", get_string (object, "device_name"), NULL);
      if (again != NULL)
        {
          g_autofree char *text = duel_device_link_describe (duel_device_get_link (again));

          print_field (_("Interface"), text);
          device = g_steal_pointer (&again);
        }
    }
  print_smart (object);
  print_ata_smart (object);
  if (device != NULL)
    {
      g_autofree char *use = describe_use (device);

      print_field (_("In use"), use);
    }
  {
    g_autofree char *verdict = NULL;

    if (report->verdict == DUEL_SAFETY_ALLOWED)
      verdict = g_strdup (_("allowed"));
    else if (report->verdict == DUEL_SAFETY_NEEDS_DESTRUCTIVE)
      verdict = g_strdup_printf (_("needs --destructive%s"),
                                 report->signature != NULL ? _(" and --wipe-signatures") : "");
    else if (report->verdict == DUEL_SAFETY_UNREADABLE && report->access_denied && report->is_block)
      /* Not in use as far as can be seen; what is on it is read once UDisks opens it. */
      verdict = g_strdup (report->node_hidden
                            ? _("need --destructive; in this sandbox the device is opened through UDisks, if polkit allows")
                            : _("need --destructive; this user opens the device through UDisks, if polkit allows"));
    else
      verdict = g_strdup_printf (_("refused: %s"), report->reason);
    print_field (_("Write runs"), verdict);
  }
  if (json_object_has_member (object, "notes"))
    {
      JsonArray *notes = json_object_get_array_member (object, "notes");

      for (guint i = 0; i < json_array_get_length (notes); i++)
        print_field (_("Note"), json_array_get_string_element (notes, i));
    }
  return DUEL_CLI_EXIT_OK;
}
