/* duel-device-nvme.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stddef.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
/* libnvme carries its own copy of the kernel's ioctl definitions. */
#ifdef HAVE_LIBNVME
#include <libnvme.h>
#else
#include <linux/nvme_ioctl.h>
#endif

#include "engine/duel-block-node.h"
#include "duel-device-nvme.h"
#include "duel-error.h"

/* Where the fields Drive Duel reads sit in the pages, from the NVMe base
 * specification (2.0, figures 276, 280 and 207). The parsers read these
 * offsets, so a build needs no libnvme; where libnvme is there, its own
 * structures must agree, field by field. */
enum
{
  ID_CTRL_VID = 0, ID_CTRL_SSVID = 2, ID_CTRL_SN = 4, ID_CTRL_MN = 24, ID_CTRL_FR = 64,
  ID_CTRL_MDTS = 77, ID_CTRL_CNTLID = 78, ID_CTRL_VER = 80, ID_CTRL_OACS = 256,
  ID_CTRL_WCTEMP = 266, ID_CTRL_CCTEMP = 268, ID_CTRL_TNVMCAP = 280, ID_CTRL_SANICAP = 328,
  ID_CTRL_NN = 516, ID_CTRL_FNA = 524, ID_CTRL_VWC = 525, ID_CTRL_SUBNQN = 768,
  ID_CTRL_SN_BYTES = 20, ID_CTRL_MN_BYTES = 40, ID_CTRL_FR_BYTES = 8, ID_CTRL_SUBNQN_BYTES = 256,

  ID_NS_NSZE = 0, ID_NS_NCAP = 8, ID_NS_NUSE = 16, ID_NS_NLBAF = 25, ID_NS_FLBAS = 26, ID_NS_DPS = 29,
  ID_NS_LBAF = 128, ID_NS_LBAF_COUNT = 64, LBAF_BYTES = 4, LBAF_MS = 0, LBAF_DS = 2, LBAF_RP = 3,
  FLBAS_LOWER_MASK = 0x0f, FLBAS_HIGHER_MASK = 0x60,

  SMART_CRITICAL_WARNING = 0, SMART_TEMPERATURE = 1, SMART_AVAIL_SPARE = 3, SMART_SPARE_THRESH = 4,
  SMART_PERCENT_USED = 5, SMART_DATA_UNITS_READ = 32, SMART_DATA_UNITS_WRITTEN = 48,
  SMART_HOST_READS = 64, SMART_HOST_WRITES = 80, SMART_CTRL_BUSY_TIME = 96, SMART_POWER_CYCLES = 112,
  SMART_POWER_ON_HOURS = 128, SMART_UNSAFE_SHUTDOWNS = 144, SMART_MEDIA_ERRORS = 160,
  SMART_NUM_ERR_LOG_ENTRIES = 176, SMART_WARNING_TEMP_TIME = 192, SMART_CRITICAL_COMP_TIME = 196,
  SMART_TEMP_SENSOR = 200, SMART_THM_TEMP1_TRANS_COUNT = 216, SMART_THM_TEMP2_TRANS_COUNT = 220,
  SMART_THM_TEMP1_TOTAL_TIME = 224, SMART_THM_TEMP2_TOTAL_TIME = 228,

  /* Bits of OACS, SANICAP and VWC. */
  OACS_SECURITY = 1 << 0, OACS_FORMAT = 1 << 1, OACS_FW = 1 << 2, OACS_NS_MGMT = 1 << 3,
  OACS_SELF_TEST = 1 << 4, OACS_DIRECTIVES = 1 << 5,
  SANICAP_CES = 1 << 0, SANICAP_BES = 1 << 1, SANICAP_OWS = 1 << 2,
  VWC_PRESENT = 1 << 0,
};

