/* duel-device-link.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "duel-device-link.h"
#include "duel-device-private.h"

/* A throughput this far above the ceiling is not measurement noise. */
#define CACHE_ARTEFACT_MARGIN 1.01

const char *
duel_link_kind_to_string (DuelLinkKind kind)
{
  switch (kind)
    {
    case DUEL_LINK_PCIE: return "pcie";
    case DUEL_LINK_SATA: return "sata";
    case DUEL_LINK_USB:  return "usb";
    case DUEL_LINK_MMC:  return "mmc";
    case DUEL_LINK_NONE:
    default:             return "none";
    }
}

double
duel_pcie_parse_speed (const char *text)
{
  char *end = NULL;
  double value;

  if (text == NULL)
    return 0;
  value = g_ascii_strtod (text, &end);
  if (end == text || !isfinite (value) || value <= 0)
    return 0;
  return value;
}

static double
pcie_encoding (double gt_s)
{
  /* Gen1 and Gen2 use 8b/10b, Gen3 and later 128b/130b. */
  return gt_s < 8.0 - 0.01 ? 8.0 / 10.0 : 128.0 / 130.0;
}

double
duel_pcie_ceiling_bytes_per_second (double gt_s,
                                    guint  width)
{
  if (!(gt_s > 0) || width == 0)
    return 0;
  return gt_s * 1e9 * width * pcie_encoding (gt_s) / 8.0;
}

