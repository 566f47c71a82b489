// SPDX-License-Identifier: GPL-2.0
/*
 * nvpc doctor: why there are no counts, and what to type
 * (Documentation/nvpc.rst "nvpc doctor"). Each check prints one line,
 * "ok", "FAIL" or "note", and every FAIL a "fix:" line with a command or
 * a document section. It reads the module's own files (sysfs, and the
 * debugfs file ``pci`` of Documentation/pci.rst "Which GPUs were looked
 * at"), never the kernel log, and no variable of the environment.
 *
 * Exit status: 0 when nothing failed, 1 when a check failed, 2 on usage.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>

#include "nvpc.h"
#include "nvpc_gpu.h"
#include "nvpc_perf.h"
#include "nvpc_util.h"

#define DOC_PCI		"/sys/bus/pci/devices"
#define DOC_VERDICTS	"/sys/kernel/debug/nvpcounter/pci"
#define DOC_EXPORT_PORT	9089
/* capability bits of /proc/self/status CapEff (linux/capability.h) */
#define DOC_CAP_SYS_ADMIN	21
#define DOC_CAP_PERFMON		38

struct doctor {
	unsigned int failed;
	unsigned int pmus;
	bool loaded;
};

static void doc_line(struct doctor *d, const char *kind, const char *fix,
		     const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void doc_line(struct doctor *d, const char *kind, const char *fix,
		     const char *fmt, ...)
{
	va_list ap;

	printf("%-4s  ", kind);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (fix)
		printf("      fix: %s\n", fix);
	if (!strcmp(kind, "FAIL"))
		d->failed++;
}

/* Is a module named @name in /lib/modules/<release>/modules.dep? */
static bool doc_module_built(const char *release, const char *name)
{
	char path[PATH_MAX], line[1024], want[64];
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "/lib/modules/%s/modules.dep", release);
	snprintf(want, sizeof(want), "/%s.ko", name);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':'), *p;

		if (!colon)
			continue;
		*colon = '\0';
		p = strstr(line, want);
		/* ".../nvpcounter.ko" or ".ko.xz", ".ko.zst" */
		found = p && (!p[strlen(want)] || p[strlen(want)] == '.');
	}
	fclose(f);
	return found;
}

static void doc_module(struct doctor *d)
{
	struct utsname u;
	char fix[512];

	uname(&u);
	d->loaded = !access("/sys/module/nvpcounter", F_OK);
	if (d->loaded) {
		doc_line(d, "ok", NULL, "the nvpcounter module is loaded (kernel %s)",
			 u.release);
		return;
	}
	if (doc_module_built(u.release, "nvpcounter")) {
		doc_line(d, "FAIL", "modprobe nvpcounter (as root)",
			 "the nvpcounter module is built for kernel %s but not loaded",
			 u.release);
		return;
	}
	snprintf(fix, sizeof(fix),
		 "make install in the nvpcounter source tree (README \"On your own GPU\"), or dkms install nvpcounter/%s -k %s if DKMS has its sources; the kernel's headers must be installed (linux-headers-%s)",
		 NVPC_VERSION, u.release, u.release);
	doc_line(d, "FAIL", fix,
		 "the nvpcounter module is not loaded, and not built for kernel %s",
		 u.release);
}

static void doc_pmus(struct doctor *d)
{
	struct dirent **pmus = NULL;
	int n, i;

	n = nvpc_pmu_scan(&pmus);
	if (n < 0)
		n = 0;
	for (i = 0; i < n; i++) {
		char path[PATH_MAX], id[256] = "";

		snprintf(path, sizeof(path), "%s/%s/identifier",
			 nvpc_sysfs_root(), pmus[i]->d_name);
		nvpc_sysfs_read(path, id, sizeof(id));
		doc_line(d, "ok", NULL, "PMU %s: %s", pmus[i]->d_name, id);
		free(pmus[i]);
	}
	free(pmus);
	d->pmus = n;
	if (!n && d->loaded)
		doc_line(d, "FAIL",
			 "see the GPUs below; a simulated GPU needs nvpcounter_sim (Documentation/sim.rst)",
			 "the module is loaded but has no GPU: no nvpcounter PMU in %s",
			 nvpc_sysfs_root());
}

