/* duel-device-identity-text.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "duel-device-identity-text.h"
#include "duel-json.h"
#include "duel-number.h"
#include "duel-size.h"

static char *
format_capacity (double bytes)
{
  if (bytes >= 1e12)
    return g_strdup_printf ("%.2f TB", bytes / 1e12);
  if (bytes >= 1e9)
    return g_strdup_printf ("%.0f GB", bytes / 1e9);
  return g_strdup_printf ("%.0f MB", bytes / 1e6);
}

static JsonObject *
first_hop (JsonObject *link)
{
  JsonNode *node;
  JsonArray *hops;

  if (link == NULL)
    return NULL;
  node = json_object_get_member (link, "hops");
  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return NULL;
  hops = json_node_get_array (node);
  if (json_array_get_length (hops) == 0)
    return NULL;
  node = json_array_get_element (hops, 0);
  return JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

/* "NVMe, PCIe 3.0 x4" from the device's transport and the link's first hop. */
static char *
describe_interface (JsonObject *device)
{
  g_autoptr(GString) text = g_string_new (NULL);
  JsonObject *link = duel_json_get_object (device, "link");
  JsonObject *hop = first_hop (link);
  const char *transport = duel_json_get_string (device, "transport");
  const char *explicit = duel_json_get_string (device, "interface");
  const char *line_rate = duel_json_get_string (link, "line_rate");
  double width;

  if (explicit != NULL)
    return g_strdup (explicit);

  if (transport != NULL && g_strcmp0 (transport, "unknown") != 0)
    {
      if (g_ascii_strcasecmp (transport, "nvme") == 0)
        g_string_append (text, "NVMe");
      else
        {
          g_autofree char *upper = g_ascii_strup (transport, -1);
          g_string_append (text, upper);
        }
    }

  if (hop != NULL)
    {
      const char *generation = duel_json_get_string (hop, "generation");
      double gt_s;

      if (text->len > 0)
        g_string_append (text, ", ");
      if (generation != NULL)
        g_string_append (text, generation);
      else if (duel_json_get_number (hop, "current_gt_s", &gt_s))
        g_string_append_printf (text, "PCIe %g GT/s", gt_s);
      else
        g_string_append (text, "PCIe");
      if (duel_json_get_number (hop, "current_width", &width))
        g_string_append_printf (text, " x%u", (guint) width);
    }
  else if (line_rate != NULL)
    {
      if (text->len > 0)
        g_string_append (text, ", ");
      g_string_append (text, line_rate);
    }

  if (text->len == 0)
    return NULL;
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* The words the reference drives' files hold (the files in data/reference,
 * device.form_factor and device.slot), which only these files write: the
 * catalogue translates them where the rows show them (test-user-text checks
 * that every one of the files' words is here). */
static const char * const reference_words[] G_GNUC_UNUSED = {
  N_("add-in card (AIC)"),
  N_("M.2 with heatsink, in an M.2-to-PCIe adapter card"),
  N_("first PCIe x16 slot (CPU lanes)"),
};

static const struct
{
  const char *key;
  const char *label;
  const char *unit;
} identity_rows[DUEL_DEVICE_IDENTITY_N_KEYS] = {
  { "model",       N_("Model"),              "" },
  { "firmware",    N_("Firmware"),           "" },
  { "target",      N_("Tested on"),          "" },
  { "capacity",    N_("Capacity"),           "bytes" },
  { "form_factor", N_("Form factor"),        "" },
  { "interface",   N_("Interface and link"), "" },
  { "slot",        N_("Slot"),               "" },
  { "ceiling",     N_("Interface ceiling"),  "MB/s" },
};

const char *
duel_device_identity_key_to_string (DuelDeviceIdentityKey key)
{
  g_return_val_if_fail (key < DUEL_DEVICE_IDENTITY_N_KEYS, NULL);

  return identity_rows[key].key;
}

const char *
duel_device_identity_get_label (DuelDeviceIdentityKey key)
{
  g_return_val_if_fail (key < DUEL_DEVICE_IDENTITY_N_KEYS, NULL);

  return _(identity_rows[key].label);
}

const char *
duel_device_identity_get_unit (DuelDeviceIdentityKey key)
{
  g_return_val_if_fail (key < DUEL_DEVICE_IDENTITY_N_KEYS, NULL);

  return identity_rows[key].unit;
}

char *
duel_device_identity_dup_text (DuelResult            *result,
                               DuelDeviceIdentityKey  key,
                               double                *out_value)
{
  JsonObject *device;
  const char *text;
  double value;

  g_return_val_if_fail (DUEL_IS_RESULT (result), NULL);
  g_return_val_if_fail (key < DUEL_DEVICE_IDENTITY_N_KEYS, NULL);
  g_return_val_if_fail (out_value != NULL, NULL);

  device = duel_result_get_device (result);
  *out_value = NAN;
  switch (key)
    {
    case DUEL_DEVICE_IDENTITY_MODEL:
      text = duel_json_get_string (device, "model");
      return text ? g_strstrip (g_strdup (text)) : NULL;

    case DUEL_DEVICE_IDENTITY_FIRMWARE:
      text = duel_json_get_string (device, "firmware");
      return text ? g_strstrip (g_strdup (text)) : NULL;

    case DUEL_DEVICE_IDENTITY_TARGET:
      /* A file's size and filesystem: the capacity below is the drive's
       * that holds it, not what was written to. */
      {
        const DuelTargetInfo *target = duel_result_get_target (result);
        const char *filesystem = duel_json_get_string (duel_json_get_object (device, "filesystem"), "type");
        g_autofree char *size = NULL;

        if (target == NULL)
          return NULL;
        if (target->kind != DUEL_TARGET_KIND_FILE)
          return g_strdup (_("the device itself"));
        size = duel_format_size_as_given (target->size_bytes);
        if (filesystem != NULL)
          /* TRANSLATORS: what a run measured: "256 MiB file on ext4" */
          return g_strdup_printf (_("%s file on %s"), size, filesystem);
        /* TRANSLATORS: what a run measured: "256 MiB file" */
        return g_strdup_printf (_("%s file"), size);
      }

    case DUEL_DEVICE_IDENTITY_CAPACITY:
      /* The device layer writes capacity_bytes; a reference file size_bytes. */
      if (!duel_json_get_number (device, "capacity_bytes", &value) &&
          !duel_json_get_number (device, "size_bytes", &value) &&
          !duel_json_get_number (duel_json_get_object (device, "block_device"), "size_bytes", &value))
        {
          const DuelTargetInfo *target = duel_result_get_target (result);
          if (target == NULL || target->size_bytes == 0 || target->kind != DUEL_TARGET_KIND_BLOCK)
            return NULL;
          value = (double) target->size_bytes;
        }
      *out_value = value;
      {
        const DuelTargetInfo *target = duel_result_get_target (result);
        g_autofree char *capacity = format_capacity (value);

        /* A file's run: the drive's capacity, not what was measured ("Tested on" says that). */
        if (target != NULL && target->kind == DUEL_TARGET_KIND_FILE)
          /* TRANSLATORS: the capacity of the drive a file target lies on: "275 GB (the drive holding the file)" */
          return g_strdup_printf (_("%s (the drive holding the file)"), capacity);
        return g_steal_pointer (&capacity);
      }

    case DUEL_DEVICE_IDENTITY_FORM_FACTOR:
      text = duel_json_get_string (device, "form_factor");
      return text != NULL ? g_strdup (_(text)) : NULL;

    case DUEL_DEVICE_IDENTITY_INTERFACE:
      return describe_interface (device);

    case DUEL_DEVICE_IDENTITY_SLOT:
      text = duel_json_get_string (device, "slot");
      return text != NULL ? g_strdup (_(text)) : NULL;

    case DUEL_DEVICE_IDENTITY_CEILING:
      if (!duel_json_get_number (duel_json_get_object (device, "link"), "ceiling_bytes_per_second", &value) || value <= 0)
        return NULL;
      *out_value = value / 1e6;
      return duel_rate_format_rounded (value / 1e6);

    case DUEL_DEVICE_IDENTITY_N_KEYS:
    default:
      g_assert_not_reached ();
    }
}
