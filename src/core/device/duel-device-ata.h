/* duel-device-ata.h — ATA identity and SMART for SATA and USB drives
 *
 * The SCSI layer keeps 16 characters of an ATA model and 4 of its firmware.
 * The full strings and the SMART data come from the drive's own pages: ATA
 * IDENTIFY DEVICE (512 bytes), SMART READ DATA (512 bytes) and SMART RETURN
 * STATUS, sent through SG_IO as ATA PASS-THROUGH (16) (SAT, T10 SAT-3).
 * That needs root (CAP_SYS_RAWIO); without it the identity comes from
 * libata's copy of IDENTIFY in sysfs or from the udev database, which need
 * no rights. USB bridges may refuse pass-through: that is an error to
 * fall back from, never a hang (each command has a 3 s timeout).
 *
 * The parsers take the raw pages so tests and captures need no drive.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define DUEL_ATA_SECTOR_BYTES 512
/* SMART READ DATA holds up to 30 attributes of 12 bytes from offset 2. */
#define DUEL_ATA_SMART_MAX_ATTRIBUTES 30

typedef struct
{
  char      model[41];          /* words 27–46, trimmed */
  char      serial[21];         /* words 10–19 */
  char      firmware[9];        /* words 23–26 */
  gboolean  smart_supported;    /* word 82 bit 0 */
  gboolean  smart_enabled;      /* word 85 bit 0 */
} DuelAtaIdentity;

typedef enum
{
  DUEL_ATA_SMART_STATUS_UNKNOWN,
  DUEL_ATA_SMART_STATUS_PASSED,
  DUEL_ATA_SMART_STATUS_FAILING,  /* a threshold was exceeded */
} DuelAtaSmartStatus;

typedef struct
{
  guint8   id;
  guint16  flags;
  guint8   value;                 /* normalised, 1–253 */
  guint8   worst;
  guint64  raw;                   /* 48 bits, little endian */
} DuelAtaAttribute;

typedef enum
{
  DUEL_ATA_HEALTH_SOURCE_PASS_THROUGH,  /* SMART READ DATA through SG_IO */
  DUEL_ATA_HEALTH_SOURCE_UDISKS,        /* UDisks' Drive.Ata: no attributes, no power cycles */
} DuelAtaHealthSource;

typedef struct
{
  DuelAtaHealthSource source;
  double              temperature_c;         /* attribute 194, else 190; NAN when neither */
  guint8              temperature_attribute; /* 194, 190 or 0 (unknown: from UDisks) */
  gboolean            has_power_on_hours;    /* attribute 9 */
  guint64             power_on_hours;
  gboolean            has_power_cycles;      /* attribute 12 */
  guint64             power_cycles;
  DuelAtaSmartStatus  status;                /* SMART RETURN STATUS */
  guint               n_attributes;
  DuelAtaAttribute    attributes[DUEL_ATA_SMART_MAX_ATTRIBUTES];
} DuelAtaHealth;

gboolean     duel_ata_identity_parse         (const guint8        *data,
                                              gsize                length,
                                              DuelAtaIdentity     *out_identity,
                                              GError             **error);
/* Fills everything of OUT_HEALTH but the status (UNKNOWN). */
gboolean     duel_ata_smart_parse            (const guint8        *data,
                                              gsize                length,
                                              DuelAtaHealth       *out_health,
                                              GError             **error);
/* SMART RETURN STATUS answers in the LBA mid and high registers. */
DuelAtaSmartStatus duel_ata_smart_status_from_registers (guint8 lba_mid,
                                                         guint8 lba_high);
/* The registers from the sense data of an ATA PASS-THROUGH with CK_COND:
 * the ATA Status Return descriptor (0x72 format) or the fixed format. */
gboolean     duel_ata_sense_get_registers    (const guint8        *sense,
                                              gsize                length,
                                              guint8              *out_status,
                                              guint8              *out_error,
                                              guint8              *out_lba_mid,
                                              guint8              *out_lba_high);
/* libata's sysfs "id" attribute (256 hexadecimal words) as the 512 bytes
 * the drive sent. */
gboolean     duel_ata_identity_from_sysfs_text (const char        *text,
                                                guint8            *out_data);
/* The udev database entry (/run/udev/data/bMAJ:MIN): the full model
 * (ID_MODEL_ENC decoded, else ID_MODEL with its '_' back to spaces), the
 * serial (ID_SERIAL_SHORT) and firmware (ID_REVISION). Each NULL when absent.
 * TRUE when udev's ata_id made them (ID_ATA=1) from ATA IDENTIFY; otherwise
 * they are SCSI's, and the serial may be a WWN from VPD page 0x83. */
gboolean     duel_ata_udev_parse             (const char          *contents,
                                              char               **out_model,
                                              char               **out_serial,
                                              char               **out_firmware);
/* udev's encoding: "\x20" for a space, "\x5c" for a backslash. NULL when
 * the result is not UTF-8. */
char        *duel_ata_udev_decode            (const char          *encoded);

const char  *duel_ata_smart_status_to_string (DuelAtaSmartStatus   status);
JsonObject  *duel_ata_health_to_json         (const DuelAtaHealth *health);

#define DUEL_TYPE_DEVICE_ATA (duel_device_ata_get_type ())

G_DECLARE_FINAL_TYPE (DuelDeviceAta, duel_device_ata, DUEL, DEVICE_ATA, GObject)

/* PATH: a SCSI disk node ("/dev/sda"), opened read-only. The commands need
 * root; DUEL_ATA_TRANSPORT=none in the environment turns them off (tests
 * of the fallbacks). */
DuelDeviceAta  *duel_device_ata_open          (const char          *path,
                                               GError             **error);
const char     *duel_device_ata_get_path      (DuelDeviceAta       *self);
/* BUFFER: DUEL_ATA_SECTOR_BYTES. */
gboolean        duel_device_ata_read_identify (DuelDeviceAta       *self,
                                               guint8              *buffer,
                                               GError             **error);
gboolean        duel_device_ata_identify      (DuelDeviceAta       *self,
                                               DuelAtaIdentity     *out_identity,
                                               GError             **error);
gboolean        duel_device_ata_read_smart    (DuelDeviceAta       *self,
                                               guint8              *buffer,
                                               GError             **error);
gboolean        duel_device_ata_smart_status  (DuelDeviceAta       *self,
                                               DuelAtaSmartStatus  *out_status,
                                               GError             **error);
/* SMART READ DATA and RETURN STATUS. A status that cannot be had leaves
 * UNKNOWN; the data must be read. */
gboolean        duel_device_ata_get_health    (DuelDeviceAta       *self,
                                               DuelAtaHealth       *out_health,
                                               GError             **error);

G_END_DECLS