const char *
duel_pcie_generation_name (double gt_s)
{
  static const struct { double gt_s; const char *name; } generations[] = {
    { 2.5, "PCIe 1.0" }, { 5.0, "PCIe 2.0" }, { 8.0, "PCIe 3.0" },
    { 16.0, "PCIe 4.0" }, { 32.0, "PCIe 5.0" }, { 64.0, "PCIe 6.0" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (generations); i++)
    {
      if (fabs (gt_s - generations[i].gt_s) < 0.01)
        return generations[i].name;
    }
  return NULL;
}

double
duel_sata_ceiling_bytes_per_second (double gbps)
{
  if (!(gbps > 0))
    return 0;
  return gbps * 1e9 * 8.0 / 10.0 / 8.0;
}

double
duel_usb_ceiling_bytes_per_second (double gbps)
{
  if (!(gbps > 0))
    return 0;
  /* USB 3.x Gen 1 is 8b/10b; Gen 2 (10 and 2x10 Gbit/s) is 128b/132b;
   * USB 2.0 and older have no line code to remove here. */
  if (gbps >= 10.0 - 0.01)
    return gbps * 1e9 * 128.0 / 132.0 / 8.0;
  if (gbps >= 5.0 - 0.01)
    return gbps * 1e9 * 8.0 / 10.0 / 8.0;
  return gbps * 1e9 / 8.0;
}

static DuelDeviceLink *
link_new (DuelLinkKind kind)
{
  DuelDeviceLink *link = g_new0 (DuelDeviceLink, 1);

  link->kind = kind;
  link->hops = g_array_new (FALSE, TRUE, sizeof (DuelPcieHop));
  return link;
}

static void
hop_clear (DuelPcieHop *hop)
{
  g_clear_pointer (&hop->address, g_free);
}

void
duel_device_link_free (DuelDeviceLink *link)
{
  if (link == NULL)
    return;
  for (guint i = 0; i < link->hops->len; i++)
    hop_clear (&g_array_index (link->hops, DuelPcieHop, i));
  g_array_unref (link->hops);
  g_free (link->root_bus);
  g_free (link->downtrained_reason);
  g_free (link->line_rate_text);
  g_free (link);
}

DuelDeviceLink *
duel_device_link_copy (const DuelDeviceLink *link)
{
  DuelDeviceLink *copy;

  g_return_val_if_fail (link != NULL, NULL);

  copy = link_new (link->kind);
  for (guint i = 0; i < link->hops->len; i++)
    {
      DuelPcieHop hop = g_array_index (link->hops, DuelPcieHop, i);

      hop.address = g_strdup (hop.address);
      g_array_append_val (copy->hops, hop);
    }
  copy->root_bus = g_strdup (link->root_bus);
  copy->downtrained = link->downtrained;
  copy->downtrained_reason = g_strdup (link->downtrained_reason);
  copy->line_rate_gbps = link->line_rate_gbps;
  copy->line_rate_text = g_strdup (link->line_rate_text);
  copy->ceiling_bytes_per_second = link->ceiling_bytes_per_second;
  return copy;
}

static guint
read_width (const char *dir,
            const char *attr)
{
  guint64 width = 0;

  /* 0 and 255 are how the kernel says "unknown" (integrated endpoints). */
  if (!_duel_device_sysfs_read_u64 (dir, attr, &width) || width == 0 || width > 32)
    return 0;
  return (guint) width;
}

static void
read_hop (const char  *dir,
          DuelPcieHop *hop)
{
  g_autofree char *speed = NULL;
  guint64 value;

  hop->address = g_path_get_basename (dir);
  if (_duel_device_sysfs_read_u64 (dir, "vendor", &value))
    hop->vendor_id = (guint16) value;
  if (_duel_device_sysfs_read_u64 (dir, "device", &value))
    hop->device_id = (guint16) value;
  if (_duel_device_sysfs_read_u64 (dir, "class", &value))
    hop->class_code = (guint32) value;

  speed = _duel_device_sysfs_read (dir, "current_link_speed");
  hop->current_gt_s = duel_pcie_parse_speed (speed);
  g_clear_pointer (&speed, g_free);
  speed = _duel_device_sysfs_read (dir, "max_link_speed");
  hop->max_gt_s = duel_pcie_parse_speed (speed);
  hop->current_width = read_width (dir, "current_link_width");
  hop->max_width = read_width (dir, "max_link_width");

  hop->below_max = hop->current_gt_s > 0 && hop->max_gt_s > 0 &&
                   (hop->current_gt_s < hop->max_gt_s - 0.01 ||
                    (hop->current_width > 0 && hop->max_width > 0 &&
                     hop->current_width < hop->max_width));
}

static char *
format_speed_width (double gt_s,
                    guint  width)
{
  if (gt_s > 0 && width > 0)
    return g_strdup_printf ("%.1f GT/s x%u", gt_s, width);
  if (gt_s > 0)
    return g_strdup_printf ("%.1f GT/s", gt_s);
  return g_strdup (_("unknown"));
}

/* Fills the hops from the PCI device directory PCI_DIR (a canonical path)
 * up to the host bridge, and works out the ceiling and a down-training. */
static void
walk_pcie (DuelDeviceLink *link,
           const char     *pci_dir)
{
  g_autofree char *dir = g_strdup (pci_dir);
  g_autofree char *top = NULL;

  for (;;)
    {
      g_autofree char *base = g_path_get_basename (dir);
      char *parent;
      DuelPcieHop hop = { 0 };

      if (!_duel_device_is_pci_address (base))
        break;
      read_hop (dir, &hop);
      g_array_append_val (link->hops, hop);
      parent = g_path_get_dirname (dir);
      g_free (dir);
      dir = parent;
    }

  /* Above the root port sits the host bridge, "pci0000:00". */
  top = g_path_get_basename (dir);
  if (g_str_has_prefix (top, "pci") && strlen (top) > 3)
    link->root_bus = g_strdup (top + 3);

  for (guint i = 0; i < link->hops->len; i++)
    {
      const DuelPcieHop *hop = &g_array_index (link->hops, DuelPcieHop, i);
      double ceiling = duel_pcie_ceiling_bytes_per_second (hop->current_gt_s, hop->current_width);

      if (ceiling > 0 && (link->ceiling_bytes_per_second == 0 || ceiling < link->ceiling_bytes_per_second))
        link->ceiling_bytes_per_second = ceiling;
    }

  if (link->hops->len > 0)
    {
      const DuelPcieHop *device = &g_array_index (link->hops, DuelPcieHop, 0);

      if (device->below_max)
        {
          g_autofree char *current = format_speed_width (device->current_gt_s, device->current_width);
          g_autofree char *max = format_speed_width (device->max_gt_s, device->max_width);
          const DuelPcieHop *port = link->hops->len > 1 ? &g_array_index (link->hops, DuelPcieHop, 1) : NULL;

          link->downtrained = TRUE;
          if (port != NULL && port->max_gt_s > 0 && port->max_gt_s < device->max_gt_s - 0.01)
            link->downtrained_reason =
              g_strdup_printf (_("The device runs at %s of its %s: the port above it supports at most %.1f GT/s."),
                               current, max, port->max_gt_s);
          else if (port != NULL && port->max_width > 0 && device->max_width > 0 &&
                   port->max_width < device->max_width)
            link->downtrained_reason =
              g_strdup_printf (_("The device runs at %s of its %s: the port above it has only %u lanes."),
                               current, max, port->max_width);
          else
            link->downtrained_reason =
              g_strdup_printf (_("The device runs at %s of its %s: the link trained down (slot, riser, adapter or firmware setting)."),
                               current, max);
        }
    }
}

DuelDeviceLink *
duel_device_link_read_pcie (const char *root,
                            const char *sysfs_device_dir)
{
  g_autofree char *root_real = NULL;
  g_autofree char *pci_dir = NULL;
  DuelDeviceLink *link;

  g_return_val_if_fail (root != NULL, NULL);
  g_return_val_if_fail (sysfs_device_dir != NULL, NULL);

  root_real = _duel_device_root_real (root, NULL);
  if (root_real == NULL)
    return link_new (DUEL_LINK_NONE);
  pci_dir = _duel_device_resolve (root_real, sysfs_device_dir);
  if (pci_dir == NULL)
    return link_new (DUEL_LINK_NONE);

  link = link_new (DUEL_LINK_PCIE);
  walk_pcie (link, pci_dir);
  if (link->hops->len == 0)
    link->kind = DUEL_LINK_NONE;
  return link;
}

/* The nearest ancestor of DIR (inclusive) that is a PCI device; NULL if none. */
static char *
find_pci_ancestor (const char *dir)
{
  g_autofree char *current = g_strdup (dir);

  while (strcmp (current, "/") != 0 && strcmp (current, ".") != 0)
    {
      g_autofree char *base = g_path_get_basename (current);
      char *parent;

      if (_duel_device_is_pci_address (base))
        return g_steal_pointer (&current);
      parent = g_path_get_dirname (current);
      g_free (current);
      current = parent;
    }
  return NULL;
}

/* SATA: DIR's ancestor "ataN" holds linkN/ata_link/linkN/sata_spd. */
static gboolean
read_sata (DuelDeviceLink *link,
           const char     *block_dir)
{
  g_autofree char *current = g_strdup (block_dir);

  while (strcmp (current, "/") != 0 && strcmp (current, ".") != 0)
    {
      g_autofree char *base = g_path_get_basename (current);
      char *parent;

      if (g_str_has_prefix (base, "ata") && base[3] != '\0' &&
          strspn (base + 3, "0123456789") == strlen (base + 3))
        {
          g_autofree char *link_name = g_strconcat ("link", base + 3, NULL);
          g_autofree char *link_dir = g_build_filename (current, link_name, "ata_link", link_name, NULL);
          g_autofree char *speed = _duel_device_sysfs_read (link_dir, "sata_spd");

          link->kind = DUEL_LINK_SATA;
          if (speed != NULL)
            {
              link->line_rate_text = g_strdup (speed);
              link->line_rate_gbps = duel_pcie_parse_speed (speed);
            }
          return TRUE;
        }
      parent = g_path_get_dirname (current);
      g_free (current);
      current = parent;
    }
  return FALSE;
}

/* USB: the nearest ancestor that is a USB device ("speed" in Mbit/s). */
static gboolean
read_usb (DuelDeviceLink *link,
          const char     *block_dir)
{
  g_autofree char *current = g_strdup (block_dir);

  while (strcmp (current, "/") != 0 && strcmp (current, ".") != 0)
    {
      g_autofree char *id_vendor = _duel_device_sysfs_read (current, "idVendor");
      char *parent;

      if (id_vendor != NULL)
        {
          g_autofree char *speed = _duel_device_sysfs_read (current, "speed");

          link->kind = DUEL_LINK_USB;
          if (speed != NULL)
            {
              link->line_rate_gbps = duel_pcie_parse_speed (speed) / 1000.0;
              link->line_rate_text = g_strdup_printf ("%s Mbps", speed);
            }
          return TRUE;
        }
      parent = g_path_get_dirname (current);
      g_free (current);
      current = parent;
    }
  return FALSE;
}

DuelDeviceLink *
_duel_device_link_read (const char *root_real,
                        const char *block_dir,
                        const char *controller_dir)
{
  DuelDeviceLink *link = link_new (DUEL_LINK_NONE);
  g_autofree char *pci_dir = NULL;
  double line_ceiling = 0;

  g_assert (root_real != NULL);
  g_assert (block_dir != NULL);

  if (controller_dir != NULL)
    {
      g_autofree char *device_link = g_build_filename (controller_dir, "device", NULL);

      g_autofree char *base = NULL;

      pci_dir = _duel_device_resolve (root_real, device_link);
      base = pci_dir != NULL ? g_path_get_basename (pci_dir) : NULL;
      /* Fabrics controllers (TCP, RDMA, loop) have no PCI device. */
      if (base != NULL && !_duel_device_is_pci_address (base))
        g_clear_pointer (&pci_dir, g_free);
    }
  else
    pci_dir = find_pci_ancestor (block_dir);

  if (controller_dir == NULL && strstr (block_dir, "/mmc_host/") != NULL)
    link->kind = DUEL_LINK_MMC;
  else if (controller_dir == NULL && !read_sata (link, block_dir))
    read_usb (link, block_dir);

  if (pci_dir != NULL)
    {
      walk_pcie (link, pci_dir);
      if (link->kind == DUEL_LINK_NONE && link->hops->len > 0)
        link->kind = DUEL_LINK_PCIE;
    }

  /* The slowest part of the path limits: the SATA/USB link or the PCIe hops above it. */
  if (link->kind == DUEL_LINK_SATA)
    line_ceiling = duel_sata_ceiling_bytes_per_second (link->line_rate_gbps);
  else if (link->kind == DUEL_LINK_USB)
    line_ceiling = duel_usb_ceiling_bytes_per_second (link->line_rate_gbps);
  if (line_ceiling > 0 &&
      (link->ceiling_bytes_per_second == 0 || line_ceiling < link->ceiling_bytes_per_second))
    link->ceiling_bytes_per_second = line_ceiling;

  return link;
}

gboolean
duel_link_ceiling_is_exceeded (double ceiling_bytes_per_second,
                               double bytes_per_second)
{
  return ceiling_bytes_per_second > 0 && bytes_per_second > ceiling_bytes_per_second * CACHE_ARTEFACT_MARGIN;
}

double
duel_device_link_ceiling_from_json (JsonObject *device)
{
  JsonObject *link;
  JsonNode *node;
  double value;

  if (device == NULL || !json_object_has_member (device, "link"))
    return 0;
  node = json_object_get_member (device, "link");
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return 0;
  link = json_node_get_object (node);
  node = json_object_get_member (link, "ceiling_bytes_per_second");
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      (json_node_get_value_type (node) != G_TYPE_DOUBLE && json_node_get_value_type (node) != G_TYPE_INT64))
    return 0;
  value = json_node_get_double (node);
  return isfinite (value) && value > 0 ? value : 0;
}

