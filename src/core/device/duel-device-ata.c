/* duel-device-ata.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <math.h>
#include <scsi/sg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "engine/duel-block-node.h"
#include "duel-device-ata.h"
#include "duel-device-private.h"
#include "duel-error.h"
#include "engine/duel-udisks.h"

/* Word offsets in IDENTIFY DEVICE (ACS-3, table 45), byte offsets in the
 * SMART data page (ATA-8 ACS, SMART READ DATA; the attribute layout is the
 * one every vendor and smartmontools use). */
enum
{
  ID_CONFIG = 0, ID_SERIAL = 10, ID_SERIAL_WORDS = 10, ID_FIRMWARE = 23, ID_FIRMWARE_WORDS = 4,
  ID_MODEL = 27, ID_MODEL_WORDS = 20, ID_COMMAND_SET_1 = 82, ID_COMMAND_ENABLED_1 = 85,
  ID_INTEGRITY = 255,
  ID_CONFIG_NOT_ATA = 1 << 15, ID_CONFIG_CFA = 0x848a, ID_INTEGRITY_SIGNATURE = 0xa5,

  SMART_ATTRIBUTES = 2, SMART_ATTRIBUTE_BYTES = 12,
  ATTR_ID = 0, ATTR_FLAGS = 1, ATTR_VALUE = 3, ATTR_WORST = 4, ATTR_RAW = 5,
  ATTR_POWER_ON_HOURS = 9, ATTR_POWER_CYCLES = 12, ATTR_AIRFLOW_TEMPERATURE = 190,
  ATTR_TEMPERATURE = 194,
};

/* ATA commands and the ATA PASS-THROUGH (16) CDB (SAT-3, 12.2.2). */
enum
{
  ATA_IDENTIFY_DEVICE = 0xec, ATA_SMART = 0xb0,
  SMART_READ_DATA = 0xd0, SMART_RETURN_STATUS = 0xda,
  SMART_LBA_MID = 0x4f, SMART_LBA_HIGH = 0xc2,
  SMART_FAILING_LBA_MID = 0xf4, SMART_FAILING_LBA_HIGH = 0x2c,
  ATA_STATUS_ERR = 0x01, ATA_STATUS_DF = 0x20,

  ATA_16 = 0x85, ATA_16_LENGTH = 16,
  PROTOCOL_NON_DATA = 3, PROTOCOL_PIO_IN = 4,
  /* Byte 2: CK_COND, T_DIR (from the device), BYT_BLOK, T_LENGTH = the count field. */
  CDB2_CK_COND = 1 << 5, CDB2_T_DIR_IN = 1 << 3, CDB2_BYT_BLOK = 1 << 2, CDB2_T_LENGTH_COUNT = 2,

  SCSI_CHECK_CONDITION = 0x02,
  /* driver_status: sense data came back (sg3_utils' SG_LIB_DRIVER_SENSE). */
  SG_DRIVER_SENSE = 0x08,
  SENSE_NO_SENSE = 0x0, SENSE_RECOVERED_ERROR = 0x1,
  /* ATA PASS-THROUGH INFORMATION AVAILABLE */
  SENSE_ASC_ATA_INFO = 0x00, SENSE_ASCQ_ATA_INFO = 0x1d,
  SENSE_DESCRIPTOR_ATA_RETURN = 0x09,
  SENSE_BYTES = 32,
};

/* A sleeping disk spins up in a few seconds; a bridge that does not
 * answer in 3 s will not answer at all. */
#define PASS_THROUGH_TIMEOUT_MS 3000

struct _DuelDeviceAta
{
  GObject  parent_instance;

  char    *path;
  int      fd;
};

G_DEFINE_FINAL_TYPE (DuelDeviceAta, duel_device_ata, G_TYPE_OBJECT)

/* ------------------------------------------------------------------ parsing */

static guint16
word_at (const guint8 *data,
         guint         word)
{
  return (guint16) (data[word * 2] | data[word * 2 + 1] << 8);
}

/* ATA strings hold two characters per little-endian word, the first in the
 * high byte, padded with spaces (ACS-3, 3.4.9). */
static void
copy_ata_string (const guint8 *data,
                 guint         first_word,
                 guint         n_words,
                 char         *out)
{
  guint n_bytes = n_words * 2;

  for (guint i = 0; i < n_bytes; i++)
    {
      guint8 c = data[first_word * 2 + (i ^ 1)];

      /* Some drives pad with NULs; anything not printable ASCII is no text. */
      out[i] = c == '\0' ? ' ' : (c < 0x20 || c > 0x7e) ? '?' : (char) c;
    }
  out[n_bytes] = '\0';
  g_strstrip (out);
}

static gboolean
is_all_zero (const guint8 *data,
             gsize         length)
{
  for (gsize i = 0; i < length; i++)
    {
      if (data[i] != 0)
        return FALSE;
    }
  return TRUE;
}