/* The fix of each verdict word of the debugfs file pci (pci.rst). */
static const struct {
	const char *state;
	const char *what;
	const char *fix;
} doc_verdicts[] = {
	{ "used", "used", NULL },
	{ "unknown_chipset", "refused: its chipset is not in the catalogue",
	  "none here: report the chip (this line and lspci -nn) as an issue; Documentation/events.rst lists the supported chips" },
	{ "pcounter_disabled", "refused: PCOUNTER is held in reset (PMC.ENABLE bit 28 clear)",
	  "load nouveau first, then modprobe -r nvpcounter; modprobe nvpcounter; or, if nothing else manages PMC.ENABLE, modprobe nvpcounter pci_enable_pcounter=1 (Documentation/pci.rst \"Module parameters\")" },
	{ "not_responding", "refused: not responding (PMC.BOOT_0 read all-ones)",
	  "wake the GPU (nouveau loaded, runtime PM off), then modprobe -r nvpcounter; modprobe nvpcounter" },
	{ "decoding_off", "refused: no driver enabled the device (memory decoding off)",
	  "load nouveau, then modprobe -r nvpcounter; modprobe nvpcounter" },
	{ "bar_unassigned", "refused: its register BAR is not an assigned memory BAR",
	  "none: the firmware gave the GPU no register window (check lspci -v)" },
	{ "bar_too_small", "refused: its register BAR is smaller than the registers needed",
	  "for a pci_ids entry: name the BAR of the registers (Documentation/pci.rst \"Module parameters\")" },
	{ "resume_failed", "refused: runtime PM could not wake it",
	  "wake the GPU, then modprobe -r nvpcounter; modprobe nvpcounter" },
	{ "unit_count", "refused: its GPC or partition count is out of range",
	  "report this line as an issue (Documentation/pci.rst \"What is looked at\")" },
	{ "units_disabled", "refused: every GPC or partition is disabled",
	  "report this line as an issue (Documentation/pci.rst \"What is looked at\")" },
	{ "map_failed", "refused: its registers could not be mapped",
	  "see the kernel log (dmesg | grep nvpcounter)" },
	{ "register_failed", "refused: the PMU could not be registered",
	  "see the kernel log (dmesg | grep nvpcounter)" },
	{ "no_memory", "refused: out of memory when it was looked at",
	  "modprobe -r nvpcounter; modprobe nvpcounter" },
	{ "removed", "removed after use (hot-unplug)", NULL },
	{ "unbound", "stopped: its driver unbound",
	  "bind the driver again, then modprobe -r nvpcounter; modprobe nvpcounter" },
	{ "gone", "stopped: it stopped answering (PMC.BOOT_0 all-ones)",
	  "power the GPU back on, close its perf events, then modprobe -r nvpcounter; modprobe nvpcounter" },
};

/* the word after "key=" in a verdict line, or "-" */
static void doc_field(const char *line, const char *key, char *out, size_t len)
{
	const char *p = strstr(line, key);
	size_t n = 0;

	if (!p) {
		nvpc_strlcpy(out, "-", len);
		return;
	}
	p += strlen(key);
	while (p[n] && p[n] != ' ' && p[n] != '\n' && n + 1 < len)
		n++;
	memcpy(out, p, n);
	out[n] = '\0';
}

/* the driver bound to PCI device @bus, or "no driver" */
static void doc_driver(const char *bus, char *out, size_t len)
{
	char path[PATH_MAX], link[PATH_MAX];
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%s/driver", DOC_PCI, bus);
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0) {
		nvpc_strlcpy(out, "no driver", len);
		return;
	}
	link[n] = '\0';
	nvpc_strlcpy(out, strrchr(link, '/') ? strrchr(link, '/') + 1 : link,
		     len);
}

/* Is @bus named in the verdicts file's text @verdicts? */
static bool doc_looked_at(const char *verdicts, const char *bus)
{
	size_t n = strlen(bus);
	const char *p;

	for (p = verdicts; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, bus, n) && p[n] == ' ')
			return true;
	return false;
}

