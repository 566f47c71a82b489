// SPDX-License-Identifier: GPL-2.0
/*
 * nvpc record: open a record event on each domain asked for of an
 * nvpcounter PMU (or a sampled group where record mode cannot be had),
 * take the packets from the perf AUX areas and write them to one nvpc
 * capture, a stream per domain (Documentation/nvpc.rst). The events
 * are opened and mapped in record_open.c, their rings read in
 * record_drain.c; this file is the command: options, the capture's
 * headers, the loop and the summary.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <linux/nvpcounter.h>

#include "nvpc.h"
#include "nvpc_gpu.h"
#include "nvpc_out.h"
#include "nvpc_util.h"
#include "outq.h"
#include "record.h"
#define DEFAULT_EVERY		65536
/*
 * Sampled mode (no record mode here: pre-G84, the PCI backend): a sample
 * every millisecond by default, ten times perf stat -I's best and well
 * below perf's default limit of 100000 samples/s; 10 us is that limit.
 */
#define DEFAULT_SAMPLE_NS	1000000
#define MIN_SAMPLE_NS		10000
#define SAMPLE_DATA_PAGES	64
#define DEFAULT_DATA_PAGES	8
#define POLL_MS			100
#define CHILD_TERM_MS		2000


static volatile sig_atomic_t stop_signal, child_exited;

static void on_signal(int sig)
{
	if (sig == SIGCHLD)
		child_exited = 1;
	else
		stop_signal = sig;
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: nvpc record -d DOMAIN -s SIGNALS [-d DOMAIN -s SIGNALS ...]\n"
"                   [options] [-- COMMAND [ARGS...]]\n"
"\n"
"Record the counters of one or more domains of an nvpcounter PMU into\n"
"one capture until COMMAND exits, --duration elapses, or SIGINT/SIGTERM.\n"
"\n"
"  -g, --gpu PMU         the PMU (default " NVPC_DEFAULT_PMU ")\n"
"  -d, --domain DOM      main.N, hub.N, gpcG.N or partP.N (domains/ in sysfs);\n"
"                        repeat for more domains (up to 64), one event each\n"
"  -s, --signals LIST    comma-separated signals to count in the -d before\n"
"                        it: names from the PMU's events/ of that domain, or\n"
"                        raw ids (0x10); up to 12 (4 with --short)\n"
"      --mode MODE       record (hardware record mode), sample (a cpu-clock\n"
"                        leading a perf group reads the counters), or auto\n"
"                        (default: record where the domain's record_aux_max\n"
"                        is above 0, else sample)\n"
"      --every N         record: a packet every N cycles of the domain\n"
"                        (PERIODIC): 1024, 2048, 4096, 8192, 16384, 32768 or\n"
"                        65536 (default 65536). sample: a time (10us, 1ms,\n"
"                        0.5s), a rate (1000Hz) or N cycles at the domain's\n"
"                        clock; at least 10us (default 1ms)\n"
"      --stop SIG        a packet on each cycle signal SIG is 1 instead\n"
"      --short           16-byte packets (4 counters) instead of 32-byte\n"
"  -o, --output FILE     the capture (default " NVPC_DEFAULT_OUTPUT "; an\n"
"                        existing FILE is kept as FILE.old; - for stdout)\n"
"      --duration SECS   stop after SECS seconds\n"
"      --aux-pages N     AUX area pages, a power of two (default: what\n"
"                        %d ms of packets take at the domain's clock and\n"
"                        --every, at least %d; %d with --stop; halved down\n"
"                        to %d drain periods' worth where mlock refuses it)\n"
"      --data-pages N    data ring pages, a power of two (default %d)\n"
"      --clock HZ        the domain's clock for the report (default: its\n"
"                        measured clock_hz, else nominal_hz)\n"
"      --write-buffer SIZE  the capture's ring in memory between the AUX\n"
"                        areas and FILE (K, M or G; default %lluM): how\n"
"                        long FILE may fall behind before the AUX areas fill\n"
"  -q, --quiet           no summary\n"
"  -v, --verbose         say what is opened and every gap\n",
		AUX_HOLD_MS, AUX_MIN_PAGES, DEFAULT_AUX_PAGES, AUX_DRAIN_HOLD,
		DEFAULT_DATA_PAGES, NVPC_OUTQ_DEFAULT >> 20);
}

static bool pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

enum { O_EVERY = 256, O_STOP, O_SHORT, O_AUX, O_DATA, O_DURATION, O_CLOCK,
       O_MODE, O_WRITE_BUFFER };

