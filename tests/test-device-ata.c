/* test-device-ata.c — ATA IDENTIFY, SMART, sense data, libata's sysfs copy
 * of IDENTIFY and the udev database, from pages the test builds
 *
 * The pages are made here from known strings and values the way a drive
 * lays them out (ACS-3: two characters per little-endian word, the first in
 * the high byte, space padded), so each parser is checked against what went
 * in, not against what it printed before. Beside the hand-picked cases,
 * seeded generators make strings, attribute tables and udev encodings with
 * known truth. Captured trees (a root other than "/") never reach SG_IO.
 *
 * The drive itself (QEMU's AHCI disk) is tests/ata/run-ata-test.sh.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "device/duel-device.h"
#include "device/duel-device-ata.h"
#include "device/duel-device-private.h"
#include "duel-error.h"

#define MODEL_40 "DriveDuel Forty Character Model Name 123"
#define FIRMWARE_8 "FW8CHARS"
#define SERIAL_20 "DDSERIAL0123456789AB"
#define SEED 20261205

G_STATIC_ASSERT (sizeof MODEL_40 - 1 == 40);
G_STATIC_ASSERT (sizeof FIRMWARE_8 - 1 == 8);
G_STATIC_ASSERT (sizeof SERIAL_20 - 1 == 20);

/* ------------------------------------------------------------ page makers */

static void
put_word (guint8  *page,
          guint    word,
          guint16  value)
{
  page[word * 2] = value & 0xff;
  page[word * 2 + 1] = value >> 8;
}

/* TEXT as it sits in IDENTIFY: character 2k in the high byte of the word. */
static void
put_ata_string (guint8     *page,
                guint       first_word,
                guint       n_words,
                const char *text,
                char        pad)
{
  gsize len = strlen (text);

  g_assert_cmpuint (len, <=, n_words * 2);
  for (guint i = 0; i < n_words * 2; i++)
    page[first_word * 2 + (i ^ 1)] = i < len ? (guint8) text[i] : (guint8) pad;
}

static void
make_identify (guint8     *page,
               const char *model,
               const char *serial,
               const char *firmware)
{
  memset (page, 0, DUEL_ATA_SECTOR_BYTES);
  put_word (page, 0, 0x0040);
  put_ata_string (page, 10, 10, serial, ' ');
  put_ata_string (page, 23, 4, firmware, ' ');
  put_ata_string (page, 27, 20, model, ' ');
  /* SMART supported and enabled, as QEMU's ide-hd says. */
  put_word (page, 82, (1 << 14) | (1 << 5) | 1);
  put_word (page, 85, (1 << 14) | 1);
}

static void
set_identify_checksum (guint8 *page)
{
  guint8 sum = 0;

  page[510] = 0xa5;
  for (guint i = 0; i < 511; i++)
    sum += page[i];
  page[511] = (guint8) (0x100 - sum);
}

/* One 12-byte attribute entry in slot SLOT of a SMART READ DATA page. */
static void
put_attribute (guint8  *page,
               guint    slot,
               guint8   id,
               guint8   value,
               guint64  raw)
{
  guint8 *entry = page + 2 + slot * 12;

  entry[0] = id;
  entry[1] = 0x03;
  entry[2] = 0x00;
  entry[3] = value;
  entry[4] = value;
  for (guint b = 0; b < 6; b++)
    entry[5 + b] = (raw >> (8 * b)) & 0xff;
  entry[11] = 0;
}

static void
finish_smart (guint8 *page)
{
  guint8 sum = 0;

  page[0] = 0x01;
  for (guint i = 0; i < 511; i++)
    sum += page[i];
  page[511] = (guint8) (0x100 - sum);
}

/* QEMU's ide-hd (hw/ide/core.c, smart_attributes[] and cmd_smart()):
 * eleven bytes of each row are copied; the raw bytes of 9 start 0x01
 * (1 hour), of 190 start 0x1f (31 °C). */
static void
make_qemu_smart (guint8 *page)
{
  static const guint8 rows[][11] = {
    { 0x01, 0x03, 0x00, 0x64, 0x64, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00 },
    { 0x03, 0x03, 0x00, 0x64, 0x64, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00 },
    { 0x04, 0x02, 0x00, 0x64, 0x64, 0x64, 0x00, 0x00, 0x00, 0x00, 0x00 },
    { 0x05, 0x03, 0x00, 0x64, 0x64, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00 },
    { 0x09, 0x03, 0x00, 0x64, 0x64, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00 },
    { 0x0c, 0x03, 0x00, 0x64, 0x64, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00 },
    { 190,  0x03, 0x00, 0x45, 0x45, 0x1f, 0x00, 0x1f, 0x1f, 0x00, 0x00 },
  };

  memset (page, 0, DUEL_ATA_SECTOR_BYTES);
  for (guint n = 0; n < G_N_ELEMENTS (rows); n++)
    memcpy (page + 2 + n * 12, rows[n], 11);
  finish_smart (page);
}

/* libata's "id" attribute: 256 words, "%04x", eight to a line. */
static char *
sysfs_text_for (const guint8 *page)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < 256; i++)
    g_string_append_printf (text, "%04x%c", page[i * 2] | page[i * 2 + 1] << 8,
                            (i + 1) % 8 == 0 ? '\n' : ' ');
  return g_string_free (text, FALSE);
}

/* ------------------------------------------------------------- IDENTIFY */