#ifdef HAVE_LIBNVME
#define SAME_AT(type, field, offset) G_STATIC_ASSERT (offsetof (struct type, field) == (offset))
G_STATIC_ASSERT (sizeof (struct nvme_id_ctrl) == DUEL_NVME_IDENTIFY_BYTES);
G_STATIC_ASSERT (sizeof (struct nvme_id_ns) == DUEL_NVME_IDENTIFY_BYTES);
G_STATIC_ASSERT (sizeof (struct nvme_smart_log) == DUEL_NVME_SMART_LOG_BYTES);
SAME_AT (nvme_id_ctrl, vid, ID_CTRL_VID); SAME_AT (nvme_id_ctrl, ssvid, ID_CTRL_SSVID);
SAME_AT (nvme_id_ctrl, sn, ID_CTRL_SN); SAME_AT (nvme_id_ctrl, mn, ID_CTRL_MN);
SAME_AT (nvme_id_ctrl, fr, ID_CTRL_FR); SAME_AT (nvme_id_ctrl, mdts, ID_CTRL_MDTS);
SAME_AT (nvme_id_ctrl, cntlid, ID_CTRL_CNTLID); SAME_AT (nvme_id_ctrl, ver, ID_CTRL_VER);
SAME_AT (nvme_id_ctrl, oacs, ID_CTRL_OACS); SAME_AT (nvme_id_ctrl, wctemp, ID_CTRL_WCTEMP);
SAME_AT (nvme_id_ctrl, cctemp, ID_CTRL_CCTEMP); SAME_AT (nvme_id_ctrl, tnvmcap, ID_CTRL_TNVMCAP);
SAME_AT (nvme_id_ctrl, sanicap, ID_CTRL_SANICAP); SAME_AT (nvme_id_ctrl, nn, ID_CTRL_NN);
SAME_AT (nvme_id_ctrl, fna, ID_CTRL_FNA); SAME_AT (nvme_id_ctrl, vwc, ID_CTRL_VWC); SAME_AT (nvme_id_ctrl, subnqn, ID_CTRL_SUBNQN);
SAME_AT (nvme_id_ns, nsze, ID_NS_NSZE); SAME_AT (nvme_id_ns, ncap, ID_NS_NCAP);
SAME_AT (nvme_id_ns, nuse, ID_NS_NUSE); SAME_AT (nvme_id_ns, nlbaf, ID_NS_NLBAF);
SAME_AT (nvme_id_ns, flbas, ID_NS_FLBAS); SAME_AT (nvme_id_ns, dps, ID_NS_DPS); SAME_AT (nvme_id_ns, lbaf, ID_NS_LBAF);
G_STATIC_ASSERT (sizeof (struct nvme_lbaf) == LBAF_BYTES);
SAME_AT (nvme_lbaf, ms, LBAF_MS); SAME_AT (nvme_lbaf, ds, LBAF_DS); SAME_AT (nvme_lbaf, rp, LBAF_RP);
G_STATIC_ASSERT ((int) NVME_NS_FLBAS_LOWER_MASK == (int) FLBAS_LOWER_MASK && (int) NVME_NS_FLBAS_HIGHER_MASK == (int) FLBAS_HIGHER_MASK);
SAME_AT (nvme_smart_log, critical_warning, SMART_CRITICAL_WARNING);
SAME_AT (nvme_smart_log, temperature, SMART_TEMPERATURE);
SAME_AT (nvme_smart_log, avail_spare, SMART_AVAIL_SPARE);
SAME_AT (nvme_smart_log, spare_thresh, SMART_SPARE_THRESH);
SAME_AT (nvme_smart_log, percent_used, SMART_PERCENT_USED);
SAME_AT (nvme_smart_log, data_units_read, SMART_DATA_UNITS_READ);
SAME_AT (nvme_smart_log, data_units_written, SMART_DATA_UNITS_WRITTEN);
SAME_AT (nvme_smart_log, host_reads, SMART_HOST_READS);
SAME_AT (nvme_smart_log, host_writes, SMART_HOST_WRITES);
SAME_AT (nvme_smart_log, ctrl_busy_time, SMART_CTRL_BUSY_TIME);
SAME_AT (nvme_smart_log, power_cycles, SMART_POWER_CYCLES);
SAME_AT (nvme_smart_log, power_on_hours, SMART_POWER_ON_HOURS);
SAME_AT (nvme_smart_log, unsafe_shutdowns, SMART_UNSAFE_SHUTDOWNS);
SAME_AT (nvme_smart_log, media_errors, SMART_MEDIA_ERRORS);
SAME_AT (nvme_smart_log, num_err_log_entries, SMART_NUM_ERR_LOG_ENTRIES);
SAME_AT (nvme_smart_log, warning_temp_time, SMART_WARNING_TEMP_TIME);
SAME_AT (nvme_smart_log, critical_comp_time, SMART_CRITICAL_COMP_TIME);
SAME_AT (nvme_smart_log, temp_sensor, SMART_TEMP_SENSOR);
SAME_AT (nvme_smart_log, thm_temp1_trans_count, SMART_THM_TEMP1_TRANS_COUNT);
SAME_AT (nvme_smart_log, thm_temp2_trans_count, SMART_THM_TEMP2_TRANS_COUNT);
SAME_AT (nvme_smart_log, thm_temp1_total_time, SMART_THM_TEMP1_TOTAL_TIME);
SAME_AT (nvme_smart_log, thm_temp2_total_time, SMART_THM_TEMP2_TOTAL_TIME);
#define SAME_BIT(theirs, ours) G_STATIC_ASSERT ((int) (theirs) == (int) (ours))
SAME_BIT (NVME_CTRL_OACS_SECURITY, OACS_SECURITY); SAME_BIT (NVME_CTRL_OACS_FORMAT, OACS_FORMAT);
SAME_BIT (NVME_CTRL_OACS_FW, OACS_FW); SAME_BIT (NVME_CTRL_OACS_NS_MGMT, OACS_NS_MGMT);
SAME_BIT (NVME_CTRL_OACS_SELF_TEST, OACS_SELF_TEST); SAME_BIT (NVME_CTRL_OACS_DIRECTIVES, OACS_DIRECTIVES);
SAME_BIT (NVME_CTRL_SANICAP_CES, SANICAP_CES); SAME_BIT (NVME_CTRL_SANICAP_BES, SANICAP_BES);
SAME_BIT (NVME_CTRL_SANICAP_OWS, SANICAP_OWS); SAME_BIT (NVME_CTRL_VWC_PRESENT, VWC_PRESENT);
#endif