gboolean
duel_ata_identity_parse (const guint8     *data,
                         gsize             length,
                         DuelAtaIdentity  *out_identity,
                         GError          **error)
{
  guint16 config;
  guint16 integrity;

  g_return_val_if_fail (data != NULL, FALSE);
  g_return_val_if_fail (out_identity != NULL, FALSE);

  if (length < DUEL_ATA_SECTOR_BYTES)
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT,
                   _("The ATA identify data is %" PRIu64 " bytes long instead of 512."), (guint64) length);
      return FALSE;
    }
  if (is_all_zero (data, DUEL_ATA_SECTOR_BYTES))
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT, _("The ATA identify data is empty."));
      return FALSE;
    }
  config = word_at (data, ID_CONFIG);
  if ((config & ID_CONFIG_NOT_ATA) != 0 && config != ID_CONFIG_CFA)
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT,
                   _("The ATA identify data is not from an ATA disk (word 0 is 0x%04x)."), config);
      return FALSE;
    }
  /* Word 255: the checksum counts only when its signature is there. */
  integrity = word_at (data, ID_INTEGRITY);
  if ((integrity & 0xff) == ID_INTEGRITY_SIGNATURE)
    {
      guint8 sum = 0;

      for (guint i = 0; i < DUEL_ATA_SECTOR_BYTES; i++)
        sum += data[i];
      if (sum != 0)
        {
          g_set_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT,
                       _("The ATA identify data fails its checksum."));
          return FALSE;
        }
    }

  memset (out_identity, 0, sizeof *out_identity);
  copy_ata_string (data, ID_MODEL, ID_MODEL_WORDS, out_identity->model);
  copy_ata_string (data, ID_SERIAL, ID_SERIAL_WORDS, out_identity->serial);
  copy_ata_string (data, ID_FIRMWARE, ID_FIRMWARE_WORDS, out_identity->firmware);
  /* Words 82 and 85 are valid only with bit 14 set and bit 15 clear. */
  if ((word_at (data, ID_COMMAND_SET_1) & 0xc000) == 0x4000)
    out_identity->smart_supported = (word_at (data, ID_COMMAND_SET_1) & 1) != 0;
  if ((word_at (data, ID_COMMAND_ENABLED_1) & 0xc000) == 0x4000)
    out_identity->smart_enabled = (word_at (data, ID_COMMAND_ENABLED_1) & 1) != 0;
  return TRUE;
}

gboolean
duel_ata_smart_parse (const guint8   *data,
                      gsize           length,
                      DuelAtaHealth  *out_health,
                      GError        **error)
{
  const DuelAtaAttribute *temperature = NULL;
  const DuelAtaAttribute *airflow = NULL;

  g_return_val_if_fail (data != NULL, FALSE);
  g_return_val_if_fail (out_health != NULL, FALSE);

  if (length < DUEL_ATA_SECTOR_BYTES)
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT,
                   _("The SMART data is %" PRIu64 " bytes long instead of 512."), (guint64) length);
      return FALSE;
    }
  /* Bridges that take the command but pass nothing back fill zeroes. */
  if (is_all_zero (data, DUEL_ATA_SECTOR_BYTES))
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT, _("The SMART data is empty."));
      return FALSE;
    }

  memset (out_health, 0, sizeof *out_health);
  out_health->temperature_c = NAN;
  out_health->status = DUEL_ATA_SMART_STATUS_UNKNOWN;
  for (guint i = 0; i < DUEL_ATA_SMART_MAX_ATTRIBUTES; i++)
    {
      const guint8 *entry = data + SMART_ATTRIBUTES + i * SMART_ATTRIBUTE_BYTES;
      DuelAtaAttribute *attribute;

      if (entry[ATTR_ID] == 0)
        continue;
      attribute = &out_health->attributes[out_health->n_attributes++];
      attribute->id = entry[ATTR_ID];
      attribute->flags = (guint16) (entry[ATTR_FLAGS] | entry[ATTR_FLAGS + 1] << 8);
      attribute->value = entry[ATTR_VALUE];
      attribute->worst = entry[ATTR_WORST];
      attribute->raw = 0;
      for (guint b = 0; b < 6; b++)
        attribute->raw |= (guint64) entry[ATTR_RAW + b] << (8 * b);

      switch (attribute->id)
        {
        case ATTR_POWER_ON_HOURS:
          /* Raw48 hours; some vendors keep minutes or milliseconds in the
           * upper 16 bits, and then the hours are the lower 32. */
          out_health->has_power_on_hours = TRUE;
          out_health->power_on_hours = (attribute->raw >> 32) != 0 ? attribute->raw & G_MAXUINT32 : attribute->raw;
          break;
        case ATTR_POWER_CYCLES:
          out_health->has_power_cycles = TRUE;
          out_health->power_cycles = attribute->raw;
          break;
        case ATTR_TEMPERATURE:
          temperature = attribute;
          break;
        case ATTR_AIRFLOW_TEMPERATURE:
          airflow = attribute;
          break;
        default:
          break;
        }
    }

  /* Raw byte 0 is the current °C (the others: minimum, maximum, vendor
   * specific). 0 is no reading: a running drive is warmer than that. */
  for (guint pass = 0; pass < 2; pass++)
    {
      const DuelAtaAttribute *attribute = pass == 0 ? temperature : airflow;
      guint8 celsius;

      if (attribute == NULL)
        continue;
      celsius = attribute->raw & 0xff;
      if (celsius == 0 || celsius > 127)
        continue;
      out_health->temperature_c = celsius;
      out_health->temperature_attribute = attribute->id;
      break;
    }
  return TRUE;
}

