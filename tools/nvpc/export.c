// SPDX-License-Identifier: GPL-2.0
/*
 * nvpc export: every GPU's counters as Prometheus metrics, over HTTP
 * (libmicrohttpd) and/or as the node exporter's textfile
 * (Documentation/monitoring.rst "Prometheus").
 *
 * Counting is perf stat's: each domain counted is one perf group on the
 * PMU's CPU (pid -1), its cycles leading up to four signals (a
 * quad-mode domain's inputs), opened at start and read when a scrape
 * comes (PERF_FORMAT_GROUP, with time_enabled and time_running). The
 * driver reads a group's members in one swap, so an idle signal and the
 * cycles beside it cover the same cycles and busy = 1 - their rates'
 * ratio is exact. The domains are top's (live.c): those of every
 * <engine>_idle signal in events/, every domain's cycles on a GPU
 * without one, and the domains of -e's events.
 *
 * The HTTP side never touches a counter: libmicrohttpd's own thread
 * serves GET and HEAD of /metrics and /, each scrape's reads serialized
 * with the textfile's by one mutex; the kernel counts meanwhile. GPUs
 * are looked for again at a scrape (at most once a second) or textfile
 * interval: a new PMU is opened, a gone one (its PMU or its device link
 * gone, a read failing) is closed and its series end.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <linux/perf_event.h>
#include <linux/nvpcounter.h>

#include <microhttpd.h>

#include "nvpc.h"
#include "nvpc_capture.h"
#include "nvpc_export.h"
#include "nvpc_gpu.h"
#include "nvpc_out.h"
#include "nvpc_perf.h"
#include "nvpc_util.h"

/*
 * 9089: the Prometheus wiki's default port allocations give 9100-9999
 * to exporters, every number of it taken since 2023; 9089 is outside
 * that range, below Prometheus' own 9090-9094 (monitoring.rst).
 */
#define EXP_DEFAULT_LISTEN	":9089"
#define EXP_DEFAULT_MS		5000	/* --textfile's interval */
#define EXP_TIMEOUT_S		10	/* a client's time for a request */
/*
 * Connections: 512 in all, 32 from one address (a Prometheus holds one
 * per target; a client that trickles a request is cut at --timeout, so
 * one address cannot keep the others out)
 */
#define EXP_CONN_LIMIT		512
#define EXP_PER_IP_LIMIT	32
#define EXP_TICK_S		0.25	/* the request deadlines' resolution */
#define EXP_CONN_MEMORY		(16 * 1024)	/* a request's headers */
#define EXP_RESCAN_S		1.0	/* look for GPUs at most this often */
#define EXP_GONE_KEEP_S		300.0	/* a gone GPU's nvpc_gpu_up 0 */
#define EXP_MAX_EVENTS		32
#define EXP_MAX_WARNED		64
#define EXP_TEXTFILE		"nvpcounter.prom"
#define EXP_CONTENT_TYPE	"text/plain; version=0.0.4; charset=utf-8"

/*
 * A client connection, from libmicrohttpd's notice of its start to that
 * of its end: while it has no whole request (since its start, or its
 * last answer) the clock runs, and after --timeout the main thread
 * shuts its socket down, however it trickles (libmicrohttpd's own
 * timeout is an idle one). Under exp.conn_lock; libmicrohttpd notes
 * the end before it closes the socket, so fd is never another's.
 */
struct exp_conn {
	struct exp_conn *next, *prev;
	int fd;
	double since;
	bool waiting;		/* for a whole request */
	bool cut;
};