/* the first NVPC_RECORD_SHARED are nvpc top's too, passed on to record */
const struct option nvpc_record_options[] = {
	{ "gpu", required_argument, NULL, 'g' },
	{ "domain", required_argument, NULL, 'd' },
	{ "signals", required_argument, NULL, 's' },
	{ "every", required_argument, NULL, O_EVERY },
	{ "stop", required_argument, NULL, O_STOP },
	{ "short", no_argument, NULL, O_SHORT },
	{ "aux-pages", required_argument, NULL, O_AUX },
	{ "data-pages", required_argument, NULL, O_DATA },
	{ "duration", required_argument, NULL, O_DURATION },
	{ "clock", required_argument, NULL, O_CLOCK },
	{ "mode", required_argument, NULL, O_MODE },
	{ "output", required_argument, NULL, 'o' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "write-buffer", required_argument, NULL, O_WRITE_BUFFER },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/*
 * --every as a time ("10us", "1ms", "0.5s", "250000ns") or a rate
 * ("1000Hz") into *ns; a bare number leaves *ns 0 (cycles). 0, or
 * -EINVAL with the reason printed.
 */
static int parse_time(const char *arg, uint64_t *ns)
{
	static const struct { const char *unit; double ns; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
		{ "Hz", 0 }, { "hz", 0 },
	};
	char *end;
	double v = strtod(arg, &end), t = -1;

	*ns = 0;
	if (end == arg || !*end)
		return 0;
	for (unsigned int i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].unit))
			continue;
		t = units[i].ns ? v * units[i].ns : v > 0 ? 1e9 / v : -1;
		break;
	}
	if (!(t >= MIN_SAMPLE_NS) || t > 3600e9) {
		nvpc_err("--every %s: a number of cycles, a time from 10us to 3600s (10us, 1ms, 0.5s) or a rate up to 100000Hz",
			 arg);
		return -EINVAL;
	}
	*ns = (uint64_t)(t + 0.5);
	return 0;
}

/* --write-buffer: bytes, or K, M, G (powers of 1024) */
static int parse_size(const char *arg, uint64_t *bytes)
{
	static const char units[] = "KMG";
	const char *u;
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (end == arg || errno || arg[0] == '-')
		goto bad;
	if (*end) {
		u = strchr(units, *end);
		if (!u || end[1] || v > (NVPC_OUTQ_MAX >> 10))
			goto bad;
		v <<= 10 * (u - units + 1);
	}
	if (v < NVPC_OUTQ_MIN || v > NVPC_OUTQ_MAX)
		goto bad;
	*bytes = v;
	return 0;
bad:
	nvpc_err("--write-buffer %s: bytes, or a number with K, M or G, from %lluK to %lluG",
		 arg, NVPC_OUTQ_MIN >> 10, NVPC_OUTQ_MAX >> 30);
	return -EINVAL;
}

/* -d DOM: one more domain, not one already given */
static int add_domain(struct rec_opts *o, const char *dom)
{
	for (unsigned int i = 0; i < o->nr_domains; i++) {
		if (!strcmp(o->domains[i], dom)) {
			nvpc_err("-d %s given twice: one record event per domain (give its signals in one -s list)",
				 dom);
			return -EINVAL;
		}
	}
	if (o->nr_domains == NVPC_FILE_MAX_STREAMS) {
		nvpc_err("-d %s: at most %d domains in one recording", dom,
			 NVPC_FILE_MAX_STREAMS);
		return -EINVAL;
	}
	o->domains[o->nr_domains++] = dom;
	return 0;
}