DuelAtaSmartStatus
duel_ata_smart_status_from_registers (guint8 lba_mid,
                                      guint8 lba_high)
{
  if (lba_mid == SMART_LBA_MID && lba_high == SMART_LBA_HIGH)
    return DUEL_ATA_SMART_STATUS_PASSED;
  if (lba_mid == SMART_FAILING_LBA_MID && lba_high == SMART_FAILING_LBA_HIGH)
    return DUEL_ATA_SMART_STATUS_FAILING;
  return DUEL_ATA_SMART_STATUS_UNKNOWN;
}

gboolean
duel_ata_sense_get_registers (const guint8 *sense,
                              gsize         length,
                              guint8       *out_status,
                              guint8       *out_error,
                              guint8       *out_lba_mid,
                              guint8       *out_lba_high)
{
  guint8 response;

  g_return_val_if_fail (sense != NULL || length == 0, FALSE);

  if (length < 8)
    return FALSE;
  response = sense[0] & 0x7f;
  if (response == 0x72 || response == 0x73)
    {
      /* Descriptors follow the 8-byte header; byte 7 is their length. */
      gsize end = MIN (length, (gsize) 8 + sense[7]);

      for (gsize at = 8; at + 2 <= end; at += 2 + sense[at + 1])
        {
          const guint8 *d = sense + at;

          if (d[0] != SENSE_DESCRIPTOR_ATA_RETURN || at + 14 > end)
            continue;
          /* SAT-3 table 209: extend, error, count (2), LBA low/mid/high
           * (2 each, the low byte second), device, status. */
          *out_error = d[3];
          *out_lba_mid = d[9];
          *out_lba_high = d[11];
          *out_status = d[13];
          return TRUE;
        }
      return FALSE;
    }
  if ((response == 0x70 || response == 0x71) && length >= 12)
    {
      /* SAT-3 table 211: information field = error, status, device, count;
       * command-specific information = flags, LBA low, mid, high. */
      *out_error = sense[3];
      *out_status = sense[4];
      *out_lba_mid = sense[10];
      *out_lba_high = sense[11];
      return TRUE;
    }
  return FALSE;
}

gboolean
duel_ata_identity_from_sysfs_text (const char *text,
                                   guint8     *out_data)
{
  const char *p = text;
  guint n = 0;

  g_return_val_if_fail (text != NULL, FALSE);
  g_return_val_if_fail (out_data != NULL, FALSE);

  /* "0040 3fff c837 …": the words as the CPU holds them, 8 to a line. */
  while (n < DUEL_ATA_SECTOR_BYTES / 2)
    {
      char *end = NULL;
      guint64 word;

      while (g_ascii_isspace (*p))
        p++;
      if (*p == '\0')
        break;
      if (!g_ascii_isxdigit (*p))
        return FALSE;
      word = g_ascii_strtoull (p, &end, 16);
      if (end == p || end - p > 4 || word > G_MAXUINT16)
        return FALSE;
      out_data[n * 2] = word & 0xff;
      out_data[n * 2 + 1] = word >> 8;
      n++;
      p = end;
    }
  while (g_ascii_isspace (*p))
    p++;
  return n == DUEL_ATA_SECTOR_BYTES / 2 && *p == '\0';
}

char *
duel_ata_udev_decode (const char *encoded)
{
  g_autoptr(GString) out = NULL;

  g_return_val_if_fail (encoded != NULL, NULL);

  out = g_string_new (NULL);
  for (const char *p = encoded; *p != '\0'; p++)
    {
      if (p[0] == '\\' && p[1] == 'x' && g_ascii_isxdigit (p[2]) && g_ascii_isxdigit (p[3]))
        {
          guint8 byte = (guint8) (g_ascii_xdigit_value (p[2]) << 4 | g_ascii_xdigit_value (p[3]));

          /* An escaped NUL would end the string early. */
          if (byte == 0)
            return NULL;
          g_string_append_c (out, (char) byte);
          p += 3;
        }
      else
        g_string_append_c (out, *p);
    }
  if (!g_utf8_validate (out->str, out->len, NULL))
    return NULL;
  return g_strstrip (g_string_free (g_steal_pointer (&out), FALSE));
}