static void
test_identity_full_length (void)
{
  guint8 page[DUEL_ATA_SECTOR_BYTES];
  DuelAtaIdentity identity;
  g_autoptr(GError) error = NULL;

  make_identify (page, MODEL_40, SERIAL_20, FIRMWARE_8);
  g_assert_true (duel_ata_identity_parse (page, sizeof page, &identity, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (identity.model, ==, MODEL_40);
  g_assert_cmpstr (identity.serial, ==, SERIAL_20);
  g_assert_cmpstr (identity.firmware, ==, FIRMWARE_8);
  g_assert_true (identity.smart_supported);
  g_assert_true (identity.smart_enabled);

  /* The byte order matters: word 27 holds "rD", not "Dr". */
  g_assert_cmpint (page[27 * 2], ==, 'r');
  g_assert_cmpint (page[27 * 2 + 1], ==, 'D');
}

static void
test_identity_padding (void)
{
  guint8 page[DUEL_ATA_SECTOR_BYTES];
  DuelAtaIdentity identity;

  /* Serials are often right-aligned; some drives pad with NULs. */
  make_identify (page, "Samsung SSD 860 EVO 500GB", "      S3Z1NB0K123456", "RVT04B6Q");
  put_ata_string (page, 23, 4, "1.0", '\0');
  g_assert_true (duel_ata_identity_parse (page, sizeof page, &identity, NULL));
  g_assert_cmpstr (identity.model, ==, "Samsung SSD 860 EVO 500GB");
  g_assert_cmpstr (identity.serial, ==, "S3Z1NB0K123456");
  g_assert_cmpstr (identity.firmware, ==, "1.0");

  /* An odd-length string ends in the high byte of its last word. */
  make_identify (page, "ABC", "X", "12345");
  g_assert_true (duel_ata_identity_parse (page, sizeof page, &identity, NULL));
  g_assert_cmpstr (identity.model, ==, "ABC");
  g_assert_cmpstr (identity.serial, ==, "X");
  g_assert_cmpstr (identity.firmware, ==, "12345");

  /* Not text: shown, not trusted as UTF-8. */
  make_identify (page, "Bad\x01Name\xff", "S", "F");
  g_assert_true (duel_ata_identity_parse (page, sizeof page, &identity, NULL));
  g_assert_cmpstr (identity.model, ==, "Bad?Name?");
  g_assert_true (g_utf8_validate (identity.model, -1, NULL));
}

static void
test_identity_invalid (void)
{
  guint8 page[DUEL_ATA_SECTOR_BYTES] = { 0 };
  DuelAtaIdentity identity;
  g_autoptr(GError) error = NULL;

  g_assert_false (duel_ata_identity_parse (page, sizeof page, &identity, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT);
  g_clear_error (&error);

  make_identify (page, MODEL_40, SERIAL_20, FIRMWARE_8);
  g_assert_false (duel_ata_identity_parse (page, 256, &identity, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT);
  g_clear_error (&error);

  /* An ATAPI device (word 0 bit 15) is no ATA disk. */
  put_word (page, 0, 0x85c0);
  g_assert_false (duel_ata_identity_parse (page, sizeof page, &identity, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT);
  g_clear_error (&error);

  /* Word 255: a right checksum passes, a wrong one fails. */
  make_identify (page, MODEL_40, SERIAL_20, FIRMWARE_8);
  set_identify_checksum (page);
  g_assert_true (duel_ata_identity_parse (page, sizeof page, &identity, NULL));
  page[100] ^= 0x10;
  g_assert_false (duel_ata_identity_parse (page, sizeof page, &identity, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT);
}

/* Random printable strings of every length, with stray spaces around. */
static void
test_identity_generated (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (SEED);
  guint cases = 2000, hits = 0;

  for (guint n = 0; n < cases; n++)
    {
      char model[41], serial[21], firmware[9];
      char *fields[] = { model, serial, firmware };
      guint sizes[] = { 40, 20, 8 };
      guint8 page[DUEL_ATA_SECTOR_BYTES];
      DuelAtaIdentity identity;
      gboolean same;

      for (guint f = 0; f < G_N_ELEMENTS (fields); f++)
        {
          guint len = g_rand_int_range (rand, 0, sizes[f] + 1);

          for (guint i = 0; i < len; i++)
            {
              /* One in eight a space, to land inside, before and after. */
              fields[f][i] = g_rand_int_range (rand, 0, 8) == 0 ? ' ' : (char) g_rand_int_range (rand, 0x21, 0x7f);
            }
          fields[f][len] = '\0';
        }
      make_identify (page, model, serial, firmware);
      put_word (page, 0, 0x0040);
      if (!duel_ata_identity_parse (page, sizeof page, &identity, NULL))
        {
          /* All three blank and nothing else set cannot happen: word 0 is 0x40. */
          g_test_message ("case %u did not parse", n);
          continue;
        }
      same = strcmp (identity.model, g_strstrip (model)) == 0 &&
             strcmp (identity.serial, g_strstrip (serial)) == 0 &&
             strcmp (identity.firmware, g_strstrip (firmware)) == 0;
      if (same)
        hits++;
      else
        g_test_message ("case %u: “%s”/“%s”/“%s” read as “%s”/“%s”/“%s”", n, model, serial, firmware,
                        identity.model, identity.serial, identity.firmware);
    }
  g_test_message ("identity: %u of %u generated cases read back exactly", hits, cases);
  g_assert_cmpuint (hits, ==, cases);
}

/* -------------------------------------------------------------- SMART */

static void
test_smart_qemu (void)
{
  guint8 page[DUEL_ATA_SECTOR_BYTES];
  DuelAtaHealth health;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) object = NULL;

  make_qemu_smart (page);
  g_assert_true (duel_ata_smart_parse (page, sizeof page, &health, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (health.n_attributes, ==, 7);
  g_assert_cmpfloat (health.temperature_c, ==, 31);
  g_assert_cmpuint (health.temperature_attribute, ==, 190);
  g_assert_true (health.has_power_on_hours);
  g_assert_cmpuint (health.power_on_hours, ==, 1);
  g_assert_true (health.has_power_cycles);
  g_assert_cmpuint (health.power_cycles, ==, 0);
  g_assert_cmpint (health.status, ==, DUEL_ATA_SMART_STATUS_UNKNOWN);
  /* 190's raw is 1f 00 1f 1f 00 00: current, then vendor bytes. */
  g_assert_cmpuint (health.attributes[6].raw, ==, 0x1f1f001fu);
  g_assert_cmpuint (health.attributes[6].value, ==, 0x45);

  health.status = DUEL_ATA_SMART_STATUS_PASSED;
  object = duel_ata_health_to_json (&health);
  g_assert_cmpstr (json_object_get_string_member (object, "status"), ==, "passed");
  g_assert_cmpfloat (json_object_get_double_member (object, "temperature_c"), ==, 31);
  g_assert_cmpint (json_object_get_int_member (object, "power_on_hours"), ==, 1);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (object, "attributes")), ==, 7);
}

static void
test_smart_temperature_choice (void)
{
  guint8 page[DUEL_ATA_SECTOR_BYTES] = { 0 };
  DuelAtaHealth health;
  g_autoptr(JsonObject) object = NULL;

  /* 194 wins over 190 wherever they sit. */
  put_attribute (page, 0, 190, 60, 40);
  put_attribute (page, 29, 194, 60, 0x00280012002aull);
  finish_smart (page);
  g_assert_true (duel_ata_smart_parse (page, sizeof page, &health, NULL));
  g_assert_cmpfloat (health.temperature_c, ==, 42);
  g_assert_cmpuint (health.temperature_attribute, ==, 194);

  /* A 194 that reads 0 is no reading: 190 then. */
  memset (page, 0, sizeof page);
  put_attribute (page, 3, 194, 100, 0);
  put_attribute (page, 4, 190, 100, 35);
  finish_smart (page);
  g_assert_true (duel_ata_smart_parse (page, sizeof page, &health, NULL));
  g_assert_cmpfloat (health.temperature_c, ==, 35);
  g_assert_cmpuint (health.temperature_attribute, ==, 190);

  /* No temperature attribute at all. */
  memset (page, 0, sizeof page);
  put_attribute (page, 0, 1, 100, 0);
  put_attribute (page, 1, 9, 100, 12345);
  finish_smart (page);
  g_assert_true (duel_ata_smart_parse (page, sizeof page, &health, NULL));
  g_assert_true (isnan (health.temperature_c));
  g_assert_cmpuint (health.temperature_attribute, ==, 0);
  g_assert_cmpuint (health.power_on_hours, ==, 12345);
  g_assert_false (health.has_power_cycles);
  object = duel_ata_health_to_json (&health);
  g_assert_true (json_object_has_member (object, "temperature_c"));
  g_assert_true (JSON_NODE_HOLDS_NULL (json_object_get_member (object, "temperature_c")));
  g_assert_false (json_object_has_member (object, "power_cycles"));
  g_assert_cmpstr (json_object_get_string_member (object, "status"), ==, "unknown");
}

static void
test_smart_power_on_hours (void)
{
  guint8 page[DUEL_ATA_SECTOR_BYTES] = { 0 };
  DuelAtaHealth health;

  /* Full 48 bits when the upper 16 are clear. */
  put_attribute (page, 0, 9, 100, 0xffffffffull);
  finish_smart (page);
  g_assert_true (duel_ata_smart_parse (page, sizeof page, &health, NULL));
  g_assert_cmpuint (health.power_on_hours, ==, 0xffffffffull);

  /* Minutes in the upper 16 bits (msec24hour32 and the like): the lower 32. */
  memset (page, 0, sizeof page);
  put_attribute (page, 0, 9, 100, (37ull << 32) | 5000);
  finish_smart (page);
  g_assert_true (duel_ata_smart_parse (page, sizeof page, &health, NULL));
  g_assert_cmpuint (health.power_on_hours, ==, 5000);
}

static void
test_smart_invalid (void)
{
  guint8 page[DUEL_ATA_SECTOR_BYTES] = { 0 };
  DuelAtaHealth health;
  g_autoptr(GError) error = NULL;

  g_assert_false (duel_ata_smart_parse (page, sizeof page, &health, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT);
  g_clear_error (&error);
  make_qemu_smart (page);
  g_assert_false (duel_ata_smart_parse (page, 511, &health, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT);
}

/* Random tables: attributes in random slots, temperatures and hours known. */
static void
test_smart_generated (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (SEED + 1);
  guint cases = 2000, hits = 0;

  for (guint n = 0; n < cases; n++)
    {
      guint8 page[DUEL_ATA_SECTOR_BYTES] = { 0 };
      gboolean used[DUEL_ATA_SMART_MAX_ATTRIBUTES] = { FALSE };
      guint8 t194 = 0, t190 = 0;
      gboolean want_hours = g_rand_boolean (rand);
      guint64 hours = (guint64) g_rand_int (rand) | (guint64) g_rand_int_range (rand, 0, 3) << 32;
      double want_c;
      DuelAtaHealth health;
      guint slot;

#define FREE_SLOT() (slot = g_rand_int_range (rand, 0, DUEL_ATA_SMART_MAX_ATTRIBUTES), \
                     used[slot] ? FALSE : (used[slot] = TRUE))
      /* Filler attributes that mean nothing here. */
      for (guint k = 0; k < 6; k++)
        {
          static const guint8 others[] = { 1, 3, 4, 5, 7, 10, 177, 187, 199, 231, 241 };

          if (FREE_SLOT ())
            put_attribute (page, slot, others[g_rand_int_range (rand, 0, G_N_ELEMENTS (others))], 100,
                           g_rand_int (rand));
        }
      if (g_rand_boolean (rand) && FREE_SLOT ())
        {
          t194 = g_rand_int_range (rand, 0, 130);
          put_attribute (page, slot, 194, 100, t194 | (guint64) g_rand_int_range (rand, 0, 256) << 16);
        }
      if (g_rand_boolean (rand) && FREE_SLOT ())
        {
          t190 = g_rand_int_range (rand, 0, 130);
          put_attribute (page, slot, 190, 100, t190 | (guint64) g_rand_int_range (rand, 0, 256) << 16);
        }
      if (want_hours && !FREE_SLOT ())
        want_hours = FALSE;
      if (want_hours)
        put_attribute (page, slot, 9, 100, hours);
#undef FREE_SLOT
      finish_smart (page);

      want_c = (t194 >= 1 && t194 <= 127) ? t194 : (t190 >= 1 && t190 <= 127) ? t190 : NAN;
      if (!duel_ata_smart_parse (page, sizeof page, &health, NULL))
        continue;
      if (((isnan (want_c) && isnan (health.temperature_c)) || want_c == health.temperature_c) &&
          health.has_power_on_hours == want_hours &&
          (!want_hours || health.power_on_hours == ((hours >> 32) != 0 ? (hours & G_MAXUINT32) : hours)))
        hits++;
      else
        g_test_message ("case %u: 194=%u 190=%u → %.0f", n, t194, t190, health.temperature_c);
    }
  g_test_message ("SMART: %u of %u generated tables read as built", hits, cases);
  g_assert_cmpuint (hits, ==, cases);
}

/* --------------------------------------------------- status and sense data */

static void
test_status_registers (void)
{
  g_assert_cmpint (duel_ata_smart_status_from_registers (0x4f, 0xc2), ==, DUEL_ATA_SMART_STATUS_PASSED);
  g_assert_cmpint (duel_ata_smart_status_from_registers (0xf4, 0x2c), ==, DUEL_ATA_SMART_STATUS_FAILING);
  g_assert_cmpint (duel_ata_smart_status_from_registers (0x00, 0x00), ==, DUEL_ATA_SMART_STATUS_UNKNOWN);
  g_assert_cmpint (duel_ata_smart_status_from_registers (0xc2, 0x4f), ==, DUEL_ATA_SMART_STATUS_UNKNOWN);
  g_assert_cmpstr (duel_ata_smart_status_to_string (DUEL_ATA_SMART_STATUS_FAILING), ==, "failing");
}

static void
test_sense_descriptor (void)
{
  /* What libata sends for CK_COND (ata_gen_passthru_sense): RECOVERED
   * ERROR, 00/1D, one ATA Status Return descriptor. A failing drive. */
  guint8 sense[32] = {
    0x72, 0x01, 0x00, 0x1d, 0, 0, 0, 14,
    0x09, 0x0c, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0xf4, 0x00, 0x2c, 0x00, 0x50,
  };
  guint8 status = 0, error = 0xff, mid = 0, high = 0;

  g_assert_true (duel_ata_sense_get_registers (sense, 22, &status, &error, &mid, &high));
  g_assert_cmpuint (status, ==, 0x50);
  g_assert_cmpuint (error, ==, 0);
  g_assert_cmpint (duel_ata_smart_status_from_registers (mid, high), ==, DUEL_ATA_SMART_STATUS_FAILING);

  /* Another descriptor first (information, type 0): skipped. */
  {
    guint8 two[40] = {
      0x72, 0x01, 0x00, 0x1d, 0, 0, 0, 26,
      0x00, 0x0a, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0,
      0x09, 0x0c, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x00, 0x4f, 0x00, 0xc2, 0x00, 0x50,
    };

    g_assert_true (duel_ata_sense_get_registers (two, 34, &status, &error, &mid, &high));
    g_assert_cmpint (duel_ata_smart_status_from_registers (mid, high), ==, DUEL_ATA_SMART_STATUS_PASSED);
  }

  /* No ATA descriptor, or cut short: no registers. */
  sense[8] = 0x00;
  g_assert_false (duel_ata_sense_get_registers (sense, 22, &status, &error, &mid, &high));
  sense[8] = 0x09;
  g_assert_false (duel_ata_sense_get_registers (sense, 15, &status, &error, &mid, &high));
  g_assert_false (duel_ata_sense_get_registers (sense, 0, &status, &error, &mid, &high));
}

static void
test_sense_fixed (void)
{
  /* SAT-3 fixed format: error, status, device, count at 3–6; LBA at 9–11. */
  guint8 sense[18] = { 0x70, 0x00, 0x01, 0x00, 0x50, 0x00, 0x00, 0x0a, 0x00, 0x00, 0x4f, 0xc2 };
  guint8 status = 0, error = 0, mid = 0, high = 0;

  g_assert_true (duel_ata_sense_get_registers (sense, sizeof sense, &status, &error, &mid, &high));
  g_assert_cmpuint (status, ==, 0x50);
  g_assert_cmpint (duel_ata_smart_status_from_registers (mid, high), ==, DUEL_ATA_SMART_STATUS_PASSED);
}

/* ------------------------------------------------- libata sysfs, udev */

static void
test_sysfs_text (void)
{
  guint8 page[DUEL_ATA_SECTOR_BYTES];
  guint8 back[DUEL_ATA_SECTOR_BYTES];
  g_autofree char *text = NULL;
  g_autofree char *truncated = NULL;

  make_identify (page, MODEL_40, SERIAL_20, FIRMWARE_8);
  set_identify_checksum (page);
  text = sysfs_text_for (page);
  g_assert_true (duel_ata_identity_from_sysfs_text (text, back));
  g_assert_cmpmem (back, sizeof back, page, sizeof page);

  truncated = g_strndup (text, strlen (text) - 6);
  g_assert_false (duel_ata_identity_from_sysfs_text (truncated, back));
  g_assert_false (duel_ata_identity_from_sysfs_text ("0040 zzzz", back));
  g_assert_false (duel_ata_identity_from_sysfs_text ("", back));
  {
    g_autofree char *extra = g_strconcat (text, "0000\n", NULL);

    g_assert_false (duel_ata_identity_from_sysfs_text (extra, back));
  }
}

static void
test_udev_parse (void)
{
  /* A udev database entry as systemd 252 writes it for a SATA disk. */
  static const char db[] =
    "S:disk/by-id/ata-DriveDuel_Forty_Character_Model_Name_123_" SERIAL_20 "\n"
    "W:3\n"
    "I:1234567\n"
    "E:ID_ATA=1\n"
    "E:ID_TYPE=disk\n"
    "E:ID_BUS=ata\n"
    "E:ID_MODEL=DriveDuel_Forty_Character_Model_Name_123\n"
    "E:ID_MODEL_ENC=DriveDuel\\x20Forty\\x20Character\\x20Model\\x20Name\\x20123\n"
    "E:ID_REVISION=" FIRMWARE_8 "\n"
    "E:ID_SERIAL=DriveDuel_Forty_Character_Model_Name_123_" SERIAL_20 "\n"
    "E:ID_SERIAL_SHORT=" SERIAL_20 "\n"
    "G:systemd\n";
  g_autofree char *model = NULL;
  g_autofree char *serial = NULL;
  g_autofree char *firmware = NULL;

  g_assert_true (duel_ata_udev_parse (db, &model, &serial, &firmware));
  g_assert_cmpstr (model, ==, MODEL_40);
  g_assert_cmpstr (serial, ==, SERIAL_20);
  g_assert_cmpstr (firmware, ==, FIRMWARE_8);
  g_clear_pointer (&model, g_free);
  g_clear_pointer (&serial, g_free);
  g_clear_pointer (&firmware, g_free);

  /* SCSI's padded ENC (trailing \x20s), a model with a real underscore
   * only ENC keeps, and nothing else. */
  g_assert_false (duel_ata_udev_parse ("E:ID_MODEL=My_Disk_X\nE:ID_MODEL_ENC=My\\x20Disk_X\\x20\\x20\\x20\n",
                                       &model, &serial, &firmware));
  g_assert_cmpstr (model, ==, "My Disk_X");
  g_assert_null (serial);
  g_assert_null (firmware);
  g_clear_pointer (&model, g_free);

  /* No ENC: ID_MODEL's '_' become spaces again. */
  g_assert_true (duel_ata_udev_parse ("E:ID_ATA=1\nE:ID_MODEL=WDC_WD40EFRX-68N32N0\nE:ID_REVISION=\n",
                                      &model, &serial, &firmware));
  g_assert_cmpstr (model, ==, "WDC WD40EFRX-68N32N0");
  g_assert_null (firmware);
  g_clear_pointer (&model, g_free);

  /* A key that only starts like ID_MODEL is another key. */
  g_assert_false (duel_ata_udev_parse ("E:ID_MODEL_ID=5678\nE:ID_MODELX=no\nE:ID_ATA=0\n",
                                       &model, &serial, &firmware));
  g_assert_null (model);
}

static void
test_udev_decode (void)
{
  g_autofree char *a = duel_ata_udev_decode ("a\\x20b\\x5cc");
  g_autofree char *b = duel_ata_udev_decode ("trailing\\x");
  g_autofree char *c = duel_ata_udev_decode ("\\xe6\\x97\\xa5");
  g_autofree char *bad = duel_ata_udev_decode ("\\xff\\xfe");
  g_autofree char *nul = duel_ata_udev_decode ("a\\x00b");

  g_assert_cmpstr (a, ==, "a b\\c");
  g_assert_cmpstr (b, ==, "trailing\\x");
  g_assert_cmpstr (c, ==, "日");
  g_assert_null (bad);
  g_assert_null (nul);
}

/* udev's own encoding (udev_util_encode_string) of random strings. */
static void
test_udev_generated (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (SEED + 2);
  guint cases = 2000, hits = 0;

  for (guint n = 0; n < cases; n++)
    {
      g_autoptr(GString) plain = g_string_new (NULL);
      g_autoptr(GString) encoded = g_string_new (NULL);
      g_autofree char *decoded = NULL;
      guint len = g_rand_int_range (rand, 1, 41);

      for (guint i = 0; i < len; i++)
        {
          static const char specials[] = " \\/_-.";
          char c = g_rand_int_range (rand, 0, 4) == 0
                   ? specials[g_rand_int_range (rand, 0, sizeof specials - 1)]
                   : (char) g_rand_int_range (rand, 0x21, 0x7f);

          /* Not at either end: the decoder strips spaces there. */
          if (c == ' ' && (i == 0 || i == len - 1))
            c = 'x';
          g_string_append_c (plain, c);
          if (c == ' ' || c == '\\' || c == '/')
            g_string_append_printf (encoded, "\\x%02x", (guint8) c);
          else
            g_string_append_c (encoded, c);
        }
      decoded = duel_ata_udev_decode (encoded->str);
      if (g_strcmp0 (decoded, plain->str) == 0)
        hits++;
      else
        g_test_message ("case %u: “%s” decoded to “%s”", n, encoded->str, decoded);
    }
  g_test_message ("udev: %u of %u generated encodings decode back", hits, cases);
  g_assert_cmpuint (hits, ==, cases);
}

/* ------------------------------------------------------- captured trees */

typedef struct
{
  char *root;
  char *scsi_dir;   /* …/0:0:0:0 */
  char *port_dir;   /* …/ata1 */
} Tree;

static void
write_file (const char *dir,
            const char *name,
            const char *contents)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_file_set_contents (path, contents, -1, &error);
  g_assert_no_error (error);
}

static void
make_link (const char *target,
           const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_assert_cmpint (symlink (target, path), ==, 0);
}

static void
make_link_in (const char *target,
              const char *dir,
              const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);

  make_link (target, path);
}

/* A SATA disk on an AHCI port as the kernel lays it out, with SCSI's cut
 * model and rev; what else (libata's id, a udev entry) is up to the case. */
static void
tree_setup (Tree          *tree,
            gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *pci = NULL;
  g_autofree char *block_dir = NULL;
  g_autofree char *proc_self = NULL;

  tree->root = g_dir_make_tmp ("duel-ata-tree-XXXXXX", &error);
  g_assert_no_error (error);
  pci = g_build_filename (tree->root, "sys/devices/pci0000:00/0000:00:1f.2", NULL);
  tree->port_dir = g_build_filename (pci, "ata1", NULL);
  tree->scsi_dir = g_build_filename (tree->port_dir, "host0/target0:0:0/0:0:0:0", NULL);
  block_dir = g_build_filename (tree->scsi_dir, "block/sda", NULL);

  write_file (block_dir, "dev", "8:0\n");
  write_file (block_dir, "size", "131072\n");
  write_file (block_dir, "removable", "0\n");
  write_file (block_dir, "ro", "0\n");
  make_link_in ("../../../0:0:0:0", block_dir, "device");
  write_file (tree->scsi_dir, "vendor", "ATA     \n");
  write_file (tree->scsi_dir, "model", "DriveDuel Forty \n");
  write_file (tree->scsi_dir, "rev", "HARS\n");
  make_link_in ("../devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0/block/sda",
                tree->root, "sys/block/sda");
  make_link_in ("../../devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0/block/sda",
                tree->root, "sys/class/block/sda");
  make_link_in ("../../devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0/block/sda",
                tree->root, "sys/dev/block/8:0");

  proc_self = g_build_filename (tree->root, "proc/self", NULL);
  write_file (proc_self, "mountinfo", "");
  {
    g_autofree char *proc = g_build_filename (tree->root, "proc", NULL);

    write_file (proc, "swaps", "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n");
  }
}

static void
tree_teardown (Tree          *tree,
               gconstpointer  data)
{
  g_autoptr(GFile) root = g_file_new_for_path (tree->root);
  const char * const argv[] = { "rm", "-rf", tree->root, NULL };

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, NULL, NULL);
  g_assert_false (g_file_query_exists (root, NULL));
  g_free (tree->root);
  g_free (tree->scsi_dir);
  g_free (tree->port_dir);
}

static void
add_libata_id (Tree       *tree,
               const char *link,
               const char *dev,
               const char *model)
{
  guint8 page[DUEL_ATA_SECTOR_BYTES];
  g_autofree char *text = NULL;
  g_autofree char *dir = g_build_filename (tree->port_dir, link, dev, "ata_device", dev, NULL);

  make_identify (page, model, SERIAL_20, FIRMWARE_8);
  text = sysfs_text_for (page);
  write_file (dir, "id", text);
}

static DuelDevice *
tree_device (Tree *tree)
{
  g_autoptr(GError) error = NULL;
  DuelDevice *device = duel_device_new_for_name (tree->root, "sda", &error);

  g_assert_no_error (error);
  g_assert_nonnull (device);
  g_assert_cmpint (duel_device_get_transport (device), ==, DUEL_TRANSPORT_SATA);
  return device;
}

static void
test_tree_scsi_only (Tree          *tree,
                     gconstpointer  data)
{
  g_autoptr(DuelDevice) device = tree_device (tree);

  /* What there was before: 16 and 4 characters. */
  g_assert_cmpstr (duel_device_get_model (device), ==, "DriveDuel Forty");
  g_assert_cmpstr (duel_device_get_firmware (device), ==, "HARS");
  g_assert_null (duel_device_get_serial (device));
  g_assert_cmpstr (_duel_device_get_identity_source (device), ==, "scsi-sysfs");
}

static void
test_tree_libata (Tree          *tree,
                  gconstpointer  data)
{
  g_autoptr(DuelDevice) device = NULL;

  add_libata_id (tree, "link1", "dev1.0", MODEL_40);
  device = tree_device (tree);
  g_assert_cmpstr (duel_device_get_model (device), ==, MODEL_40);
  g_assert_cmpstr (duel_device_get_firmware (device), ==, FIRMWARE_8);
  g_assert_cmpstr (duel_device_get_serial (device), ==, SERIAL_20);
  /* A captured tree is read, never sent commands: no "ata-identify". */
  g_assert_cmpstr (_duel_device_get_identity_source (device), ==, "libata-sysfs");
  g_assert_cmpstr (duel_device_get_vendor (device), ==, "ATA");
}

static void
test_tree_port_multiplier (Tree          *tree,
                           gconstpointer  data)
{
  g_autoptr(DuelDevice) device = NULL;
  g_autofree char *old_scsi = g_strdup (tree->scsi_dir);
  g_autofree char *pmp_scsi = g_build_filename (tree->port_dir, "host0/target0:2:0/0:2:0:0", NULL);
  g_autofree char *target_dir = g_path_get_dirname (pmp_scsi);
  g_autofree char *old_target = g_path_get_dirname (old_scsi);

  /* Behind a port multiplier the disk is SCSI channel 2, libata link 1.2;
   * the host link's dev1.0 is the multiplier itself. */
  g_assert_cmpint (g_rename (old_target, target_dir), ==, 0);
  {
    g_autofree char *from = g_build_filename (target_dir, "0:0:0:0", NULL);

    g_assert_cmpint (g_rename (from, pmp_scsi), ==, 0);
  }
  {
    g_autofree char *link = g_build_filename (tree->root, "sys/block/sda", NULL);
    g_autofree char *class = g_build_filename (tree->root, "sys/class/block/sda", NULL);
    g_autofree char *dev = g_build_filename (tree->root, "sys/dev/block/8:0", NULL);
    g_autofree char *device_link = g_build_filename (pmp_scsi, "block/sda/device", NULL);

    g_unlink (link);
    g_unlink (class);
    g_unlink (dev);
    g_unlink (device_link);
    make_link ("../devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:2:0/0:2:0:0/block/sda", link);
    make_link ("../../devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:2:0/0:2:0:0/block/sda", class);
    make_link ("../../devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:2:0/0:2:0:0/block/sda", dev);
    make_link ("../../../0:2:0:0", device_link);
  }
  add_libata_id (tree, "link1", "dev1.0", "Port Multiplier Not A Disk");
  add_libata_id (tree, "link1.2", "dev1.2.0", MODEL_40);
  device = tree_device (tree);
  g_assert_cmpstr (duel_device_get_model (device), ==, MODEL_40);
  g_assert_cmpstr (_duel_device_get_identity_source (device), ==, "libata-sysfs");
}

static void
test_tree_udev (Tree          *tree,
                gconstpointer  data)
{
  g_autoptr(DuelDevice) device = NULL;
  g_autofree char *udev_dir = g_build_filename (tree->root, "run/udev/data", NULL);

  write_file (udev_dir, "b8:0",
              "E:ID_ATA=1\n"
              "E:ID_MODEL=DriveDuel_Forty_Character_Model_Name_123\n"
              "E:ID_MODEL_ENC=DriveDuel\\x20Forty\\x20Character\\x20Model\\x20Name\\x20123\n"
              "E:ID_REVISION=" FIRMWARE_8 "\n"
              "E:ID_SERIAL_SHORT=" SERIAL_20 "\n");
  /* Another device's entry is not this one's. */
  write_file (udev_dir, "b8:16", "E:ID_MODEL_ENC=Wrong\n");
  device = tree_device (tree);
  g_assert_cmpstr (duel_device_get_model (device), ==, MODEL_40);
  g_assert_cmpstr (duel_device_get_firmware (device), ==, FIRMWARE_8);
  g_assert_cmpstr (duel_device_get_serial (device), ==, SERIAL_20);
  g_assert_cmpstr (_duel_device_get_identity_source (device), ==, "udev");
}

static void
test_tree_order (Tree          *tree,
                 gconstpointer  data)
{
  g_autoptr(DuelDevice) device = NULL;
  g_autofree char *udev_dir = g_build_filename (tree->root, "run/udev/data", NULL);

  /* libata's IDENTIFY before udev; udev fills only what is missing. */
  add_libata_id (tree, "link1", "dev1.0", MODEL_40);
  write_file (udev_dir, "b8:0", "E:ID_ATA=1\nE:ID_MODEL_ENC=From\\x20udev\nE:ID_REVISION=UDEVREV\n"
              "E:ID_SERIAL_SHORT=UDEVSERIAL\n");
  device = tree_device (tree);
  g_assert_cmpstr (duel_device_get_model (device), ==, MODEL_40);
  g_assert_cmpstr (duel_device_get_firmware (device), ==, FIRMWARE_8);
  g_assert_cmpstr (_duel_device_get_identity_source (device), ==, "libata-sysfs");
}

static void
test_tree_udev_scsi (Tree          *tree,
                     gconstpointer  data)
{
  g_autoptr(DuelDevice) device = NULL;
  g_autofree char *udev_dir = g_build_filename (tree->root, "run/udev/data", NULL);

  /* scsi_id's entry (no ata_id): SCSI's model again and a WWN for serial. */
  write_file (udev_dir, "b8:0",
              "E:ID_BUS=scsi\n"
              "E:ID_MODEL=DriveDuel_Forty\n"
              "E:ID_MODEL_ENC=DriveDuel\\x20Forty\\x20\n"
              "E:ID_REVISION=HARS\n"
              "E:ID_SERIAL_SHORT=5000c500a1b2c3d4\n");
  device = tree_device (tree);
  g_assert_cmpstr (duel_device_get_model (device), ==, "DriveDuel Forty");
  g_assert_null (duel_device_get_serial (device));
  g_assert_cmpstr (_duel_device_get_identity_source (device), ==, "scsi-sysfs");
}

/* UDisks' Drive.Ata as libatasmart fills it (millikelvin from the raw
 * degrees, divided by 1000; milliseconds of power-on time from the hours,
 * divided by 1000), back to the drive's own figures: every whole degree
 * from -40 to 125 °C, and seeded hours. */
static void
test_from_udisks (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (SEED);
  DuelAtaHealth health;

  for (int celsius = -40; celsius <= 125; celsius++)
    {
      guint64 hours = (guint64) g_rand_int_range (rand, 0, 200000);
      DuelUDisksSmart smart = {
        .supported = TRUE, .enabled = TRUE, .updated_s = 1764900000,
        .failing = celsius == 99,
        .temperature_k = (celsius * 1000 + 273150) / 1000.0,
        .power_on_seconds = (hours * 3600 * 1000) / 1000,
      };

      _duel_ata_health_from_udisks (&smart, &health);
      g_assert_cmpint (health.source, ==, DUEL_ATA_HEALTH_SOURCE_UDISKS);
      g_assert_cmpfloat (health.temperature_c, ==, (double) celsius);
      g_assert_cmpuint (health.temperature_attribute, ==, 0);
      g_assert_cmpuint (health.has_power_on_hours, ==, hours > 0);
      g_assert_cmpuint (health.power_on_hours, ==, hours);
      g_assert_false (health.has_power_cycles);
      g_assert_cmpuint (health.n_attributes, ==, 0);
      g_assert_cmpint (health.status, ==, celsius == 99 ? DUEL_ATA_SMART_STATUS_FAILING : DUEL_ATA_SMART_STATUS_PASSED);
    }

  /* Unknown stays unknown. */
  {
    DuelUDisksSmart smart = { .supported = TRUE, .enabled = TRUE, .updated_s = 1 };
    g_autoptr(JsonObject) object = NULL;

    _duel_ata_health_from_udisks (&smart, &health);
    g_assert_true (isnan (health.temperature_c));
    g_assert_false (health.has_power_on_hours);
    object = duel_ata_health_to_json (&health);
    g_assert_cmpstr (json_object_get_string_member (object, "source"), ==, "udisks");
    g_assert_true (json_object_get_null_member (object, "temperature_c"));
    g_assert_false (json_object_has_member (object, "temperature_attribute"));
    g_assert_false (json_object_has_member (object, "power_on_hours"));
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/duel/device-ata/identity/full-length", test_identity_full_length);
  g_test_add_func ("/duel/device-ata/identity/padding", test_identity_padding);
  g_test_add_func ("/duel/device-ata/identity/invalid", test_identity_invalid);
  g_test_add_func ("/duel/device-ata/identity/generated", test_identity_generated);
  g_test_add_func ("/duel/device-ata/smart/qemu", test_smart_qemu);
  g_test_add_func ("/duel/device-ata/smart/temperature-choice", test_smart_temperature_choice);
  g_test_add_func ("/duel/device-ata/smart/power-on-hours", test_smart_power_on_hours);
  g_test_add_func ("/duel/device-ata/smart/invalid", test_smart_invalid);
  g_test_add_func ("/duel/device-ata/smart/generated", test_smart_generated);
  g_test_add_func ("/duel/device-ata/status/registers", test_status_registers);
  g_test_add_func ("/duel/device-ata/sense/descriptor", test_sense_descriptor);
  g_test_add_func ("/duel/device-ata/sense/fixed", test_sense_fixed);
  g_test_add_func ("/duel/device-ata/sysfs/text", test_sysfs_text);
  g_test_add_func ("/duel/device-ata/udev/parse", test_udev_parse);
  g_test_add_func ("/duel/device-ata/udev/decode", test_udev_decode);
  g_test_add_func ("/duel/device-ata/udev/generated", test_udev_generated);
  g_test_add ("/duel/device-ata/tree/scsi-only", Tree, NULL, tree_setup, test_tree_scsi_only, tree_teardown);
  g_test_add ("/duel/device-ata/tree/libata", Tree, NULL, tree_setup, test_tree_libata, tree_teardown);
  g_test_add ("/duel/device-ata/tree/port-multiplier", Tree, NULL, tree_setup, test_tree_port_multiplier,
              tree_teardown);
  g_test_add ("/duel/device-ata/tree/udev", Tree, NULL, tree_setup, test_tree_udev, tree_teardown);
  g_test_add ("/duel/device-ata/tree/udev-scsi", Tree, NULL, tree_setup, test_tree_udev_scsi, tree_teardown);
  g_test_add ("/duel/device-ata/tree/order", Tree, NULL, tree_setup, test_tree_order, tree_teardown);

  g_test_add_func ("/duel/device-ata/health-from-udisks", test_from_udisks);

  return g_test_run ();
}
