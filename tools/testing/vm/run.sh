#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot each target kernel in QEMU with the nvpcounter modules and run a
# guest script (default: the kselftests), then judge the run from the TAP
# results and the guest kernel log.
#
#   run.sh [KVER...]            kselftests on each kernel (default: all)
#   NVPC_VM_SCRIPT=path run.sh  run another guest script instead
#   NVPC_VM_TIMEOUT=secs        bound of one VM run on an idle machine
#                               (default 900), times the host's time scale
#   NVPC_VM_QEMU_ARGS=...       extra QEMU arguments (e.g. ivshmem devices)
#   NVPC_VM_NAME=name           results in build/vm/<kver>-<name> and TAP
#                               names "vm <kver> <name>: ..." (default: none)
#   NVPC_RESULTS=file           append TAP results there (make check does)
#   NVPC_VM_LOCK=file           the lock VM runs take turns on (default
#                               /tmp/nvpcounter-vm.lock, one per machine)
#   NVPC_VM_IMAGE=bzImage       boot this image instead of /boot/vmlinuz-KVER
#   NVPC_VM_MODROOT=dir         the kernel's modules are in
#                               dir/lib/modules/KVER (default /)
#   NVPC_VM_APPEND=...          extra kernel command line
#   NVPC_TEST_TIMEOUT=secs      bound of one kselftest on an idle machine
#                               (default 600), times the guest's time scale
#   NVPC_TIME_SCALE=f           the guest's time scale (default: measured
#                               at its boot, guest-lib.sh)
#   NVPC_FUZZ_SEED=n            replay fuzz_test with this seed
#   NVPC_FUZZ_WORKERS=n         fuzz_test's worker processes (1 .. 8)
#   NVPC_TESTS=a,b / NVPC_TESTS_EXCLUDE=a,b
#                               only these tests / all but these
#                               (guest-selftests.sh)
#   NVPC_VM_BEFORE=cmd / NVPC_VM_AFTER=cmd
#                               run (bash -c) before / after each boot: a
#                               caller's host side of the run (pci-ivshmem.sh
#                               fills its BAR files and starts its agent)
#
# A kernel other than the installed ones (the debug kernel,
# tools/testing/debugkernel) is given by KVER, NVPC_VM_IMAGE and
# NVPC_VM_MODROOT; our modules come from build/kbuild/KVER either way.
#
# Every QEMU run is bounded with timeout(1), which ends QEMU by its pid.
# The bound grows with the host's load: before each boot the host times a
# fixed CPU-bound loop (the guest's, guest-lib.sh, four times longer)
# against the figure of an idle machine of this kind; the ratio (at least
# 1) multiplies NVPC_VM_TIMEOUT. The guest measures its own scale at boot
# for the bounds of its tests (Documentation/testing.rst "A busy machine").
set -u

TOP=$(cd "$(dirname "$0")/../../.." && pwd)
. "$TOP/tools/testing/lib.sh"