/* g_set_str() is GLib 2.76. */
static void
replace_string (char       **field,
                const char  *value)
{
  g_free (*field);
  *field = g_strdup (value);
}

static char *
nonempty_or_free (char *text)
{
  if (text != NULL && text[0] == '\0')
    g_clear_pointer (&text, g_free);
  return text;
}

gboolean
duel_ata_udev_parse (const char  *contents,
                     char       **out_model,
                     char       **out_serial,
                     char       **out_firmware)
{
  g_auto(GStrv) lines = NULL;
  g_autofree char *model_enc = NULL;
  g_autofree char *model = NULL;
  g_autofree char *serial = NULL;
  g_autofree char *firmware = NULL;
  gboolean from_ata = FALSE;

  g_return_val_if_fail (contents != NULL, FALSE);
  g_return_val_if_fail (out_model != NULL && out_serial != NULL && out_firmware != NULL, FALSE);

  /* "E:KEY=VALUE" lines are the properties; S:, L:, I:, G: are not. */
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];
      const char *value;

      if (!g_str_has_prefix (line, "E:") || (value = strchr (line, '=')) == NULL)
        continue;
      value++;
#define IS_KEY(key) (strncmp (line + 2, key "=", sizeof key) == 0)
      if (IS_KEY ("ID_MODEL_ENC"))
        replace_string (&model_enc, value);
      else if (IS_KEY ("ID_MODEL"))
        replace_string (&model, value);
      else if (IS_KEY ("ID_SERIAL_SHORT"))
        replace_string (&serial, value);
      else if (IS_KEY ("ID_REVISION"))
        replace_string (&firmware, value);
      else if (IS_KEY ("ID_ATA"))
        from_ata = strcmp (value, "1") == 0;
#undef IS_KEY
    }

  *out_model = model_enc != NULL ? nonempty_or_free (duel_ata_udev_decode (model_enc)) : NULL;
  if (*out_model == NULL && model != NULL && g_utf8_validate (model, -1, NULL))
    {
      /* udev turned the spaces into '_'; the encoded form was missing. */
      g_strdelimit (model, "_", ' ');
      *out_model = nonempty_or_free (g_strstrip (g_steal_pointer (&model)));
    }
  *out_serial = serial != NULL && g_utf8_validate (serial, -1, NULL)
                ? nonempty_or_free (g_strstrip (g_steal_pointer (&serial))) : NULL;
  *out_firmware = firmware != NULL && g_utf8_validate (firmware, -1, NULL)
                  ? nonempty_or_free (g_strstrip (g_steal_pointer (&firmware))) : NULL;
  return from_ata;
}

const char *
duel_ata_smart_status_to_string (DuelAtaSmartStatus status)
{
  switch (status)
    {
    case DUEL_ATA_SMART_STATUS_PASSED:  return "passed";
    case DUEL_ATA_SMART_STATUS_FAILING: return "failing";
    case DUEL_ATA_SMART_STATUS_UNKNOWN:
    default:                            return "unknown";
    }
}

JsonObject *
duel_ata_health_to_json (const DuelAtaHealth *health)
{
  JsonObject *object;
  JsonArray *attributes;

  g_return_val_if_fail (health != NULL, NULL);

  object = json_object_new ();
  json_object_set_string_member (object, "status", duel_ata_smart_status_to_string (health->status));
  json_object_set_string_member (object, "source",
                                 health->source == DUEL_ATA_HEALTH_SOURCE_UDISKS ? "udisks" : "ata-pass-through");
  if (isnan (health->temperature_c))
    json_object_set_null_member (object, "temperature_c");
  else
    {
      json_object_set_double_member (object, "temperature_c", health->temperature_c);
      if (health->temperature_attribute != 0)
        json_object_set_int_member (object, "temperature_attribute", health->temperature_attribute);
    }
  if (health->has_power_on_hours)
    json_object_set_int_member (object, "power_on_hours", (gint64) health->power_on_hours);
  if (health->has_power_cycles)
    json_object_set_int_member (object, "power_cycles", (gint64) health->power_cycles);
  attributes = json_array_new ();
  for (guint i = 0; i < health->n_attributes; i++)
    {
      const DuelAtaAttribute *attribute = &health->attributes[i];
      JsonObject *a = json_object_new ();

      json_object_set_int_member (a, "id", attribute->id);
      json_object_set_int_member (a, "flags", attribute->flags);
      json_object_set_int_member (a, "value", attribute->value);
      json_object_set_int_member (a, "worst", attribute->worst);
      json_object_set_int_member (a, "raw", (gint64) attribute->raw);
      json_array_add_object_element (attributes, a);
    }
  json_object_set_array_member (object, "attributes", attributes);
  return object;
}

