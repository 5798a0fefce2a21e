#!/bin/sh
# capture-sysfs.sh OUTDIR [ENUMERATOR ARGS...]
#
# Copies the sysfs attributes and links that the device enumerator
# (src/core/duel-device*.c) reads, for every block device, into OUTDIR/sys,
# and the block-device lines of /proc/self/mountinfo and /proc/swaps into
# OUTDIR/proc. Attributes only, never whole trees. With ENUMERATOR, its
# output goes to OUTDIR/expected.json (e.g. `driveduel-cli list --all
# --json`): replaying the tree must give the same output.
#
# POSIX sh + coreutils or busybox (it also runs inside the QEMU guest).
set -eu

[ $# -ge 1 ] || { echo "usage: $0 OUTDIR [ENUMERATOR ARGS...]" >&2; exit 2; }
out=$1
shift
mkdir -p "$out"

# copy_attrs DIR NAME...: the readable regular files among NAMEs
copy_attrs() {
	attr_dir=$1
	shift
	[ -d "$attr_dir" ] || return 0
	mkdir -p "$out$attr_dir"
	for attr in "$@"; do
		[ -f "$attr_dir/$attr" ] || continue
		cat "$attr_dir/$attr" >"$out$attr_dir/$attr" 2>/dev/null || rm -f "$out$attr_dir/$attr"
	done
}

# copy_link PATH: a symbolic link as it is (sysfs links are relative)
copy_link() {
	[ -L "$1" ] || return 0
	mkdir -p "$out$(dirname "$1")"
	rm -f "$out$1"
	ln -s "$(readlink "$1")" "$out$1"
}

# copy_link_dir DIR: the names in holders/ and slaves/ are all we read
copy_link_dir() {
	mkdir -p "$out$1"
	for entry in "$1"/*; do
		if [ -L "$entry" ]; then copy_link "$entry"; fi
	done
	return 0
}

pci_attrs="class vendor device subsystem_vendor subsystem_device revision
	current_link_speed current_link_width max_link_speed max_link_width"

# copy_ancestors DIR: PCI hops, the ATA port's link speed and the USB device
# (sh has no local variables: the names here are used nowhere else)
copy_ancestors() {
	anc=$1
	while [ "$anc" != /sys/devices ] && [ "$anc" != / ] && [ -n "$anc" ]; do
		anc_base=$(basename "$anc")
		case $anc_base in
		[0-9a-f][0-9a-f][0-9a-f][0-9a-f]:[0-9a-f][0-9a-f]:[0-9a-f][0-9a-f].[0-9a-f])
			# shellcheck disable=SC2086
			copy_attrs "$anc" $pci_attrs ;;
		ata[0-9]*)
			anc_n=${anc_base#ata}
			copy_attrs "$anc/link$anc_n/ata_link/link$anc_n" sata_spd ;;
		*)
			if [ -f "$anc/idVendor" ]; then
				copy_attrs "$anc" idVendor idProduct speed version manufacturer product
			fi ;;
		esac
		anc=$(dirname "$anc")
	done
	return 0
}

block_attrs="dev size removable ro hidden range ext_range capability nsid wwid serial
	comp_algorithm disksize"
queue_attrs="logical_block_size physical_block_size rotational discard_max_bytes write_cache"
device_attrs="vendor model rev wwid vpd_pg80 type name serial fwrev firmware_rev
	transport address state cntlid subsysnqn"

for link in /sys/block/*; do
	[ -L "$link" ] || continue
	name=$(basename "$link")
	copy_link "$link"
	copy_link "/sys/class/block/$name"
	d=$(readlink -f "$link")
	# shellcheck disable=SC2086
	copy_attrs "$d" $block_attrs
	# shellcheck disable=SC2086
	copy_attrs "$d/queue" $queue_attrs
	copy_attrs "$d/loop" backing_file offset sizelimit
	copy_link_dir "$d/holders"
	copy_link_dir "$d/slaves"
	[ -f "$d/dev" ] && copy_link "/sys/dev/block/$(cat "$d/dev")"
	for p in "$d"/*; do
		[ -f "$p/partition" ] || continue
		pname=$(basename "$p")
		copy_attrs "$p" partition start size dev ro
		copy_link_dir "$p/holders"
		copy_link "/sys/class/block/$pname"
		copy_link "/sys/dev/block/$(cat "$p/dev")"
	done
	copy_ancestors "$(dirname "$d")"
	# The device (SCSI disk, MMC card) or, for NVMe, the controller.
	if [ -L "$d/device" ]; then
		copy_link "$d/device"
		e=$(readlink -f "$d/device")
		# shellcheck disable=SC2086
		copy_attrs "$e" $device_attrs
		if [ -L "$e/device" ]; then
			copy_link "$e/device"
			copy_ancestors "$(readlink -f "$e/device")"
		fi
	fi
	# NVMe multipath: the namespace sits in the subsystem, next to links to the controllers.
	parent=$(dirname "$d")
	case $(basename "$parent") in
	nvme-subsys*)
		for c in "$parent"/nvme[0-9]*; do
			[ -L "$c" ] || continue
			copy_link "$c"
			e=$(readlink -f "$c")
			# shellcheck disable=SC2086
			copy_attrs "$e" $device_attrs
			copy_link "$e/device"
			copy_ancestors "$(readlink -f "$e/device")"
		done ;;
	esac
done

mkdir -p "$out/proc/self"
# Only filesystems on block devices (major != 0) matter, and the rest is noise.
awk '{ split($3, dev, ":"); if (dev[1] != 0) print }' /proc/self/mountinfo >"$out/proc/self/mountinfo"
if [ -r /proc/swaps ]; then cat /proc/swaps >"$out/proc/swaps"; fi

if [ $# -gt 0 ]; then
	"$@" >"$out/expected.json"
fi
