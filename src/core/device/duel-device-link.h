/* duel-device-link.h — the interface a drive sits on and its ceiling
 *
 * PCIe: every hop from the device up through the bridges to the root port,
 * with current and maximum speed and width. The ceiling of a link is
 * GT/s × lanes × encoding ÷ 8 (8b/10b for 2.5 and 5 GT/s, 128b/130b from
 * 8 GT/s on): PCIe 3.0 x4 ≈ 3938 MB/s. Packet overhead takes another
 * 10–15 % in practice, so the ceiling is an upper bound, not a prediction.
 * SATA: the negotiated link speed (6.0 Gbps ≈ 600 MB/s after 8b/10b).
 * USB: the device's bus speed.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

typedef enum
{
  DUEL_LINK_NONE,     /* virtual devices (loop, zram) or nothing readable */
  DUEL_LINK_PCIE,
  DUEL_LINK_SATA,
  DUEL_LINK_USB,
  DUEL_LINK_MMC,      /* an SD/eMMC card: its bus speed is not in sysfs */
} DuelLinkKind;

typedef struct
{
  char    *address;            /* "0000:01:00.0" */
  guint16  vendor_id;
  guint16  device_id;
  guint32  class_code;         /* 0x010802 NVMe, 0x060400 PCI bridge */
  double   current_gt_s;       /* 0 when unknown */
  guint    current_width;      /* 0 when unknown */
  double   max_gt_s;
  guint    max_width;
  gboolean below_max;          /* trained below its own maximum */
} DuelPcieHop;

typedef struct
{
  DuelLinkKind kind;
  /* PCIe: hops[0] is the device (or its controller), the last the root port. */
  GArray      *hops;           /* DuelPcieHop */
  char        *root_bus;       /* "0000:00", the host bridge's bus */
  /* The device itself trained below its maximum; the reason says which. */
  gboolean     downtrained;
  char        *downtrained_reason;
  /* SATA: the negotiated speed; USB: the bus speed. In Gbit/s, 0 when unknown. */
  double       line_rate_gbps;
  char        *line_rate_text; /* as the kernel printed it, "6.0 Gbps" */
  /* The slowest hop's usable bandwidth; 0 when unknown. */
  double       ceiling_bytes_per_second;
} DuelDeviceLink;

const char     *duel_link_kind_to_string                (DuelLinkKind kind);
/* Parses "8.0 GT/s PCIe", "8 GT/s", "Unknown" (→ 0). */
double          duel_pcie_parse_speed                   (const char  *text);
/* GT/s × lanes × encoding ÷ 8, in bytes per second (decimal). */
double          duel_pcie_ceiling_bytes_per_second      (double       gt_s,
                                                         guint        width);
/* "PCIe 3.0" for 8 GT/s; NULL when the speed matches no generation. */
const char     *duel_pcie_generation_name               (double       gt_s);
/* SATA: Gbit/s × 8/10 ÷ 8 (6.0 → 600 MB/s). */
double          duel_sata_ceiling_bytes_per_second      (double       gbps);
/* USB: 8b/10b at 5 Gbit/s, 128b/132b at 10 and 20 Gbit/s, raw below. */
double          duel_usb_ceiling_bytes_per_second       (double       gbps);

/* Reads the link of the NVMe controller or PCI device at SYSFS_DEVICE_DIR
 * (e.g. "/sys/class/nvme/nvme0/device") under ROOT. Never NULL. */
DuelDeviceLink *duel_device_link_read_pcie              (const char  *root,
                                                         const char  *sysfs_device_dir);
DuelDeviceLink *duel_device_link_copy                   (const DuelDeviceLink *link);
void            duel_device_link_free                   (DuelDeviceLink *link);
/* A throughput above the ceiling cannot have crossed the link: it came from a
 * cache (page cache, a RAID card's DRAM, host memory). Returns TRUE and a
 * message when BYTES_PER_SECOND exceeds the ceiling by more than 1 %. */
gboolean        duel_device_link_is_cache_artefact      (const DuelDeviceLink *link,
                                                         double                bytes_per_second,
                                                         char                **out_message);
/* TRUE when BYTES_PER_SECOND exceeds CEILING_BYTES_PER_SECOND (0: unknown,
 * never exceeded) by more than 1 %, the margin is_cache_artefact() allows. */
gboolean        duel_link_ceiling_is_exceeded           (double                ceiling_bytes_per_second,
                                                         double                bytes_per_second);
/* The ceiling a result's device object records (duel_device_describe():
 * link.ceiling_bytes_per_second), in bytes per second; 0 when none. */
double          duel_device_link_ceiling_from_json      (JsonObject           *device);
JsonObject     *duel_device_link_to_json                (const DuelDeviceLink *link);
/* One line per hop for humans, root port last. */
char           *duel_device_link_describe               (const DuelDeviceLink *link);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DuelDeviceLink, duel_device_link_free)

G_END_DECLS
