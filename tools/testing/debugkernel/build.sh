#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The debug kernel (KASAN, kmemleak, lockdep, DEBUG_ATOMIC_SLEEP,
# DEBUG_OBJECTS, DMA-API debug) for the test VM, built once per machine from
# Debian's linux-source-6.1 and kept outside the checkout:
#
#   $NVPC_CACHE/debug-kernel-<hash>/   (default /var/cache/nvpcounter)
#       src/           the built source tree: what `make M=` needs
#                      (.config, Module.symvers, scripts, objtool)
#       bzImage        the image the VM boots
#       root/lib/modules/<release>/   modules.dep, modules.builtin
#       release        the kernel release string
#       build.log      the build's output
#       complete       written last: the cache is complete and reused
#
# <hash> covers debug.config, RECIPE (bump it when the build steps below
# change), the linux-source package version and the compiler, so a change
# to any of them builds a new kernel.
#
#   build.sh            build unless complete; one TAP line either way
#   build.sh --dir      print the cache directory (nothing is built)
#
# Built with `nice -n 19 make -j2`: the machine's two cores are shared.
set -u

TOP=$(cd "$(dirname "$0")/../../.." && pwd)
HERE=$TOP/tools/testing/debugkernel
. "$TOP/tools/testing/lib.sh"

TARBALL=/usr/src/linux-source-6.1.tar.xz
JOBS=${NVPC_DEBUG_JOBS:-2}
RECIPE=1

cache_root() {
	local c=${NVPC_CACHE:-/var/cache/nvpcounter}

	if mkdir -p "$c" 2>/dev/null && [ -w "$c" ]; then
		echo "$c"
	else
		echo "${XDG_CACHE_HOME:-$HOME/.cache}/nvpcounter"
	fi
}

kernel_dir() {
	local srcver gccver hash

	srcver=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null ||
		 stat -c '%s %Y' "$TARBALL")
	gccver=$(gcc --version | head -1)
	hash=$({ cat "$HERE/debug.config"; echo "recipe $RECIPE"
		 echo "$srcver"; echo "$gccver"; } | sha256sum | cut -c1-12)
	echo "$(cache_root)/debug-kernel-$hash"
}

DIR=$(kernel_dir)
if [ "${1:-}" = --dir ]; then
	trap - EXIT
	echo "$DIR"
	exit 0
fi

# Every line of debug.config must hold in the final .config: an option
# that Kconfig silently drops (a missing dependency) fails the build.
check_config() {
	local cfg=$1 line opt bad=0

	while IFS= read -r line; do
		case $line in
		CONFIG_*=*)
			grep -qxF "$line" "$cfg" ||
				{ echo "config: $line not in .config"; bad=1; }
			;;
		"# CONFIG_"*" is not set")
			opt=${line#\# }
			opt=${opt%% *}
			! grep -qE "^$opt=[ym]" "$cfg" ||
				{ echo "config: $opt still set"; bad=1; }
			;;
		esac
	done < "$HERE/debug.config"
	return $bad
}

build() {
	local src=$DIR/src krel

	rm -rf "$DIR"
	mkdir -p "$DIR" || return 1
	echo "debug kernel: unpacking $TARBALL"
	tar -xJf "$TARBALL" -C "$DIR" || return 1
	mv "$DIR/linux-source-6.1" "$src" || return 1
	cd "$src" || return 1
	make -s defconfig || return 1
	scripts/kconfig/merge_config.sh -m .config \
		kernel/configs/kvm_guest.config "$HERE/debug.config" || return 1
	make -s olddefconfig || return 1
	check_config .config || return 1
	nice -n 19 make -j"$JOBS" bzImage modules || return 1
	krel=$(make -s kernelrelease) || return 1
	make -s INSTALL_MOD_PATH="$DIR/root" modules_install || return 1
	cp arch/x86/boot/bzImage "$DIR/bzImage" || return 1
	echo "$krel" > "$DIR/release"
	# Objects are not needed to build modules against the tree (the
	# host tools in scripts/ and tools/ are).
	find . -name '*.o' -not -path './scripts/*' -not -path './tools/*' \
		-delete
	rm -f vmlinux.a
	date -u +%FT%TZ > "$DIR/complete"
}

mkdir -p "$(dirname "$DIR")"
exec 8> "$DIR.lock"
if ! flock -n 8; then
	echo "# debug kernel: another build holds $DIR.lock; waiting"
	flock 8
fi

if [ -e "$DIR/complete" ]; then
	result ok "debug-kernel: reuse $DIR ($(cat "$DIR/release"))"
	exit 0
fi

t0=$(date +%s)
log=$(dirname "$DIR")/$(basename "$DIR").log
# CPU time too: the wall time depends on what else shares the cores
TIMEFORMAT='%U %S'
if { time { (build) > "$log" 2>&1; }; } 2> "$DIR.cpu"; then
	mv "$log" "$DIR/build.log"
	cpu=$(awk '{ printf "%.0f", $1 + $2 }' "$DIR.cpu")
	mv "$DIR.cpu" "$DIR/cpu"
	result ok "debug-kernel: build $DIR ($(cat "$DIR/release")) in $(($(date +%s) - t0)) s, $cpu CPU-s"
else
	result fail "debug-kernel: build" "see $log: $(tail -1 "$log")"
	exit 1
fi