static int parse_opts(int argc, char **argv, struct rec_opts *o)
{
	const struct option *longopts = nvpc_record_options;
	char *end;
	int c;

	o->pmu = NVPC_DEFAULT_PMU;
	o->output = NVPC_DEFAULT_OUTPUT;
	o->data_pages = DEFAULT_DATA_PAGES;
	o->write_buffer = NVPC_OUTQ_DEFAULT;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+g:d:s:o:qvh", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'g':
			o->pmu = optarg;
			break;
		case 'd':
			if (add_domain(o, optarg))
				return -EINVAL;
			break;
		case 's':
			/* the last -d's; before any -d, the first's */
			if (nvpc_list_append(&o->domain_signals[o->nr_domains ?
					     o->nr_domains - 1 : 0], optarg))
				return -ENOMEM;
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'v':
			nvpc_verbose++;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case O_STOP:
			o->stop = optarg;
			break;
		case O_SHORT:
			o->short_pkt = true;
			break;
		case O_MODE:
			if (!strcmp(optarg, "auto")) {
				o->mode = MODE_AUTO;
			} else if (!strcmp(optarg, "record")) {
				o->mode = MODE_RECORD;
			} else if (!strcmp(optarg, "sample")) {
				o->mode = MODE_SAMPLE;
			} else {
				nvpc_err("--mode %s: record, sample or auto",
					 optarg);
				return -EINVAL;
			}
			break;
		case O_EVERY:
			o->every = 0;
			o->every_ns = 0;
			if (parse_time(optarg, &o->every_ns))
				return -EINVAL;
			if (o->every_ns)
				break;
			if (nvpc_parse_u64(optarg, &o->every) ||
			    !pow2(o->every) || o->every < 1024 ||
			    o->every > 65536) {
				nvpc_err("--every %s: the PERIODIC generator (pcounter.rst, CTRL PERIODIC_PERIOD) pulses every 1024, 2048, 4096, 8192, 16384, 32768 or 65536 cycles; give one of those (a time such as 1ms, or 1000Hz, samples instead: --mode sample)",
					 optarg);
				return -EINVAL;
			}
			break;
		case O_AUX:
		case O_DATA:
			if (nvpc_parse_u64(optarg, c == O_AUX ? &o->aux_pages :
					   &o->data_pages) ||
			    !pow2(c == O_AUX ? o->aux_pages : o->data_pages) ||
			    (c == O_AUX ? o->aux_pages : o->data_pages) >
			    AUX_MAX_PAGES) {
				nvpc_err("--%s %s: a power of two from 1 to 65536 pages",
					 c == O_AUX ? "aux-pages" : "data-pages",
					 optarg);
				return -EINVAL;
			}
			o->data_pages_given |= c == O_DATA;
			break;
		case O_DURATION:
			o->duration = strtod(optarg, &end);
			if (end == optarg || *end || !(o->duration > 0) ||
			    o->duration > 1e7) {
				nvpc_err("--duration %s: seconds, a number above 0",
					 optarg);
				return -EINVAL;
			}
			break;
		case O_WRITE_BUFFER:
			if (parse_size(optarg, &o->write_buffer))
				return -EINVAL;
			break;
		case O_CLOCK:
			if (nvpc_parse_u64(optarg, &o->clock_hz) ||
			    !o->clock_hz) {
				nvpc_err("--clock %s: the domain's clock in Hz, above 0",
					 optarg);
				return -EINVAL;
			}
			break;
		default:
			usage(stderr);
			return -EINVAL;
		}
	}
	if (optind < argc)
		o->cmd = argv + optind;
	if (!o->nr_domains || !o->domain_signals[0]) {
		nvpc_err("record needs a domain (-d main.1) and signals (-s graph_idle,0x10); see nvpc record --help");
		return -EINVAL;
	}
	for (unsigned int i = 1; i < o->nr_domains; i++) {
		if (!o->domain_signals[i]) {
			nvpc_err("-d %s has no signals: give -s after it (-d %s -s graph_idle); each -s counts in the -d before it",
				 o->domains[i], o->domains[i]);
			return -EINVAL;
		}
	}
	if (o->stop && (o->every || o->every_ns)) {
		nvpc_err("--stop and --every both choose what ends a packet: give one");
		return -EINVAL;
	}
	if (o->every_ns && o->mode == MODE_RECORD) {
		nvpc_err("--every with a time or rate is the sampled mode's; record mode takes cycles (1024 .. 65536)");
		return -EINVAL;
	}
	if (nvpc_out_fd(o->output) == STDOUT_FILENO && isatty(STDOUT_FILENO)) {
		nvpc_err("-o %s writes the capture to stdout, which is a terminal: redirect it (| nvpc report -) or give -o FILE",
			 o->output);
		return -EINVAL;
	}
	return 0;
}

/* the -s list into the header's signals */
static int lookup_signals(struct rec *r)
{
	unsigned int max = r->o.short_pkt ? NVPC_PKT_NR_CTRS_SHORT :
			   NVPC_PKT_NR_CTRS;
	char *list = strdup(r->o.signals), *tok, *save;
	unsigned int n = 0;
	int ret = 0;

	if (!list)
		return -ENOMEM;
	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (n == max) {
			nvpc_err("more than %u signals: %s packets have %u counters%s",
				 max, r->o.short_pkt ? "short" : "long", max,
				 r->o.short_pkt ? " (drop --short for 12)" : "");
			ret = -EINVAL;
			break;
		}
		ret = nvpc_signal_lookup(&r->gpu, &r->dom, tok,
					 &r->hdr.signals[n]);
		if (ret)
			break;
		n++;
	}
	free(list);
	if (!ret && !n) {
		nvpc_err("-s names no signal");
		ret = -EINVAL;
	}
	r->hdr.nr_signals = n;
	return ret;
}

static void fill_header(struct rec *r)
{
	struct nvpc_header *h = &r->hdr;

	h->packet_size = r->sampled ? 0 : r->o.short_pkt ? NVPC_PKT_SHORT :
			 NVPC_PKT_LONG;
	h->kind = r->sampled ? NVPC_KIND_SAMPLED : NVPC_KIND_RECORD;
	h->counter_bits = r->sampled ? 64 : 16;
	h->sample_period_ns = r->sampled ? r->o.every_ns : 0;
	h->nominal_hz = r->dom.nominal_hz;
	h->measured_hz = r->dom.clock_hz;
	h->clock_hz = r->o.clock_hz ? r->o.clock_hz :
		      r->dom.clock_hz ? r->dom.clock_hz : r->dom.nominal_hz;
	h->config = r->attr.config;
	h->config1 = r->attr.config1;
	h->config2 = r->attr.config2;
	h->pmu_type = r->gpu.type;
	h->period_cycles = r->sampled ? 0 : r->o.every;
	h->dset = r->dom.dset;
	h->dom = r->dom.dom;
	h->unit = r->dom.unit;
	h->aux_pages = r->o.aux_pages;
	h->data_pages = r->o.data_pages;
	nvpc_strlcpy(h->chip, r->gpu.chip, sizeof(h->chip));
	nvpc_strlcpy(h->bus, r->gpu.bus, sizeof(h->bus));
	nvpc_strlcpy(h->pmu, r->gpu.pmu, sizeof(h->pmu));
	nvpc_strlcpy(h->domain, r->dom.name, sizeof(h->domain));
}

