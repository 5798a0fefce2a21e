/* duel-device-nvme.h — NVMe identify and SMART / health
 *
 * The parsers take the raw pages (4096-byte identify data, 512-byte SMART
 * log) so captured pages can be decoded without a drive; they read the
 * specification's offsets, checked against libnvme's structures where it
 * is built with. DuelDeviceNvme sends the admin commands (root only) on an
 * open namespace or controller: through libnvme 1.x, else (a build without
 * it, or DUEL_NVME_TRANSPORT=ioctl) the kernel's NVMe admin ioctl.
 *
 * Either returns -1 with errno for a failed ioctl and a positive NVMe
 * status when the drive answered with an error. The first becomes
 * DUEL_ERROR_IO (DUEL_ERROR_UNSUPPORTED when the node takes no NVMe
 * commands, DUEL_ERROR_TARGET without permission), the second DUEL_ERROR_NVME.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define DUEL_NVME_IDENTIFY_BYTES 4096
#define DUEL_NVME_SMART_LOG_BYTES 512
/* SMART data units count thousands of 512-byte blocks. */
#define DUEL_NVME_DATA_UNIT_BYTES 512000

typedef struct
{
  guint16  vendor_id;
  guint16  subsystem_vendor_id;
  char     serial[21];
  char     model[41];
  char     firmware[9];
  guint32  version;                 /* VER: major << 16 | minor << 8 | tertiary */
  guint8   mdts;                    /* max transfer = 2^mdts × the minimum page size; 0 = no limit */
  guint16  controller_id;
  guint32  n_namespaces;
  guint16  oacs;                    /* optional admin commands */
  guint32  sanicap;                 /* sanitize capabilities; 0 = no sanitize */
  guint8   fna;                     /* format and erase attributes: bit 0, a format reaches every namespace */
  guint8   vwc;                     /* bit 0: a volatile write cache is present */
  guint16  warning_temperature_k;   /* WCTEMP, 0 = not reported */
  guint16  critical_temperature_k;  /* CCTEMP */
  guint64  total_capacity_bytes;    /* TNVMCAP (low 64 bits), 0 = not reported */
  char     subnqn[257];
} DuelNvmeController;

typedef struct
{
  guint32  nsid;
  guint64  size_blocks;             /* NSZE */
  guint64  capacity_blocks;         /* NCAP */
  guint64  utilization_blocks;      /* NUSE */
  guint    n_formats;
  guint    format_index;            /* the LBA format in use */
  guint32  block_bytes;             /* of the format in use */
  guint16  metadata_bytes;
  guint8   relative_performance;    /* 0 best … 3 degraded */
} DuelNvmeNamespace;

typedef struct
{
  guint8   critical_warning;        /* bit 0 spare, 1 temperature, 2 reliability, 3 read-only, 4 backup */
  double   temperature_c;           /* composite; NAN when 0 K */
  double   sensor_c[8];             /* NAN when not implemented */
  guint8   available_spare_percent;
  guint8   available_spare_threshold_percent;
  guint8   percentage_used;
  /* 128-bit counters, saturated at G_MAXUINT64. */
  guint64  data_units_read;
  guint64  data_units_written;
  guint64  host_read_commands;
  guint64  host_write_commands;
  guint64  controller_busy_minutes;
  guint64  power_cycles;
  guint64  power_on_hours;
  guint64  unsafe_shutdowns;
  guint64  media_errors;
  guint64  error_log_entries;
  guint32  warning_temperature_minutes;
  guint32  critical_temperature_minutes;
  guint32  thermal_transitions[2];  /* thermal management temperature 1 and 2 */
  guint32  thermal_seconds[2];
} DuelNvmeHealth;

gboolean     duel_nvme_controller_parse       (const guint8             *data,
                                               gsize                     length,
                                               DuelNvmeController       *out_controller,
                                               GError                  **error);