gboolean
duel_device_link_is_cache_artefact (const DuelDeviceLink  *link,
                                    double                 bytes_per_second,
                                    char                 **out_message)
{
  g_return_val_if_fail (link != NULL, FALSE);

  if (!duel_link_ceiling_is_exceeded (link->ceiling_bytes_per_second, bytes_per_second))
    return FALSE;
  if (out_message != NULL)
    *out_message = g_strdup_printf (_("%.0f MB/s is above the %s interface ceiling of %.0f MB/s: "
                                      "the data came from a cache, not from the drive."),
                                    bytes_per_second / 1e6,
                                    duel_link_kind_to_string (link->kind),
                                    link->ceiling_bytes_per_second / 1e6);
  return TRUE;
}

/* The topmost hop is a root port when it is a bridge; an endpoint straight
 * on the root bus is integrated in the root complex and has no link. */
static gboolean
top_is_root_port (const DuelDeviceLink *link)
{
  return link->hops->len > 0 &&
         (g_array_index (link->hops, DuelPcieHop, link->hops->len - 1).class_code >> 8) == 0x0604;
}

static void
set_hex (JsonObject *object,
         const char *member,
         guint32     value,
         int         digits)
{
  g_autofree char *text = g_strdup_printf ("0x%0*x", digits, value);

  json_object_set_string_member (object, member, text);
}

