// SPDX-License-Identifier: GPL-2.0
/*
 * The PMU, domain and signal names of the nvpcounter sysfs ABI
 * (Documentation/ABI/testing/sysfs-bus-event_source-devices-nvpcounter),
 * checked before anything is opened, each refusal naming what is valid.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nvpc_gpu.h"
#include "nvpc_util.h"

#define NVPC_MAX_LIST	4096

const char *nvpc_sysfs_root(void)
{
	/*
	 * a test hook: never in a process with more rights than its user
	 * (setcap cap_perfmon+ep nvpc, monitoring.rst "Privileges"), which
	 * would otherwise open the PMU types a fake tree names
	 */
	const char *root = secure_getenv("NVPC_SYSFS");

	return root && *root ? root : "/sys/bus/event_source/devices";
}

int nvpc_sysfs_read(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return -errno;
	n = fread(buf, 1, len - 1, f);
	if (ferror(f)) {
		int ret = errno ? -errno : -EIO;

		fclose(f);
		return ret;
	}
	fclose(f);
	buf[n] = '\0';
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return n;
}

int nvpc_sysfs_u64(const char *path, uint64_t *v)
{
	char buf[64];
	int ret = nvpc_sysfs_read(path, buf, sizeof(buf));

	if (ret < 0)
		return ret;
	return nvpc_parse_u64(buf, v);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char * const *)a, *(char * const *)b);
}

/*
 * The names in dir (sorted, comma separated) for which keep() is true,
 * into out; "(none)" if there are none.
 */
static void list_dir(const char *dir, bool (*keep)(const char *dir,
						    const char *name,
						    const void *arg),
		     const void *arg, char *out, size_t len)
{
	char *names[512];
	unsigned int n = 0;
	struct dirent *e;
	DIR *d = opendir(dir);
	size_t pos = 0;

	out[0] = '\0';
	if (d) {
		while ((e = readdir(d)) && n < 512) {
			if (e->d_name[0] == '.' || !keep(dir, e->d_name, arg))
				continue;
			names[n] = strdup(e->d_name);
			if (names[n])
				n++;
		}
		closedir(d);
	}
	qsort(names, n, sizeof(names[0]), cmp_str);
	for (unsigned int i = 0; i < n; i++) {
		if (pos < len)
			pos += snprintf(out + pos, len - pos, "%s%s",
					i ? ", " : "", names[i]);
		free(names[i]);
	}
	if (!n)
		snprintf(out, len, "(none)");
}

/* the PMUs' names: nvpcounter, nvpcounter_1 ... */
static bool is_nvpc_pmu(const char *dir, const char *name, const void *arg)
{
	(void)dir;
	(void)arg;
	return !strncmp(name, "nvpcounter", 10);
}

static int pmu_entry(const struct dirent *e)
{
	return is_nvpc_pmu(NULL, e->d_name, NULL);
}

int nvpc_pmu_scan(struct dirent ***pmus)
{
	return scandir(nvpc_sysfs_root(), pmus, pmu_entry, versionsort);
}

void nvpc_pmu_none(void)
{
	nvpc_err("no nvpcounter PMU in %s: is the nvpcounter module loaded (and a GPU or a simulated one present)?",
		 nvpc_sysfs_root());
}

static bool any_entry(const char *dir, const char *name, const void *arg)
{
	(void)dir;
	(void)arg;
	(void)name;
	return true;
}

/* the first CPU of a cpumask/cpulist file ("0", "0-3", "2,5") */
static int first_cpu(const char *path)
{
	char buf[256];
	char *end;
	long cpu;

	if (nvpc_sysfs_read(path, buf, sizeof(buf)) <= 0)
		return -1;
	cpu = strtol(buf, &end, 10);
	if (end == buf || cpu < 0)
		return -1;
	return cpu;
}