struct exp {
	pthread_mutex_t lock;
	unsigned int nr;
	struct nvpc_exp_gpu *gpu[NVPC_EXP_MAX_GPUS];
	double last_scan;
	/* -g: only these PMUs (a comma list), NULL for every one */
	const char *only;
	/* -e */
	unsigned int nr_events;
	char *events[EXP_MAX_EVENTS];
	/* PMUs already said to be refused: not said again */
	unsigned int nr_warned;
	char warned[EXP_MAX_WARNED][64];
	const char *listen;
	const char *textdir;
	uint64_t interval_ns;
	unsigned int timeout_s;
	struct MHD_Daemon *mhd;
	unsigned int http_logged;
	double http_log_t;
	pthread_mutex_t conn_lock;
	struct exp_conn conns;	/* the list's head */
	unsigned long cuts;	/* clients cut at their deadline */
	double cut_log_t;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* @pmu is in -g's comma list (or there is none) */
static bool wanted(const struct exp *e, const char *pmu)
{
	return nvpc_in_list(e->only, pmu);
}

static bool warned(struct exp *e, const char *pmu)
{
	for (unsigned int i = 0; i < e->nr_warned; i++)
		if (!strcmp(e->warned[i], pmu))
			return true;
	return false;
}

static void warn_once(struct exp *e, const char *pmu)
{
	if (!warned(e, pmu) && e->nr_warned < EXP_MAX_WARNED)
		nvpc_strlcpy(e->warned[e->nr_warned++], pmu,
			     sizeof(e->warned[0]));
}

/*
 * Signal `name` (events/) into its domain's group of g: 0; 1 not a
 * signal of a domain g counts alone (skipped); -errno said
 */
static int add_signal(struct nvpc_exp_gpu *g, const char *name)
{
	struct nvpc_live_gpu *lg = &g->lg;
	char path[1200], buf[256];
	unsigned int dset, dom, sig;
	struct nvpc_domain d;

	snprintf(path, sizeof(path), "%s/events/%s", lg->g.dir, name);
	if (nvpc_event_parse(path, &dset, &dom, &sig)) {
		nvpc_err("%s: events/%s is no signal of one domain (a cycles event?): -e takes named signals (nvpc list)",
			 lg->g.pmu, name);
		return -EINVAL;
	}
	if (nvpc_sysfs_read(path, buf, sizeof(buf)) > 0 &&
	    strstr(buf, "allunits")) {
		nvpc_err("%s: %s counts every GPC or partition (allunits), which nvpc export does not count: -e takes signals of one domain",
			 lg->g.pmu, name);
		return -EINVAL;
	}
	if (nvpc_live_domain_of(&lg->g, dset, dom, &d))
		return 1;
	if (nvpc_live_add(lg, &d, name, sig, false, false))
		return 0;
	if (!nvpc_live_group_of(lg, &d, false))
		nvpc_err("%s: more than %d domains to count", lg->g.pmu,
			 NVPC_LIVE_MAX_GROUPS);
	else
		nvpc_err("%s: %s would be the fifth signal of %s, which counts %d at once (its quad-mode inputs): -e fewer of its signals",
			 lg->g.pmu, name, d.name, NVPC_LIVE_PER_GROUP);
	return -E2BIG;
}

/*
 * what g counts: engines.c's domains and -e's, opened; 0 or -errno
 * said (nothing left open)
 */
static int gpu_scan(struct exp *e, struct nvpc_exp_gpu *g)
{
	struct nvpc_live_gpu *lg = &g->lg;
	int ret = nvpc_live_engines(lg, false);

	/* a GPU without an engine: every domain's cycles, its clocks */
	if (!ret) {
		ret = nvpc_live_clocks(lg);
		if (ret > 0)
			nvpc_err("%s: more than %d domains; the first %d are counted",
				 lg->g.pmu, NVPC_LIVE_MAX_GROUPS,
				 NVPC_LIVE_MAX_GROUPS);
	}
	if (ret > 0)
		ret = 0;
	for (unsigned int i = 0; i < e->nr_events && !ret; i++) {
		char path[1200];

		snprintf(path, sizeof(path), "%s/events/%s", lg->g.dir,
			 e->events[i]);
		if (access(path, F_OK))
			continue;	/* another chip's event */
		ret = add_signal(g, e->events[i]);
		if (ret > 0) {
			nvpc_err("%s: events/%s names no domain of %s",
				 lg->g.pmu, e->events[i], lg->g.pmu);
			ret = -EINVAL;
		}
	}
	if (!ret && !lg->nr) {
		nvpc_err("%s (%s %s): no domain in %s/domains", lg->g.pmu,
			 lg->g.chip, lg->g.bus, lg->g.dir);
		ret = -ENOENT;
	}
	if (!ret)
		ret = nvpc_live_open(lg, "a GPU's counters are system-wide (one CPU, every task): nvpc export needs CAP_PERFMON (the unit nvpc-export.service gives it)");
	return ret;
}

/* the driver's counts of the domain and the GPU, where sysfs has them */
static void read_losses(struct nvpc_exp_gpu *g)
{
	char path[1200];

	snprintf(path, sizeof(path), "%s/reads_deferred", g->lg.g.dir);
	g->have_deferred = !nvpc_sysfs_u64(path, &g->reads_deferred);
	for (unsigned int i = 0; i < g->lg.nr; i++) {
		struct nvpc_exp_losses *x = &g->loss[i];

		for (unsigned int l = 0; l < NVPC_EXP_NR_LOSS; l++) {
			snprintf(path, sizeof(path), "%s/domains/%s/%s",
				 g->lg.g.dir, g->lg.grp[i].name,
				 nvpc_exp_loss_file[l]);
			x->have[l] = !nvpc_sysfs_u64(path, &x->v[l]);
		}
	}
}

/*
 * is g's GPU still there: its PMU and the PMU's link to its device (the
 * driver takes the link away with the GPU, the PMU stays while events
 * hold it)
 */
static bool gpu_present(const struct nvpc_exp_gpu *g)
{
	char path[600];
	struct stat st;

	snprintf(path, sizeof(path), "%s/device", g->lg.g.dir);
	return !lstat(path, &st);
}

static void gpu_gone(struct nvpc_exp_gpu *g, const char *why)
{
	nvpc_err("export: %s (%s %s) %s: its series end", g->lg.g.pmu,
		 g->lg.g.chip, g->lg.g.bus, why);
	nvpc_live_close(&g->lg);
	g->up = false;
	g->gone_at = now();
}

/* every group's totals; a GPU whose read fails is gone */
static void gpu_read(struct nvpc_exp_gpu *g)
{
	int err;

	if (!gpu_present(g)) {
		gpu_gone(g, "went away");
		return;
	}
	err = nvpc_live_read(&g->lg);
	if (err) {
		gpu_gone(g, err == -ENODATA ? "stopped counting (read 0 bytes)" :
			 "cannot be read");
		return;
	}
	read_losses(g);
}

static struct nvpc_exp_gpu *find(struct exp *e, const char *pmu)
{
	for (unsigned int k = 0; k < e->nr; k++)
		if (!strcmp(e->gpu[k]->lg.g.pmu, pmu))
			return e->gpu[k];
	return NULL;
}

static void drop(struct exp *e, unsigned int k)
{
	nvpc_live_close(&e->gpu[k]->lg);
	free(e->gpu[k]);
	memmove(&e->gpu[k], &e->gpu[k + 1],
		(e->nr - k - 1) * sizeof(e->gpu[0]));
	e->nr--;
}

/*
 * PMU `name`, new: opened and counting. 0; 1 not counted (said once;
 * one refused by an error is on the page as refused, nvpc_gpu_up 0);
 * -EACCES/-EPERM a privilege refused it (said)
 */
static int gpu_add(struct exp *e, const char *name)
{
	struct nvpc_exp_gpu *g;
	FILE *quiet = NULL;
	int ret;

	if (e->nr == NVPC_EXP_MAX_GPUS)
		return 1;
	/* a PMU refused before is tried again, but not said again */
	if (warned(e, name)) {
		quiet = fopen("/dev/null", "we");
		nvpc_msg_file = quiet;
	}
	g = calloc(1, sizeof(*g));
	ret = g ? nvpc_gpu_open(name, &g->lg.g) : -ENOMEM;
	/* a gone GPU whose PMU stays while others' events hold it */
	if (!ret)
		ret = gpu_present(g) ? 0 : 1;
	if (!ret)
		ret = gpu_scan(e, g);
	nvpc_msg_file = NULL;
	if (quiet)
		fclose(quiet);
	if (ret) {
		if (g)
			nvpc_live_close(&g->lg);
		if (ret < 0)
			warn_once(e, name);
		if (ret < 0 && g) {
			/* said on the page too, so that an alert can fire */
			nvpc_strlcpy(g->lg.g.pmu, name, sizeof(g->lg.g.pmu));
			snprintf(g->lg.g.dir, sizeof(g->lg.g.dir), "%s/%s",
				 nvpc_sysfs_root(), name);
			g->lg.nr = 0;
			g->refused = true;
			g->gone_at = now();
			e->gpu[e->nr++] = g;
		} else {
			free(g);
		}
		return ret == -EACCES || ret == -EPERM ? ret : 1;
	}
	g->up = true;
	e->gpu[e->nr++] = g;
	nvpc_err("export: %s (%s %s): counting %u domain%s", g->lg.g.pmu,
		 g->lg.g.chip, g->lg.g.bus, g->lg.nr, g->lg.nr == 1 ? "" : "s");
	return 0;
}

/*
 * Look for GPUs again: gone ones end, new ones are opened, those gone
 * long enough are dropped. -EACCES/-EPERM when first is set and a
 * privilege refused a GPU (said), else 0.
 */
static int rescan(struct exp *e, bool first)
{
	struct dirent **pmus = NULL;
	double t = now();
	int n, ret = 0;

	e->last_scan = t;
	for (unsigned int k = 0; k < e->nr; k++) {
		struct nvpc_exp_gpu *g = e->gpu[k];

		if (g->up && !gpu_present(g)) {
			gpu_gone(g, "went away");
		} else if (g->refused && !gpu_present(g)) {
			g->refused = false;	/* gone */
			g->gone_at = t;
		}
	}
	n = nvpc_pmu_scan(&pmus);
	for (int i = 0; i < n; i++) {
		const char *name = pmus[i]->d_name;
		struct nvpc_exp_gpu *g = find(e, name);
		char path[1024];

		struct stat st;

		if (!wanted(e, name)) {
			free(pmus[i]);
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s/device", nvpc_sysfs_root(),
			 name);
		if (g && !g->up && !lstat(path, &st)) {
			/* the name again, for a GPU added since */
			for (unsigned int k = 0; k < e->nr; k++)
				if (e->gpu[k] == g)
					drop(e, k);
			g = NULL;
		}
		if (!g && !ret) {
			int r = gpu_add(e, name);

			if (first && r < 0)
				ret = r;
		}
		free(pmus[i]);
	}
	free(pmus);
	for (unsigned int k = 0; k < e->nr; k++)
		if (!e->gpu[k]->up && t - e->gpu[k]->gone_at > EXP_GONE_KEEP_S)
			drop(e, k--);
	return ret;
}

/* the page as of now, malloc()ed into *page: its length, or -errno */
static ssize_t build_page(struct exp *e, char **page)
{
	size_t len = 0;
	FILE *o;
	int ret;

	*page = NULL;
	pthread_mutex_lock(&e->lock);
	if (now() - e->last_scan >= EXP_RESCAN_S)
		rescan(e, false);
	for (unsigned int k = 0; k < e->nr; k++)
		if (e->gpu[k]->up)
			gpu_read(e->gpu[k]);
	o = open_memstream(page, &len);
	ret = o ? nvpc_export_page(o, (const struct nvpc_exp_gpu *const *)e->gpu,
				   e->nr) : -ENOMEM;
	pthread_mutex_unlock(&e->lock);
	if (o && fclose(o) && !ret)
		ret = -ENOMEM;
	if (ret) {
		free(*page);
		*page = NULL;
		return ret;
	}
	return len;
}

/* the page into DIR/nvpcounter.prom, atomically (nvpc_out.h); 0 or -1 said */
static int write_textfile(struct exp *e)
{
	char dst[PATH_MAX], *page;
	ssize_t len = build_page(e, &page);
	int ret;

	if (len < 0) {
		nvpc_err("export: the page: %s", strerror((int)-len));
		return (int)len;
	}
	snprintf(dst, sizeof(dst), "%s/%s", e->textdir, EXP_TEXTFILE);
	/* (its temporary file is not *.prom: the collector reads none) */
	ret = nvpc_out_write(dst, page, len, 0644);
	free(page);
	return ret;
}

/* the connection's own record (notify_conn()), NULL if it has none */
static struct exp_conn *conn_of(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *i =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	return i ? i->socket_context : NULL;
}

/* a connection's request: complete (its clock stops) or answered */
static void conn_mark(struct exp *e, struct MHD_Connection *c, bool waiting)
{
	struct exp_conn *k = conn_of(c);

	if (!k)
		return;
	pthread_mutex_lock(&e->conn_lock);
	k->waiting = waiting;
	k->since = now();
	pthread_mutex_unlock(&e->conn_lock);
}

static void notify_conn(void *cls, struct MHD_Connection *c,
			void **socket_context,
			enum MHD_ConnectionNotificationCode code)
{
	struct exp *e = cls;
	struct exp_conn *k = *socket_context;
	const union MHD_ConnectionInfo *i;