#define KELVIN_OFFSET 273.15

struct _DuelDeviceNvme
{
  GObject  parent_instance;

  char    *path;
  int      fd;
  guint32  nsid;
};

G_DEFINE_FINAL_TYPE (DuelDeviceNvme, duel_device_nvme, G_TYPE_OBJECT)

/* ------------------------------------------------------------------ parsing */

/* Identify strings are space-padded ASCII without a terminator. */
static void
copy_padded (char       *out,
             gsize       out_size,
             const char *in,
             gsize       in_size)
{
  gsize n = MIN (in_size, out_size - 1);

  memcpy (out, in, n);
  out[n] = '\0';
  for (gsize i = 0; i < n; i++)
    {
      if (out[i] == '\0')
        break;
      if (!g_ascii_isprint (out[i]))
        out[i] = '?';
    }
  g_strstrip (out);
}

static guint64
le128_saturated (const guint8 bytes[16])
{
  guint64 low = 0;

  for (int i = 15; i >= 8; i--)
    {
      if (bytes[i] != 0)
        return G_MAXUINT64;
    }
  for (int i = 7; i >= 0; i--)
    low = (low << 8) | bytes[i];
  return low;
}

static guint16
le16_at (const guint8 *data,
         gsize         offset)
{
  return (guint16) (data[offset] | (data[offset + 1] << 8));
}

static guint32
le32_at (const guint8 *data,
         gsize         offset)
{
  return (guint32) le16_at (data, offset) | ((guint32) le16_at (data, offset + 2) << 16);
}

static guint64
le64_at (const guint8 *data,
         gsize         offset)
{
  return (guint64) le32_at (data, offset) | ((guint64) le32_at (data, offset + 4) << 32);
}

static double
kelvin_to_celsius (guint kelvin)
{
  return kelvin == 0 ? NAN : kelvin - KELVIN_OFFSET;
}

static gboolean
check_length (gsize        length,
              gsize        expected,
              const char  *what,
              GError     **error)
{
  if (length >= expected)
    return TRUE;
  g_set_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT,
               _("The %s page is %zu bytes, not %zu."), what, length, expected);
  return FALSE;
}

gboolean
duel_nvme_controller_parse (const guint8        *data,
                            gsize                length,
                            DuelNvmeController  *out,
                            GError             **error)
{
  g_return_val_if_fail (data != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  if (!check_length (length, DUEL_NVME_IDENTIFY_BYTES, "identify controller", error))
    return FALSE;

  memset (out, 0, sizeof *out);
  out->vendor_id = le16_at (data, ID_CTRL_VID);
  out->subsystem_vendor_id = le16_at (data, ID_CTRL_SSVID);
  copy_padded (out->serial, sizeof out->serial, (const char *) data + ID_CTRL_SN, ID_CTRL_SN_BYTES);
  copy_padded (out->model, sizeof out->model, (const char *) data + ID_CTRL_MN, ID_CTRL_MN_BYTES);
  copy_padded (out->firmware, sizeof out->firmware, (const char *) data + ID_CTRL_FR, ID_CTRL_FR_BYTES);
  out->version = le32_at (data, ID_CTRL_VER);
  out->mdts = data[ID_CTRL_MDTS];
  out->controller_id = le16_at (data, ID_CTRL_CNTLID);
  out->n_namespaces = le32_at (data, ID_CTRL_NN);
  out->oacs = le16_at (data, ID_CTRL_OACS);
  out->sanicap = le32_at (data, ID_CTRL_SANICAP);
  out->fna = data[ID_CTRL_FNA];
  out->vwc = data[ID_CTRL_VWC];
  out->warning_temperature_k = le16_at (data, ID_CTRL_WCTEMP);
  out->critical_temperature_k = le16_at (data, ID_CTRL_CCTEMP);
  out->total_capacity_bytes = le128_saturated (data + ID_CTRL_TNVMCAP);
  copy_padded (out->subnqn, sizeof out->subnqn, (const char *) data + ID_CTRL_SUBNQN, ID_CTRL_SUBNQN_BYTES);
  return TRUE;
}

gboolean
duel_nvme_namespace_parse (const guint8        *data,
                           gsize                length,
                           guint32              nsid,
                           DuelNvmeNamespace   *out,
                           GError             **error)
{
  guint index, flbas;
  const guint8 *lbaf;

  g_return_val_if_fail (data != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  if (!check_length (length, DUEL_NVME_IDENTIFY_BYTES, "identify namespace", error))
    return FALSE;

  memset (out, 0, sizeof *out);
  out->nsid = nsid;
  out->size_blocks = le64_at (data, ID_NS_NSZE);
  out->capacity_blocks = le64_at (data, ID_NS_NCAP);
  out->utilization_blocks = le64_at (data, ID_NS_NUSE);
  out->n_formats = data[ID_NS_NLBAF] + 1u;
  /* FLBAS bits 3:0, and bits 6:5 as the high bits when there are more than 16 formats. */
  flbas = data[ID_NS_FLBAS];
  index = flbas & FLBAS_LOWER_MASK;
  if (out->n_formats > 16)
    index |= ((flbas & FLBAS_HIGHER_MASK) >> 5) << 4;
  if (index >= ID_NS_LBAF_COUNT)
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT,
                   _("The namespace reports LBA format %u, which does not exist."), index);
      return FALSE;
    }
  out->format_index = index;
  lbaf = data + ID_NS_LBAF + index * LBAF_BYTES;
  if (lbaf[LBAF_DS] < 9 || lbaf[LBAF_DS] > 31)
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT,
                   _("The namespace reports a block size of 2^%u bytes."), lbaf[LBAF_DS]);
      return FALSE;
    }
  out->block_bytes = 1u << lbaf[LBAF_DS];
  out->metadata_bytes = le16_at (lbaf, LBAF_MS);
  out->relative_performance = lbaf[LBAF_RP] & 0x3;
  return TRUE;
}

