#!/bin/sh
# ata-guest.sh — the SATA identity and SMART checks, run as root inside the
# QEMU guest that run-ata-test.sh boots; prints TAP.
#
# The truth is what QEMU was told (DUEL_ATA_MODEL, _FIRMWARE, _SERIAL) and
# what its ide-hd reports of itself (hw/ide/core.c, QEMU 7.2): IDENTIFY puts
# model=, ver= and serial= in words 27–46, 23–26 and 10–19; SMART READ DATA
# holds the fixed table smart_attributes[], whose raw bytes give attribute 9
# (power-on hours) 1, attribute 12 (power cycles) 0 and attribute 190
# (airflow temperature) 0x1f = 31 °C, with no attribute 194; SMART RETURN
# STATUS answers 0x4f/0xc2 (passed) while smart_errors is 0, as it always is.
# UDisks 2.9.4 (libatasmart) reads the same table as SmartTemperature
# 304.15 K and SmartPowerOnSeconds 3600.
#
# Environment: DRIVEDUEL_CLI, DUEL_ATA_DEVICE, DUEL_ATA_MODEL,
# DUEL_ATA_FIRMWARE, DUEL_ATA_SERIAL; for the UDisks cases DUEL_UDISKSD,
# DUEL_UDEVD and DUEL_BUS_CONF (the programs and the bus configuration that
# run-ata-test.sh copied in), or DUEL_UDISKS_SKIP, why they are skipped.
#
# SPDX-License-Identifier: GPL-3.0-or-later