SCRIPT=${NVPC_VM_SCRIPT:-$TOP/tools/testing/vm/guest-selftests.sh}
BASE_TIMEOUT=${NVPC_VM_TIMEOUT:-900}
TIMEOUT=$BASE_TIMEOUT
# the host loop's time on an idle machine of this kind, in ms
HOST_REF_MS=${NVPC_HOST_REF_MS:-110}
MODROOT=${NVPC_VM_MODROOT:-}
KVERS=("$@")
if [ ${#KVERS[@]} -eq 0 ]; then
	for b in /lib/modules/*/build; do
		k=$(basename "$(dirname "$b")")
		[ -e "/boot/vmlinuz-$k" ] && KVERS+=("$k")
	done
fi
if [ ${#KVERS[@]} -eq 0 ]; then
	result fail "vm: no target kernel installed"
	exit 1
fi

# The kernel's modules needed for the 9p root, with their dependencies,
# in load order. Built-in ones (modules.builtin) are skipped.
resolve_mods() {
	local k=$1; shift
	local dep=$MODROOT/lib/modules/$k/modules.dep
	local builtin=$MODROOT/lib/modules/$k/modules.builtin
	local -A seen=()
	local order=()

	visit() {
		local path=$1 d line
		[ -n "${seen[$path]:-}" ] && return
		seen[$path]=1
		line=$(grep -E "^${path//./\\.}:" "$dep" | head -1)
		for d in ${line#*:}; do
			visit "$d"
		done
		order+=("$path")
	}
	local m path
	for m in "$@"; do
		path=$(grep -E "/$m\.ko(\.xz|\.zst|\.gz)?:" "$dep" | head -1)
		path=${path%%:*}
		if [ -z "$path" ]; then
			if grep -qE "/$m\.ko$" "$builtin" 2>/dev/null; then
				continue
			fi
			echo "missing module $m for $k" >&2
			return 1
		fi
		visit "$path"
	done
	printf '%s\n' "${order[@]}"
}

build_initramfs() {
	local k=$1 out=$2
	local root=$out/initramfs m mods src dst

	rm -rf "$root"
	mkdir -p "$root"/{bin,dev,proc,sys,mnt,nvpc,lib/modules}
	cp /bin/busybox "$root/bin/busybox"
	cp "$TOP/tools/testing/vm/init.sh" "$root/init"
	chmod +x "$root/init"

	# (none when the kernel has them built in)
	mods=$(resolve_mods "$k" virtio_pci 9pnet_virtio 9p) || return 1
	: > "$root/modules.order"
	for m in $mods; do
		src=$MODROOT/lib/modules/$k/$m
		dst=$root/lib/modules/$(basename "${m%.xz}")
		dst=${dst%.zst}
		case $m in
		*.xz)	xz -dc "$src" > "$dst" ;;
		*.zst)	zstd -qdc "$src" > "$dst" ;;
		*)	cp "$src" "$dst" ;;
		esac
		basename "$dst" >> "$root/modules.order"
	done
	cp "$TOP/build/kbuild/$k/drivers/nvpcounter/nvpcounter.ko" \
	   "$TOP/build/kbuild/$k/drivers/nvpcounter/sim/nvpcounter_sim.ko" \
	   "$root/nvpc/" || return 1
	(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) \
		> "$out/initramfs.cpio.gz"
}

image_of() {
	realpath "${NVPC_VM_IMAGE:-/boot/vmlinuz-$1}"
}

# KVM only when a probe boot shows it works (nested KVM here does not).
ACCEL=""
probe_accel() {
	local k=$1 out=$2
	ACCEL="tcg,thread=multi"
	[ -w /dev/kvm ] || return 0
	if timeout --kill-after=2 20 qemu-system-x86_64 -accel kvm -cpu host \
		-m 256M -nographic -no-reboot -net none \
		-kernel "$(image_of "$k")" -append "console=ttyS0 panic=-1" \
		< /dev/null > "$out/kvm-probe.log" 2>&1 ||
	   grep -q 'Kernel panic' "$out/kvm-probe.log"; then
		grep -q 'Kernel panic' "$out/kvm-probe.log" && ACCEL=kvm
	fi
}

# Lines in a guest kernel log that fail the run: the reports of the
# kernel's own checkers (the debug kernel's KASAN, kmemleak, lockdep,
# DEBUG_OBJECTS, DMA-API debug, atomic sleep; WARN and oops everywhere).
# kmemleak's and DMA-API debug's start-up lines are not reports (their
# reports come with a WARNING); a scan's leaks are, and so are their own
# failures (they would stop looking).
BAD_LOG='(WARNING:|BUG:|Oops|general protection fault|kernel BUG at|UBSAN:|KASAN:|KFENCE:|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|sleeping function called from invalid context|Call Trace:|Kernel panic|stack-protector|refcount_t:|list_add corruption|list_del corruption|ODEBUG:|DMA-API: .*(leak|disabl|exceeded|bad|invalid)|kmemleak: .*(suspected memory leak|unknown object|Cannot|Failed|disabled|empty|overlaps|larger))'

# host_scale: HS, the median of three timed loops (HOST_LOOP_MS) against
# HOST_REF_MS, at least 1, two decimals
host_scale() {
	local t0 t1 ms=()

	for _ in 1 2 3; do
		t0=$(date +%s%N)
		awk 'BEGIN { for (i = 0; i < 4000000; i++) s += i }'
		t1=$(date +%s%N)
		ms+=($(((t1 - t0) / 1000000)))
	done
	HOST_LOOP_MS=$(printf '%s\n' "${ms[@]}" | sort -n | sed -n 2p)
	HS=$(awk -v t="$HOST_LOOP_MS" -v r="$HOST_REF_MS" \
		'BEGIN { s = t / r; printf "%.2f\n", s < 1 ? 1 : s }')
}

# One boot of the test VM for kernel $1, results in $2: QEMU's exit status.
boot_vm() {
	local k=$1 out=$2

	# QEMU's core, if it crashes, in $out (where the kernel writes a
	# plain "core"): its backtrace is printed, the core removed
	(cd "$out" && ulimit -c unlimited 2> /dev/null
	timeout --kill-after=10 "$TIMEOUT" qemu-system-x86_64 \
		-accel "$ACCEL" -cpu max -m 2G -smp 2 \
		-nographic -no-reboot -net none \
		-kernel "$(image_of "$k")" -initrd "$out/initramfs.cpio.gz" \
		-append "console=ttyS0 rdinit=/init panic=-1 ${NVPC_VM_APPEND:-} ${NVPC_TEST_TIMEOUT:+NVPC_TEST_TIMEOUT=$NVPC_TEST_TIMEOUT} ${NVPC_FUZZ_SEED:+NVPC_FUZZ_SEED=$NVPC_FUZZ_SEED} ${NVPC_FUZZ_WORKERS:+NVPC_FUZZ_WORKERS=$NVPC_FUZZ_WORKERS} ${NVPC_TESTS:+NVPC_TESTS=$NVPC_TESTS} ${NVPC_TESTS_EXCLUDE:+NVPC_TESTS_EXCLUDE=$NVPC_TESTS_EXCLUDE} ${NVPC_TIME_SCALE:+NVPC_TIME_SCALE=$NVPC_TIME_SCALE} ${NVPC_TIME_REF_MS:+NVPC_TIME_REF_MS=$NVPC_TIME_REF_MS} NVPC_TOP=$TOP NVPC_OUT=$out/results NVPC_SCRIPT=$SCRIPT" \
		-virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
		-virtfs "local,path=$out/results,mount_tag=results,security_model=none,multidevs=remap" \
		${NVPC_VM_QEMU_ARGS:-} \
		< /dev/null > "$out/console.log" 2>&1)
}

# One boot with the caller's hooks around it: QEMU's exit status (a
# failing hook fails the boot: 1).
boot_once() {
	local k=$1 out=$2 rc

	rm -f "$out/core"
	if [ -n "${NVPC_VM_BEFORE:-}" ] && ! bash -c "$NVPC_VM_BEFORE"; then
		echo "# vm: NVPC_VM_BEFORE failed: $NVPC_VM_BEFORE"
		return 1
	fi
	boot_vm "$k" "$out"
	rc=$?
	[ -z "${NVPC_VM_AFTER:-}" ] || bash -c "$NVPC_VM_AFTER"
	return $rc
}

# QEMU killed by signal $1: say which, with its backtrace if the core is
# there and gdb is installed (neither is needed)
qemu_crash() {
	local out=$1 sig=$2

	echo "# vm: QEMU itself died of signal $sig ($(kill -l "$sig" 2> /dev/null))"
	if [ -s "$out/core" ] && command -v gdb > /dev/null; then
		timeout 120 gdb -batch -nx -ex 'thread apply all bt 12' \
			"$(command -v qemu-system-x86_64)" "$out/core" 2>&1 |
			grep -E '^(#|Thread|Program terminated)' | head -60 |
			sed 's/^/# qemu: /' | tee "$out/qemu-crash-bt.txt"
	fi
	rm -f "$out/core"
}


run_one() {
	local k=$1
	local out=$TOP/build/vm/$k${NVPC_VM_NAME:+-$NVPC_VM_NAME}
	local t0 rc f tname logs
	local tk=$k${NVPC_VM_NAME:+ $NVPC_VM_NAME}

	rm -rf "$out"
	mkdir -p "$out/results"
	if ! build_initramfs "$k" "$out" 2> "$out/initramfs.err"; then
		result fail "vm $tk: initramfs" "$(tail -1 "$out/initramfs.err")"
		return
	fi
	[ -n "$ACCEL" ] || probe_accel "$k" "$out"

	host_scale
	TIMEOUT=$(awk -v b="$BASE_TIMEOUT" -v s="$HS" \
		'BEGIN { v = b * s; printf "%d\n", v == int(v) ? v : int(v) + 1 }')
	echo "# vm $tk: host time scale $HS (loop $HOST_LOOP_MS ms, idle $HOST_REF_MS ms): bound $TIMEOUT s"
	t0=$(date +%s)
	boot_once "$k" "$out"
	rc=$?
	# A guest kernel that died in its own start-up, before /init (which
	# loads our modules) ran: TCG's multi-threaded mode has made the
	# 6.12 kernel oops on an int3 of its own static-key patching at boot.
	# No project code ran; boot once more, keeping the first console.
	if [ $rc -ne 124 ] && [ $rc -ne 137 ] &&
	   ! grep -q 'Run /init as init process' "$out/console.log"; then
		mv "$out/console.log" "$out/console-boot1.log"
		echo "# vm $tk: the kernel died before /init ran (qemu exit $rc," \
			"no project code loaded): booting again; first console" \
			"in $out/console-boot1.log:" \
			"$(grep -m1 -E "$BAD_LOG" "$out/console-boot1.log" | cut -c1-120)"
		boot_once "$k" "$out"
		rc=$?
	fi
	# QEMU itself killed by a signal (timeout(1)'s own ends are 124 and
	# 137): the emulator crashed, which nothing a guest does may cause.
	# Seen once in CI, SIGSEGV on 6.1-rt's PCI run. Said with its
	# backtrace, and the run booted once more from a clean results
	# directory, the first one's console and results kept.
	if [ $rc -gt 128 ] && [ $rc -ne 137 ]; then
		echo "# vm $tk: QEMU crashed after $(($(date +%s) - t0)) s" \
			"(exit $rc)$( [ -e "$out/results/running" ] &&
			echo ", the guest running $(cat "$out/results/running")"):" \
			"booting again; first console in $out/console-crash1.log"
		qemu_crash "$out" $((rc - 128))
		mv "$out/console.log" "$out/console-crash1.log"
		rm -rf "$out/results-crash1"
		mv "$out/results" "$out/results-crash1"
		mkdir -p "$out/results"
		t0=$(date +%s)
		boot_once "$k" "$out"
		rc=$?
		[ $rc -gt 128 ] && [ $rc -ne 137 ] && qemu_crash "$out" $((rc - 128))
	fi
	echo "# vm $tk: qemu exit $rc after $(($(date +%s) - t0)) s ($ACCEL)"
	[ -e "$out/results/time-scale" ] &&
		echo "# vm $tk: guest time scale $(cut -d' ' -f1 "$out/results/time-scale")" \
			"(loop $(cut -d' ' -f2-4 "$out/results/time-scale") ms," \
			"idle $(cut -d' ' -f5 "$out/results/time-scale") ms)"
	# the test the guest was in when it stopped (guest-lib.sh)
	local running=""
	[ -e "$out/results/running" ] &&
		running="; it was running $(cat "$out/results/running")"

	if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
		result fail "vm $tk: run finished" "timeout after ${TIMEOUT}s$running"
		# where the guest was: the console's last lines (the guest's
		# sysrq dump of a stuck test, guest-lib.sh guest_run)
		echo "# vm $tk: the console's last 60 lines:"
		tail -60 "$out/console.log" | cut -c1-160 | sed 's/^/# console: /'
	elif [ $rc -gt 128 ]; then
		result fail "vm $tk: run finished" "QEMU crashed twice (exit $rc, see $out/console.log)$running"
	elif [ ! -e "$out/results/guest.rc" ]; then
		result fail "vm $tk: run finished" "guest did not complete (see $out/console.log)$running"
	else
		result ok "vm $tk: run finished"
	fi

	for f in "$out"/results/*.tap; do
		[ -e "$f" ] || continue
		tname=$(basename "$f" .tap)
		import_tap "vm $tk: $tname" "$f"
	done

	# The guest kernel log: the dmesg copy if the guest got that far,
	# the serial console otherwise (both when present).
	# (only the files that exist: grep exits 2 on a missing one even
	# when another matched)
	# Split at init's "nvpc-init: started": what the kernel logged
	# before it is its own boot, before any module or test of ours ran
	# (a log without the line counts whole as the test's).
	logs=()
	for f in "$out/console.log" "$out/results/dmesg.txt"; do
		[ -e "$f" ] && logs+=("$f")
	done
	: > "$out/boot-log.txt"
	: > "$out/test-log.txt"
	for f in "${logs[@]}"; do
		awk -v boot="$out/boot-log.txt" -v test="$out/test-log.txt" '
			FNR == 1 { n = 0; delete l }
			{ l[++n] = $0 }
			/nvpc-init: started/ && !m { m = n }
			END {
				for (i = 1; i <= n; i++)
					print l[i] >> (m && i < m ? boot : test)
			}' "$f"
	done
	if grep -hE "$BAD_LOG" "$out/test-log.txt" > "$out/bad-log.txt"; then
		result fail "vm $tk: kernel log clean" \
			"$(head -1 "$out/bad-log.txt" | cut -c1-200)"
		sed 's/^/# /' "$out/bad-log.txt" | head -20
	else
		result ok "vm $tk: kernel log clean"
	fi
	# the kernel's own boot: a report there is not of this project's
	# code (none of it is loaded yet): said as such, not a pass
	if grep -hE "$BAD_LOG" "$out/boot-log.txt" > "$out/bad-boot.txt"; then
		result skip "vm $tk: kernel boot log clean (before any module of ours)" \
			"the kernel's own boot reported: $(head -1 "$out/bad-boot.txt" | cut -c1-160)"
		sed 's/^/# /' "$out/bad-boot.txt" | head -20
	else
		result ok "vm $tk: kernel boot log clean (before any module of ours)"
	fi
}

# One VM run at a time per machine (NVPC_VM_LOCK): runs of one tree share
# build/vm/<kver>, and runs of every tree (worktrees, clones) share the
# machine's two cores, where timing under TCG matters.
mkdir -p "$TOP/build"
LOCK=${NVPC_VM_LOCK:-/tmp/nvpcounter-vm.lock}
exec 9> "$LOCK"
if ! flock -n 9; then
	echo "# vm: another run holds $LOCK; waiting"
	flock 9
fi

for k in "${KVERS[@]}"; do
	run_one "$k"
done