gboolean
duel_nvme_health_parse (const guint8    *data,
                        gsize            length,
                        DuelNvmeHealth  *out,
                        GError         **error)
{
  g_return_val_if_fail (data != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  if (!check_length (length, DUEL_NVME_SMART_LOG_BYTES, "SMART / health", error))
    return FALSE;

  memset (out, 0, sizeof *out);
  out->critical_warning = data[SMART_CRITICAL_WARNING];
  out->temperature_c = kelvin_to_celsius (le16_at (data, SMART_TEMPERATURE));
  for (guint i = 0; i < G_N_ELEMENTS (out->sensor_c); i++)
    out->sensor_c[i] = kelvin_to_celsius (le16_at (data, SMART_TEMP_SENSOR + 2 * i));
  out->available_spare_percent = data[SMART_AVAIL_SPARE];
  out->available_spare_threshold_percent = data[SMART_SPARE_THRESH];
  out->percentage_used = data[SMART_PERCENT_USED];
  out->data_units_read = le128_saturated (data + SMART_DATA_UNITS_READ);
  out->data_units_written = le128_saturated (data + SMART_DATA_UNITS_WRITTEN);
  out->host_read_commands = le128_saturated (data + SMART_HOST_READS);
  out->host_write_commands = le128_saturated (data + SMART_HOST_WRITES);
  out->controller_busy_minutes = le128_saturated (data + SMART_CTRL_BUSY_TIME);
  out->power_cycles = le128_saturated (data + SMART_POWER_CYCLES);
  out->power_on_hours = le128_saturated (data + SMART_POWER_ON_HOURS);
  out->unsafe_shutdowns = le128_saturated (data + SMART_UNSAFE_SHUTDOWNS);
  out->media_errors = le128_saturated (data + SMART_MEDIA_ERRORS);
  out->error_log_entries = le128_saturated (data + SMART_NUM_ERR_LOG_ENTRIES);
  out->warning_temperature_minutes = le32_at (data, SMART_WARNING_TEMP_TIME);
  out->critical_temperature_minutes = le32_at (data, SMART_CRITICAL_COMP_TIME);
  out->thermal_transitions[0] = le32_at (data, SMART_THM_TEMP1_TRANS_COUNT);
  out->thermal_transitions[1] = le32_at (data, SMART_THM_TEMP2_TRANS_COUNT);
  out->thermal_seconds[0] = le32_at (data, SMART_THM_TEMP1_TOTAL_TIME);
  out->thermal_seconds[1] = le32_at (data, SMART_THM_TEMP2_TOTAL_TIME);
  return TRUE;
}

gboolean
duel_nvme_controller_has_volatile_write_cache (const DuelNvmeController *controller)
{
  return (controller->vwc & VWC_PRESENT) != 0;
}

gboolean
duel_nvme_controller_supports_format (const DuelNvmeController *controller)
{
  return (controller->oacs & OACS_FORMAT) != 0;
}

gboolean
duel_nvme_controller_supports_sanitize (const DuelNvmeController *controller)
{
  return (controller->sanicap & (SANICAP_CES | SANICAP_BES | SANICAP_OWS)) != 0;
}

char *
duel_nvme_controller_version_string (const DuelNvmeController *controller)
{
  guint major = controller->version >> 16;
  guint minor = (controller->version >> 8) & 0xff;
  guint tertiary = controller->version & 0xff;

  if (controller->version == 0)
    return g_strdup ("");
  if (tertiary != 0)
    return g_strdup_printf ("%u.%u.%u", major, minor, tertiary);
  return g_strdup_printf ("%u.%u", major, minor);
}

/* ------------------------------------------------------------------ JSON */

static void
set_hex (JsonObject *object,
         const char *member,
         guint32     value,
         int         digits)
{
  g_autofree char *text = g_strdup_printf ("0x%0*x", digits, value);

  json_object_set_string_member (object, member, text);
}

static void
set_u64 (JsonObject *object,
         const char *member,
         guint64     value)
{
  /* JSON integers are signed 64-bit; saturated counters stay at the top. */
  json_object_set_int_member (object, member, (gint64) MIN (value, (guint64) G_MAXINT64));
}

static void
set_celsius (JsonObject *object,
             const char *member,
             double      celsius)
{
  if (isnan (celsius))
    json_object_set_null_member (object, member);
  else
    json_object_set_double_member (object, member, round (celsius * 100) / 100);
}

JsonObject *
duel_nvme_controller_to_json (const DuelNvmeController *controller)
{
  JsonObject *object = json_object_new ();
  JsonObject *oacs = json_object_new ();
  g_autofree char *version = duel_nvme_controller_version_string (controller);

  set_hex (object, "vendor_id", controller->vendor_id, 4);
  set_hex (object, "subsystem_vendor_id", controller->subsystem_vendor_id, 4);
  json_object_set_string_member (object, "model", controller->model);
  json_object_set_string_member (object, "serial", controller->serial);
  json_object_set_string_member (object, "firmware", controller->firmware);
  json_object_set_string_member (object, "nvme_version", version);
  json_object_set_int_member (object, "controller_id", controller->controller_id);
  json_object_set_int_member (object, "namespaces", controller->n_namespaces);
  json_object_set_int_member (object, "mdts", controller->mdts);
  json_object_set_boolean_member (object, "volatile_write_cache",
                                  duel_nvme_controller_has_volatile_write_cache (controller));
  set_hex (oacs, "raw", controller->oacs, 4);
  json_object_set_boolean_member (oacs, "security", (controller->oacs & OACS_SECURITY) != 0);
  json_object_set_boolean_member (oacs, "format", duel_nvme_controller_supports_format (controller));
  json_object_set_boolean_member (oacs, "firmware_download", (controller->oacs & OACS_FW) != 0);
  json_object_set_boolean_member (oacs, "namespace_management", (controller->oacs & OACS_NS_MGMT) != 0);
  json_object_set_boolean_member (oacs, "self_test", (controller->oacs & OACS_SELF_TEST) != 0);
  json_object_set_boolean_member (oacs, "directives", (controller->oacs & OACS_DIRECTIVES) != 0);
  json_object_set_object_member (object, "optional_admin_commands", oacs);
  json_object_set_boolean_member (object, "sanitize", duel_nvme_controller_supports_sanitize (controller));
  set_hex (object, "sanicap", controller->sanicap, 8);
  if (controller->warning_temperature_k != 0)
    set_celsius (object, "warning_temperature_c", kelvin_to_celsius (controller->warning_temperature_k));
  if (controller->critical_temperature_k != 0)
    set_celsius (object, "critical_temperature_c", kelvin_to_celsius (controller->critical_temperature_k));
  if (controller->total_capacity_bytes != 0)
    set_u64 (object, "total_capacity_bytes", controller->total_capacity_bytes);
  if (controller->subnqn[0] != '\0')
    json_object_set_string_member (object, "subnqn", controller->subnqn);
  return object;
}

JsonObject *
duel_nvme_namespace_to_json (const DuelNvmeNamespace *ns)
{
  JsonObject *object = json_object_new ();

  json_object_set_int_member (object, "nsid", ns->nsid);
  set_u64 (object, "size_blocks", ns->size_blocks);
  set_u64 (object, "capacity_blocks", ns->capacity_blocks);
  set_u64 (object, "utilization_blocks", ns->utilization_blocks);
  json_object_set_int_member (object, "lba_formats", ns->n_formats);
  json_object_set_int_member (object, "lba_format", ns->format_index);
  json_object_set_int_member (object, "lba_bytes", ns->block_bytes);
  json_object_set_int_member (object, "metadata_bytes", ns->metadata_bytes);
  json_object_set_int_member (object, "relative_performance", ns->relative_performance);
  return object;
}

JsonObject *
duel_nvme_health_to_json (const DuelNvmeHealth *health)
{
  JsonObject *object = json_object_new ();
  JsonArray *sensors = json_array_new ();

  json_object_set_int_member (object, "critical_warning", health->critical_warning);
  set_celsius (object, "temperature_c", health->temperature_c);
  for (guint i = 0; i < G_N_ELEMENTS (health->sensor_c); i++)
    {
      if (isnan (health->sensor_c[i]))
        json_array_add_null_element (sensors);
      else
        json_array_add_double_element (sensors, round (health->sensor_c[i] * 100) / 100);
    }
  json_object_set_array_member (object, "sensors_c", sensors);
  json_object_set_int_member (object, "available_spare_percent", health->available_spare_percent);
  json_object_set_int_member (object, "available_spare_threshold_percent", health->available_spare_threshold_percent);
  json_object_set_int_member (object, "percentage_used", health->percentage_used);
  set_u64 (object, "data_units_read", health->data_units_read);
  set_u64 (object, "data_units_written", health->data_units_written);
  set_u64 (object, "host_read_commands", health->host_read_commands);
  set_u64 (object, "host_write_commands", health->host_write_commands);
  set_u64 (object, "controller_busy_minutes", health->controller_busy_minutes);
  set_u64 (object, "power_cycles", health->power_cycles);
  set_u64 (object, "power_on_hours", health->power_on_hours);
  set_u64 (object, "unsafe_shutdowns", health->unsafe_shutdowns);
  set_u64 (object, "media_errors", health->media_errors);
  set_u64 (object, "error_log_entries", health->error_log_entries);
  json_object_set_int_member (object, "warning_temperature_minutes", health->warning_temperature_minutes);
  json_object_set_int_member (object, "critical_temperature_minutes", health->critical_temperature_minutes);
  json_object_set_int_member (object, "thermal_transitions_1", health->thermal_transitions[0]);
  json_object_set_int_member (object, "thermal_transitions_2", health->thermal_transitions[1]);
  json_object_set_int_member (object, "thermal_seconds_1", health->thermal_seconds[0]);
  json_object_set_int_member (object, "thermal_seconds_2", health->thermal_seconds[1]);
  return object;
}

/* ------------------------------------------------------------------ commands */

static void
duel_device_nvme_finalize (GObject *object)
{
  DuelDeviceNvme *self = DUEL_DEVICE_NVME (object);

  if (self->fd >= 0)
    g_close (self->fd, NULL);
  g_free (self->path);

  G_OBJECT_CLASS (duel_device_nvme_parent_class)->finalize (object);
}

static void
duel_device_nvme_class_init (DuelDeviceNvmeClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = duel_device_nvme_finalize;
}

static void
duel_device_nvme_init (DuelDeviceNvme *self)
{
  self->fd = -1;
}

/* ---------------------------------------------------------------- transport */

/* The three admin commands go through libnvme where the build has it, else
 * (or with DUEL_NVME_TRANSPORT=ioctl, which the NVMe guest test sets for its
 * second pass) straight through the kernel's NVMe admin ioctl. */
#define OPCODE_GET_LOG_PAGE 0x02
#define OPCODE_IDENTIFY     0x06
#define OPCODE_FORMAT_NVM   0x80
#define CNS_NAMESPACE       0x00
#define CNS_CONTROLLER      0x01
#define NSID_ALL            0xffffffffu
#define LOG_SMART           0x02

#ifdef HAVE_LIBNVME
static gboolean
use_libnvme (void)
{
  return g_strcmp0 (g_getenv ("DUEL_NVME_TRANSPORT"), "ioctl") != 0;
}
#endif

/* The kernel's answer: 0 success, > 0 the drive's NVMe status, -1 with errno. */
static int
admin_command (int      fd,
               guint8   opcode,
               guint32  nsid,
               guint32  cdw10,
               guint32  cdw11,
               void    *data,
               guint32  length)
{
  struct nvme_passthru_cmd command = { 0 };

  command.opcode = opcode;
  command.nsid = nsid;
  command.addr = (guint64) (guintptr) data;
  command.data_len = length;
  command.cdw10 = cdw10;
  command.cdw11 = cdw11;
  return ioctl (fd, NVME_IOCTL_ADMIN_CMD, &command);
}

/* Format NVM with the namespace's LBA format, metadata and protection
 * kept, and the user data erased (SES 1): on a real drive this can take
 * minutes, so the kernel's 60 s admin timeout is raised. */
static int
format_erase (int      fd,
              guint32  nsid,
              guint32  cdw10)
{
  struct nvme_passthru_cmd command = { 0 };

  command.opcode = OPCODE_FORMAT_NVM;
  command.nsid = nsid;
  command.cdw10 = cdw10;
  command.timeout_ms = 30 * 60 * 1000;
  return ioctl (fd, NVME_IOCTL_ADMIN_CMD, &command);
}

static int
get_log_page (int      fd,
              guint8   log_id,
              guint32  nsid,
              void    *data,
              guint32  length)
{
  guint32 dwords = length / 4 - 1;   /* NUMD is 0-based */

#ifdef HAVE_LIBNVME
  if (use_libnvme ())
    return log_id == LOG_SMART && nsid == NSID_ALL
           ? nvme_get_log_smart (fd, NVME_NSID_ALL, false, data)
           : nvme_get_log_simple (fd, log_id, length, data);
#endif
  return admin_command (fd, OPCODE_GET_LOG_PAGE, nsid, log_id | ((dwords & 0xffff) << 16), dwords >> 16,
                       data, length);
}

static int
identify (int      fd,
          guint8   cns,
          guint32  nsid,
          void    *data)
{
#ifdef HAVE_LIBNVME
  if (use_libnvme ())
    return cns == CNS_CONTROLLER ? nvme_identify_ctrl (fd, data) : nvme_identify_ns (fd, nsid, data);
#endif
  return admin_command (fd, OPCODE_IDENTIFY, nsid, cns, 0, data, DUEL_NVME_IDENTIFY_BYTES);
}

static char *
describe_status (int status)
{
#ifdef HAVE_LIBNVME
  if (use_libnvme ())
    return g_strdup (nvme_status_to_string (status, false));
#endif
  /* Status code type in bits 10:8, the code in 7:0. */
  return g_strdup_printf (_("status code type %u, code 0x%02x"), (guint) (status >> 8) & 0x7, (guint) status & 0xff);
}

/* 0 success, > 0 an NVMe status from the drive, -1 with errno. */
static gboolean
check_result (DuelDeviceNvme  *self,
              int              ret,
              int              saved_errno,
              const char      *command,
              GError         **error)
{
  if (ret == 0)
    return TRUE;
  if (ret > 0)
    {
      g_autofree char *status = describe_status (ret);

      g_set_error (error, DUEL_ERROR, DUEL_ERROR_NVME,
                   _("The drive at “%s” rejected %s: %s (status 0x%x)."),
                   self->path, command, status, (guint) ret);
      return FALSE;
    }
  switch (saved_errno)
    {
    case EACCES:
    case EPERM:
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_TARGET,
                   _("%s on “%s” needs administrator rights (CAP_SYS_ADMIN)."), command, self->path);
      break;
    case ENOTTY:
    case EINVAL:
    case EOPNOTSUPP:
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_UNSUPPORTED,
                   _("“%s” does not take NVMe admin commands (%s)."), self->path, g_strerror (saved_errno));
      break;
    default:
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_IO,
                   _("%s on “%s” failed: %s"), command, self->path, g_strerror (saved_errno));
      break;
    }
  return FALSE;
}