/* ------------------------------------------------------------- the device */

static void
duel_device_ata_finalize (GObject *object)
{
  DuelDeviceAta *self = DUEL_DEVICE_ATA (object);

  if (self->fd >= 0)
    close (self->fd);
  g_free (self->path);

  G_OBJECT_CLASS (duel_device_ata_parent_class)->finalize (object);
}

static void
duel_device_ata_class_init (DuelDeviceAtaClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = duel_device_ata_finalize;
}

static void
duel_device_ata_init (DuelDeviceAta *self)
{
  self->fd = -1;
}

static gboolean
pass_through_disabled (void)
{
  return g_strcmp0 (g_getenv ("DUEL_ATA_TRANSPORT"), "none") == 0;
}

DuelDeviceAta *
duel_device_ata_open (const char  *path,
                      GError     **error)
{
  g_autoptr(DuelDeviceAta) self = NULL;
  struct stat st;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (pass_through_disabled ())
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_UNSUPPORTED,
                   _("ATA pass-through is turned off (DUEL_ATA_TRANSPORT=none)."));
      return NULL;
    }
  self = g_object_new (DUEL_TYPE_DEVICE_ATA, NULL);
  self->path = g_strdup (path);
  /* O_NONBLOCK: a removable bay without media still opens. */
  self->fd = open (path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (self->fd < 0)
    {
      int saved_errno = errno;
      g_set_error (error, DUEL_ERROR, saved_errno == EACCES || saved_errno == EPERM ? DUEL_ERROR_TARGET : DUEL_ERROR_IO,
                   _("Cannot open “%s”: %s"), path, g_strerror (saved_errno));
      return NULL;
    }
  if (fstat (self->fd, &st) != 0 || !S_ISBLK (st.st_mode))
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_UNSUPPORTED,
                   _("“%s” is not a block device."), path);
      return NULL;
    }
  return g_steal_pointer (&self);
}

const char *
duel_device_ata_get_path (DuelDeviceAta *self)
{
  g_return_val_if_fail (DUEL_IS_DEVICE_ATA (self), NULL);
  return self->path;
}

typedef struct
{
  const char *name;          /* the command, for messages */
  guint8      command;
  guint8      features;
  guint8      count;
  guint8      lba_mid;
  guint8      lba_high;
} AtaCommand;

/* One ATA command through SG_IO. DATA (512 bytes) for PIO data-in, else a
 * non-data command with CK_COND whose result registers come back in the
 * sense data. */