cli=$DRIVEDUEL_CLI
dev=$DUEL_ATA_DEVICE
name=${dev#/dev/}
QEMU_TEMPERATURE_C=31
QEMU_TEMPERATURE_ATTRIBUTE=190
QEMU_POWER_ON_HOURS=1
QEMU_POWER_CYCLES=0
n=0
failed=0
work=/tmp/duel-ata
mkdir -p "$work"

ok() { # ok DESCRIPTION CONDITION-EXIT-CODE
	n=$((n + 1))
	if [ "$2" = 0 ]; then echo "ok $n - $1"; else echo "not ok $n - $1"; failed=1; fi
}
# The value of a string or number member of pretty JSON ("  "key" : value,"),
# at INDENT (default: the top level).
member() { # member FILE KEY [INDENT]
	sed -n -e "s/^${3:-  }\"$2\" : \"\(.*\)\",\{0,1\}\$/\1/p" \
		-e "s/^${3:-  }\"$2\" : \([^\",]*\),\{0,1\}\$/\1/p" "$1" | head -1
}
# The lines of one top-level object member.
object() { # object FILE KEY
	awk -v key="  \"$2\" : {" '$0 == key { on = 1; next } on && /^  }/ { exit } on { print }' "$1"
}
# The top-level "notes" array, one note a line.
notes() { # notes FILE
	awk '$0 == "  \"notes\" : [" { on = 1; next } on && /^  ]/ { exit } on { print }' "$1"
}
is() { # is DESCRIPTION GOT WANT
	[ "$2" = "$3" ]; r=$?
	[ $r = 0 ] || echo "# $1: got '$2', want '$3'"
	ok "$1" $r
}
# member, or "(none)" when there is none: for comparing with a value read elsewhere.
present() { # present FILE KEY [INDENT]
	v=$(member "$@")
	echo "${v:-(none)}"
}

# What the SCSI layer keeps: 16 characters of the model, the last 4 of the firmware.
is "SCSI sysfs model is cut to 16 characters" "$(cat /sys/block/"$name"/device/model)" \
	"$(printf '%.16s' "$DUEL_ATA_MODEL")"
is "SCSI sysfs rev keeps 4 characters of the firmware" "$(cat /sys/block/"$name"/device/rev)" \
	"$(printf '%s' "$DUEL_ATA_FIRMWARE" | cut -c5-8)"

# Root: ATA IDENTIFY and SMART through SG_IO.
"$cli" info --json "$dev" >"$work/root.json" 2>"$work/root.err"
ok "info --json as root" $?
is "root: model, all 40 characters" "$(member "$work/root.json" model)" "$DUEL_ATA_MODEL"
is "root: firmware, all 8 characters" "$(member "$work/root.json" firmware)" "$DUEL_ATA_FIRMWARE"
is "root: serial, all 20 characters" "$(member "$work/root.json" serial)" "$DUEL_ATA_SERIAL"
is "root: identity from ATA IDENTIFY through SG_IO" "$(member "$work/root.json" identity_source)" ata-identify
object "$work/root.json" ata_smart >"$work/smart.json"
is "root: SMART RETURN STATUS passed" "$(member "$work/smart.json" status "    ")" passed
is "root: SMART temperature" "$(member "$work/smart.json" temperature_c "    ")" "$QEMU_TEMPERATURE_C.0"
is "root: temperature from attribute 190" "$(member "$work/smart.json" temperature_attribute "    ")" \
	"$QEMU_TEMPERATURE_ATTRIBUTE"
is "root: power-on hours" "$(member "$work/smart.json" power_on_hours "    ")" "$QEMU_POWER_ON_HOURS"
is "root: power cycles" "$(member "$work/smart.json" power_cycles "    ")" "$QEMU_POWER_CYCLES"
is "root: the drive's temperature at the top" "$(member "$work/root.json" temperature_c)" "$QEMU_TEMPERATURE_C.0"
is "root: SMART read by this process" "$(member "$work/smart.json" source "    ")" ata-pass-through

"$cli" info "$dev" >"$work/root.txt" 2>&1
ok "info as root" $?
sed 's/^/# /' "$work/root.txt"
is "text: title" "$(head -1 "$work/root.txt")" "$dev — $DUEL_ATA_MODEL"
grep -qx "  Firmware: *$DUEL_ATA_FIRMWARE" "$work/root.txt"
ok "text: firmware" $?
grep -qx "  Health: *SMART passed, $QEMU_TEMPERATURE_C.0 °C, $QEMU_POWER_ON_HOURS power-on hours, $QEMU_POWER_CYCLES power cycles" \
	"$work/root.txt"
ok "text: health" $?

# No pass-through (as on a USB bridge that refuses it): libata's copy of IDENTIFY.
DUEL_ATA_TRANSPORT=none "$cli" info --json "$dev" >"$work/none.json" 2>&1
is "no pass-through: model from libata's sysfs id" \
	"$(member "$work/none.json" model) / $(member "$work/none.json" identity_source)" "$DUEL_ATA_MODEL / libata-sysfs"
is "no pass-through: firmware and serial" \
	"$(member "$work/none.json" firmware) $(member "$work/none.json" serial)" "$DUEL_ATA_FIRMWARE $DUEL_ATA_SERIAL"
! grep -q '"ata_smart"' "$work/none.json"
ok "no pass-through: no SMART" $?

# A user without rights on the device: the same identity; no SMART while
# no UDisks runs, and a note says why.
echo "root:x:0:0:root:/root:/bin/sh" >/etc/passwd
echo "nobody:x:65534:65534:nobody:/tmp:/bin/sh" >>/etc/passwd
printf 'root:x:0:\nnogroup:x:65534:\n' >/etc/group
chmod 0600 "$dev"
su -s /bin/sh nobody -c "'$cli' info --json '$dev'" >"$work/user.json" 2>&1
is "user: model, firmware, serial without rights" \
	"$(member "$work/user.json" model)|$(member "$work/user.json" firmware)|$(member "$work/user.json" serial)" \
	"$DUEL_ATA_MODEL|$DUEL_ATA_FIRMWARE|$DUEL_ATA_SERIAL"
is "user: from libata's sysfs id" "$(member "$work/user.json" identity_source)" libata-sysfs
! grep -q '"ata_smart"' "$work/user.json" && notes "$work/user.json" | grep -q 'Permission denied'
r=$?
[ $r = 0 ] || sed 's/^/# /' "$work/user.json"
ok "user, no UDisks: no SMART, a note says why" $r

# The same user with UDisks running: what udisksd (libatasmart, as root) read
# of the drive's SMART data, which anyone may read on the system bus. A bus of
# our own (guest-system-bus.conf: root, everything allowed), udevd for the
# disk's ID_ATA properties (ata_id), without which udisksd does not treat it
# as ATA, and udisksd; no polkit (reading properties needs none).
#
# QEMU 7.2's AHCI sends the status with DRQ still set (0x58) in the PIO Setup
# FIS, which libata takes as the ending status of a PIO data-in command; with
# CK_COND set, as udisksd's IDENTIFY DEVICE and libatasmart's SMART READ DATA
# have it, the kernel answers ABORTED COMMAND in fixed-format sense data,
# which both reject: no Drive.Ata. With D_SENSE set in the control mode page
# the sense data is in descriptor format and holds the registers (error 0, no
# ERR in the status), which both accept. driveduel sends data-in commands
# without CK_COND and sees no difference.
udisks_get() { # udisks_get OBJECT INTERFACE PROPERTY: gdbus's "(<value>,)"
	gdbus call --system --dest org.freedesktop.UDisks2 --object-path "$1" \
		--method org.freedesktop.DBus.Properties.Get "$2" "$3" 2>/dev/null
}
udisks_skip=${DUEL_UDISKS_SKIP:-}
drive='' updated=0
if [ -z "$udisks_skip" ]; then
	mkdir -p /run/dbus /var/lib/dbus
	[ -e /var/run ] || ln -s /run /var/run # GLib's default system bus address
	[ -s /etc/machine-id ] || echo 4475656c41746147756573744d616368 >/etc/machine-id
	sdparm -q --set D_SENSE=1 "$dev" >"$work/sdparm.log" 2>&1 || sed 's/^/# sdparm: /' "$work/sdparm.log"
	dbus-daemon --config-file="$DUEL_BUS_CONF" --fork --nopidfile </dev/null >"$work/dbus.log" 2>&1
	"$DUEL_UDEVD" --daemon </dev/null >"$work/udevd.log" 2>&1
	udevadm trigger --action=add --subsystem-match=block
	udevadm settle --timeout=30
	"$DUEL_UDISKSD" </dev/null >"$work/udisksd.log" 2>&1 &
	# Until UDisks has the drive and has read its SMART data: a cap of 90 tries
	# for a udisksd that never does, not a time it must keep in an emulated guest.
	i=0
	while [ $i -lt 90 ]; do
		drive=$(udisks_get "/org/freedesktop/UDisks2/block_devices/$name" org.freedesktop.UDisks2.Block Drive |
			sed -n "s/^(<objectpath '\(.*\)'>,)\$/\1/p")
		if [ -n "$drive" ] && [ "$drive" != / ]; then
			updated=$(udisks_get "$drive" org.freedesktop.UDisks2.Drive.Ata SmartUpdated |
				sed -n 's/^(<uint64 \([0-9]*\)>,)$/\1/p')
			[ "${updated:-0}" -gt 0 ] && break
		fi
		sleep 1
		i=$((i + 1))
	done
fi

if [ -n "$udisks_skip" ]; then
	for what in "UDisks: Drive.Ata, SMART read" "UDisks: what it read" "user, UDisks: SMART from UDisks" \
		"user, UDisks: SMART status" "user, UDisks: temperature" "user, UDisks: power-on hours" \
		"user, UDisks: no attribute, no power cycles" "user, UDisks: the drive's temperature at the top" \
		"user, UDisks: no note" "user, UDisks: text"; do
		n=$((n + 1))
		echo "ok $n - $what # SKIP $udisks_skip"
	done
else
	[ "${updated:-0}" -gt 0 ]
	r=$?
	if [ $r != 0 ]; then
		echo "# drive '$drive', SmartUpdated '$updated' after ${i}s"
		for f in sdparm dbus udevd udisksd; do sed "s/^/# $f: /" "$work/$f.log"; done
		udevadm info "$dev" | sed 's/^/# udev: /'
	fi
	ok "UDisks: Drive.Ata of $dev, SMART read (SmartUpdated > 0)" $r
	gdbus call --system --dest org.freedesktop.UDisks2 --object-path "${drive:-/}" \
		--method org.freedesktop.DBus.Properties.GetAll org.freedesktop.UDisks2.Drive.Ata >"$work/ata.txt" 2>&1
	tr ',' '\n' <"$work/ata.txt" | grep "'Smart" | sed 's/^ */# /'
	prop() { sed -n "s/.*'$1': <\(uint64 \)\{0,1\}\([^>]*\)>.*/\2/p" "$work/ata.txt"; }
	is "UDisks: SMART supported, enabled, not failing; 3600 s powered on, 304.15 K" \
		"$(prop SmartSupported) $(prop SmartEnabled) $(prop SmartFailing); $(prop SmartPowerOnSeconds) s, $(awk -v k="$(prop SmartTemperature)" 'BEGIN { printf "%.2f", k }') K" \
		"true true false; $((QEMU_POWER_ON_HOURS * 3600)) s, $(awk -v c=$QEMU_TEMPERATURE_C 'BEGIN { printf "%.2f", c + 273.15 }') K"

	chmod 0600 "$dev"
	su -s /bin/sh nobody -c "'$cli' info --json '$dev'" >"$work/user-udisks.json" 2>&1
	object "$work/user-udisks.json" ata_smart >"$work/user-smart.json"
	is "user, UDisks: SMART from UDisks" "$(member "$work/user-smart.json" source "    ")" udisks
	is "user, UDisks: SMART status as root reads it" "$(present "$work/user-smart.json" status "    ")" \
		"$(member "$work/smart.json" status "    ")"
	is "user, UDisks: temperature as root reads it" "$(present "$work/user-smart.json" temperature_c "    ")" \
		"$(member "$work/smart.json" temperature_c "    ")"
	is "user, UDisks: power-on hours as root reads them" "$(present "$work/user-smart.json" power_on_hours "    ")" \
		"$(member "$work/smart.json" power_on_hours "    ")"
	is "user, UDisks: no attribute number, no power cycles (UDisks has neither)" \
		"$(member "$work/user-smart.json" temperature_attribute "    ")|$(member "$work/user-smart.json" power_cycles "    ")" "|"
	is "user, UDisks: the drive's temperature at the top" "$(present "$work/user-udisks.json" temperature_c)" \
		"$(member "$work/root.json" temperature_c)"
	! notes "$work/user-udisks.json" | grep -q 'Permission denied'
	r=$?
	[ $r = 0 ] || sed 's/^/# /' "$work/user-udisks.json"
	ok "user, UDisks: no note about the refused pass-through" $r
	su -s /bin/sh nobody -c "'$cli' info '$dev'" >"$work/user.txt" 2>&1
	sed 's/^/# /' "$work/user.txt"
	grep -qx "  Health: *SMART passed, $QEMU_TEMPERATURE_C.0 °C, $QEMU_POWER_ON_HOURS power-on hours, unknown power cycles (as UDisks read it)" \
		"$work/user.txt"
	ok "user, UDisks: text: health, as UDisks read it" $?
fi

# A result file: the identity and the SMART snapshots before and after.
"$cli" run --rw=read --bs=64k --iodepth=4 --size=4m -o "$work/run.json" "$dev" >"$work/run.txt" 2>&1
r=$?
[ $r = 0 ] || sed 's/^/# /' "$work/run.txt"
ok "a read run on the disk" $r
tr -d ' \n' <"$work/run.json" >"$work/run.flat"
grep -q "\"model\":\"$(printf '%s' "$DUEL_ATA_MODEL" | tr -d ' ')\"" "$work/run.flat" && grep -q "\"firmware\":\"$DUEL_ATA_FIRMWARE\"" "$work/run.flat"
ok "result: full model and firmware" $?
for when in before after; do
	grep -q "\"health_$when\":{[^}]*\"ata_smart\":{\"status\":\"passed\",[^}]*\"temperature_c\":$QEMU_TEMPERATURE_C" \
		"$work/run.flat"
	ok "result: SMART in health_$when" $?
done
grep -q "\"peak_temperature_c\":$QEMU_TEMPERATURE_C" "$work/run.flat"
ok "result: peak temperature from SMART" $?

rm -rf "$work"
echo "1..$n"
exit $failed
