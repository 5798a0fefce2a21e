/* duel-device-nvme.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <libnvme.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "duel-device-nvme.h"
#include "duel-error.h"

G_STATIC_ASSERT (sizeof (struct nvme_id_ctrl) == DUEL_NVME_IDENTIFY_BYTES);
G_STATIC_ASSERT (sizeof (struct nvme_id_ns) == DUEL_NVME_IDENTIFY_BYTES);
G_STATIC_ASSERT (sizeof (struct nvme_smart_log) == DUEL_NVME_SMART_LOG_BYTES);

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
  struct nvme_id_ctrl id;

  g_return_val_if_fail (data != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  if (!check_length (length, sizeof id, "identify controller", error))
    return FALSE;
  memcpy (&id, data, sizeof id);

  memset (out, 0, sizeof *out);
  out->vendor_id = GUINT16_FROM_LE (id.vid);
  out->subsystem_vendor_id = GUINT16_FROM_LE (id.ssvid);
  copy_padded (out->serial, sizeof out->serial, id.sn, sizeof id.sn);
  copy_padded (out->model, sizeof out->model, id.mn, sizeof id.mn);
  copy_padded (out->firmware, sizeof out->firmware, id.fr, sizeof id.fr);
  out->version = GUINT32_FROM_LE (id.ver);
  out->mdts = id.mdts;
  out->controller_id = GUINT16_FROM_LE (id.cntlid);
  out->n_namespaces = GUINT32_FROM_LE (id.nn);
  out->oacs = GUINT16_FROM_LE (id.oacs);
  out->sanicap = GUINT32_FROM_LE (id.sanicap);
  out->vwc = id.vwc;
  out->warning_temperature_k = GUINT16_FROM_LE (id.wctemp);
  out->critical_temperature_k = GUINT16_FROM_LE (id.cctemp);
  out->total_capacity_bytes = le128_saturated (id.tnvmcap);
  copy_padded (out->subnqn, sizeof out->subnqn, id.subnqn, sizeof id.subnqn);
  return TRUE;
}

gboolean
duel_nvme_namespace_parse (const guint8        *data,
                           gsize                length,
                           guint32              nsid,
                           DuelNvmeNamespace   *out,
                           GError             **error)
{
  struct nvme_id_ns ns;
  guint index;

  g_return_val_if_fail (data != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  if (!check_length (length, sizeof ns, "identify namespace", error))
    return FALSE;
  memcpy (&ns, data, sizeof ns);

  memset (out, 0, sizeof *out);
  out->nsid = nsid;
  out->size_blocks = GUINT64_FROM_LE (ns.nsze);
  out->capacity_blocks = GUINT64_FROM_LE (ns.ncap);
  out->utilization_blocks = GUINT64_FROM_LE (ns.nuse);
  out->n_formats = ns.nlbaf + 1u;
  /* FLBAS bits 3:0, and bits 6:5 as the high bits when there are more than 16 formats. */
  index = ns.flbas & NVME_NS_FLBAS_LOWER_MASK;
  if (out->n_formats > 16)
    index |= ((ns.flbas & NVME_NS_FLBAS_HIGHER_MASK) >> 5) << 4;
  if (index >= G_N_ELEMENTS (ns.lbaf))
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT,
                   _("The namespace reports LBA format %u, which does not exist."), index);
      return FALSE;
    }
  out->format_index = index;
  if (ns.lbaf[index].ds < 9 || ns.lbaf[index].ds > 31)
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT,
                   _("The namespace reports a block size of 2^%u bytes."), ns.lbaf[index].ds);
      return FALSE;
    }
  out->block_bytes = 1u << ns.lbaf[index].ds;
  out->metadata_bytes = GUINT16_FROM_LE (ns.lbaf[index].ms);
  out->relative_performance = ns.lbaf[index].rp & 0x3;
  return TRUE;
}