/* Takes @fd: checks that it is an NVMe node and learns its namespace id. */
static DuelDeviceNvme *
nvme_new_for_fd (const char  *path,
                 int          fd,
                 GError     **error)
{
  g_autoptr(DuelDeviceNvme) self = NULL;
  struct stat st;

  self = g_object_new (DUEL_TYPE_DEVICE_NVME, NULL);
  self->path = g_strdup (path);
  self->fd = fd;
  if (fstat (self->fd, &st) != 0 || (!S_ISBLK (st.st_mode) && !S_ISCHR (st.st_mode)))
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_UNSUPPORTED,
                   _("“%s” is not an NVMe device node."), path);
      return NULL;
    }
  /* A namespace node knows its id; a controller node (char device) has none. */
  if (S_ISBLK (st.st_mode))
    {
      int nsid = ioctl (self->fd, NVME_IOCTL_ID);

      if (nsid <= 0)
        {
          int saved_errno = nsid == 0 ? EINVAL : errno;
          check_result (self, -1, saved_errno, _("Get namespace id"), error);
          return NULL;
        }
      self->nsid = (guint32) nsid;
    }
  return g_steal_pointer (&self);
}

DuelDeviceNvme *
duel_device_nvme_open (const char  *path,
                       GError     **error)
{
  int fd;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    {
      int saved_errno = errno;
      struct stat st;
      gboolean hidden = FALSE;

      if (saved_errno == ENOENT && duel_block_node_stat (path, &st, &hidden) == 0 && hidden)
        g_set_error (error, DUEL_ERROR, DUEL_ERROR_TARGET,
                     _("“%s” is not visible in this sandbox: its NVMe identity and health are read when a run "
                       "opens it through UDisks."), path);
      else
        g_set_error (error, DUEL_ERROR, saved_errno == EACCES || saved_errno == EPERM ? DUEL_ERROR_TARGET : DUEL_ERROR_IO,
                     _("Cannot open “%s”: %s"), path, g_strerror (saved_errno));
      return NULL;
    }
  return nvme_new_for_fd (path, fd, error);
}