/* a line a second on a terminal: the sums over the domains */
static void show_progress(struct rec *rs, unsigned int nr, uint64_t t_ns,
			  uint64_t *last_ns, uint64_t *last_packets,
			  uint64_t *last_bytes)
{
	double dt = (t_ns - *last_ns) / 1e9;
	uint64_t packets = 0, bytes = 0, stalls = 0, lost = 0, v;

	if (!rs->s->progress || dt < 1.0)
		return;
	for (unsigned int i = 0; i < nr; i++) {
		struct rec *r = &rs[i];

		if (r->have_stalls && rec_domain_u64(r, "record_stalls", &v))
			r->end.stalls = v - r->stalls0;
		packets += r->packets;
		bytes += r->end.aux_bytes;
		stalls += r->end.stalls;
		lost += r->end.lost;
	}
	if (nr == 1)
		printf("\r\033[K%s %s: ", rs->gpu.pmu, rs->dom.name);
	else
		printf("\r\033[K%s %u domains: ", rs->gpu.pmu, nr);
	printf("%.0f s  %llu packets  %.0f packets/s  %.3f MB/s  lost: %llu stalls, %llu records",
	       t_ns / 1e9, (unsigned long long)packets,
	       (packets - *last_packets) / dt,
	       (bytes - *last_bytes) / dt / 1e6,
	       (unsigned long long)stalls, (unsigned long long)lost);
	fflush(stdout);
	*last_ns = t_ns;
	*last_packets = packets;
	*last_bytes = bytes;
}

/* fork and exec the command; its exec errors come back through a pipe */
static pid_t start_command(struct rec *r, const sigset_t *oldmask)
{
	int p[2], err = 0;
	pid_t pid;

	pid = nvpc_fork_pipe(p);
	if (pid < 0)
		return -1;
	if (pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGCHLD, SIG_DFL);
		sigprocmask(SIG_SETMASK, oldmask, NULL);
		close(p[0]);
		/* the capture is on stdout: the command's output is not */
		if (r->s->to_stdout &&
		    dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
			_exit(127);
		execvp(r->o.cmd[0], r->o.cmd);
		err = errno;
		if (write(p[1], &err, sizeof(err)) < 0)
			_exit(127);
		_exit(127);
	}
	close(p[1]);
	if (read(p[0], &err, sizeof(err)) == sizeof(err)) {
		nvpc_err("cannot run %s: %s", r->o.cmd[0], strerror(err));
		waitpid(pid, NULL, 0);
		pid = -1;
	}
	close(p[0]);
	return pid;
}