int nvpc_gpu_open(const char *pmu, struct nvpc_gpu *g)
{
	char path[1024], buf[128];
	char *list;
	uint64_t type;
	int ret;

	memset(g, 0, sizeof(*g));
	if (!*pmu || strchr(pmu, '/') || strlen(pmu) >= NVPC_FILE_NAME_LEN) {
		nvpc_err("'%s' is not a PMU name (nvpcounter, nvpcounter_1 ...)",
			 pmu);
		return -EINVAL;
	}
	nvpc_strlcpy(g->pmu, pmu, sizeof(g->pmu));
	snprintf(g->dir, sizeof(g->dir), "%s/%s", nvpc_sysfs_root(), pmu);
	snprintf(path, sizeof(path), "%s/type", g->dir);
	ret = nvpc_sysfs_u64(path, &type);
	if (ret < 0) {
		list = malloc(NVPC_MAX_LIST);
		if (!list)
			return -ENOMEM;
		list_dir(nvpc_sysfs_root(), is_nvpc_pmu, NULL, list,
			 NVPC_MAX_LIST);
		if (!strcmp(list, "(none)"))
			nvpc_err("no PMU %s, and no nvpcounter PMU at all in %s: is the nvpcounter module loaded (and a GPU or a simulated one present)?",
				 pmu, nvpc_sysfs_root());
		else
			nvpc_err("no PMU %s in %s; nvpcounter PMUs: %s",
				 pmu, nvpc_sysfs_root(), list);
		free(list);
		return -ENOENT;
	}
	g->type = type;
	snprintf(path, sizeof(path), "%s/identifier", g->dir);
	if (nvpc_sysfs_read(path, buf, sizeof(buf)) > 0) {
		char *sp = strchr(buf, ' ');

		if (sp) {
			*sp = '\0';
			nvpc_strlcpy(g->bus, sp + 1, sizeof(g->bus));
		}
		nvpc_strlcpy(g->chip, buf, sizeof(g->chip));
	}
	snprintf(path, sizeof(path), "%s/domains", g->dir);
	if (access(path, F_OK)) {
		nvpc_err("%s is not an nvpcounter PMU (no domains/ directory)",
			 pmu);
		return -ENOENT;
	}
	snprintf(path, sizeof(path), "%s/cpumask", g->dir);
	g->cpu = first_cpu(path);
	if (g->cpu < 0) {
		nvpc_err("cannot read a CPU from %s", path);
		return -EINVAL;
	}
	return 0;
}

/* main.N, hub.N, gpcG.N, partP.N -> set, index, unit */
static int parse_domain(const char *name, unsigned int *dset,
			unsigned int *dom, unsigned int *unit)
{
	unsigned long a = 0, b;
	const char *p;
	char *end;

	if (!strncmp(name, "main.", 5) || !strncmp(name, "hub.", 4)) {
		*dset = 0;
		p = strchr(name, '.') + 1;
	} else if (!strncmp(name, "gpc", 3) || !strncmp(name, "part", 4)) {
		*dset = name[0] == 'g' ? 1 : 2;
		p = name + (name[0] == 'g' ? 3 : 4);
		if (*p < '0' || *p > '9')
			return -EINVAL;
		a = strtoul(p, &end, 10);
		if (*end != '.' || a > 31)
			return -EINVAL;
		p = end + 1;
	} else {
		return -EINVAL;
	}
	if (*p < '0' || *p > '9')
		return -EINVAL;
	b = strtoul(p, &end, 10);
	if (*end || b > 7)
		return -EINVAL;
	*dom = b;
	*unit = a;
	return 0;
}

int nvpc_domain_open(const struct nvpc_gpu *g, const char *name,
		     struct nvpc_domain *d)
{
	char path[1024], list[NVPC_MAX_LIST];
	uint64_t v;

	memset(d, 0, sizeof(*d));
	snprintf(path, sizeof(path), "%s/domains", g->dir);
	if (parse_domain(name, &d->dset, &d->dom, &d->unit) ||
	    strlen(name) >= sizeof(d->name)) {
		list_dir(path, any_entry, NULL, list, sizeof(list));
		nvpc_err("'%s' is not a domain name (main.N, hub.N, gpcG.N or partP.N); domains of %s (%s %s): %s",
			 name, g->pmu, g->chip, g->bus, list);
		return -EINVAL;
	}
	snprintf(d->name, sizeof(d->name), "%s", name);
	snprintf(d->dir, sizeof(d->dir), "%s/domains/%s", g->dir, name);
	if (access(d->dir, F_OK)) {
		list_dir(path, any_entry, NULL, list, sizeof(list));
		nvpc_err("%s (%s %s) has no domain %s; its domains: %s",
			 g->pmu, g->chip, g->bus, name, list);
		return -ENOENT;
	}
	snprintf(path, sizeof(path), "%s/signals", d->dir);
	if (!nvpc_sysfs_u64(path, &v))
		d->signals = v;
	snprintf(path, sizeof(path), "%s/clock_hz", d->dir);
	if (!nvpc_sysfs_u64(path, &v))
		d->clock_hz = v;
	snprintf(path, sizeof(path), "%s/nominal_hz", d->dir);
	if (!nvpc_sysfs_u64(path, &v))
		d->nominal_hz = v;
	return 0;
}

/*
 * an events/ file "dset=S,dom=D,sig0=0xNN", on GF100+ GPC and partition
 * domains followed by ",allunits" (a signal id of that domain in every
 * unit): 0 and the id, else -EINVAL
 */
static int parse_event(const char *path, unsigned int *dset,
		       unsigned int *dom, unsigned int *sig)
{
	char buf[256], *tok, *save;
	bool have_sig = false;

	*dset = 0;
	*dom = 0;
	if (nvpc_sysfs_read(path, buf, sizeof(buf)) <= 0)
		return -EINVAL;
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		uint64_t v;

		if (!strcmp(tok, "allunits"))
			continue;
		if (!eq || nvpc_parse_u64(eq + 1, &v))
			return -EINVAL;	/* "cycles" and the like */
		*eq = '\0';
		if (!strcmp(tok, "dset"))
			*dset = v;
		else if (!strcmp(tok, "dom"))
			*dom = v;
		else if (!strcmp(tok, "sig0")) {
			*sig = v;
			have_sig = true;
		} else {
			return -EINVAL;
		}
	}
	return have_sig ? 0 : -EINVAL;
}