JsonObject *
duel_device_link_to_json (const DuelDeviceLink *link)
{
  JsonObject *object = json_object_new ();
  JsonArray *hops;

  g_return_val_if_fail (link != NULL, object);

  json_object_set_string_member (object, "kind", duel_link_kind_to_string (link->kind));
  if (link->ceiling_bytes_per_second > 0)
    json_object_set_double_member (object, "ceiling_bytes_per_second", link->ceiling_bytes_per_second);
  if (link->line_rate_text != NULL)
    {
      json_object_set_string_member (object, "line_rate", link->line_rate_text);
      json_object_set_double_member (object, "line_rate_gbps", link->line_rate_gbps);
    }
  if (link->hops->len == 0)
    return object;

  json_object_set_boolean_member (object, "downtrained", link->downtrained);
  if (link->downtrained_reason != NULL)
    json_object_set_string_member (object, "downtrained_reason", link->downtrained_reason);
  if (link->root_bus != NULL)
    json_object_set_string_member (object, "root_bus", link->root_bus);
  if (top_is_root_port (link))
    json_object_set_string_member (object, "root_port",
                                   g_array_index (link->hops, DuelPcieHop, link->hops->len - 1).address);

  hops = json_array_new ();
  for (guint i = 0; i < link->hops->len; i++)
    {
      const DuelPcieHop *hop = &g_array_index (link->hops, DuelPcieHop, i);
      JsonObject *h = json_object_new ();
      const char *generation = duel_pcie_generation_name (hop->current_gt_s);
      double ceiling = duel_pcie_ceiling_bytes_per_second (hop->current_gt_s, hop->current_width);

      json_object_set_string_member (h, "address", hop->address);
      set_hex (h, "vendor_id", hop->vendor_id, 4);
      set_hex (h, "device_id", hop->device_id, 4);
      set_hex (h, "class", hop->class_code, 6);
      if (hop->current_gt_s > 0)
        json_object_set_double_member (h, "current_gt_s", hop->current_gt_s);
      if (hop->current_width > 0)
        json_object_set_int_member (h, "current_width", hop->current_width);
      if (hop->max_gt_s > 0)
        json_object_set_double_member (h, "max_gt_s", hop->max_gt_s);
      if (hop->max_width > 0)
        json_object_set_int_member (h, "max_width", hop->max_width);
      if (generation != NULL)
        json_object_set_string_member (h, "generation", generation);
      if (ceiling > 0)
        json_object_set_double_member (h, "ceiling_bytes_per_second", ceiling);
      json_object_set_boolean_member (h, "below_max", hop->below_max);
      json_array_add_object_element (hops, h);
    }
  json_object_set_array_member (object, "hops", hops);
  return object;
}

