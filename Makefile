# SPDX-License-Identifier: GPL-2.0
#
# nvpcounter top-level Makefile.
#
#   make                 build the modules for every installed target kernel
#   make KVER=<kver>     ... for one kernel (a /lib/modules/<kver>/build)
#   make nvpc            the record-mode tool, build/nvpc/nvpc
#   make install         as root: the modules through DKMS (rebuilt for
#                        every kernel installed later), nvpc,
#                        nvpc-perf-trace, the manual page nvpc.1,
#                        nvpc-export.service, commented modprobe.d and
#                        modules-load.d files (PREFIX, DESTDIR, KVER)
#   make uninstall       all of that removed again
#   make check           the test command: deps, lint, host unit tests,
#                        kselftests in QEMU on every target kernel
#   make lint            checkpatch --strict, sparse, W=1 warnings
#   make unit            host unit tests only
#   make vmtest          kselftests in QEMU only (KVER= to pick one kernel)
#   make debugtest       kselftests under the debug kernel (built once)
#   make bench           benchmarks (never fail on a timing)
#   make demo            the main job: a simulated GPU in QEMU, live perf stat
#   make deps            install missing Debian packages (root)

TOP := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
BUILD := $(TOP)/build

# Target kernels: every kernel with both an image in /boot and headers.
KVERS ?= $(KVER)
ifeq ($(strip $(KVERS)),)
KVERS := $(sort $(foreach d,$(wildcard /lib/modules/*/build), \
	$(if $(wildcard /boot/vmlinuz-$(notdir $(patsubst %/build,%,$(d)))), \
	$(notdir $(patsubst %/build,%,$(d))))))
endif

KSRC_TAR := /usr/src/linux-source-6.1.tar.xz
KSRC := $(BUILD)/linux-source-6.1
KSFT_INC := $(KSRC)/tools/testing/selftests
CHECKPATCH := $(KSRC)/scripts/checkpatch.pl

MODULE_SRCS := Kbuild $(shell cd $(TOP) && find drivers include -type f \
	\( -name '*.c' -o -name '*.h' -o -name Kbuild \) 2>/dev/null)

.PHONY: install all modules nvpc deps ksrc selftests lint unit vmtest debugtest check bench demo \
	clean help

all: modules

help:
	@sed -n '3,23p' $(TOP)/Makefile

deps:
	@$(TOP)/tools/deps/install.sh

# The kselftest framework headers and checkpatch come from Debian's
# linux-source package; only the few files needed are unpacked.
ksrc: $(KSRC)/.stamp
$(KSRC)/.stamp: $(KSRC_TAR)
	@mkdir -p $(BUILD)
	tar -xJf $(KSRC_TAR) -C $(BUILD) --wildcards \
		'linux-source-6.1/tools/testing/selftests/kselftest*.h' \
		'linux-source-6.1/scripts/checkpatch.pl' \
		'linux-source-6.1/scripts/spelling.txt' \
		'linux-source-6.1/scripts/const_structs.checkpatch'
	touch $@

# Each kernel gets its own copy of the sources so that builds for several
# kernels never share object files.
modules:
	@test -n "$(KVERS)" || { echo "no target kernel installed (make deps)"; exit 1; }
	@set -e; for k in $(KVERS); do \
		d=$(BUILD)/kbuild/$$k; mkdir -p $$d; \
		(cd $(TOP) && tar cf - $(MODULE_SRCS)) | tar xf - -C $$d; \
		echo "  MODULES $$k"; \
		$(MAKE) -s -C /lib/modules/$$k/build M=$$d W=$(or $(W),1) \
			$(if $(C),C=$(C)) modules; \
	done

# userspace: the record-mode capture and report tool (libc only)
nvpc:
	@$(MAKE) -s -C $(TOP)/tools/nvpc OUT=$(BUILD)/nvpc

# What `make install` puts on the user's machine (Documentation/
# monitoring.rst "Before you start"). The modules go through DKMS, so
# that every kernel the user installs later gets them built too: the
# module sources and dkms.conf are copied to /usr/src/nvpcounter-<version>
# (the version is dkms.conf's) and `dkms install` builds and installs
# them for KVER (default: the running kernel), where modprobe finds them.
# With DESTDIR (a package being built) only the files are put in place;
# the package's own scripts run dkms, as Debian's *-dkms packages do.
# Loading at boot stays the user's choice: the modprobe.d and
# modules-load.d files are installed commented out, and `make uninstall`
# keeps them when the user has changed them.
PREFIX ?= /usr/local
UNITDIR ?= $(PREFIX)/lib/systemd/system
DKMS_NAME := nvpcounter
DKMS_VERSION := $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"$$/\1/p' $(TOP)/dkms.conf)
DKMS_SRC := /usr/src/$(DKMS_NAME)-$(DKMS_VERSION)
INSTALL_KVER = $(or $(KVER),$(shell uname -r))
CONFFILES := modprobe.d/nvpcounter.conf modules-load.d/nvpcounter.conf

.PHONY: install-deps install-tool install-module uninstall

install: install-deps install-tool install-module
	@echo "installed; load it with: modprobe nvpcounter, then: nvpc top"

# the packages an install needs, checked with dpkg first (never with
# DESTDIR: a package build has its own build dependencies)
install-deps:
	@[ -n "$(DESTDIR)" ] || $(TOP)/tools/deps/install.sh --install $(INSTALL_KVER)

install-tool: install-deps nvpc
	install -D -m 0755 $(BUILD)/nvpc/nvpc $(DESTDIR)$(PREFIX)/bin/nvpc
	install -D -m 0755 $(TOP)/tools/nvpc/perf-trace.py \
		$(DESTDIR)$(PREFIX)/bin/nvpc-perf-trace
	install -D -m 0644 $(TOP)/tools/nvpc/nvpc.1 \
		$(DESTDIR)$(PREFIX)/share/man/man1/nvpc.1
	install -d $(DESTDIR)$(UNITDIR)
	sed 's|@BINDIR@|$(PREFIX)/bin|' $(TOP)/tools/nvpc/nvpc-export.service \
		> $(DESTDIR)$(UNITDIR)/nvpc-export.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/nvpc-export.service
	@for f in $(CONFFILES); do \
		if [ -e $(DESTDIR)/etc/$$f ]; then \
			echo "  keeping /etc/$$f"; \
		else \
			install -D -m 0644 $(TOP)/tools/install/$$(dirname $$f).conf \
				$(DESTDIR)/etc/$$f || exit 1; \
		fi; \
	done

install-module: install-deps
	rm -rf $(DESTDIR)$(DKMS_SRC)
	install -d $(DESTDIR)$(DKMS_SRC)
	cd $(TOP) && tar cf - dkms.conf $(MODULE_SRCS) | tar xf - -C $(DESTDIR)$(DKMS_SRC)
	@if [ -z "$(DESTDIR)" ]; then \
		set -e; \
		if dkms status -m $(DKMS_NAME) -v $(DKMS_VERSION) | grep -q .; then \
			dkms remove $(DKMS_NAME)/$(DKMS_VERSION) --all; \
		fi; \
		dkms add $(DKMS_NAME)/$(DKMS_VERSION); \
		dkms install $(DKMS_NAME)/$(DKMS_VERSION) -k $(INSTALL_KVER); \
	fi

uninstall:
	@if [ -z "$(DESTDIR)" ] && command -v dkms > /dev/null && \
	    dkms status -m $(DKMS_NAME) -v $(DKMS_VERSION) | grep -q .; then \
		dkms remove $(DKMS_NAME)/$(DKMS_VERSION) --all || exit 1; \
	fi
	rm -rf $(DESTDIR)$(DKMS_SRC)
	rm -f $(DESTDIR)$(PREFIX)/bin/nvpc $(DESTDIR)$(PREFIX)/bin/nvpc-perf-trace \
		$(DESTDIR)$(PREFIX)/share/man/man1/nvpc.1 \
		$(DESTDIR)$(UNITDIR)/nvpc-export.service
	@# the directories the install made, where nothing else is left
	@rmdir $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(UNITDIR) \
		$(DESTDIR)$(patsubst %/,%,$(dir $(UNITDIR))) 2> /dev/null || true
	@for f in $(CONFFILES); do \
		if cmp -s $(TOP)/tools/install/$$(dirname $$f).conf $(DESTDIR)/etc/$$f; then \
			rm -f $(DESTDIR)/etc/$$f; \
		elif [ -e $(DESTDIR)/etc/$$f ]; then \
			echo "  keeping /etc/$$f: changed since it was installed"; \
		fi; \
	done
	@if [ -z "$(DESTDIR)" ] && grep -qs '^nvpcounter ' /proc/modules; then \
		echo "  nvpcounter is still loaded: modprobe -r nvpcounter_sim nvpcounter"; \
	fi

selftests: ksrc
	@$(MAKE) -s -C $(TOP)/selftests/nvpcounter KSFT_INC=$(KSFT_INC) \
		OUT=$(BUILD)/selftests

lint: ksrc
	@$(TOP)/tools/testing/lint.sh

unit: ksrc
	@$(TOP)/tools/testing/unit.sh

vmtest: modules selftests nvpc
	@$(TOP)/tools/testing/vm/run.sh $(KVERS)

# every kselftest under the debug kernel (built once per machine)
debugtest: selftests
	@$(TOP)/tools/testing/debugkernel/build.sh && \
		$(TOP)/tools/testing/debugkernel/vmtest.sh

check:
	@$(TOP)/tools/testing/check.sh

bench: ksrc
	@set -e; for d in $(TOP)/tools/testing/*/; do \
		if grep -qs '^bench:' $$d/Makefile; then $(MAKE) -s -C $$d bench; fi; \
	done

demo: deps
	@KVER="$(KVER)" $(TOP)/tools/demo.sh

clean:
	rm -rf $(BUILD)
	@for d in $(TOP)/tools/testing/*/ $(TOP)/tools/nvpc/ $(TOP)/selftests/nvpcounter/; do \
		if grep -qs '^clean:' $$d/Makefile; then $(MAKE) -s -C $$d clean; fi; \
	done

print-kvers:
	@echo $(KVERS)