DuelDeviceNvme *
duel_device_nvme_open_fd (const char  *path,
                          int          fd,
                          GError     **error)
{
  int copy;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (fd >= 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  copy = fcntl (fd, F_DUPFD_CLOEXEC, 0);
  if (copy < 0)
    {
      int saved_errno = errno;
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_IO,
                   _("Cannot open “%s”: %s"), path, g_strerror (saved_errno));
      return NULL;
    }
  return nvme_new_for_fd (path, copy, error);
}

const char *
duel_device_nvme_get_path (DuelDeviceNvme *self)
{
  g_return_val_if_fail (DUEL_IS_DEVICE_NVME (self), NULL);
  return self->path;
}

guint32
duel_device_nvme_get_nsid (DuelDeviceNvme *self)
{
  g_return_val_if_fail (DUEL_IS_DEVICE_NVME (self), 0);
  return self->nsid;
}

gboolean
duel_device_nvme_read_raw (DuelDeviceNvme  *self,
                           const char      *page,
                           guint8          *buffer,
                           GError         **error)
{
  int ret;

  g_return_val_if_fail (DUEL_IS_DEVICE_NVME (self), FALSE);
  g_return_val_if_fail (page != NULL, FALSE);
  g_return_val_if_fail (buffer != NULL, FALSE);

  errno = 0;
  if (strcmp (page, "id-ctrl") == 0)
    {
      ret = identify (self->fd, CNS_CONTROLLER, 0, buffer);
      return check_result (self, ret, errno, _("Identify controller"), error);
    }
  if (strcmp (page, "id-ns") == 0)
    {
      if (self->nsid == 0)
        {
          g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
                       _("“%s” is a controller, not a namespace."), self->path);
          return FALSE;
        }
      ret = identify (self->fd, CNS_NAMESPACE, self->nsid, buffer);
      return check_result (self, ret, errno, _("Identify namespace"), error);
    }
  if (strcmp (page, "smart") == 0)
    {
      /* The controller-wide log; per-namespace logs are optional (LPA bit 0). */
      ret = get_log_page (self->fd, LOG_SMART, NSID_ALL, buffer, DUEL_NVME_SMART_LOG_BYTES);
      return check_result (self, ret, errno, _("Get SMART / health log"), error);
    }
  g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
               _("Unknown NVMe page “%s”."), page);
  return FALSE;
}