	if (code == MHD_CONNECTION_NOTIFY_STARTED) {
		i = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
		k = i ? calloc(1, sizeof(*k)) : NULL;
		if (!k)
			return;	/* no deadline; the idle timeout still cuts */
		k->fd = i->connect_fd;
		k->since = now();
		k->waiting = true;
		pthread_mutex_lock(&e->conn_lock);
		k->next = e->conns.next;
		k->prev = &e->conns;
		k->next->prev = k;
		e->conns.next = k;
		pthread_mutex_unlock(&e->conn_lock);
		*socket_context = k;
	} else if (code == MHD_CONNECTION_NOTIFY_CLOSED && k) {
		pthread_mutex_lock(&e->conn_lock);
		k->prev->next = k->next;
		k->next->prev = k->prev;
		pthread_mutex_unlock(&e->conn_lock);
		free(k);
		*socket_context = NULL;
	}
}

/* a request answered (or ended): the clock runs for the next one */
static void completed(void *cls, struct MHD_Connection *c, void **req_cls,
		      enum MHD_RequestTerminationCode toe)
{
	(void)req_cls;
	(void)toe;
	conn_mark(cls, c, true);
}

/*
 * Every connection without a whole request --timeout after its start
 * or its last answer: its socket shut down, which libmicrohttpd's
 * thread sees as the client's end and closes. Said at most once a
 * minute, with the count.
 */
static void cut_late(struct exp *e)
{
	double t = now();
	unsigned long cut = 0;

	pthread_mutex_lock(&e->conn_lock);
	for (struct exp_conn *k = e->conns.next; k != &e->conns; k = k->next)
		if (k->waiting && !k->cut && t - k->since >= e->timeout_s) {
			shutdown(k->fd, SHUT_RDWR);
			k->cut = true;
			cut++;
		}
	pthread_mutex_unlock(&e->conn_lock);
	e->cuts += cut;
	if (cut && t - e->cut_log_t > 60) {
		e->cut_log_t = t;
		nvpc_err("export: http: cut %lu client%s that sent no whole request in %u s (%lu since the start)",
			 cut, cut == 1 ? "" : "s", e->timeout_s, e->cuts);
	}
}

struct exp_cl {
	const char *first;
	bool bad;
};

/*
 * Each Content-Length field (and each value of a list in one): the
 * same number every time, or the framing is invalid (RFC 9112 6.3:
 * answered 400)
 */
static enum MHD_Result content_length(void *cls, enum MHD_ValueKind kind,
				      const char *key, const char *value)
{
	struct exp_cl *cl = cls;
	const char *p = value;

	(void)kind;
	if (strcasecmp(key, MHD_HTTP_HEADER_CONTENT_LENGTH))
		return MHD_YES;
	do {
		size_t n, end;

		p += strspn(p, " \t");
		n = strspn(p, "0123456789");
		end = n + strspn(p + n, " \t");
		if (!n || (p[end] && p[end] != ','))
			cl->bad = true;
		else if (!cl->first)
			cl->first = p;
		else if (strspn(cl->first, "0123456789") != n ||
			 strncmp(cl->first, p, n))
			cl->bad = true;
		p = strchr(p, ',');
	} while (p++ && !cl->bad);
	return cl->bad ? MHD_NO : MHD_YES;
}

static enum MHD_Result reply(struct MHD_Connection *c, unsigned int status,
			     const char *text)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(
		strlen(text), (void *)text, MHD_RESPMEM_PERSISTENT);
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
				"text/plain; charset=utf-8");
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