static void doc_verdict(struct doctor *d, const char *line)
{
	char bus[32] = "", chip[32], chipset[16], state[32], drv[64];
	char fixbuf[512];
	const char *what = NULL, *fix = NULL;
	size_t i;

	sscanf(line, "%31s", bus);
	doc_field(line, "chip=", chip, sizeof(chip));
	doc_field(line, "chipset=", chipset, sizeof(chipset));
	doc_field(line, "state=", state, sizeof(state));
	doc_driver(bus, drv, sizeof(drv));
	for (i = 0; i < sizeof(doc_verdicts) / sizeof(doc_verdicts[0]); i++) {
		if (!strcmp(state, doc_verdicts[i].state)) {
			what = doc_verdicts[i].what;
			fix = doc_verdicts[i].fix;
			break;
		}
	}
	if (!what) {
		snprintf(fixbuf, sizeof(fixbuf),
			 "this nvpc is older than the module: nvpc --version, and the Documentation/pci.rst of the module");
		doc_line(d, "FAIL", fixbuf, "GPU %s (%s, chipset %s, driver %s): state %s",
			 bus, chip, chipset, drv, state);
		return;
	}
	/* every verdict but used and removed has its fix */
	doc_line(d, fix ? "FAIL" : "ok", fix,
		 "GPU %s (%s, chipset %s, driver %s): %s", bus, chip, chipset,
		 drv, what);
}

static void doc_gpus(struct doctor *d)
{
	char *verdicts = NULL, *line, *save;
	size_t cap = 0;
	FILE *f = NULL;
	DIR *dir;
	struct dirent *e;
	bool readable = false;

	if (d->loaded) {
		f = fopen(DOC_VERDICTS, "re");
		if (f) {
			ssize_t n = getdelim(&verdicts, &cap, '\0', f);

			readable = n >= 0 || feof(f);
			/* an empty file (no device looked at) reads as -1 */
			if (n <= 0) {
				free(verdicts);
				verdicts = NULL;
			}
			fclose(f);
		}
		if (!readable)
			doc_line(d, "note", geteuid() ? "sudo nvpc doctor" :
				 "mount -t debugfs none /sys/kernel/debug",
				 "the module's verdict on each GPU is in %s: %s",
				 DOC_VERDICTS, strerror(errno));
	}
	if (readable && verdicts) {
		char *copy = strdup(verdicts);

		for (line = strtok_r(copy, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save))
			doc_verdict(d, line);
		free(copy);
	}
	/* NVIDIA display devices the module has not looked at */
	dir = opendir(DOC_PCI);
	while (dir && (e = readdir(dir))) {
		char path[PATH_MAX], vendor[16], class[16], drv[64];

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/vendor", DOC_PCI, e->d_name);
		if (nvpc_sysfs_read(path, vendor, sizeof(vendor)) <= 0 ||
		    strcmp(vendor, "0x10de"))
			continue;
		snprintf(path, sizeof(path), "%s/%s/class", DOC_PCI, e->d_name);
		if (nvpc_sysfs_read(path, class, sizeof(class)) <= 0 ||
		    strncmp(class, "0x03", 4))
			continue;
		if (readable && doc_looked_at(verdicts ? verdicts : "", e->d_name))
			continue;
		doc_driver(e->d_name, drv, sizeof(drv));
		if (!d->loaded)
			doc_line(d, "note", NULL, "NVIDIA GPU %s (driver %s): counted once the module is loaded",
				 e->d_name, drv);
		else if (readable)
			doc_line(d, "FAIL", "modprobe -r nvpcounter; modprobe nvpcounter (devices are looked at when the module loads)",
				 "NVIDIA GPU %s (driver %s): not looked at by the module (added after it loaded)",
				 e->d_name, drv);
		else
			doc_line(d, "note", NULL, "NVIDIA GPU %s (driver %s)",
				 e->d_name, drv);
	}
	if (dir)
		closedir(dir);
	free(verdicts);
}

/* CapEff of this process has capability @cap */
static bool doc_has_cap(int cap)
{
	char line[256];
	unsigned long long eff = 0;
	FILE *f = fopen("/proc/self/status", "re");

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &eff) == 1)
			break;
	fclose(f);
	return eff & (1ULL << cap);
}