static gboolean
send_ata (DuelDeviceAta    *self,
          const AtaCommand *cmd,
          guint8           *data,
          guint8           *out_lba_mid,
          guint8           *out_lba_high,
          GError          **error)
{
  guint8 cdb[ATA_16_LENGTH] = { 0 };
  guint8 sense[SENSE_BYTES] = { 0 };
  sg_io_hdr_t io = { 0 };
  guint8 status = 0, ata_error = 0, lba_mid = 0, lba_high = 0;
  gboolean have_registers;

  g_assert (DUEL_IS_DEVICE_ATA (self));

  cdb[0] = ATA_16;
  if (data != NULL)
    {
      cdb[1] = PROTOCOL_PIO_IN << 1;
      cdb[2] = CDB2_T_DIR_IN | CDB2_BYT_BLOK | CDB2_T_LENGTH_COUNT;
      memset (data, 0, DUEL_ATA_SECTOR_BYTES);
    }
  else
    {
      cdb[1] = PROTOCOL_NON_DATA << 1;
      cdb[2] = CDB2_CK_COND;
    }
  cdb[4] = cmd->features;
  cdb[6] = cmd->count;
  cdb[10] = cmd->lba_mid;
  cdb[12] = cmd->lba_high;
  cdb[14] = cmd->command;

  io.interface_id = 'S';
  io.cmdp = cdb;
  io.cmd_len = sizeof cdb;
  io.sbp = sense;
  io.mx_sb_len = sizeof sense;
  io.dxfer_direction = data != NULL ? SG_DXFER_FROM_DEV : SG_DXFER_NONE;
  io.dxferp = data;
  io.dxfer_len = data != NULL ? DUEL_ATA_SECTOR_BYTES : 0;
  io.timeout = PASS_THROUGH_TIMEOUT_MS;

  if (ioctl (self->fd, SG_IO, &io) != 0)
    {
      int saved_errno = errno;

      /* The block layer lets ATA_16 through only with CAP_SYS_RAWIO. */
      if (saved_errno == EPERM || saved_errno == EACCES)
        g_set_error (error, DUEL_ERROR, DUEL_ERROR_TARGET,
                     _("ATA commands to “%s” need administrator rights."), self->path);
      else
        g_set_error (error, DUEL_ERROR,
                     saved_errno == ENOTTY || saved_errno == EINVAL ? DUEL_ERROR_UNSUPPORTED : DUEL_ERROR_IO,
                     _("“%s” takes no ATA commands: %s"), self->path, g_strerror (saved_errno));
      return FALSE;
    }
  if (io.host_status != 0 || (io.driver_status & ~SG_DRIVER_SENSE) != 0)
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_IO,
                   /* TRANSLATORS: the first %s is an ATA command, such as “SMART READ DATA” */
                   _("%s on “%s” failed (host status 0x%x, driver status 0x%x)."),
                   cmd->name, self->path, io.host_status, io.driver_status);
      return FALSE;
    }

  have_registers = duel_ata_sense_get_registers (sense, io.sb_len_wr, &status, &ata_error, &lba_mid, &lba_high);
  if (io.status == SCSI_CHECK_CONDITION)
    {
      guint8 response = sense[0] & 0x7f;
      guint8 key = response >= 0x72 ? sense[1] & 0x0f : sense[2] & 0x0f;
      guint8 asc = response >= 0x72 ? sense[2] : sense[12];
      guint8 ascq = response >= 0x72 ? sense[3] : sense[13];
      gboolean information = (key == SENSE_RECOVERED_ERROR || key == SENSE_NO_SENSE) &&
                             asc == SENSE_ASC_ATA_INFO && ascq == SENSE_ASCQ_ATA_INFO;

      if (!information && !(have_registers && (status & (ATA_STATUS_ERR | ATA_STATUS_DF)) != 0))
        {
          /* ILLEGAL REQUEST and the like: the translator does not know ATA_16. */
          g_set_error (error, DUEL_ERROR, DUEL_ERROR_UNSUPPORTED,
                       _("“%s” does not pass ATA commands through (sense key 0x%x, 0x%02x/0x%02x)."),
                       self->path, key, asc, ascq);
          return FALSE;
        }
    }
  else if (io.status != 0)
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_IO,
                   /* TRANSLATORS: the first %s is an ATA command, such as “SMART READ DATA” */
                   _("%s on “%s” failed (SCSI status 0x%02x)."), cmd->name, self->path, io.status);
      return FALSE;
    }
  if (have_registers && (status & (ATA_STATUS_ERR | ATA_STATUS_DF)) != 0)
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_UNSUPPORTED,
                   /* TRANSLATORS: %s is an ATA command, such as “SMART READ DATA” */
                   _("The drive refused %s (ATA status 0x%02x, error 0x%02x)."),
                   cmd->name, status, ata_error);
      return FALSE;
    }

  if (data == NULL && !have_registers)
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_UNSUPPORTED,
                   /* TRANSLATORS: the second %s is an ATA command, such as “SMART RETURN STATUS” */
                   _("“%s” does not return the ATA registers of %s."), self->path, cmd->name);
      return FALSE;
    }
  if (out_lba_mid != NULL)
    *out_lba_mid = lba_mid;
  if (out_lba_high != NULL)
    *out_lba_high = lba_high;
  return TRUE;
}