/*
 * A request: GET or HEAD of /metrics (the page) or / (a pointer to it),
 * without a body. Errors are answered at the first call (the connection
 * then closes); a good request at the second, its headers all read, so
 * the connection stays open for the next scrape.
 */
static enum MHD_Result handle(void *cls, struct MHD_Connection *c,
			      const char *url, const char *method,
			      const char *version, const char *upload_data,
			      size_t *upload_data_size, void **req_cls)
{
	struct exp *e = cls;
	struct MHD_Response *r;
	struct exp_cl cl = { 0 };
	enum MHD_Result ret;
	ssize_t len;
	char *page;

	(void)version;
	(void)upload_data;
	if (!*req_cls) {
		*req_cls = c;
		/* its headers are all here: its deadline no longer runs */
		conn_mark(e, c, false);
		if (strcmp(method, MHD_HTTP_METHOD_GET) &&
		    strcmp(method, MHD_HTTP_METHOD_HEAD))
			return reply(c, MHD_HTTP_METHOD_NOT_ALLOWED,
				     "nvpc export serves GET and HEAD only\n");
		MHD_get_connection_values(c, MHD_HEADER_KIND, content_length,
					  &cl);
		if (cl.bad)
			return reply(c, MHD_HTTP_BAD_REQUEST,
				     "Content-Length: two different lengths, or not a number\n");
		if ((cl.first && strspn(cl.first, "0") !=
				 strspn(cl.first, "0123456789")) ||
		    MHD_lookup_connection_value(c, MHD_HEADER_KIND,
						MHD_HTTP_HEADER_TRANSFER_ENCODING))
			return reply(c, MHD_HTTP_CONTENT_TOO_LARGE,
				     "nvpc export takes no request body\n");
		if (strcmp(url, "/") && strcmp(url, "/metrics"))
			return reply(c, MHD_HTTP_NOT_FOUND,
				     "not found: nvpc export serves /metrics\n");
		return MHD_YES;
	}
	if (*upload_data_size)	/* a body none announced: cut */
		return MHD_NO;
	if (!strcmp(url, "/"))
		return reply(c, MHD_HTTP_OK,
			     "nvpc export: the nvpcounter GPUs' counters for Prometheus are at /metrics\n");
	len = build_page(e, &page);
	if (len < 0)
		return reply(c, MHD_HTTP_INTERNAL_SERVER_ERROR,
			     "nvpc export could not build the page\n");
	r = MHD_create_response_from_buffer(len, page, MHD_RESPMEM_MUST_FREE);
	if (!r) {
		free(page);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
				EXP_CONTENT_TYPE);
	ret = MHD_queue_response(c, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	return ret;
}

/* libmicrohttpd's messages (a bad request ...), at most 10 a minute */
static void http_log(void *cls, const char *fmt, va_list ap)
{
	struct exp *e = cls;
	double t = now();

	if (t - e->http_log_t > 60) {
		e->http_log_t = t;
		e->http_logged = 0;
	}
	if (e->http_logged++ >= 10)
		return;
	fputs("nvpc: export: http: ", stderr);
	vfprintf(stderr, fmt, ap);
	if (!*fmt || fmt[strlen(fmt) - 1] != '\n')
		fputc('\n', stderr);
}

/*
 * --listen ADDR:PORT into a listening socket *fd: 0; 2 not an address
 * (said); 1 it cannot be bound (said)
 */
static int listen_on(const char *spec, int *fd)
{
	struct addrinfo hints = {
		.ai_socktype = SOCK_STREAM,
		.ai_flags = AI_PASSIVE | AI_NUMERICSERV,
	};
	struct addrinfo *ai = NULL;
	char host[256], port[8];
	const char *colon = strrchr(spec, ':');
	uint64_t p;
	size_t hl;
	int one = 1, zero = 0, err;

	if (!colon) {
		nvpc_err("--listen %s: ADDR:PORT (127.0.0.1:9089, [::1]:9089, :9089 for every address)",
			 spec);
		return 2;
	}
	hl = colon - spec;
	if (hl && spec[0] == '[') {
		if (spec[hl - 1] != ']') {
			nvpc_err("--listen %s: an IPv6 address is [ADDR]:PORT",
				 spec);
			return 2;
		}
		spec++;
		hl -= 2;
	}
	if (hl >= sizeof(host) || strlen(colon + 1) >= sizeof(port) ||
	    !colon[1] || strspn(colon + 1, "0123456789") != strlen(colon + 1) ||
	    nvpc_parse_u64(colon + 1, &p) || p < 1 || p > 65535) {
		nvpc_err("--listen %s: the port is a number 1..65535", spec);
		return 2;
	}
	memcpy(host, spec, hl);
	host[hl] = '\0';
	snprintf(port, sizeof(port), "%u", (unsigned int)p);
	if (!hl || !strcmp(host, "*")) {
		/* every address: IPv6 taking IPv4 too, else IPv4 alone */
		hints.ai_family = AF_INET6;
		err = getaddrinfo(NULL, port, &hints, &ai);
		*fd = err ? -1 : socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (*fd < 0) {
			if (ai)
				freeaddrinfo(ai);
			hints.ai_family = AF_INET;
			err = getaddrinfo(NULL, port, &hints, &ai);
		} else {
			setsockopt(*fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero,
				   sizeof(zero));
		}
	} else {
		*fd = -1;
		err = getaddrinfo(host, port, &hints, &ai);
	}
	if (err) {
		nvpc_err("--listen %s%s%s: %s", hl ? host : "", ":", port,
			 gai_strerror(err));
		return 2;
	}
	if (*fd < 0)
		*fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (*fd < 0 ||
	    setsockopt(*fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(*fd, ai->ai_addr, ai->ai_addrlen) || listen(*fd, 128)) {
		err = errno;
		nvpc_err("--listen %s:%s: %s%s", hl ? host : "", port,
			 strerror(err),
			 err == EADDRINUSE ? " (another exporter on that port? --listen another)" :
			 err == EACCES ? " (ports below 1024 need CAP_NET_BIND_SERVICE)" :
			 err == EADDRNOTAVAIL ? " (no interface of this host has that address)" : "");
		if (*fd >= 0)
			close(*fd);
		freeaddrinfo(ai);
		return 1;
	}
	freeaddrinfo(ai);
	return 0;
}

/* where the page is, as a URL to paste (a wildcard: this host's name) */
static void log_url(const char *listen)
{
	char host[256] = "", url[600], local[600];

	if (gethostname(host, sizeof(host)) || !host[0] ||
	    !strcmp(host, "localhost"))
		host[0] = '\0';
	host[sizeof(host) - 1] = '\0';
	nvpc_export_url(url, sizeof(url), listen, host);
	nvpc_export_url(local, sizeof(local), listen, NULL);
	if (strcmp(url, local))
		nvpc_err("export: serving %s (every address; on this host %s)",
			 url, local);
	else
		nvpc_err("export: serving %s", url);
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: nvpc export [--listen ADDR:PORT] [--textfile DIR [-I MS]]\n"
"                   [-g PMU,...] [-e EVENT,...] [--timeout SECS]\n"
"\n"
"Every GPU's counters for Prometheus: each engine's idle signal and its\n"
"domain's cycles (busy = 1 - rate(idle) / rate(cycles)), each domain's\n"
"clock, perf's enabled and running time and the driver's loss counts,\n"
"counted like perf stat and read at each scrape of /metrics. GPUs are\n"
"looked for again at a scrape: none yet serves nvpc_gpus 0.\n"
"\n"
"  -l, --listen ADDR:PORT  serve HTTP there (default %s: every address,\n"
"                          as node_exporter; 127.0.0.1:9089 this host only)\n"
"  -t, --textfile DIR      write DIR/%s for the node exporter's\n"
"                          textfile collector, replaced atomically every\n"
"                          interval; alone, without HTTP (add --listen\n"
"                          for both)\n"
"  -I, --interval MS       the textfile's interval (default %d ms), or a\n"
"                          time with its unit\n"
"  -g, --gpu PMU,...       only these GPUs (their PMUs' names, nvpc list),\n"
"                          as they come and go\n"
"  -e, --event EVENT,...   count these named signals of events/ too\n"
"                          (nvpc list), in their domains' groups\n"
"      --timeout SECS      cut a client that has sent no whole request\n"
"                          this long after connecting or its last answer,\n"
"                          or is idle this long (default %d)\n"
"\n"
"Needs CAP_PERFMON, root, or kernel.perf_event_paranoid <= 0. SIGTERM or\n"
"SIGINT end it (exit 0); SIGHUP looks for GPUs at once. Exit status: 0;\n"
"1 an error (privilege, the address in use, the textfile directory);\n"
"2 bad arguments.\n", EXP_DEFAULT_LISTEN, EXP_TEXTFILE, EXP_DEFAULT_MS,
		EXP_TIMEOUT_S);
}

/* -e's list into e->events; -EINVAL said */
static int add_events(struct exp *e, const char *list)
{
	char *copy = strdup(list), *tok, *save;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok && !ret;
	     tok = strtok_r(NULL, ",", &save)) {
		if (strspn(tok, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != strlen(tok) ||
		    strlen(tok) >= NVPC_LIVE_NAME_LEN) {
			nvpc_err("-e %s: '%s' is not an event name of events/ (nvpc list names them)",
				 list, tok);
			ret = -EINVAL;
		} else if (e->nr_events == EXP_MAX_EVENTS) {
			nvpc_err("-e: more than %d events", EXP_MAX_EVENTS);
			ret = -EINVAL;
		} else {
			e->events[e->nr_events] = strdup(tok);
			if (!e->events[e->nr_events])
				ret = -ENOMEM;
			else
				e->nr_events++;
		}
	}
	if (!ret && !strchr(list, ',') && !*list) {
		nvpc_err("-e: an event name");
		ret = -EINVAL;
	}
	free(copy);
	return ret;
}

static int parse(int argc, char **argv, struct exp *e)
{
	static const struct option longopts[] = {
		{ "listen", required_argument, NULL, 'l' },
		{ "textfile", required_argument, NULL, 't' },
		{ "interval", required_argument, NULL, 'I' },
		{ "event", required_argument, NULL, 'e' },
		{ "gpu", required_argument, NULL, 'g' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct nvpc_report_opts ro = { 0 };
	bool bad = false, interval = false;
	uint64_t v;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "l:t:I:e:g:h", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'l':
			e->listen = optarg;
			break;
		case 't':
			e->textdir = optarg;
			break;
		case 'I':
			nvpc_view_option('I', optarg, &ro, &bad);
			if (bad)
				return -EINVAL;
			e->interval_ns = ro.interval_ns;
			interval = true;
			break;
		case 'e':
			if (add_events(e, optarg))
				return -EINVAL;
			break;
		case 'g':
			if (!*optarg || strchr(optarg, '/')) {
				nvpc_err("-g '%s': PMU names (nvpcounter, nvpcounter_1 ...; nvpc list), comma-separated",
					 optarg);
				return -EINVAL;
			}
			e->only = optarg;
			break;
		case 'T':
			if (nvpc_parse_u64(optarg, &v) || !v || v > 3600) {
				nvpc_err("--timeout %s: seconds, 1..3600", optarg);
				return -EINVAL;
			}
			e->timeout_s = v;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return -EINVAL;
		}
	}
	if (optind < argc) {
		nvpc_err("export takes no argument ('%s')", argv[optind]);
		return -EINVAL;
	}
	if (interval && !e->textdir) {
		nvpc_err("-I is --textfile's interval (a scrape reads the counters when it comes)");
		return -EINVAL;
	}
	if (!e->textdir && !e->listen)
		e->listen = EXP_DEFAULT_LISTEN;
	return 0;
}

/* the textfile directory, before anything counts: 0 or 1 said */
static int textdir_check(const char *dir)
{
	struct stat st;

	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		nvpc_err("--textfile %s: %s", dir,
			 errno && !S_ISDIR(st.st_mode) ? strerror(errno) : "not a directory");
		return 1;
	}
	if (access(dir, W_OK | X_OK)) {
		nvpc_err("--textfile %s: %s (the node exporter's textfile directory, writable by nvpc export)",
			 dir, strerror(errno));
		return 1;
	}
	return 0;
}