gboolean     duel_nvme_namespace_parse        (const guint8             *data,
                                               gsize                     length,
                                               guint32                   nsid,
                                               DuelNvmeNamespace        *out_namespace,
                                               GError                  **error);
gboolean     duel_nvme_health_parse           (const guint8             *data,
                                               gsize                     length,
                                               DuelNvmeHealth           *out_health,
                                               GError                  **error);

gboolean     duel_nvme_controller_has_volatile_write_cache (const DuelNvmeController *controller);
gboolean     duel_nvme_controller_supports_format          (const DuelNvmeController *controller);
gboolean     duel_nvme_controller_supports_sanitize        (const DuelNvmeController *controller);
/* "1.4" or "1.4.1"; "" for controllers older than 1.2 that report 0. */
char        *duel_nvme_controller_version_string           (const DuelNvmeController *controller);

JsonObject  *duel_nvme_controller_to_json     (const DuelNvmeController *controller);
JsonObject  *duel_nvme_namespace_to_json      (const DuelNvmeNamespace  *ns);
JsonObject  *duel_nvme_health_to_json         (const DuelNvmeHealth     *health);

#define DUEL_TYPE_DEVICE_NVME (duel_device_nvme_get_type ())

G_DECLARE_FINAL_TYPE (DuelDeviceNvme, duel_device_nvme, DUEL, DEVICE_NVME, GObject)

/* PATH: a namespace ("/dev/nvme0n1") or a controller ("/dev/nvme0"), opened
 * read-only; admin commands need CAP_SYS_ADMIN. */
DuelDeviceNvme *duel_device_nvme_open               (const char          *path,
                                                     GError             **error);
/* The same on a descriptor of PATH the caller opened (or UDisks did), which
 * stays the caller's: a copy is kept. Without CAP_SYS_ADMIN a kernel from
 * 6.2 on allows identify and the SMART log on a descriptor opened for
 * writing. */
DuelDeviceNvme *duel_device_nvme_open_fd            (const char          *path,
                                                     int                  fd,
                                                     GError             **error);
const char     *duel_device_nvme_get_path           (DuelDeviceNvme      *self);
/* 0 for a controller node. */
guint32         duel_device_nvme_get_nsid           (DuelDeviceNvme      *self);
gboolean        duel_device_nvme_identify_controller(DuelDeviceNvme      *self,
                                                     DuelNvmeController  *out_controller,
                                                     GError             **error);
gboolean        duel_device_nvme_identify_namespace (DuelDeviceNvme      *self,
                                                     DuelNvmeNamespace   *out_namespace,
                                                     GError             **error);
gboolean        duel_device_nvme_get_health         (DuelDeviceNvme      *self,
                                                     DuelNvmeHealth      *out_health,
                                                     GError             **error);
/* Any log page (controller-wide): the error log (0x01), the self-test log
 * (0x06), … LENGTH must be a multiple of 4. */
gboolean        duel_device_nvme_get_log            (DuelDeviceNvme      *self,
                                                     guint8               log_id,
                                                     guint8              *buffer,
                                                     gsize                length,
                                                     GError             **error);
/* The raw pages, for captures: BUFFER holds DUEL_NVME_IDENTIFY_BYTES
 * (controller, namespace) or DUEL_NVME_SMART_LOG_BYTES (health). */
gboolean        duel_device_nvme_read_raw           (DuelDeviceNvme      *self,
                                                     const char          *page,
                                                     guint8              *buffer,
                                                     GError             **error);

/* Purges the namespace: Format NVM with its LBA format, metadata and
 * protection kept and the user data erased (secure erase setting 1), every
 * block then reading as the drive's erased value. Refuses, with
 * DUEL_ERROR_UNSUPPORTED, a controller without Format NVM and one whose
 * format would reach its other namespaces too. Needs a descriptor opened
 * for writing and CAP_SYS_ADMIN; the caller flushes the block device's
 * page cache after it. */
gboolean        duel_device_nvme_format_erase       (DuelDeviceNvme      *self,
                                                     GError             **error);

G_END_DECLS