/* end a command still running when the recording stops */
static int reap_command(pid_t pid, bool running)
{
	int status = -1;

	if (running) {
		kill(pid, SIGTERM);
		for (int i = 0; i < CHILD_TERM_MS / 10; i++) {
			if (waitpid(pid, &status, WNOHANG) == pid)
				return status;
			usleep(10000);
		}
		kill(pid, SIGKILL);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return status;
}

static void hw_counters(struct rec *r, bool start)
{
	uint64_t v;

	if (rec_domain_u64(r, "record_packets", &v)) {
		if (start) {
			r->hw_packets0 = v;
			r->have_hw_packets = true;
		} else if (r->have_hw_packets) {
			r->end.hw_packets = v - r->hw_packets0;
		}
	}
	if (rec_domain_u64(r, "record_gaps", &v)) {
		if (start) {
			r->hw_gaps0 = v;
			r->have_hw_gaps = true;
		} else if (r->have_hw_gaps) {
			r->end.hw_gaps = v - r->hw_gaps0;
		}
	}
	if (rec_domain_u64(r, "record_stalls", &v)) {
		if (start) {
			r->stalls0 = v;
			r->have_stalls = true;
		} else if (r->have_stalls) {
			r->end.stalls = v - r->stalls0;
		}
	}
}

static void summary(struct rec *r)
{
	FILE *f = stderr;

	if (r->o.quiet)
		return;
	fprintf(f, "nvpc: %s (%s %s) %s: %llu %s (%llu bytes) in %.3f s to %s; %s",
		r->gpu.pmu, r->gpu.chip, r->gpu.bus, r->dom.name,
		(unsigned long long)r->packets,
		r->sampled ? "samples" : "packets",
		(unsigned long long)r->end.aux_bytes, r->end.end_ns / 1e9,
		r->o.output, nvpc_end_reason_name(r->end.reason));
	if (r->end.reason == NVPC_END_COMMAND && r->end.status != -1) {
		if (WIFEXITED(r->end.status))
			fprintf(f, " (status %d)", WEXITSTATUS(r->end.status));
		else if (WIFSIGNALED(r->end.status))
			fprintf(f, " (signal %d)", WTERMSIG(r->end.status));
	}
	fprintf(f, "\nnvpc: lost: %llu stalls (full AUX area), %llu lost records",
		(unsigned long long)r->end.stalls,
		(unsigned long long)r->end.lost);
	if (r->end.hw_gaps >= 0)
		fprintf(f, ", %lld gaps by the driver",
			(long long)r->end.hw_gaps);
	fprintf(f, "; nvpc report %s for the rest\n", r->o.output);
}

/* a --write-buffer size as the option takes it: 64M, 512K, 1G */
static const char *size_arg(uint64_t v, char *buf, size_t len)
{
	static const char units[] = "GMK";

	for (int i = 0; i < 3; i++) {
		uint64_t u = 1ULL << (10 * (3 - i));

		if (!(v % u)) {
			snprintf(buf, len, "%llu%c", (unsigned long long)(v / u),
				 units[i]);
			return buf;
		}
	}
	snprintf(buf, len, "%llu", (unsigned long long)v);
	return buf;
}

/*
 * How the capture's writer kept up (outq.c, final once the capture is
 * closed): said when a write into the ring had to wait for room, during
 * which no AUX area was read; with -v also when it kept up.
 */
static void output_summary(const struct rec *rs, unsigned int nr)
{
	const struct nvpc_outq_stats *q = &rs->s->outq;
	const char *out = rs->s->to_stdout ? "stdout" : rs->o.output;
	uint64_t stalls = 0;
	unsigned int i;
	char sz[32];

	if (rs->o.quiet || !q->size)
		return;
	for (i = 0; i < nr; i++)
		stalls += rs[i].end.stalls;
	if (q->waits) {
		fprintf(stderr, "nvpc: writing %s fell behind: the recording waited %.3f s in all (%llu times) for room in its write buffer (--write-buffer %s), reading no AUX area meanwhile",
			out, q->wait_ns / 1e9, (unsigned long long)q->waits,
			size_arg(q->size, sz, sizeof(sz)));
		if (stalls)
			fprintf(stderr, "; %llu stall%s, likely the output's: record to a faster file system (a tmpfs) or give a larger --write-buffer\n",
				(unsigned long long)stalls,
				stalls == 1 ? "" : "s");
		else
			fprintf(stderr, " (the AUX areas held: no stall)\n");
	} else if (nvpc_verbose) {
		fprintf(stderr, "nvpc: writing %s kept up: %.1f MB written, at most %.1f MB waiting in the write buffer (--write-buffer %s), the longest write %.1f ms\n",
			out, q->written / 1e6, q->peak / 1e6,
			size_arg(q->size, sz, sizeof(sz)),
			q->write_max_ns / 1e6);
	}
	if (nvpc_verbose)
		fprintf(stderr, "nvpc: the longest time between two reads of the perf rings: %.1f ms\n",
			rs->s->unread_max_ns / 1e6);
}

/*
 * The capture, where -o leads (nvpc_out.h): a descriptor ("-",
 * /dev/stdout ...), a special file in place, or a regular file (a
 * link's target), an existing one first renamed to FILE.old as perf
 * record keeps perf.data.old; written through a ring of @ring bytes by
 * a thread of its own (outq.c).
 */
static int create_output(struct session *s, const char *path, uint64_t ring)
{
	struct nvpc_out_target t;
	int fd, ret = 0;
	char *old;

	if (nvpc_out_target(path, &t))
		return -EINVAL;
	if (t.kind == NVPC_OUT_REGULAR && t.st.st_size) {
		if (asprintf(&old, "%s.old", t.path) < 0) {
			nvpc_out_target_free(&t);
			return -ENOMEM;
		}
		ret = rename(t.path, old) ? -errno : 0;
		if (ret)
			nvpc_err("cannot keep %s as %s: %s", t.path, old,
				 strerror(-ret));
		else
			nvpc_dbg("%s kept as %s", t.path, old);
		free(old);
		if (ret) {
			nvpc_out_target_free(&t);
			return ret;
		}
	}
	switch (t.kind) {
	case NVPC_OUT_FD:
		s->to_stdout = t.fd == STDOUT_FILENO;
		fd = fcntl(t.fd, F_DUPFD_CLOEXEC, 0);
		break;
	case NVPC_OUT_SPECIAL:
		fd = open(t.path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
		break;
	default:
		/* (a link put there meanwhile is not followed) */
		fd = open(t.path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW |
			  O_CLOEXEC, 0666);
		break;
	}
	nvpc_out_target_free(&t);
	if (fd < 0) {
		ret = -errno;
		nvpc_err("cannot create %s: %s", path, strerror(-ret));
		return ret;
	}
	s->out = nvpc_outq_open(fd, ring, &s->outq);
	if (!s->out) {
		ret = -errno;
		nvpc_err("the write buffer of %s (%llu bytes): %s", path,
			 (unsigned long long)ring, strerror(-ret));
		close(fd);
		return ret;
	}
	return 0;
}

/*
 * The capture's headers: one domain's alone (format version 1 or 2, as
 * before), or stream 0's with nr_streams and a STREAM chunk for each
 * other (version 3). Every stream has the recording's start.
 */
static int write_headers(struct rec *rs, unsigned int nr)
{
	struct session *s = rs->s;

	for (unsigned int i = 0; i < nr; i++) {
		struct nvpc_header *h = &rs[i].hdr;
		int ret;

		h->start_realtime_ns = rs->hdr.start_realtime_ns;
		h->start_monotonic_ns = s->start_ns;
		h->nr_streams = nr;
		h->stream = i;
		ret = i ? nvpc_file_write_stream(s->out, h) :
			  nvpc_file_write_header(s->out, h);
		if (ret) {
			nvpc_err("writing %s: %s", rs->o.output,
				 strerror(-ret));
			return -EIO;
		}
	}
	return 0;
}

/* why the recording stops, from the domains' state: 0 while none does */
static int domains_stop(struct rec *rs, unsigned int nr,
			const struct pollfd *pfd, int *ret)
{
	for (unsigned int i = 0; i < nr; i++) {
		struct rec *r = &rs[i];

		if (r->faulted || r->gone) {
			*ret = -EIO;
			return r->faulted ? NVPC_END_FAULT : NVPC_END_GONE;
		}
		if ((pfd[i].revents & (POLLHUP | POLLERR)) || r->hup) {
			*ret = -EIO;
			return access(r->gpu.dir, F_OK) ? NVPC_END_GONE :
			       NVPC_END_HUP;
		}
	}
	if (rs->s->write_error) {
		*ret = -EIO;
		return NVPC_END_ERROR;
	}
	return 0;
}

/*
 * Record the nr domains of rs until the command exits, the duration
 * elapses, a signal comes or a domain stops for good: one poll over
 * every event, each drained in turn. The end (reason, status, time) is
 * rs[0]'s, copied to the others'.
 */
static int run(struct rec *rs, unsigned int nr)
{
	struct session *s = rs->s;
	struct sigaction sa = { .sa_handler = on_signal };
	sigset_t block, oldmask;
	struct pollfd pfd[NVPC_FILE_MAX_STREAMS];
	uint64_t deadline = 0, last_ns = 0, last_packets = 0, last_bytes = 0;
	uint64_t read_ns;
	struct nvpc_end *end = &rs->end;
	pid_t child = -1;
	bool running = false;
	unsigned int i, enabled = 0;
	int ret = 0;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGCHLD);
	sigprocmask(SIG_BLOCK, &block, &oldmask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGCHLD, &sa, NULL);

	rs->hdr.start_realtime_ns = nvpc_now_ns(CLOCK_REALTIME);
	s->start_ns = nvpc_now_ns(CLOCK_MONOTONIC);
	if (write_headers(rs, nr)) {
		sigprocmask(SIG_SETMASK, &oldmask, NULL);
		return -EIO;
	}
	for (i = 0; i < nr; i++) {
		if (!rs[i].sampled)
			hw_counters(&rs[i], true);
		pfd[i].fd = rs[i].fd;
		pfd[i].events = POLLIN;
		pfd[i].revents = 0;
	}
	for (i = 0; i < nr; i++, enabled++) {
		if (ioctl(rs[i].fd, PERF_EVENT_IOC_ENABLE, 0)) {
			ret = -errno;
			rec_explain_open(&rs[i], errno);
			end->reason = NVPC_END_ERROR;
			goto stop;
		}
	}
	if (rs->o.duration)
		deadline = s->start_ns + (uint64_t)(rs->o.duration * 1e9);
	if (rs->o.cmd) {
		child = start_command(rs, &oldmask);
		if (child < 0) {
			s->exec_failed = true;
			end->reason = NVPC_END_ERROR;
			ret = -ECHILD;
			goto stop;
		}
		running = true;
	} else if (s->progress) {
		if (nr == 1)
			fprintf(stderr, "nvpc: recording %s of %s to %s; Ctrl-C to stop\n",
				rs->dom.name, rs->gpu.pmu, rs->o.output);
		else
			fprintf(stderr, "nvpc: recording %u domains of %s to %s; Ctrl-C to stop\n",
				nr, rs->gpu.pmu, rs->o.output);
	}

	read_ns = nvpc_now_ns(CLOCK_MONOTONIC);
	for (;;) {
		struct timespec ts = { 0, POLL_MS * 1000000L };
		uint64_t t;
		int why;

		if (ppoll(pfd, nr, &ts, &oldmask) < 0 && errno != EINTR) {
			nvpc_err("poll: %s", strerror(errno));
			end->reason = NVPC_END_ERROR;
			ret = -EIO;
			break;
		}
		/* a signal that came while the rings had data: now */
		nvpc_take_signals(&oldmask);
		/* from one pass over the data rings to the next */
		t = nvpc_now_ns(CLOCK_MONOTONIC);
		if (t - read_ns > s->unread_max_ns)
			s->unread_max_ns = t - read_ns;
		read_ns = t;
		for (i = 0; i < nr; i++)
			if (rec_drain(&rs[i]))
				rec_reenable(&rs[i]);
		/* a reader at the other end of the pipe sees each drain */
		if (s->to_stdout && fflush(s->out) && !s->write_error) {
			nvpc_err("writing the capture to stdout: %s",
				 strerror(errno));
			s->write_error = true;
		}
		t = nvpc_now_ns(CLOCK_MONOTONIC);
		show_progress(rs, nr, t - s->start_ns, &last_ns,
			      &last_packets, &last_bytes);
		if (child_exited && running &&
		    waitpid(child, &end->status, WNOHANG) == child) {
			running = false;
			end->reason = NVPC_END_COMMAND;
			break;
		}
		if (stop_signal) {
			end->reason = NVPC_END_SIGNAL;
			break;
		}
		if (deadline && t >= deadline) {
			end->reason = NVPC_END_DURATION;
			break;
		}
		why = domains_stop(rs, nr, pfd, &ret);
		if (why) {
			end->reason = why;
			break;
		}
	}

stop:
	/* the driver's last drain happens in its stop: read it after */
	for (i = 0; i < enabled; i++)
		ioctl(rs[i].fd, PERF_EVENT_IOC_DISABLE, 0);
	for (i = 0; i < nr; i++)
		rec_drain(&rs[i]);
	end->end_ns = nvpc_now_ns(CLOCK_MONOTONIC) - s->start_ns;
	if (child > 0) {
		int st = reap_command(child, running);

		if (running)
			end->status = st;
	} else if (!rs->o.cmd) {
		end->status = -1;
	}
	for (i = 0; i < nr; i++) {
		struct rec *r = &rs[i];

		if (!r->sampled)
			hw_counters(r, false);
		r->end.end_ns = end->end_ns;
		r->end.reason = end->reason;
		r->end.status = end->status;
		if (r->faulted)
			nvpc_err("%s of %s hit a GPU VM fault (record_state faulted): the domain records nothing more until the GPU is reset; the capture holds the packets before it",
				 r->dom.name, r->gpu.pmu);
	}
	if (s->progress && last_ns)
		printf("\n");
	if (end->reason == NVPC_END_GONE)
		nvpc_err("the GPU of %s went away; the capture holds the packets before it",
			 rs->gpu.pmu);
	sigprocmask(SIG_SETMASK, &oldmask, NULL);
	return ret;
}

/*
 * record or sample (--mode; auto: record where the domain's
 * record_aux_max is above 0, or unknown, unless --every gave a time),
 * and the defaults of the chosen mode. 0 or -EINVAL.
 */
static int choose_mode(struct rec *r)
{
	struct rec_opts *o = &r->o;
	uint64_t max = 1;
	bool known = rec_domain_u64(r, "record_aux_max", &max);

	r->sampled = o->mode == MODE_SAMPLE ||
		     (o->mode == MODE_AUTO && ((known && !max) || o->every_ns));
	nvpc_dbg("%s mode (--mode %s, record_aux_max %s%llu)",
		 r->sampled ? "sampled" : "record",
		 o->mode == MODE_AUTO ? "auto" : o->mode == MODE_SAMPLE ?
		 "sample" : "record", known ? "" : "unknown, ",
		 (unsigned long long)max);
	if (!r->sampled) {
		if (!o->stop && !o->every)
			o->every = DEFAULT_EVERY;
		return 0;
	}
	if (o->stop || o->short_pkt) {
		nvpc_err("--%s is record mode's, and %s of %s samples (%s): drop it",
			 o->stop ? "stop" : "short", r->dom.name, r->gpu.pmu,
			 o->mode == MODE_SAMPLE ? "--mode sample" :
			 "no record mode here");
		return -EINVAL;
	}
	if (o->every && !o->every_ns) {
		uint64_t hz = o->clock_hz ? o->clock_hz :
			      r->dom.clock_hz ? r->dom.clock_hz :
			      r->dom.nominal_hz;

		if (!hz) {
			nvpc_err("--every %llu cycles: %s has no clock to turn cycles into a sample period; give a time (--every 1ms)",
				 (unsigned long long)o->every, r->dom.name);
			return -EINVAL;
		}
		o->every_ns = (uint64_t)((unsigned __int128)o->every *
					 1000000000u / hz);
		if (o->every_ns < MIN_SAMPLE_NS) {
			nvpc_err("--every %llu cycles: %llu ns at %llu Hz, below the shortest sample period (%d us) of %s: give a time (--every 1ms)",
				 (unsigned long long)o->every,
				 (unsigned long long)o->every_ns,
				 (unsigned long long)hz, MIN_SAMPLE_NS / 1000,
				 r->dom.name);
			return -EINVAL;
		}
		o->every = 0;
	}
	if (!o->every_ns)
		o->every_ns = DEFAULT_SAMPLE_NS;
	if (!o->data_pages_given)
		o->data_pages = SAMPLE_DATA_PAGES;
	return 0;
}

/* one domain's recording up to its event: 0, or -EINVAL with a message */
static int rec_setup(struct rec *r)
{
	if (nvpc_domain_open(&r->gpu, r->o.domain, &r->dom) ||
	    lookup_signals(r) || choose_mode(r))
		return -EINVAL;
	if (r->sampled) {
		snprintf(r->hdr.stop, sizeof(r->hdr.stop),
			 "sampled every %llu ns (cpu-clock)",
			 (unsigned long long)r->o.every_ns);
	} else if (r->o.stop) {
		struct nvpc_signal sig;

		if (nvpc_signal_lookup(&r->gpu, &r->dom, r->o.stop, &sig))
			return -EINVAL;
		r->hdr.stop_signal = sig.id;
		snprintf(r->hdr.stop, sizeof(r->hdr.stop), "signal %.50s",
			 sig.name);
	} else {
		snprintf(r->hdr.stop, sizeof(r->hdr.stop),
			 "every %llu cycles (PERIODIC)",
			 (unsigned long long)r->o.every);
	}
	fill_header(r);
	if (!r->hdr.clock_hz)
		nvpc_err("warning: %s has no clock_hz or nominal_hz: the report needs --clock HZ",
			 r->dom.name);
	return 0;
}

static void rec_free(struct rec *r)
{
	if (r->aux)
		munmap(r->aux, r->aux_size);
	if (r->up)
		munmap(r->up, sysconf(_SC_PAGESIZE) + r->data_size);
	for (unsigned int i = 0; i <= r->hdr.nr_signals; i++)
		if (r->member_fd[i] > 0)
			close(r->member_fd[i]);
	if (r->fd >= 0)
		close(r->fd);
}

int nvpc_record(int argc, char **argv)
{
	static struct rec rs[NVPC_FILE_MAX_STREAMS];
	struct session s = { 0 };
	struct rec_opts o = { 0 };
	struct nvpc_gpu gpu;
	unsigned int nr = 0, i;
	int ret = 0;

	if (parse_opts(argc, argv, &o))
		return 2;
	/* no such PMU: 1, as nvpc list says it (nothing there, not a typo) */
	if (nvpc_gpu_open(o.pmu, &gpu))
		return 1;
	/* every domain's arguments checked before any event is opened */
	for (i = 0; i < o.nr_domains; i++) {
		struct rec *r = &rs[i];

		memset(r, 0, sizeof(*r));
		r->fd = -1;
		r->end.status = -1;
		r->end.hw_packets = -1;
		r->end.hw_gaps = -1;
		r->o = o;
		r->o.domain = o.domains[i];
		r->o.signals = o.domain_signals[i];
		r->s = &s;
		r->stream = i;
		r->gpu = gpu;
		if (rec_setup(r))
			return 2;
	}
	for (i = 0; i < o.nr_domains && !ret; i++, nr++) {
		struct rec *r = &rs[i];

		ret = r->sampled ? rec_open_sampled(r) : rec_open_event(r);
		if (!ret)
			fill_header(r);	/* the attr is known now */
	}
	if (!ret)
		ret = create_output(&s, o.output, o.write_buffer);
	if (!ret) {
		s.progress = !s.to_stdout && isatty(STDOUT_FILENO);
		ret = run(rs, nr);
		for (i = 0; i < nr; i++)
			nvpc_file_write_end(s.out, i, rs[i].end.end_ns,
					    &rs[i].end);
		if (fclose(s.out)) {
			nvpc_err("writing %s: %s", o.output, strerror(errno));
			ret = -EIO;
		}
		for (i = 0; i < nr; i++)
			summary(&rs[i]);
		output_summary(rs, nr);
	}
	for (i = 0; i < nr; i++)
		rec_free(&rs[i]);
	if (s.exec_failed)
		return 127;
	if (ret)
		return 1;
	if (rs[0].end.reason == NVPC_END_COMMAND &&
	    WIFEXITED(rs[0].end.status))
		return WEXITSTATUS(rs[0].end.status);
	return 0;
}