gboolean
duel_nvme_health_parse (const guint8    *data,
                        gsize            length,
                        DuelNvmeHealth  *out,
                        GError         **error)
{
  struct nvme_smart_log log;

  g_return_val_if_fail (data != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  if (!check_length (length, sizeof log, "SMART / health", error))
    return FALSE;
  memcpy (&log, data, sizeof log);

  memset (out, 0, sizeof *out);
  out->critical_warning = log.critical_warning;
  out->temperature_c = kelvin_to_celsius (log.temperature[0] | (log.temperature[1] << 8));
  for (guint i = 0; i < G_N_ELEMENTS (out->sensor_c); i++)
    out->sensor_c[i] = kelvin_to_celsius (GUINT16_FROM_LE (log.temp_sensor[i]));
  out->available_spare_percent = log.avail_spare;
  out->available_spare_threshold_percent = log.spare_thresh;
  out->percentage_used = log.percent_used;
  out->data_units_read = le128_saturated (log.data_units_read);
  out->data_units_written = le128_saturated (log.data_units_written);
  out->host_read_commands = le128_saturated (log.host_reads);
  out->host_write_commands = le128_saturated (log.host_writes);
  out->controller_busy_minutes = le128_saturated (log.ctrl_busy_time);
  out->power_cycles = le128_saturated (log.power_cycles);
  out->power_on_hours = le128_saturated (log.power_on_hours);
  out->unsafe_shutdowns = le128_saturated (log.unsafe_shutdowns);
  out->media_errors = le128_saturated (log.media_errors);
  out->error_log_entries = le128_saturated (log.num_err_log_entries);
  out->warning_temperature_minutes = GUINT32_FROM_LE (log.warning_temp_time);
  out->critical_temperature_minutes = GUINT32_FROM_LE (log.critical_comp_time);
  out->thermal_transitions[0] = GUINT32_FROM_LE (log.thm_temp1_trans_count);
  out->thermal_transitions[1] = GUINT32_FROM_LE (log.thm_temp2_trans_count);
  out->thermal_seconds[0] = GUINT32_FROM_LE (log.thm_temp1_total_time);
  out->thermal_seconds[1] = GUINT32_FROM_LE (log.thm_temp2_total_time);
  return TRUE;
}

gboolean
duel_nvme_controller_has_volatile_write_cache (const DuelNvmeController *controller)
{
  return (controller->vwc & NVME_CTRL_VWC_PRESENT) != 0;
}

gboolean
duel_nvme_controller_supports_format (const DuelNvmeController *controller)
{
  return (controller->oacs & NVME_CTRL_OACS_FORMAT) != 0;
}

gboolean
duel_nvme_controller_supports_sanitize (const DuelNvmeController *controller)
{
  return (controller->sanicap & (NVME_CTRL_SANICAP_CES | NVME_CTRL_SANICAP_BES | NVME_CTRL_SANICAP_OWS)) != 0;
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
  json_object_set_boolean_member (oacs, "security", (controller->oacs & NVME_CTRL_OACS_SECURITY) != 0);
  json_object_set_boolean_member (oacs, "format", duel_nvme_controller_supports_format (controller));
  json_object_set_boolean_member (oacs, "firmware_download", (controller->oacs & NVME_CTRL_OACS_FW) != 0);
  json_object_set_boolean_member (oacs, "namespace_management", (controller->oacs & NVME_CTRL_OACS_NS_MGMT) != 0);
  json_object_set_boolean_member (oacs, "self_test", (controller->oacs & NVME_CTRL_OACS_SELF_TEST) != 0);
  json_object_set_boolean_member (oacs, "directives", (controller->oacs & NVME_CTRL_OACS_DIRECTIVES) != 0);
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

/* libnvme: 0 success, > 0 an NVMe status from the drive, -1 with errno. */
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
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_NVME,
                   _("The drive at “%s” rejected %s: %s (status 0x%x)."),
                   self->path, command, nvme_status_to_string (ret, false), (guint) ret);
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

DuelDeviceNvme *
duel_device_nvme_open (const char  *path,
                       GError     **error)
{
  g_autoptr(DuelDeviceNvme) self = NULL;
  struct stat st;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = g_object_new (DUEL_TYPE_DEVICE_NVME, NULL);
  self->path = g_strdup (path);
  self->fd = open (path, O_RDONLY | O_CLOEXEC);
  if (self->fd < 0)
    {
      int saved_errno = errno;
      g_set_error (error, DUEL_ERROR, saved_errno == EACCES || saved_errno == EPERM ? DUEL_ERROR_TARGET : DUEL_ERROR_IO,
                   _("Cannot open “%s”: %s"), path, g_strerror (saved_errno));
      return NULL;
    }
  if (fstat (self->fd, &st) != 0 || (!S_ISBLK (st.st_mode) && !S_ISCHR (st.st_mode)))
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_UNSUPPORTED,
                   _("“%s” is not an NVMe device node."), path);
      return NULL;
    }
  /* A namespace node knows its id; a controller node (char device) has none. */
  if (S_ISBLK (st.st_mode))
    {
      __u32 nsid = 0;

      if (nvme_get_nsid (self->fd, &nsid) != 0)
        {
          int saved_errno = errno;
          check_result (self, -1, saved_errno, _("Get namespace id"), error);
          return NULL;
        }
      self->nsid = nsid;
    }
  return g_steal_pointer (&self);
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
      ret = nvme_identify_ctrl (self->fd, (struct nvme_id_ctrl *) buffer);
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
      ret = nvme_identify_ns (self->fd, self->nsid, (struct nvme_id_ns *) buffer);
      return check_result (self, ret, errno, _("Identify namespace"), error);
    }
  if (strcmp (page, "smart") == 0)
    {
      /* The controller-wide log; per-namespace logs are optional (LPA bit 0). */
      ret = nvme_get_log_smart (self->fd, NVME_NSID_ALL, false, (struct nvme_smart_log *) buffer);
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
  ret = nvme_get_log_simple (self->fd, log_id, (__u32) length, buffer);
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