/* -e's events: each named by some GPU present (when there is one) */
static int events_check(struct exp *e)
{
	for (unsigned int i = 0; i < e->nr_events; i++) {
		bool named = false;

		for (unsigned int k = 0; k < e->nr && !named; k++)
			for (unsigned int j = 0; j < e->gpu[k]->lg.nr; j++)
				for (unsigned int s = 0; s < e->gpu[k]->lg.grp[j].nr; s++)
					named |= !strcmp(e->gpu[k]->lg.grp[j].sig[s].name,
							 e->events[i]);
		if (e->nr && !named) {
			nvpc_err("-e %s: no GPU's events/ names it (nvpc list names them)",
				 e->events[i]);
			return 2;
		}
	}
	return 0;
}

static void exp_free(struct exp *e)
{
	while (e->nr)
		drop(e, e->nr - 1);
	for (unsigned int i = 0; i < e->nr_events; i++)
		free(e->events[i]);
	pthread_mutex_destroy(&e->lock);
	pthread_mutex_destroy(&e->conn_lock);
	free(e);
}

/*
 * -g's names that no PMU has: said with the PMUs there are, which -g
 * leaves out (a typo otherwise looks like no GPU at all); they are
 * still counted if they come
 */
static void only_check(struct exp *e)
{
	struct dirent **pmus = NULL;
	char *copy, *tok, *save, all[1024] = "";
	size_t len = 0;
	int n;

	if (!e->only)
		return;
	n = nvpc_pmu_scan(&pmus);
	for (int i = 0; i < n; i++) {
		if (len < sizeof(all))
			len += snprintf(all + len, sizeof(all) - len, "%s%s",
					len ? ", " : "", pmus[i]->d_name);
		free(pmus[i]);
	}
	free(pmus);
	copy = strdup(e->only);
	for (tok = copy ? strtok_r(copy, ",", &save) : NULL; tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char path[1024];

		snprintf(path, sizeof(path), "%s/%s/type", nvpc_sysfs_root(),
			 tok);
		if (access(path, F_OK))
			nvpc_err("-g %s: no PMU %s in %s (%s%s); counted if it comes",
				 tok, tok, nvpc_sysfs_root(),
				 n > 0 ? "nvpcounter PMUs, left out by -g: " :
					 "no nvpcounter PMU yet",
				 n > 0 ? all : "");
	}
	free(copy);
}