gboolean
duel_device_nvme_get_log (DuelDeviceNvme  *self,
                          guint8           log_id,
                          guint8          *buffer,
                          gsize            length,
                          GError         **error)
{
  g_autofree char *command = NULL;
  int ret;

  g_return_val_if_fail (DUEL_IS_DEVICE_NVME (self), FALSE);
  g_return_val_if_fail (buffer != NULL, FALSE);
  g_return_val_if_fail (length > 0 && length % 4 == 0 && length <= G_MAXUINT32, FALSE);

  command = g_strdup_printf (_("Get log page 0x%02x"), log_id);
  errno = 0;
  ret = get_log_page (self->fd, log_id, NSID_ALL, buffer, (guint32) length);
  return check_result (self, ret, errno, command, error);
}

gboolean
duel_device_nvme_identify_controller (DuelDeviceNvme      *self,
                                      DuelNvmeController  *out_controller,
                                      GError             **error)
{
  g_autofree guint8 *buffer = g_malloc0 (DUEL_NVME_IDENTIFY_BYTES);

  g_return_val_if_fail (DUEL_IS_DEVICE_NVME (self), FALSE);
  g_return_val_if_fail (out_controller != NULL, FALSE);

  return duel_device_nvme_read_raw (self, "id-ctrl", buffer, error) &&
         duel_nvme_controller_parse (buffer, DUEL_NVME_IDENTIFY_BYTES, out_controller, error);
}