int nvpc_event_parse(const char *path, unsigned int *dset, unsigned int *dom,
		     unsigned int *sig)
{
	return parse_event(path, dset, dom, sig);
}

static bool signal_of_domain(const char *dir, const char *name,
			     const void *arg)
{
	const struct nvpc_domain *d = arg;
	unsigned int dset, dom, sig;
	char path[1024];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return !parse_event(path, &dset, &dom, &sig) &&
	       dset == d->dset && dom == d->dom;
}

/* the events/ name of signal id sig in d, if it has one */
static bool name_of(const struct nvpc_gpu *g, const struct nvpc_domain *d,
		    unsigned int sig, char *name, size_t len)
{
	unsigned int dset, dom, s;
	char dir[640], path[1024];
	struct dirent *e;
	bool found = false;
	DIR *dp;

	snprintf(dir, sizeof(dir), "%s/events", g->dir);
	dp = opendir(dir);
	if (!dp)
		return false;
	while (!found && (e = readdir(dp))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (!parse_event(path, &dset, &dom, &s) && dset == d->dset &&
		    dom == d->dom && s == sig) {
			nvpc_strlcpy(name, e->d_name, len);
			found = true;
		}
	}
	closedir(dp);
	return found;
}

int nvpc_signal_lookup(const struct nvpc_gpu *g, const struct nvpc_domain *d,
		       const char *spec, struct nvpc_signal *s)
{
	unsigned int dset, dom, sig;
	char dir[640], path[1024], range[96];
	char *list;
	uint64_t v;

	memset(s, 0, sizeof(*s));
	if (d->signals)
		snprintf(range, sizeof(range), "0x00..0x%02x (%s has %u signals)",
			 d->signals - 1, d->name, d->signals);
	else
		snprintf(range, sizeof(range), "0x00..0xff");
	if (spec[0] >= '0' && spec[0] <= '9') {
		if (nvpc_parse_u64(spec, &v) || v > 0xff ||
		    (d->signals && v >= d->signals)) {
			nvpc_err("signal id %s is out of range: raw ids of %s are %s",
				 spec, d->name, range);
			return -EINVAL;
		}
		s->id = v;
		if (!name_of(g, d, s->id, s->name, sizeof(s->name)))
			snprintf(s->name, sizeof(s->name), "0x%02x", s->id);
		return 0;
	}

	snprintf(dir, sizeof(dir), "%s/events", g->dir);
	snprintf(path, sizeof(path), "%s/%s", dir, spec);
	if (!strchr(spec, '/') && !parse_event(path, &dset, &dom, &sig)) {
		if (dset == d->dset && dom == d->dom &&
		    strlen(spec) < sizeof(s->name)) {
			s->id = sig;
			snprintf(s->name, sizeof(s->name), "%s", spec);
			return 0;
		}
	} else {
		dset = ~0u;
	}
	list = malloc(NVPC_MAX_LIST);
	if (!list)
		return -ENOMEM;
	list_dir(dir, signal_of_domain, d, list, NVPC_MAX_LIST);
	if (dset != ~0u)
		nvpc_err("%s is a signal of another domain (dset=%u, dom=%u), not of %s; named signals of %s: %s; or a raw id %s",
			 spec, dset, dom, d->name, d->name, list, range);
	else
		nvpc_err("unknown signal '%s' on %s (%s %s); named signals of %s: %s; or a raw id %s",
			 spec, g->pmu, g->chip, g->bus, d->name, list, range);
	free(list);
	return -EINVAL;
}

int nvpc_domain_events(const struct nvpc_gpu *g, const struct nvpc_domain *d,
		       char *out, size_t len)
{
	char dir[640], path[1024], *names, *tok, *save;
	unsigned int dset, dom, sig, n = 0;
	size_t pos = 0;

	names = malloc(NVPC_MAX_LIST);
	if (!names)
		return -ENOMEM;
	snprintf(dir, sizeof(dir), "%s/events", g->dir);
	list_dir(dir, signal_of_domain, d, names, NVPC_MAX_LIST);
	out[0] = '\0';
	for (tok = strtok_r(names, ", ", &save); tok && pos < len;
	     tok = strtok_r(NULL, ", ", &save)) {
		snprintf(path, sizeof(path), "%s/%s", dir, tok);
		if (parse_event(path, &dset, &dom, &sig))
			continue;	/* "(none)" */
		pos += snprintf(out + pos, len - pos, "%s%s 0x%02x",
				n++ ? ", " : "", tok, sig);
	}
	free(names);
	return n;
}