int nvpc_export(int argc, char **argv)
{
	struct exp *e = calloc(1, sizeof(*e));
	sigset_t sigs, old;
	int ret = 0, fd = -1, sig;
	struct timespec ts;
	double next;

	if (!e) {
		nvpc_err("out of memory");
		return 1;
	}
	pthread_mutex_init(&e->lock, NULL);
	pthread_mutex_init(&e->conn_lock, NULL);
	e->conns.next = &e->conns;
	e->conns.prev = &e->conns;
	/* the first cut is said even in a system's first minute */
	e->cut_log_t = -1e9;
	e->interval_ns = EXP_DEFAULT_MS * 1000000ULL;
	e->timeout_s = EXP_TIMEOUT_S;
	if (parse(argc, argv, e)) {
		exp_free(e);
		return 2;
	}
	if (e->listen) {
		ret = listen_on(e->listen, &fd);
		if (ret) {
			exp_free(e);
			return ret;
		}
	}
	if (e->textdir && textdir_check(e->textdir)) {
		if (fd >= 0)
			close(fd);
		exp_free(e);
		return 1;
	}
	/* counting first: a privilege refused is said before serving */
	only_check(e);
	ret = rescan(e, true) ? 1 : events_check(e);
	if (ret) {
		if (fd >= 0)
			close(fd);
		exp_free(e);
		return ret;
	}
	if (!e->nr)
		nvpc_err("export: no GPU counts yet (no nvpcounter PMU in %s%s, or none would open): nvpc_gpus 0; looking again at each scrape%s",
			 nvpc_sysfs_root(), e->only ? " of -g's" : "",
			 e->textdir ? " and interval" : "");
	if (e->textdir && write_textfile(e)) {
		if (fd >= 0)
			close(fd);
		exp_free(e);
		return 1;
	}

	/* the signals come to this thread alone, not libmicrohttpd's */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGHUP);
	sigprocmask(SIG_BLOCK, &sigs, &old);
	signal(SIGPIPE, SIG_IGN);
	if (fd >= 0) {
		e->mhd = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD |
					  MHD_USE_ERROR_LOG | MHD_USE_AUTO,
					  0, NULL, NULL, handle, e,
					  MHD_OPTION_EXTERNAL_LOGGER, http_log, e,
					  MHD_OPTION_LISTEN_SOCKET, fd,
					  MHD_OPTION_CONNECTION_LIMIT,
					  (unsigned int)EXP_CONN_LIMIT,
					  MHD_OPTION_PER_IP_CONNECTION_LIMIT,
					  (unsigned int)EXP_PER_IP_LIMIT,
					  MHD_OPTION_NOTIFY_CONNECTION, notify_conn, e,
					  MHD_OPTION_NOTIFY_COMPLETED, completed, e,
					  MHD_OPTION_CONNECTION_TIMEOUT,
					  e->timeout_s,
					  MHD_OPTION_CONNECTION_MEMORY_LIMIT,
					  (size_t)EXP_CONN_MEMORY,
					  MHD_OPTION_END);
		if (!e->mhd) {
			nvpc_err("export: libmicrohttpd would not start on %s",
				 e->listen);
			close(fd);
			exp_free(e);
			return 1;
		}
		log_url(e->listen);
	}
	next = now() + e->interval_ns / 1e9;
	for (;;) {
		/* a tick for the deadlines, or the textfile's next time */
		double wait = e->mhd ? EXP_TICK_S : 3600;

		if (e->textdir && next - now() < wait)
			wait = next > now() ? next - now() : 0;
		ts.tv_sec = (time_t)wait;
		ts.tv_nsec = (long)((wait - ts.tv_sec) * 1e9);
		sig = sigtimedwait(&sigs, NULL, &ts);
		if (sig == SIGINT || sig == SIGTERM)
			break;
		if (sig == SIGHUP) {
			pthread_mutex_lock(&e->lock);
			rescan(e, false);
			pthread_mutex_unlock(&e->lock);
		}
		if (e->mhd)
			cut_late(e);
		if (e->textdir && (sig == SIGHUP || now() >= next)) {
			write_textfile(e);
			next += e->interval_ns / 1e9;
			if (next < now())
				next = now() + e->interval_ns / 1e9;
		}
	}
	if (e->mhd)
		MHD_stop_daemon(e->mhd);
	sigprocmask(SIG_SETMASK, &old, NULL);
	exp_free(e);
	return 0;
}