static void doc_privilege(struct doctor *d)
{
	int level = nvpc_perf_paranoid();
	char self[PATH_MAX], fix[PATH_MAX + 256];

	nvpc_self_exe(self, sizeof(self));
	if (!geteuid() || doc_has_cap(DOC_CAP_SYS_ADMIN)) {
		doc_line(d, "ok", NULL, "privileges: root (CAP_SYS_ADMIN): GPU counters may be opened");
		return;
	}
	if (level != INT_MIN && level <= 0) {
		doc_line(d, "ok", NULL, "privileges: kernel.perf_event_paranoid is %d: any user may count system-wide",
			 level);
		return;
	}
	if (doc_has_cap(DOC_CAP_PERFMON) && (level == INT_MIN || level < 3)) {
		doc_line(d, "ok", NULL, "privileges: CAP_PERFMON (kernel.perf_event_paranoid %d)",
			 level);
		return;
	}
	if (level >= 3)
		snprintf(fix, sizeof(fix),
			 "run as root; or sudo sysctl kernel.perf_event_paranoid=2 and sudo setcap cap_perfmon+ep %s (at 3, Debian's level, only root opens perf events); Documentation/monitoring.rst \"Without root\"",
			 self);
	else
		snprintf(fix, sizeof(fix),
			 "sudo setcap cap_perfmon+ep %s; or sudo sysctl kernel.perf_event_paranoid=0; or run as root (Documentation/monitoring.rst \"Without root\")",
			 self);
	doc_line(d, "FAIL", fix,
		 "privileges: uid %u without CAP_PERFMON, kernel.perf_event_paranoid %d: GPU counters are system-wide and would be refused",
		 (unsigned int)geteuid(), level);
}

/* Is a TCP socket of /proc/net/@file listening on @port? */
static bool doc_listening(const char *file, unsigned int port)
{
	char path[64], line[512];
	unsigned int lport, st;
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/net/%s", file);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		/* "  0: 0100007F:2381 00000000:0000 0A ..."; 0A: LISTEN */
		found = sscanf(line, " %*u: %*[0-9A-Fa-f]:%x %*[0-9A-Fa-f]:%*x %x",
			       &lport, &st) == 2 && lport == port && st == 0x0a;
	fclose(f);
	return found;
}

static void doc_export(struct doctor *d)
{
	if (doc_listening("tcp", DOC_EXPORT_PORT) ||
	    doc_listening("tcp6", DOC_EXPORT_PORT))
		doc_line(d, "note", NULL,
			 "port %u (nvpc export's default) has a listener: the exporter, or something else (ss -ltnp 'sport = :%u')",
			 DOC_EXPORT_PORT, DOC_EXPORT_PORT);
	else
		doc_line(d, "note", NULL,
			 "port %u (nvpc export's default) is free: no exporter runs there (Documentation/monitoring.rst \"Prometheus\")",
			 DOC_EXPORT_PORT);
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: nvpc doctor\n"
"       nvpc doctor --hardware [-g GPU] [-d DOM,...] [-t SECONDS] [-J] [-o FILE]\n"
"\n"
"Say why there are no GPU counts and what to type: the module (loaded,\n"
"built for this kernel), its PMUs, each NVIDIA GPU and the module's\n"
"verdict on it (needs root: debugfs), the privileges perf asks for, and\n"
"the exporter's port. Every FAIL line is followed by its fix.\n"
"--hardware: first light on a GPU, its behaviours against the documents\n"
"(nvpc doctor --hardware --help).\n"
"Exit status: 0 nothing failed, 1 a check failed, 2 usage.\n");
}

int nvpc_doctor(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct doctor d = { 0 };
	int c;

	/* first light on a GPU is its own set of checks (firstlight.c) */
	for (c = 1; c < argc && strcmp(argv[c], "--"); c++)
		if (!strcmp(argv[c], "--hardware"))
			return nvpc_doctor_hardware(argc, argv);
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		nvpc_err("doctor: takes no arguments ('%s')", argv[optind]);
		return 2;
	}
	doc_module(&d);
	doc_pmus(&d);
	doc_gpus(&d);
	doc_privilege(&d);
	doc_export(&d);
	if (d.failed)
		printf("%u check%s failed\n", d.failed, d.failed == 1 ? "" : "s");
	else
		printf("all checks passed: %u GPU%s to count\n", d.pmus,
		       d.pmus == 1 ? "" : "s");
	return d.failed ? 1 : 0;
}