gboolean
duel_device_nvme_identify_namespace (DuelDeviceNvme     *self,
                                     DuelNvmeNamespace  *out_namespace,
                                     GError            **error)
{
  g_autofree guint8 *buffer = g_malloc0 (DUEL_NVME_IDENTIFY_BYTES);

  g_return_val_if_fail (DUEL_IS_DEVICE_NVME (self), FALSE);
  g_return_val_if_fail (out_namespace != NULL, FALSE);

  return duel_device_nvme_read_raw (self, "id-ns", buffer, error) &&
         duel_nvme_namespace_parse (buffer, DUEL_NVME_IDENTIFY_BYTES, self->nsid, out_namespace, error);
}

gboolean
duel_device_nvme_get_health (DuelDeviceNvme  *self,
                             DuelNvmeHealth  *out_health,
                             GError         **error)
{
  guint8 buffer[DUEL_NVME_SMART_LOG_BYTES] = { 0 };

  g_return_val_if_fail (DUEL_IS_DEVICE_NVME (self), FALSE);
  g_return_val_if_fail (out_health != NULL, FALSE);

  return duel_device_nvme_read_raw (self, "smart", buffer, error) &&
         duel_nvme_health_parse (buffer, sizeof buffer, out_health, error);
}

gboolean
duel_device_nvme_format_erase (DuelDeviceNvme  *self,
                               GError         **error)
{
  g_autofree guint8 *ns = g_malloc0 (DUEL_NVME_IDENTIFY_BYTES);
  DuelNvmeController controller;
  guint8 flbas, dps;
  guint32 cdw10;
  int ret;

  g_return_val_if_fail (DUEL_IS_DEVICE_NVME (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->nsid == 0)
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT,
                   _("“%s” is a controller, not a namespace."), self->path);
      return FALSE;
    }
  if (!duel_device_nvme_identify_controller (self, &controller, error) ||
      !duel_device_nvme_read_raw (self, "id-ns", ns, error))
    return FALSE;
  if (!duel_nvme_controller_supports_format (&controller))
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_UNSUPPORTED,
                   _("The drive at “%s” has no Format NVM command."), self->path);
      return FALSE;
    }
  /* FNA bit 0: a format reaches every namespace of the controller. */
  if ((controller.fna & 0x01) != 0 && controller.n_namespaces > 1)
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_UNSUPPORTED,
                   _("A format of “%s” would erase all %u namespaces of its controller, not this one alone."),
                   self->path, controller.n_namespaces);
      return FALSE;
    }
  /* The format in use (FLBAS bits 3:0, and 6:5 above 16 formats), its
   * metadata setting (FLBAS bit 4) and protection (DPS), kept; SES 1. */
  flbas = ns[ID_NS_FLBAS];
  dps = ns[ID_NS_DPS];
  cdw10 = (flbas & 0x0f) | ((flbas & 0x10) ? 1u << 4 : 0) | ((guint32) (dps & 0x07) << 5) |
          ((guint32) ((dps >> 3) & 0x01) << 8) | (1u << 9) | ((guint32) ((flbas >> 5) & 0x03) << 12);
  errno = 0;
  ret = format_erase (self->fd, self->nsid, cdw10);
  return check_result (self, ret, errno, _("Format NVM (user data erase)"), error);
}