static const char *
class_name (guint32 class_code)
{
  switch (class_code >> 8)
    {
    case 0x0108: return _("NVMe controller");
    case 0x0106: return _("SATA controller");
    case 0x0107: return _("SAS controller");
    case 0x0104: return _("RAID controller");
    case 0x0100: return _("SCSI controller");
    case 0x0c03: return _("USB controller");
    case 0x0604: return _("PCI bridge");
    case 0x0600: return _("host bridge");
    default:     return (class_code >> 16) == 0x01 ? _("storage controller") : _("device");
    }
}

char *
duel_device_link_describe (const DuelDeviceLink *link)
{
  GString *text = g_string_new (NULL);

  g_return_val_if_fail (link != NULL, NULL);

  if (link->kind == DUEL_LINK_NONE)
    g_string_append (text, _("no physical interface (virtual device)"));
  else if (link->line_rate_text != NULL)
    g_string_append_printf (text, "%s %s", link->kind == DUEL_LINK_SATA ? "SATA" : "USB", link->line_rate_text);
  else if (link->kind == DUEL_LINK_SATA || link->kind == DUEL_LINK_USB)
    g_string_append_printf (text, "%s, %s", link->kind == DUEL_LINK_SATA ? "SATA" : "USB", _("speed unknown"));
  else if (link->kind == DUEL_LINK_MMC)
    g_string_append_printf (text, "%s, %s", _("SD/MMC card"), _("speed unknown"));
  else
    g_string_append (text, "PCIe");

  for (guint i = 0; i < link->hops->len; i++)
    {
      const DuelPcieHop *hop = &g_array_index (link->hops, DuelPcieHop, i);
      g_autofree char *current = format_speed_width (hop->current_gt_s, hop->current_width);
      g_autofree char *max = format_speed_width (hop->max_gt_s, hop->max_width);
      const char *generation = duel_pcie_generation_name (hop->current_gt_s);
      gboolean root_port = i == link->hops->len - 1;

      g_string_append_printf (text, "\n  %s %s [%04x:%04x] %s: %s%s%s, max %s%s",
                              i == 0 ? "-" : "^",
                              hop->address, hop->vendor_id, hop->device_id,
                              class_name (hop->class_code),
                              current,
                              generation != NULL ? " " : "",
                              generation != NULL ? generation : "",
                              max,
                              !hop->below_max ? "" : i == 0 ? _(" — below its maximum")
                                                             : _(" — the port could do more"));
      if (root_port && top_is_root_port (link))
        g_string_append_printf (text, _(" (root port, bus %s)"), link->root_bus != NULL ? link->root_bus : "?");
      else if (root_port)
        g_string_append_printf (text, _(" (on root bus %s)"), link->root_bus != NULL ? link->root_bus : "?");
    }
  if (link->downtrained_reason != NULL)
    g_string_append_printf (text, "\n  ! %s", link->downtrained_reason);
  if (link->ceiling_bytes_per_second > 0)
    g_string_append_printf (text, _("\n  interface ceiling ≈ %.0f MB/s"), link->ceiling_bytes_per_second / 1e6);
  return g_string_free (text, FALSE);
}