gboolean
duel_device_ata_read_identify (DuelDeviceAta  *self,
                               guint8         *buffer,
                               GError        **error)
{
  static const AtaCommand identify = { "IDENTIFY DEVICE", ATA_IDENTIFY_DEVICE, 0, 1, 0, 0 };

  g_return_val_if_fail (DUEL_IS_DEVICE_ATA (self), FALSE);
  g_return_val_if_fail (buffer != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return send_ata (self, &identify, buffer, NULL, NULL, error);
}

gboolean
duel_device_ata_identify (DuelDeviceAta    *self,
                          DuelAtaIdentity  *out_identity,
                          GError          **error)
{
  guint8 buffer[DUEL_ATA_SECTOR_BYTES];

  g_return_val_if_fail (DUEL_IS_DEVICE_ATA (self), FALSE);
  g_return_val_if_fail (out_identity != NULL, FALSE);

  return duel_device_ata_read_identify (self, buffer, error) &&
         duel_ata_identity_parse (buffer, sizeof buffer, out_identity, error);
}

gboolean
duel_device_ata_read_smart (DuelDeviceAta  *self,
                            guint8         *buffer,
                            GError        **error)
{
  static const AtaCommand read_data = {
    "SMART READ DATA", ATA_SMART, SMART_READ_DATA, 1, SMART_LBA_MID, SMART_LBA_HIGH
  };

  g_return_val_if_fail (DUEL_IS_DEVICE_ATA (self), FALSE);
  g_return_val_if_fail (buffer != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return send_ata (self, &read_data, buffer, NULL, NULL, error);
}

gboolean
duel_device_ata_smart_status (DuelDeviceAta       *self,
                              DuelAtaSmartStatus  *out_status,
                              GError             **error)
{
  static const AtaCommand return_status = {
    "SMART RETURN STATUS", ATA_SMART, SMART_RETURN_STATUS, 0, SMART_LBA_MID, SMART_LBA_HIGH
  };
  guint8 lba_mid = 0, lba_high = 0;

  g_return_val_if_fail (DUEL_IS_DEVICE_ATA (self), FALSE);
  g_return_val_if_fail (out_status != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!send_ata (self, &return_status, NULL, &lba_mid, &lba_high, error))
    return FALSE;
  *out_status = duel_ata_smart_status_from_registers (lba_mid, lba_high);
  return TRUE;
}

gboolean
duel_device_ata_get_health (DuelDeviceAta  *self,
                            DuelAtaHealth  *out_health,
                            GError        **error)
{
  guint8 buffer[DUEL_ATA_SECTOR_BYTES];
  DuelAtaSmartStatus status = DUEL_ATA_SMART_STATUS_UNKNOWN;

  g_return_val_if_fail (DUEL_IS_DEVICE_ATA (self), FALSE);
  g_return_val_if_fail (out_health != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!duel_device_ata_read_smart (self, buffer, error) ||
      !duel_ata_smart_parse (buffer, sizeof buffer, out_health, error))
    return FALSE;
  /* Bridges that drop the sense data cannot say; the attributes still stand. */
  if (duel_device_ata_smart_status (self, &status, NULL))
    out_health->status = status;
  return TRUE;
}

/* ------------------------------------------------------------- identity */

/* libata's ATA port above a SCSI device ("…/ata3/host2/target2:0:0/2:0:0:0")
 * and the IDENTIFY data the kernel keeps for it, world-readable:
 * ataN/linkN/devN.T/ata_device/devN.T/id, or behind a port multiplier
 * (channel C) ataN/linkN.C/devN.C.0/ata_device/devN.C.0/id. */
static gboolean
read_libata_identify (const char *device_dir,
                      guint8     *out_data)
{
  g_autofree char *scsi_name = g_path_get_basename (device_dir);
  g_autofree char *port_dir = g_path_get_dirname (device_dir);
  g_autofree char *text = NULL;
  g_autofree char *link_dir = NULL;
  g_autofree char *dev_name = NULL;
  g_autofree char *id_path = NULL;
  guint host, channel, target, lun, port = 0;

  if (sscanf (scsi_name, "%u:%u:%u:%u", &host, &channel, &target, &lun) != 4)
    return FALSE;
  while (strcmp (port_dir, "/") != 0 && strcmp (port_dir, ".") != 0)
    {
      g_autofree char *base = g_path_get_basename (port_dir);
      char *parent;

      if (sscanf (base, "ata%u", &port) == 1 && g_str_has_prefix (base, "ata") &&
          strspn (base + 3, "0123456789") == strlen (base + 3))
        break;
      parent = g_path_get_dirname (port_dir);
      g_free (port_dir);
      port_dir = parent;
    }
  if (port == 0)
    return FALSE;

  link_dir = g_strdup_printf ("%s/link%u.%u", port_dir, port, channel);
  if (g_file_test (link_dir, G_FILE_TEST_IS_DIR))
    dev_name = g_strdup_printf ("dev%u.%u.0", port, channel);
  else
    {
      g_free (link_dir);
      link_dir = g_strdup_printf ("%s/link%u", port_dir, port);
      dev_name = g_strdup_printf ("dev%u.%u", port, target);
    }
  id_path = g_build_filename (link_dir, dev_name, "ata_device", dev_name, NULL);
  text = _duel_device_sysfs_read (id_path, "id");
  return text != NULL && duel_ata_identity_from_sysfs_text (text, out_data);
}

static void
take_if_empty (char       **field,
               const char  *value)
{
  if (*field == NULL && value != NULL && value[0] != '\0')
    *field = g_strdup (value);
}

static void
take_identity (const DuelAtaIdentity  *identity,
               char                  **model,
               char                  **serial,
               char                  **firmware)
{
  take_if_empty (model, identity->model);
  take_if_empty (serial, identity->serial);
  take_if_empty (firmware, identity->firmware);
}

/* Opens DEVICE_PATH only when it is the node of MAJOR:MINOR (a container's
 * /dev may hold other nodes under the same names). */
static gboolean
pass_through_identify (const char      *device_path,
                       guint            major_number,
                       guint            minor_number,
                       DuelAtaIdentity *out_identity)
{
  g_autoptr(DuelDeviceAta) ata = NULL;
  struct stat st;

  if (stat (device_path, &st) != 0 || !S_ISBLK (st.st_mode) ||
      major (st.st_rdev) != major_number || minor (st.st_rdev) != minor_number)
    return FALSE;
  ata = duel_device_ata_open (device_path, NULL);
  return ata != NULL && duel_device_ata_identify (ata, out_identity, NULL);
}

const char *
_duel_device_ata_fill_identity (const char  *root_real,
                                const char  *device_path,
                                const char  *device_dir,
                                guint        major_number,
                                guint        minor_number,
                                gboolean     pass_through,
                                char       **model,
                                char       **serial,
                                char       **firmware)
{
  const char *source = NULL;
  DuelAtaIdentity identity;
  guint8 data[DUEL_ATA_SECTOR_BYTES];

  g_assert (root_real != NULL);
  g_assert (model != NULL && serial != NULL && firmware != NULL);

  /* The drive itself: live system only, never a captured tree's host. */
  if (pass_through && _duel_device_root_is_live (root_real) &&
      pass_through_identify (device_path, major_number, minor_number, &identity))
    {
      take_identity (&identity, model, serial, firmware);
      source = "ata-identify";
    }
  if ((*model == NULL || *serial == NULL || *firmware == NULL) && device_dir != NULL &&
      read_libata_identify (device_dir, data) &&
      duel_ata_identity_parse (data, sizeof data, &identity, NULL))
    {
      take_identity (&identity, model, serial, firmware);
      source = source != NULL ? source : "libata-sysfs";
    }
  if (*model == NULL || *serial == NULL || *firmware == NULL)
    {
      g_autofree char *name = g_strdup_printf ("b%u:%u", major_number, minor_number);
      g_autofree char *path = g_build_filename (root_real, "run", "udev", "data", name, NULL);
      g_autofree char *contents = NULL;

      if (g_file_get_contents (path, &contents, NULL, NULL))
        {
          g_autofree char *udev_model = NULL;
          g_autofree char *udev_serial = NULL;
          g_autofree char *udev_firmware = NULL;

          /* Without ata_id (ID_ATA=1) udev has SCSI's strings again, and
           * for the serial perhaps a WWN: sysfs says as much, better. */
          if (duel_ata_udev_parse (contents, &udev_model, &udev_serial, &udev_firmware))
            {
              if ((*model == NULL && udev_model != NULL) || (*serial == NULL && udev_serial != NULL) ||
                  (*firmware == NULL && udev_firmware != NULL))
                source = source != NULL ? source : "udev";
              take_if_empty (model, udev_model);
              take_if_empty (serial, udev_serial);
              take_if_empty (firmware, udev_firmware);
            }
        }
    }
  return source;
}

/* ------------------------------------------------------------- health, by any way */

void
_duel_ata_health_from_udisks (const DuelUDisksSmart *smart,
                              DuelAtaHealth         *out_health)
{
  memset (out_health, 0, sizeof *out_health);
  out_health->source = DUEL_ATA_HEALTH_SOURCE_UDISKS;
  /* libatasmart keeps millikelvin: back to the drive's whole degrees. */
  out_health->temperature_c = smart->temperature_k > 0 ? round ((smart->temperature_k - 273.15) * 100) / 100 : NAN;
  out_health->has_power_on_hours = smart->power_on_seconds > 0;
  out_health->power_on_hours = smart->power_on_seconds / 3600;
  out_health->status = smart->failing ? DUEL_ATA_SMART_STATUS_FAILING : DUEL_ATA_SMART_STATUS_PASSED;
}

gboolean
_duel_device_read_ata_health (const char     *device_path,
                              guint           major_number,
                              guint           minor_number,
                              DuelAtaHealth  *out_health,
                              GError        **error)
{
  g_autoptr(DuelDeviceAta) ata = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GError) udisks_error = NULL;
  DuelUDisksSmart smart;
  gboolean hidden = FALSE;
  struct stat st;

  ata = duel_device_ata_open (device_path, &local_error);
  if (ata != NULL && duel_device_ata_get_health (ata, out_health, &local_error))
    return TRUE;

  /* Without CAP_SYS_RAWIO (a user, a Flatpak) the commands are refused, or
   * the node is not there at all; UDisks, which runs as root, has read the
   * drive's SMART data and lets anyone see it. */
  if (!g_error_matches (local_error, DUEL_ERROR, DUEL_ERROR_TARGET) &&
      !(duel_block_node_stat (device_path, &st, &hidden) == 0 && hidden))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  if (!duel_udisks_get_ata_smart (major_number, minor_number, &smart, NULL, &udisks_error))
    {
      g_debug ("No SMART data from UDisks for %s: %s", device_path, udisks_error->message);
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  if (!smart.supported || !smart.enabled || smart.updated_s == 0)
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_UNSUPPORTED,
                   _("“%s” gives no SMART data to this user, and UDisks has none for it (SMART off, or not read yet)."),
                   device_path);
      return FALSE;
    }
  _duel_ata_health_from_udisks (&smart, out_health);
  return TRUE;
}
