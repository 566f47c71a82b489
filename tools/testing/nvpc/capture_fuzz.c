// SPDX-License-Identifier: GPL-2.0
/*
 * A bounded mutation fuzzer of nvpc's capture reader and of every output
 * made from a capture: the report (text, --csv, --json, --trace) and
 * plot's gnuplot script (not run). The tool's report.c, plot.c and the
 * capture library (capture.c, interval.c, the reader) are linked in and
 * built with ASan and UBSan; each input runs in this process through
 * nvpc_report_write() and nvpc_plot_script() on memory streams.
 *
 * Inputs: captures written by the tool's own writer (nvpc_file.c), each
 * mutated 1-4 times per iteration: bit flips, bytes and integers set to
 * edge values, hostile bytes in the header's names, chunk and packet
 * fields, cuts, deletions, repeats, splices of two captures.
 *
 * Also nvpc top's table and line per interval (top_show.c) of each
 * capture, its screen clears aside as text as the report's.
 *
 * Checks, after every mode of every input: the exit status is 0, 1, 3 or
 * 4 (1 with no output at all); JSON and the trace are RFC 8259 JSON in
 * UTF-8; CSV is RFC 4180, every record with the header's 6 + signals
 * fields; the text report and nvpc's messages are UTF-8 without a control
 * character but the newline; in the gnuplot script every line outside the
 * data block, its single-quoted strings blanked, is a line the tool
 * writes, every string holds printable UTF-8 and no quote, and the data
 * lines are numbers. So no byte of a capture is gnuplot code.
 *
 * Bounds and replay (the seed is printed first):
 *   NVPC_FUZZ_SEED=S      the seed (default: from the clock)
 *   NVPC_FUZZ_ITERS=N     iterations at most (default 20000)
 *   NVPC_FUZZ_SECONDS=T   seconds at most (default 20, at most 3600)
 *   NVPC_FUZZ_ITER=I      only iteration I of seed S
 * Iteration I's input depends only on S and I. A failing input is also
 * saved as $TMPDIR/nvpc-fuzz-S-I.nvpc (nvpc report reads it).
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/nvpcounter.h>

#include "nvpc_capture.h"
#include "nvpc_file.h"
#include "nvpc_interval.h"
#include "nvpc_report.h"
#include "nvpc_top.h"
#include "nvpc_util.h"
#include "packet.h"

/* TEST() wrappers of kselftest_harness.h leave parameters unused. */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "kselftest_harness.h"

#define HZ		1000000ULL
#define NS		1000ULL		/* per cycle at HZ */
#define MAX_INPUT	(64 << 10)
#define SVG_TERM	"svg size 1000,600 dynamic background rgb 'white'"
#define FUZZ_MAX_SECONDS 3600	/* NVPC_FUZZ_SECONDS above this is cut */

/* --- validators --------------------------------------------------------- */

/* a well-formed UTF-8 sequence at s (of n bytes): its length, 0 if none */
static size_t utf8_at(const unsigned char *s, size_t n)
{
	uint32_t cp;
	size_t len, i;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0) {
		len = 2;
		cp = s[0] & 0x1f;
	} else if ((s[0] & 0xf0) == 0xe0) {
		len = 3;
		cp = s[0] & 0x0f;
	} else if ((s[0] & 0xf8) == 0xf0) {
		len = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) ||
	    (len == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

/* UTF-8 with no control character but the newline: NULL or what is wrong */
static const char *text_invalid(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, len;

	while (i < n) {
		if ((p[i] < 0x20 && p[i] != '\n') || p[i] == 0x7f)
			return "a control character";
		len = utf8_at(p + i, n - i);
		if (!len)
			return "not UTF-8";
		i += len;
	}
	return NULL;
}

struct json {
	const unsigned char *p, *end;
	int depth;
	const char *err;
};

static bool j_fail(struct json *j, const char *why)
{
	if (!j->err)
		j->err = why;
	return false;
}

static void j_ws(struct json *j)
{
	while (j->p < j->end && strchr(" \t\n\r", *j->p) && *j->p)
		j->p++;
}

static bool j_lit(struct json *j, const char *lit)
{
	size_t n = strlen(lit);

	if ((size_t)(j->end - j->p) < n || memcmp(j->p, lit, n))
		return j_fail(j, "bad literal");
	j->p += n;
	return true;
}

static bool j_digits(struct json *j)
{
	const unsigned char *start = j->p;

	while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
		j->p++;
	return j->p > start || j_fail(j, "digits expected");
}

static bool j_number(struct json *j)
{
	if (j->p < j->end && *j->p == '-')
		j->p++;
	if (j->p < j->end && *j->p == '0')
		j->p++;
	else if (!j_digits(j))
		return false;
	if (j->p < j->end && *j->p == '.') {
		j->p++;
		if (!j_digits(j))
			return false;
	}
	if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
		j->p++;
		if (j->p < j->end && (*j->p == '+' || *j->p == '-'))
			j->p++;
		if (!j_digits(j))
			return false;
	}
	return true;
}

static bool j_string(struct json *j)
{
	size_t len;

	if (j->p >= j->end || *j->p != '"')
		return j_fail(j, "string expected");
	for (j->p++; j->p < j->end; ) {
		unsigned char c = *j->p;

		if (c == '"') {
			j->p++;
			return true;
		}
		if (c < 0x20)
			return j_fail(j, "control character in a string");
		if (c == '\\') {
			if (j->end - j->p < 2)
				break;
			c = j->p[1];
			if (c == 'u') {
				if (j->end - j->p < 6)
					break;
				for (int i = 2; i < 6; i++)
					if (!strchr("0123456789abcdefABCDEF",
						    j->p[i]) || !j->p[i])
						return j_fail(j, "bad \\u escape");
				j->p += 6;
			} else if (c && strchr("\"\\/bfnrt", c)) {
				j->p += 2;
			} else {
				return j_fail(j, "bad escape");
			}
			continue;
		}
		len = utf8_at(j->p, j->end - j->p);
		if (!len)
			return j_fail(j, "not UTF-8 in a string");
		j->p += len;
	}
	return j_fail(j, "unterminated string");
}

static bool j_value(struct json *j);

/* an object (members) or an array, after its opening bracket */
static bool j_container(struct json *j, bool object)
{
	char close = object ? '}' : ']';

	j->p++;
	j_ws(j);
	if (j->p < j->end && *j->p == close) {
		j->p++;
		return true;
	}
	for (;;) {
		if (object) {
			if (!j_string(j))
				return false;
			j_ws(j);
			if (j->p >= j->end || *j->p != ':')
				return j_fail(j, "':' expected");
			j->p++;
		}
		if (!j_value(j))
			return false;
		j_ws(j);
		if (j->p < j->end && *j->p == ',') {
			j->p++;
			j_ws(j);
			continue;
		}
		if (j->p < j->end && *j->p == close) {
			j->p++;
			return true;
		}
		return j_fail(j, "',' or a closing bracket expected");
	}
}

static bool j_value(struct json *j)
{
	bool ok;

	j_ws(j);
	if (j->p >= j->end)
		return j_fail(j, "value expected");
	if (++j->depth > 64)
		return j_fail(j, "nested too deep");
	switch (*j->p) {
	case '{':
		ok = j_container(j, true);
		break;
	case '[':
		ok = j_container(j, false);
		break;
	case '"':
		ok = j_string(j);
		break;
	case 't':
		ok = j_lit(j, "true");
		break;
	case 'f':
		ok = j_lit(j, "false");
		break;
	case 'n':
		ok = j_lit(j, "null");
		break;
	default:
		ok = j_number(j);
		break;
	}
	j->depth--;
	return ok;
}

/* one RFC 8259 JSON text: NULL or what is wrong */
static const char *json_invalid(const char *s, size_t n)
{
	struct json j = {
		.p = (const unsigned char *)s,
		.end = (const unsigned char *)s + n,
	};

	if (j_value(&j)) {
		j_ws(&j);
		if (j.p != j.end)
			j_fail(&j, "text after the value");
	}
	return j.err;
}

/*
 * RFC 4180 records ending in a newline, each of the header's number of
 * fields, no carriage return or control character, UTF-8: NULL or what
 * is wrong; *fields the header's count
 */
static const char *csv_invalid(const char *s, size_t n, unsigned int *fields)
{
	const char *bad = text_invalid(s, n);
	unsigned int count = 1, records = 0;
	size_t i = 0;

	if (bad)
		return bad;
	*fields = 0;
	while (i < n) {
		if (s[i] == '"') {
			for (i++; ; i++) {
				if (i >= n)
					return "unterminated quoted field";
				if (s[i] == '"' && i + 1 < n && s[i + 1] == '"')
					i++;
				else if (s[i] == '"')
					break;
			}
			i++;
			if (i >= n || (s[i] != ',' && s[i] != '\n'))
				return "text after a quoted field";
		} else {
			while (i < n && s[i] != ',' && s[i] != '\n') {
				if (s[i] == '"')
					return "a quote in an unquoted field";
				i++;
			}
			if (i >= n)
				return "no newline after the last record";
		}
		if (s[i++] == ',') {
			count++;
			continue;
		}
		if (!records++)
			*fields = count;
		else if (count != *fields)
			return "a record with another number of fields";
		count = 1;
	}
	return records ? NULL : "no header";
}

/*
 * line with each single-quoted string replaced by '' into out: false
 * (why in *bad) for an unterminated string or one holding a control
 * character or bytes that are not UTF-8
 */
static bool blank_strings(const char *line, size_t n, char *out, size_t len,
			  const char **bad)
{
	size_t o = 0, i = 0, end;

	while (i < n && o + 3 < len) {
		if (line[i] != '\'') {
			out[o++] = line[i++];
			continue;
		}
		end = i + 1;
		while (end < n && line[end] != '\'')
			end++;
		if (end >= n) {
			*bad = "unterminated string";
			return false;
		}
		*bad = text_invalid(line + i + 1, end - i - 1);
		if (*bad || memchr(line + i + 1, '\n', end - i - 1))
			return false;
		out[o++] = '\'';
		out[o++] = '\'';
		i = end + 1;
	}
	out[o] = '\0';
	return i == n || (*bad = "line too long", false);
}

/*
 * "plot $d using 1:2 ..., $d using 1:3 ..." (one domain), or of several
 * "$d0 using 1:2 ..., $d0 using 1:3 ..., $d1 using 1:2 ...": each block
 * one of those the script holds (blocks: their numbers' bits), its
 * columns from 2 in order
 */
static bool plot_line_ok(const char *l, bool multi, const uint64_t *blocks)
{
	unsigned int col = 2, got, block = 0, prev = 0;
	int used;

	if (strncmp(l, "plot ", 5))
		return false;
	l += 5;
	for (;;) {
		used = 0;
		if (multi) {
			if (sscanf(l, "$d%u using 1:%u with lines title ''%n",
				   &block, &got, &used) != 2 || !used ||
			    block >= 64 || !(*blocks & (1ULL << block)) ||
			    block < prev)
				return false;
			if (block != prev)
				col = 2;
			prev = block;
		} else if (sscanf(l, "$d using 1:%u with lines title ''%n",
				  &got, &used) != 1 || !used) {
			return false;
		}
		if (got != col++)
			return false;
		l += used;
		if (!*l)
			return col <= 2 + NVPC_FILE_MAX_SIGNALS;
		if (strncmp(l, ", ", 2))
			return false;
		l += 2;
	}
}

/* "$d << EOD", or "$dN << EOD" (N < 64, once, in order) of several */
static bool block_ok(const char *l, bool *multi, uint64_t *blocks)
{
	unsigned int n;
	int used = 0;

	if (!strcmp(l, "$d << EOD") && !*blocks && !*multi) {
		*blocks = 1;
		return true;
	}
	if (sscanf(l, "$d%u << EOD%n", &n, &used) != 1 || !used ||
	    l[used] || n >= 64 || *blocks >> n)
		return false;
	*multi = true;
	*blocks |= 1ULL << n;
	return true;
}

static bool data_line_ok(const char *l)
{
	char *end;

	while (*l) {
		if (*l == ' ') {
			l++;
			continue;
		}
		if (!strchr("0123456789-", *l))
			return false;
		strtod(l, &end);
		if (end == l)
			return false;
		l = end;
	}
	return true;
}

/*
 * The title, its strings blanked: "set title ''", or its lines joined
 * by gnuplot's "." with a newline of the tool's: '' . "\n" . '' (at most
 * five lines)
 */
static bool title_ok(const char *l)
{
	static const char join[] = " . \"\\n\" . ''";
	unsigned int lines = 1;

	if (strncmp(l, "set title ''", 12))
		return false;
	for (l += 12; *l; l += sizeof(join) - 1, lines++)
		if (strncmp(l, join, sizeof(join) - 1))
			return false;
	return lines <= 5;
}

/* nvpc_plot_script()'s output: NULL or what is wrong */
static const char *script_invalid(const char *s, size_t n)
{
	static const char * const header[] = {
		"set terminal svg size 1000,600 dynamic background rgb '' noenhanced",
		"set output", "set title ''", "set xlabel ''", "set ylabel ''",
		"set yrange [0:105]", "set grid", "set key outside right top",
		"set datafile missing ''",
	};
	static char line[1 << 16];
	const char *bad = text_invalid(s, n), *nl;
	unsigned int k = 0;
	enum { HEADER, BLOCK, DATA, PLOT, DONE } state = HEADER;
	size_t i = 0, len;
	uint64_t blocks = 0;
	bool multi = false;

	if (bad)
		return bad;
	while (i < n) {
		nl = memchr(s + i, '\n', n - i);
		if (!nl)
			return "no newline at the end";
		len = nl - (s + i);
		switch (state) {
		case HEADER:
			if (!blank_strings(s + i, len, line, sizeof(line), &bad))
				return bad;
			if (!strcmp(header[k], "set title ''") ?
			    !title_ok(line) : strcmp(line, header[k]))
				return "a line the tool does not write";
			if (++k == ARRAY_SIZE(header))
				state = BLOCK;
			break;
		case BLOCK:
			if (len >= sizeof(line))
				return "a line too long";
			memcpy(line, s + i, len);
			line[len] = '\0';
			if (!block_ok(line, &multi, &blocks))
				return "not a data block's start";
			state = DATA;
			break;
		case DATA:
			if (len >= sizeof(line))
				return "data line too long";
			memcpy(line, s + i, len);
			line[len] = '\0';
			if (!strcmp(line, "EOD"))
				state = PLOT;
			else if (!data_line_ok(line))
				return "a data line that is not numbers";
			break;
		case PLOT:
			if (multi && !strncmp(s + i, "$d", 2)) {
				state = BLOCK;
				continue;	/* the next domain's block */
			}
			if (!blank_strings(s + i, len, line, sizeof(line), &bad))
				return bad;
			if (!plot_line_ok(line, multi, &blocks))
				return "not the plot line";
			state = DONE;
			break;
		case DONE:
			return "a line after the plot";
		}
		i += len + 1;
	}
	return state == DONE ? NULL : "the script ends early";
}

/* --- inputs ------------------------------------------------------------- */

struct buf {
	char *p;
	size_t len;
};

struct seed {
	const char *name;
	struct buf b;
};

static void aux(FILE *f, uint64_t *off, uint32_t flags, uint64_t t_ns,
		const void *data, uint32_t len)
{
	struct nvpc_chunk c = {
		.type = NVPC_CHUNK_AUX, .flags = flags, .offset = *off,
		.time_ns = t_ns, .size = len,
	};

	nvpc_file_write_chunk(f, &c, data);
	*off += len;
}

static void end(FILE *f, uint64_t t_ns)
{
	struct nvpc_end e = {
		.end_ns = t_ns, .reason = NVPC_END_COMMAND, .status = 0,
		.hw_packets = -1, .hw_gaps = -1,
	};

	nvpc_file_write_end(f, 0, t_ns, &e);
}

static FILE *begin(struct buf *b, unsigned int size, unsigned int nr,
		   struct nvpc_header *h)
{
	FILE *f = open_memstream(&b->p, &b->len);

	memset(h, 0, sizeof(*h));
	h->packet_size = size;
	h->nr_signals = nr;
	h->clock_hz = HZ;
	h->nominal_hz = 575000000;
	h->period_cycles = 1024;
	strcpy(h->chip, "G84");
	strcpy(h->bus, "sim.0");
	strcpy(h->pmu, "nvpcounter");
	strcpy(h->domain, "main.1");
	strcpy(h->stop, "every 1024 cycles (PERIODIC)");
	for (unsigned int i = 0; i < nr; i++) {
		h->signals[i].id = 0x10 + i;
		snprintf(h->signals[i].name, sizeof(h->signals[i].name),
			 "sig%u", i);
	}
	return f;
}

/* n packets of every 1024 cycles, counts derived from k */
static void packets(uint8_t *b, unsigned int size, unsigned int nr,
		    uint64_t first, unsigned int n)
{
	uint16_t ctr[NVPC_FILE_MAX_SIGNALS];

	for (unsigned int k = 0; k < n; k++) {
		for (unsigned int i = 0; i < nr; i++)
			ctr[i] = (k * 37 + i * 101) % 1025;
		pkt(b + k * size, size, first + 1024ULL * k, 1, ctr, nr);
	}
}

static void seed_periodic(struct buf *b)
{
	struct nvpc_header h;
	uint8_t d[40 * 32];
	uint64_t off = 0;
	FILE *f = begin(b, 32, 3, &h);

	nvpc_file_write_header(f, &h);
	packets(d, 32, 3, 1024, 40);
	aux(f, &off, 0, 20000000, d, 13 * 32 + 7);
	aux(f, &off, 0, 41000000, d + 13 * 32 + 7, 27 * 32 - 7);
	end(f, 42000000);
	fclose(f);
}

/* short packets; a PARTIAL gap, a restart and a LOST record */
static void seed_gaps(struct buf *b)
{
	struct nvpc_chunk restart = { .type = NVPC_CHUNK_RESTART,
				      .time_ns = 30000000 };
	struct nvpc_chunk lost = { .type = NVPC_CHUNK_LOST, .offset = 2,
				   .time_ns = 31000000 };
	struct nvpc_header h;
	uint8_t d[30 * 16];
	uint64_t off = 0;
	FILE *f = begin(b, 16, 4, &h);

	nvpc_file_write_header(f, &h);
	packets(d, 16, 4, 1024, 10);
	aux(f, &off, 0, 11000000, d, 10 * 16);
	packets(d, 16, 4, 1024, 10);
	aux(f, &off, NVPC_AUX_PARTIAL, 25000000, d, 10 * 16);
	aux(f, &off, NVPC_AUX_TRUNCATED, 25000000, NULL, 0);
	nvpc_file_write_chunk(f, &restart, NULL);
	nvpc_file_write_chunk(f, &lost, NULL);
	packets(d, 16, 4, 1024, 10);
	off += 64;
	aux(f, &off, NVPC_AUX_PARTIAL | NVPC_AUX_COLLISION, 45000000, d,
	    10 * 16);
	end(f, 46000000);
	fclose(f);
}

/* the 48-bit wrap, an early packet, a merge, a saturated counter */
static void seed_edges(struct buf *b)
{
	const uint64_t c48 = 1ULL << 48;
	struct nvpc_header h;
	uint8_t d[6 * 32];
	uint64_t off = 0;
	FILE *f = begin(b, 32, 12, &h);

	nvpc_file_write_header(f, &h);
	pkt(d, 32, c48 - 2048, 1, (uint16_t[]){ 1, 2, 3 }, 3);
	pkt(d + 32, 32, c48 - 1024, 1, (uint16_t[]){ 4, 5, 6 }, 3);
	pkt(d + 64, 32, 0xf000 - 1024, 0, (uint16_t[]){ 0xf000 }, 1);
	pkt(d + 96, 32, 0xf000 + 2048, 3, (uint16_t[]){ 7, 8 }, 2);
	pkt(d + 128, 32, 0x30000, 1, (uint16_t[]){ 0xffff, 9 }, 2);
	pkt(d + 160, 32, 0x30400, 1, NULL, 0);
	aux(f, &off, 0, (c48 + 0x40000) * NS, d, sizeof(d));
	end(f, (c48 + 0x40000) * NS);
	fclose(f);
}

/* every name a quote, a control character, a comma, bytes not UTF-8 */
static void seed_names(struct buf *b)
{
	static const char * const sig[] = {
		"x,y", "q\"u'", "n\nr\r", "\xff\xfe", "`touch pwn`",
		"@m\\", "\xe2\x82\xac", "\xed\xa0\x80", "\xc0\xaf",
		"\xf4\x90\x80\x80", "'\n!touch pwn\n'", "",
	};
	struct nvpc_header h;
	uint8_t d[20 * 32];
	uint64_t off = 0;
	FILE *f = begin(b, 32, 12, &h);

	strcpy(h.chip, "x'\nsystem 'touch pwn'\n#");
	strcpy(h.bus, "\"a\",\\b\x01\x7f");
	strcpy(h.pmu, "\xc3");
	strcpy(h.domain, "\nsystem \"touch pwn\"\n");
	strcpy(h.stop, "'.system('touch pwn').' \xe2\x82");
	for (unsigned int i = 0; i < 12; i++)
		strcpy(h.signals[i].name, sig[i]);
	nvpc_file_write_header(f, &h);
	packets(d, 32, 12, 1024, 20);
	aux(f, &off, 0, 21000000, d, sizeof(d));
	end(f, 21000000);
	fclose(f);
}

/* killed: no END, a torn last chunk */
static void seed_killed(struct buf *b)
{
	struct nvpc_header h;
	uint8_t d[300 * 32];
	uint64_t off = 0;
	FILE *f = begin(b, 32, 2, &h);

	nvpc_file_write_header(f, &h);
	packets(d, 32, 2, 1024, 300);
	for (unsigned int k = 0; k < 300; k += 50)
		aux(f, &off, 0, (k + 50) * 1024 * NS, d + k * 32, 50 * 32);
	fclose(f);
	b->len -= 40;
}

/*
 * a sampled capture (version 2): counts since each sample, a sample of 0
 * cycles, a LOST record, an AUX chunk that does not belong, a count above
 * its cycles, a wrong payload size, a torn last sample
 */
static void seed_sampled(struct buf *b)
{
	struct nvpc_chunk lost = { .type = NVPC_CHUNK_LOST, .offset = 3,
				   .time_ns = 5500000 };
	struct nvpc_header h;
	uint64_t count[3], off = 0;
	uint8_t d[64] = { 0 };
	FILE *f = begin(b, 0, 3, &h);

	h.kind = NVPC_KIND_SAMPLED;
	h.counter_bits = 64;
	h.sample_period_ns = 1000000;
	h.period_cycles = 0;
	strcpy(h.stop, "sampled every 1000000 ns (cpu-clock)");
	nvpc_file_write_header(f, &h);
	for (unsigned int k = 1; k <= 8; k++) {
		for (unsigned int i = 0; i < 3; i++)
			count[i] = k == 4 ? 0 : 575000 >> i;
		nvpc_file_write_sample(f, 0, k * 1000000ULL, k == 4 ? 0 : 575000,
				       count, 3);
	}
	nvpc_file_write_chunk(f, &lost, NULL);
	aux(f, &off, 0, 9000000, d, sizeof(d));
	count[0] = UINT64_MAX;
	nvpc_file_write_sample(f, 0, 10000000, 575000, count, 3);
	nvpc_file_write_sample(f, 0, 11000000, 575000, count, 2);
	nvpc_file_write_sample(f, 0, 12000000, 1ULL << 63, count + 1, 2);
	end(f, 13000000);
	nvpc_file_write_sample(f, 0, 14000000, 575000, count, 3);
	fclose(f);
	b->len -= 9;
}

/* stream st's chunk of type AUX at its own AUX offset */
static void aux_stream(FILE *f, uint32_t st, uint64_t *off, uint32_t flags,
		       uint64_t t_ns, const void *data, uint32_t len)
{
	struct nvpc_chunk c = {
		.type = NVPC_CHUNK_AUX, .flags = flags, .offset = *off,
		.time_ns = t_ns, .size = len, .stream = st,
	};

	nvpc_file_write_chunk(f, &c, data);
	*off += len;
}

static void end_stream(FILE *f, uint32_t st, uint64_t t_ns)
{
	struct nvpc_end e = {
		.end_ns = t_ns, .reason = NVPC_END_COMMAND, .status = 0,
		.hw_packets = -1, .hw_gaps = -1,
	};

	nvpc_file_write_end(f, st, t_ns, &e);
}

/*
 * format version 3, three domains: main.0 record (32-byte packets, 3
 * signals), main.1 sampled (2 signals), main.2 record (16-byte packets,
 * 4 signals, another clock); their chunks interleaved, a PARTIAL gap and
 * a restart in main.2, a chunk of a stream the capture does not have
 */
static void seed_streams(struct buf *b)
{
	struct nvpc_chunk restart = { .type = NVPC_CHUNK_RESTART,
				      .time_ns = 16000000, .stream = 2 };
	struct nvpc_header h, h1, h2;
	uint64_t off0 = 0, off2 = 0, count[2];
	uint8_t d0[30 * 32], d2[20 * 16];
	FILE *f = begin(b, 32, 3, &h);

	h.nr_streams = 3;
	strcpy(h.domain, "main.0");
	h1 = h;
	h1.stream = 1;
	h1.kind = NVPC_KIND_SAMPLED;
	h1.packet_size = 0;
	h1.nr_signals = 2;
	h1.counter_bits = 64;
	h1.sample_period_ns = 1000000;
	h1.period_cycles = 0;
	strcpy(h1.domain, "main.1");
	strcpy(h1.stop, "sampled every 1000000 ns (cpu-clock)");
	h2 = h;
	h2.stream = 2;
	h2.packet_size = 16;
	h2.nr_signals = 4;
	h2.clock_hz = 2 * HZ;
	strcpy(h2.domain, "main.2");
	strcpy(h2.signals[3].name, "graph_idle");
	nvpc_file_write_header(f, &h);
	nvpc_file_write_stream(f, &h1);
	nvpc_file_write_stream(f, &h2);
	packets(d0, 32, 3, 1024, 30);
	packets(d2, 16, 4, 2048, 20);
	for (unsigned int k = 0; k < 3; k++) {
		aux_stream(f, 0, &off0, 0, (k + 1) * 10240000, d0 + k * 320,
			   320);
		aux_stream(f, 2, &off2, k == 1 ? NVPC_AUX_PARTIAL : 0,
			   (k + 1) * 7000000, d2 + k * 96, 96 + 8 * (k == 0));
		if (k == 1)
			nvpc_file_write_chunk(f, &restart, NULL);
		for (unsigned int i = 0; i < 2; i++)
			count[i] = 300000 >> (i + k);
		nvpc_file_write_sample(f, 1, (k + 1) * 1000000ULL, 575000,
				       count, 2);
	}
	aux_stream(f, 7, &off2, 0, 31000000, d2, 32);
	for (uint32_t st = 0; st < 3; st++)
		end_stream(f, st, 31000000);
	fclose(f);
}

/* several domains: hostile names in the second's, the third unfinished */
static void seed_streams_names(struct buf *b)
{
	struct nvpc_header h, h1, h2;
	uint64_t off[3] = { 0 };
	uint8_t d[10 * 32];
	FILE *f = begin(b, 32, 2, &h);

	h.nr_streams = 3;
	h1 = h;
	h1.stream = 1;
	strcpy(h1.domain, "\nsystem \"touch pwn\"\n");
	strcpy(h1.signals[0].name, "'\n!touch pwn\n'");
	strcpy(h1.signals[1].name, "x,\"y\xff");
	h2 = h;
	h2.stream = 2;
	strcpy(h2.domain, "main.1:sig0");
	nvpc_file_write_header(f, &h);
	nvpc_file_write_stream(f, &h1);
	nvpc_file_write_stream(f, &h2);
	packets(d, 32, 2, 1024, 10);
	for (uint32_t st = 0; st < 3; st++)
		aux_stream(f, st, &off[st], 0, 11000000, d, sizeof(d));
	end_stream(f, 1, 11000000);
	end_stream(f, 0, 11000000);
	fclose(f);
}

static struct seed seeds[] = {
	{ .name = "periodic" }, { .name = "gaps" }, { .name = "edges" },
	{ .name = "names" }, { .name = "killed" }, { .name = "sampled" },
	{ .name = "streams" }, { .name = "streams_names" },
};

static void make_seeds(void)
{
	static void (* const make[])(struct buf *) = {
		seed_periodic, seed_gaps, seed_edges, seed_names, seed_killed,
		seed_sampled, seed_streams, seed_streams_names,
	};

	if (seeds[0].b.p)
		return;
	for (unsigned int i = 0; i < ARRAY_SIZE(seeds); i++)
		make[i](&seeds[i].b);
}

/* --- running the outputs ------------------------------------------------ */

enum mode { M_TEXT, M_CSV, M_JSON, M_TRACE, M_PLOT, M_STDIN, M_TOP, M_NR };

static const char * const mode_name[M_NR] = {
	"text", "--csv", "--json", "--trace", "plot script",
	"--json from a pipe", "top's table and lines",
};

struct top_state;

/* a stream's view calls back with its interval: which stream it is */
struct top_arg {
	struct top_state *t;
	unsigned int i;
};

/* nvpc top's four views of a capture's streams, fed the same intervals */
struct top_state {
	struct nvpc_streams s;
	struct nvpc_out out[4][NVPC_FILE_MAX_STREAMS];
	struct nvpc_top_group g[4];
	struct nvpc_decoder d[NVPC_FILE_MAX_STREAMS];
	struct nvpc_stats st[NVPC_FILE_MAX_STREAMS];
	struct top_arg arg[NVPC_FILE_MAX_STREAMS];
};

static void top_interval(const struct nvpc_interval *iv, void *arg)
{
	const struct top_arg *a = arg;
	struct top_state *t = a->t;

	for (unsigned int k = 0; k < 4; k++)
		nvpc_top_group_add(&t->g[k], a->i, iv,
				   t->s.v[a->i].all.packets);
}

/* the outputs and decoder of each stream, each view of top */
static void top_setup(struct top_state *t, FILE *o)
{
	unsigned int nr = t->s.cap.nr;

	for (unsigned int k = 0; k < 4; k++) {
		for (unsigned int i = 0; i < nr; i++) {
			t->out[k][i] = (struct nvpc_out){
				.o = o, .h = &t->s.vh[i], .hz = t->s.hz[i],
				.rate_hz = nvpc_rate_hz(&t->s.cap.h[i],
							t->s.hz[i]),
				.interval_ns = t->s.v[i].interval_ns,
				.first = true,
			};
			if (nr > 1)
				nvpc_csv_streams_pad(&t->out[k][i], t->s.vh,
						     nr, i, 3);
		}
		t->g[k].o = o;
		t->g[k].fmt = k;
		t->g[k].nr = nr;
		t->g[k].out = t->out[k];
		t->g[k].first = true;
	}
	for (unsigned int i = 0; i < nr; i++) {
		t->arg[i].t = t;
		t->arg[i].i = i;
		t->s.v[i].ifn = top_interval;
		t->s.v[i].arg = &t->arg[i];
		nvpc_decoder_init(&t->d[i], &t->s.cap.h[i], t->s.hz[i],
				  nvpc_view_packet, &t->s.v[i], &t->st[i],
				  NULL, 0);
	}
}

/*
 * what nvpc top shows of a capture (its stream is a capture), every
 * stream decoded in one pass as top does: the table, the lines, the
 * CSV and JSON of each interval (10 ms at least)
 */
static int top_views(FILE *f, struct nvpc_report_opts *ro, FILE *o)
{
	struct top_state *t = calloc(1, sizeof(*t));
	int status;

	if (!t)
		return NVPC_EXIT_ERROR;
	/* a table per packet would only slow the run down */
	if (ro->interval_ns < 10000000)
		ro->interval_ns = 10000000;
	status = nvpc_streams_open("fuzz.nvpc", f, ro, &t->s);
	if (status)
		goto out;
	top_setup(t, o);
	if (nvpc_decode_streams(f, t->d, t->s.cap.nr, NULL, 0))
		status = NVPC_EXIT_DAMAGED;
	for (unsigned int i = 0; i < t->s.cap.nr; i++) {
		nvpc_view_flush(&t->s.v[i]);
		if (!t->st[i].have_end)
			status = NVPC_EXIT_DAMAGED;
		else if (t->st[i].impossible && !status)
			status = NVPC_EXIT_IMPOSSIBLE;
	}
	for (unsigned int k = 0; k < 4; k++)
		nvpc_top_group_flush(&t->g[k]);
out:
	free(t);
	return status;
}

/* top's output: its screen clears removed, text as the report's */
static const char *top_invalid(const char *s, size_t n)
{
	static const char clear[] = "\033[H\033[2J";
	char *copy = malloc(n + 1), *p, *q;
	const char *bad;

	if (!copy)
		return "out of memory";
	memcpy(copy, s, n);
	copy[n] = '\0';
	for (p = q = copy; p < copy + n; ) {
		if ((size_t)(copy + n - p) >= sizeof(clear) - 1 &&
		    !memcmp(p, clear, sizeof(clear) - 1)) {
			p += sizeof(clear) - 1;
			continue;
		}
		*q++ = *p++;
	}
	bad = text_invalid(copy, q - copy);
	free(copy);
	return bad;
}

/* a stream that cannot seek, as a pipe on stdin */
struct pipe_cookie {
	const char *p;
	size_t len, pos;
};

static ssize_t pipe_read(void *arg, char *buf, size_t n)
{
	struct pipe_cookie *c = arg;

	if (n > c->len - c->pos)
		n = c->len - c->pos;
	if (n > 4093)	/* short reads, as a pipe gives */
		n = 4093;
	memcpy(buf, c->p + c->pos, n);
	c->pos += n;
	return n;
}

/* in read through nvpc_capture_spool() from a stream without seek */
static FILE *open_as_pipe(const struct buf *in)
{
	static const cookie_io_functions_t io = { .read = pipe_read };
	struct pipe_cookie c = { .p = in->p, .len = in->len };
	FILE *p = fopencookie(&c, "r", io), *f;

	if (!p)
		return NULL;
	if (!fseek(p, 0, SEEK_CUR))
		abort();	/* it must not seek, or nothing is tested */
	f = nvpc_capture_spool(p, "stdin");
	fclose(p);
	return f;
}

struct result {
	int status;
	const char *bad;	/* what is wrong, NULL if nothing */
	char *out, *msg;
	size_t out_len, msg_len;
};

static void result_free(struct result *r)
{
	free(r->out);
	free(r->msg);
	memset(r, 0, sizeof(*r));
}

static const char *output_invalid(enum mode m, const struct result *r,
				  const struct nvpc_report_opts *view)
{
	unsigned int fields;
	const char *bad;

	/* 2 only for a -s the capture does not have */
	if (r->status != NVPC_EXIT_OK && r->status != NVPC_EXIT_ERROR &&
	    r->status != NVPC_EXIT_DAMAGED &&
	    r->status != NVPC_EXIT_IMPOSSIBLE &&
	    !(r->status == NVPC_EXIT_USAGE && view->signals))
		return "an exit status not documented";
	bad = text_invalid(r->msg, r->msg_len);
	if (bad)
		return bad;
	if (r->status == NVPC_EXIT_ERROR || r->status == NVPC_EXIT_USAGE)
		return r->out_len ? "output beside exit status 1 or 2" : NULL;
	switch (m) {
	case M_TEXT:
		return text_invalid(r->out, r->out_len);
	case M_CSV:
		bad = csv_invalid(r->out, r->out_len, &fields);
		if (bad)
			return bad;
		/* several domains: the domain first, their signals' columns */
		if (!strncmp(r->out, "domain,", 7))
			return view->interval_ns ?
			       (fields < 9 || (fields - 6) % 3 ||
				fields > 6 + 3 * NVPC_FILE_MAX_SIGNALS *
				NVPC_FILE_MAX_STREAMS ?
				"a header of several domains without signals" :
				NULL) :
			       (fields < 8 || fields > 7 +
				NVPC_FILE_MAX_SIGNALS * NVPC_FILE_MAX_STREAMS ?
				"a header of several domains without signals" :
				NULL);
		/* per packet: 6 + a count per signal; per interval: 5 + 3 */
		if (view->interval_ns ?
		    fields < 8 || fields > 5 + 3 * NVPC_FILE_MAX_SIGNALS ||
		    (fields - 5) % 3 :
		    fields < 7 || fields > 6 + NVPC_FILE_MAX_SIGNALS)
			return "a header without 1 to 12 signals";
		return NULL;
	case M_JSON:
	case M_TRACE:
	case M_STDIN:
		return json_invalid(r->out, r->out_len);
	case M_TOP:
		return top_invalid(r->out, r->out_len);
	default:
		return script_invalid(r->out, r->out_len);
	}
}

static void run_mode(enum mode m, const struct buf *in,
		     const struct nvpc_report_opts *view, struct result *r)
{
	struct nvpc_report_opts ro = *view;

	static const enum nvpc_report_fmt fmt[] = {
		NVPC_REPORT_TEXT, NVPC_REPORT_CSV, NVPC_REPORT_JSON,
		NVPC_REPORT_TRACE,
	};
	FILE *o = open_memstream(&r->out, &r->out_len);
	FILE *msg = open_memstream(&r->msg, &r->msg_len);
	FILE *f;

	nvpc_msg_file = msg;
	f = m == M_STDIN ? open_as_pipe(in) : fmemopen(in->p, in->len, "r");
	if (!f) {
		r->status = -1;
	} else if (m == M_PLOT) {
		r->status = nvpc_plot_script(f, "fuzz.nvpc", SVG_TERM, &ro, o);
	} else if (m == M_TOP) {
		r->status = top_views(f, &ro, o);
	} else {
		ro.fmt = m == M_STDIN ? NVPC_REPORT_JSON : fmt[m];
		r->status = nvpc_report_write(f, "fuzz.nvpc", &ro, o);
	}
	nvpc_msg_file = NULL;
	if (f)
		fclose(f);
	fclose(o);
	fclose(msg);
	r->bad = output_invalid(m, r, view);
}

/* the JSON from a pipe is the JSON from the file, byte for byte */
static void same_as_json(enum mode m, struct result *r,
			 const struct result *json)
{
	if (m != M_STDIN || r->bad)
		return;
	if (r->status != json->status || r->out_len != json->out_len ||
	    memcmp(r->out, json->out, r->out_len))
		r->bad = "not the JSON the file gives";
}

/* --- mutations ---------------------------------------------------------- */

static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t rng_below(uint64_t *s, uint64_t n)
{
	return n ? rng_next(s) % n : 0;
}

static const uint8_t hostile_bytes[] = {
	0, 1, '\t', '\n', '\r', 0x1b, 0x7f, 0x80, 0xbf, 0xc0, 0xc3, 0xe2,
	0xed, 0xf4, 0xff, '"', '\'', '\\', ',', '`', '@', '$', '!', '<', '&',
};

static uint64_t edge_value(uint64_t *s)
{
	static const uint64_t v[] = {
		0, 1, 2, 4, 5, 12, 13, 16, 32, 64, 65, 1088, 1089, 1120, 4096, 0xf000, 0xffff,
		0x10000, 0x7fffffff, 0x80000000, 0xffffffff, 1ULL << 47,
		(1ULL << 48) - 1, 1ULL << 48, 1ULL << 63, UINT64_MAX,
		256u << 20, (256u << 20) + 1,
	};

	if (rng_below(s, 4) == 0)
		return rng_next(s);
	return v[rng_below(s, ARRAY_SIZE(v))];
}

static void put_le(uint8_t *p, uint64_t v, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		p[i] = v >> (8 * i);
}

/* header fields (nvpc.rst "Header"): offset and size */
static const struct { uint16_t off, len; } header_ints[] = {
	{ 8, 4 }, { 12, 4 }, { 16, 4 }, { 20, 4 }, { 24, 8 }, { 32, 8 },
	{ 40, 8 }, { 48, 8 }, { 56, 8 }, { 92, 4 }, { 96, 4 },
	/* version 2: kind, counter_bits, sample_period_ns */
	{ 1088, 4 }, { 1092, 4 }, { 1096, 8 },
	/* version 3: nr_streams, stream */
	{ 1104, 4 }, { 1108, 4 },
};

static const struct { uint16_t off, len; } header_strs[] = {
	{ 120, 32 }, { 152, 32 }, { 184, 32 }, { 216, 32 }, { 248, 64 },
	{ 324, 60 }, { 388, 60 }, { 452, 60 }, { 1028, 60 },
};

static size_t get_le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | (size_t)p[2] << 16 | (size_t)p[3] << 24;
}

/* the offset of a random chunk header, by walking the sizes; 0 if none */
static size_t some_chunk(uint64_t *s, const uint8_t *b, size_t len)
{
	size_t at[64], n = 0, pos = NVPC_FILE_HEADER_SIZE;

	/* a version 2 or 3 capture's chunks start after its longer header */
	if (len > 16 && (b[8] == NVPC_FILE_VERSION_SAMPLED ||
			 b[8] == NVPC_FILE_VERSION_STREAMS))
		pos = NVPC_FILE_HEADER_SIZE_V2;

	while (pos + NVPC_FILE_CHUNK_SIZE <= len && n < 64) {
		at[n++] = pos;
		pos += NVPC_FILE_CHUNK_SIZE +
		       (b[pos + 24] | b[pos + 25] << 8 |
			(size_t)b[pos + 26] << 16 | (size_t)b[pos + 27] << 24);
	}
	return n ? at[rng_below(s, n)] : 0;
}

/* a chunk (a STREAM chunk too) and the one after it change places */
static void swap_chunks(uint64_t *s, uint8_t *b, size_t n)
{
	static uint8_t tmp[MAX_INPUT];
	size_t at = some_chunk(s, b, n), l1, l2;

	if (!at || at + NVPC_FILE_CHUNK_SIZE > n)
		return;
	l1 = NVPC_FILE_CHUNK_SIZE + get_le32(b + at + 24);
	if (l1 > n - at || n - at - l1 < NVPC_FILE_CHUNK_SIZE)
		return;
	l2 = NVPC_FILE_CHUNK_SIZE + get_le32(b + at + l1 + 24);
	if (l2 > n - at - l1)
		return;
	memcpy(tmp, b + at, l1);
	memmove(b + at, b + at + l1, l2);
	memcpy(b + at + l2, tmp, l1);
}

static void mutate_once(uint64_t *s, uint8_t *b, size_t *len)
{
	size_t n = *len, at, k, c;

	switch (rng_below(s, 14)) {
	case 0:		/* a bit */
		at = rng_below(s, n);
		b[at] ^= 1u << rng_below(s, 8);
		break;
	case 1:		/* a byte */
		b[rng_below(s, n)] =
			hostile_bytes[rng_below(s, sizeof(hostile_bytes))];
		break;
	case 2:		/* an integer anywhere */
		k = 1u << rng_below(s, 4);
		if (n >= k)
			put_le(b + rng_below(s, n - k + 1), edge_value(s), k);
		break;
	case 3:		/* a header field */
		k = rng_below(s, ARRAY_SIZE(header_ints));
		if (n >= header_ints[k].off + header_ints[k].len)
			put_le(b + header_ints[k].off, edge_value(s),
			       header_ints[k].len);
		break;
	case 4:		/* a header name */
		k = rng_below(s, ARRAY_SIZE(header_strs));
		if (n < header_strs[k].off + header_strs[k].len)
			break;
		c = rng_below(s, header_strs[k].len + 1);
		for (size_t i = 0; i < c; i++)
			b[header_strs[k].off + i] = rng_below(s, 3) ?
				hostile_bytes[rng_below(s, sizeof(hostile_bytes))] :
				(uint8_t)rng_next(s);
		break;
	case 5:		/* a chunk header field */
		at = some_chunk(s, b, n);
		if (at) {
			static const uint8_t off[] = { 0, 4, 8, 16, 24, 28 };

			k = off[rng_below(s, sizeof(off))];
			put_le(b + at + k, edge_value(s), k == 8 || k == 16 ? 8 : 4);
		}
		break;
	case 6:		/* a packet word in a payload */
		at = some_chunk(s, b, n);
		if (at && at + NVPC_FILE_CHUNK_SIZE + 2 <= n) {
			at += NVPC_FILE_CHUNK_SIZE +
			      2 * rng_below(s, (n - at - NVPC_FILE_CHUNK_SIZE) / 2);
			put_le(b + at, edge_value(s), 2);
		}
		break;
	case 7:		/* cut */
		*len = 1 + rng_below(s, n);
		break;
	case 8:		/* delete a range */
		at = rng_below(s, n);
		k = rng_below(s, n - at);
		if (n - k >= 1) {
			memmove(b + at, b + at + k, n - at - k);
			*len = n - k;
		}
		break;
	case 9:		/* repeat a range */
		at = rng_below(s, n);
		k = rng_below(s, n - at + 1);
		if (k && n + k <= MAX_INPUT) {
			memmove(b + at + k, b + at, n - at);
			*len = n + k;
		}
		break;
	case 10:	/* splice: another capture's tail */
		k = rng_below(s, ARRAY_SIZE(seeds));
		at = rng_below(s, seeds[k].b.len);
		c = seeds[k].b.len - at;
		if (c > MAX_INPUT - n)
			c = MAX_INPUT - n;
		memcpy(b + n, seeds[k].b.p + at, c);
		*len = n + c;
		break;
	case 12:	/* a chunk's stream: another, or out of range */
		at = some_chunk(s, b, n);
		if (at)
			put_le(b + at + 28, rng_below(s, 4) ?
			       rng_below(s, 4) : edge_value(s), 4);
		break;
	case 13:	/* interleaving: a chunk swapped with the next */
		swap_chunks(s, b, n);
		break;
	default:	/* a STOP or counter word set high */
		at = some_chunk(s, b, n);
		if (at && at + NVPC_FILE_CHUNK_SIZE + 32 <= n)
			put_le(b + at + NVPC_FILE_CHUNK_SIZE + 6 +
			       2 * rng_below(s, 13), rng_next(s), 2);
		break;
	}
}

/*
 * the view a report is asked for: signals by name or id (some not in
 * the capture: exit 2), a time range
 */
static void make_view(uint64_t *s, struct nvpc_report_opts *ro)
{
	static const char * const sel[] = {
		"sig1,sig0", "0x10", "sig2,16,sig2", "x,y", "nosuch",
		"sig0,sig1,sig2,sig3,sig4,sig5,sig6,sig7,sig8,sig9,sig10,sig11",
		/* several domains */
		"main.0:sig1,graph_idle", "main.2:sig0,main.1:sig1",
		"main.1:sig0:x", "main.9:sig0",
	};

	if (!rng_below(s, 4))
		ro->signals = (char *)sel[rng_below(s, ARRAY_SIZE(sel))];
	if (!rng_below(s, 4)) {
		ro->from_ns = rng_below(s, 4) ? rng_below(s, 30000000) :
			      edge_value(s);
		ro->to_ns = ro->from_ns + 1 + rng_below(s, 20000000);
		if (ro->to_ns < ro->from_ns)
			ro->to_ns = 0;
	}
	if (!rng_below(s, 3))
		ro->interval_ns = rng_below(s, 4) ? 1 + rng_below(s, 5000000) :
				  edge_value(s) | 1;
	ro->monotonic = !rng_below(s, 4);
	ro->full = !rng_below(s, 4);
}

/* iteration iter of seed: its input in b, its clock override and view */
static void make_input(uint64_t seed, uint64_t iter, uint8_t *b, size_t *len,
		       struct nvpc_report_opts *ro)
{
	uint64_t s = seed ^ (iter * 0xd1b54a32d192ed03ULL);
	const struct buf *from;
	unsigned int ops;

	rng_next(&s);
	from = &seeds[rng_below(&s, ARRAY_SIZE(seeds))].b;
	memcpy(b, from->p, from->len);
	*len = from->len;
	ops = 1 + rng_below(&s, 4);
	for (unsigned int i = 0; i < ops; i++)
		mutate_once(&s, b, len);
	memset(ro, 0, sizeof(*ro));
	ro->clock_hz = rng_below(&s, 8) ? 0 : 1 + rng_below(&s, 1ULL << 40);
	make_view(&s, ro);
}

static uint64_t env_u64(const char *name, uint64_t def)
{
	const char *v = getenv(name);

	return v && *v ? strtoull(v, NULL, 0) : def;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void save_input(uint64_t seed, uint64_t iter, const uint8_t *b,
		       size_t len, char *path, size_t plen)
{
	const char *dir = getenv("TMPDIR");
	FILE *f;

	snprintf(path, plen, "%s/nvpc-fuzz-0x%llx-%llu.nvpc", dir ? dir : "/tmp",
		 (unsigned long long)seed, (unsigned long long)iter);
	f = fopen(path, "w");
	if (f) {
		fwrite(b, 1, len, f);
		fclose(f);
	}
}

/* --- tests -------------------------------------------------------------- */

/* the validators refuse what they are there to catch */
TEST(validators_refuse)
{
	static const char * const bad_json[] = {
		"{\"command_status\": 0null}", "{\"a\": \"\x01\"}",
		"{\"a\": \"\xff\"}", "{\"a\": nan}", "[1,]", "{\"a\" 1}",
		"\"\\x41\"", "{} {}", "",
	};
	static const char * const bad_csv[] = {
		"a,b\n1\n", "a,\"b\n", "a,b\"c\n1,2\n", "a,b", "\"a\"b\n",
		"a\r\n", "a,\xc3\n",
	};
	static const char * const bad_script[] = {
		"set title 'x\nsystem \"touch y\"\n",
		"set title 'x'; system 'touch y'\n",
		"set terminal svg size 1000,600 dynamic background rgb 'white' noenhanced\nset output\nset title ''\nset xlabel ''\nset ylabel ''\nset yrange [0:105]\nset grid\nset key outside right top\nset datafile missing '?'\n$d << EOD\n1 2\nsystem 'x'\nEOD\n",
		"set terminal svg size 1000,600 dynamic background rgb 'white' noenhanced\nset output\nset title ''\nset xlabel ''\nset ylabel ''\nset yrange [0:105]\nset grid\nset key outside right top\nset datafile missing '?'\n$d << EOD\nEOD\nplot $d using 1:2 with lines title 'a'b'\n",
	};
	static const char good_script[] =
		"set terminal svg size 1000,600 dynamic background rgb 'white' noenhanced\nset output\nset title 'a \\x27 \xc3\xa9'\nset xlabel 'x'\nset ylabel 'y'\nset yrange [0:105]\nset grid\nset key outside right top\nset datafile missing '?'\n$d << EOD\n0.5 10.0 2e-3\n\n1 -0\nEOD\nplot $d using 1:2 with lines title 's', $d using 1:3 with lines title ''\n";
	/* several domains: a block per domain, the plot line naming them */
	static const char * const bad_streams[] = {
		"set terminal svg size 1000,600 dynamic background rgb 'white' noenhanced\nset output\nset title ''\nset xlabel ''\nset ylabel ''\nset yrange [0:105]\nset grid\nset key outside right top\nset datafile missing '?'\n$d0 << EOD\n1 2\nEOD\nplot $d1 using 1:2 with lines title 'a'\n",
		"set terminal svg size 1000,600 dynamic background rgb 'white' noenhanced\nset output\nset title ''\nset xlabel ''\nset ylabel ''\nset yrange [0:105]\nset grid\nset key outside right top\nset datafile missing '?'\n$d0 << EOD\n1 2\nEOD\nsystem 'x'\nplot $d0 using 1:2 with lines title 'a'\n",
		"set terminal svg size 1000,600 dynamic background rgb 'white' noenhanced\nset output\nset title ''\nset xlabel ''\nset ylabel ''\nset yrange [0:105]\nset grid\nset key outside right top\nset datafile missing '?'\n$d1 << EOD\nEOD\n$d0 << EOD\nEOD\nplot $d0 using 1:2 with lines title 'a'\n",
	};
	static const char good_streams[] =
		"set terminal svg size 1000,600 dynamic background rgb 'white' noenhanced\nset output\nset title 'x'\nset xlabel 'x'\nset ylabel 'y'\nset yrange [0:105]\nset grid\nset key outside right top\nset datafile missing '?'\n$d0 << EOD\n0.5 10.0\nEOD\n$d2 << EOD\n1 2 3\nEOD\nplot $d0 using 1:2 with lines title 'a', $d2 using 1:2 with lines title 'b', $d2 using 1:3 with lines title 'c'\n";
	static const char good_json[] =
		"{\"a\": [1, -2.5e+3, true, null, \"\\u00e9\xc3\xa9\\\"\"], \"b\": {}}";
	static const char good_csv[] = "a,\"b,\"\"c\"\"\",x\nd,\"\",f\n";
	unsigned int fields;

	for (unsigned int i = 0; i < ARRAY_SIZE(bad_json); i++) {
		EXPECT_NE(NULL, json_invalid(bad_json[i], strlen(bad_json[i])))
			TH_LOG("JSON %u", i);
	}
	EXPECT_EQ(NULL, json_invalid(good_json, strlen(good_json)));
	for (unsigned int i = 0; i < ARRAY_SIZE(bad_csv); i++) {
		EXPECT_NE(NULL, csv_invalid(bad_csv[i], strlen(bad_csv[i]), &fields))
			TH_LOG("CSV %u", i);
	}
	EXPECT_EQ(NULL, csv_invalid(good_csv, strlen(good_csv), &fields));
	EXPECT_EQ(3, fields);
	for (unsigned int i = 0; i < ARRAY_SIZE(bad_script); i++) {
		EXPECT_NE(NULL, script_invalid(bad_script[i], strlen(bad_script[i])))
			TH_LOG("script %u", i);
	}
	EXPECT_EQ(NULL, script_invalid(good_script, strlen(good_script)));
	for (unsigned int i = 0; i < ARRAY_SIZE(bad_streams); i++) {
		EXPECT_NE(NULL, script_invalid(bad_streams[i], strlen(bad_streams[i])))
			TH_LOG("script of several domains %u", i);
	}
	EXPECT_EQ(NULL, script_invalid(good_streams, strlen(good_streams)));
	EXPECT_NE(NULL, text_invalid("a\x1b[2Jb", 6));
	EXPECT_NE(NULL, text_invalid("\xed\xa0\x80", 3));
	EXPECT_EQ(NULL, text_invalid("caf\xc3\xa9\n", 6));
}

/* every capture written by the tool: its status, valid outputs */
TEST(seeds_every_output)
{
	static const int status[] = { 0, 0, 0, 0, NVPC_EXIT_DAMAGED,
				      NVPC_EXIT_DAMAGED, 0, NVPC_EXIT_DAMAGED };
	struct result r, json = { 0 };

	make_seeds();
	for (unsigned int i = 0; i < ARRAY_SIZE(seeds); i++) {
		for (enum mode m = 0; m < M_NR; m++) {
			run_mode(m, &seeds[i].b, &(struct nvpc_report_opts){ 0 },
				 &r);
			same_as_json(m, &r, &json);
			EXPECT_EQ(status[i], r.status)
				TH_LOG("%s %s: %s", seeds[i].name, mode_name[m],
				       r.msg);
			EXPECT_EQ(NULL, r.bad)
				TH_LOG("%s %s: %s\n%s", seeds[i].name,
				       mode_name[m], r.bad, r.out);
			if (m == M_JSON)
				json = r;
			else
				result_free(&r);
		}
		result_free(&json);
	}
}

/* the input being decoded, for a report when one hangs */
static volatile uint64_t fuzz_seed, fuzz_iter;

static void fuzz_hung(int sig)
{
	char msg[160];
	int n = snprintf(msg, sizeof(msg),
			 "# mutation_fuzz: iteration %llu hangs (NVPC_FUZZ_SEED=0x%llx NVPC_FUZZ_ITER=%llu)\n",
			 (unsigned long long)fuzz_iter,
			 (unsigned long long)fuzz_seed,
			 (unsigned long long)fuzz_iter);

	(void)sig;
	if (write(STDERR_FILENO, msg, n) < 0)
		_exit(2);
	_exit(1);
}

FIXTURE(fuzz) {};
FIXTURE_SETUP(fuzz) {}
FIXTURE_TEARDOWN(fuzz) {}

/*
 * The harness's own timeout is only a backstop: the run stops taking
 * inputs after NVPC_FUZZ_SECONDS, and an input that hangs is reported
 * (SIGALRM) 30 s after that.
 */
TEST_F_TIMEOUT(fuzz, mutation_fuzz, FUZZ_MAX_SECONDS + 60)
{
	uint64_t seed = env_u64("NVPC_FUZZ_SEED", (uint64_t)time(NULL) * 2654435761u);
	uint64_t iters = env_u64("NVPC_FUZZ_ITERS", 20000);
	uint64_t secs = env_u64("NVPC_FUZZ_SECONDS", 20);
	double t0 = now_s();
	uint64_t only = env_u64("NVPC_FUZZ_ITER", UINT64_MAX);
	uint64_t from = only == UINT64_MAX ? 0 : only, iter;
	struct nvpc_report_opts ro;
	uint64_t by_status[5] = { 0 }, failures = 0;
	static uint8_t b[2 * MAX_INPUT];
	char path[256];
	struct result r, json = { 0 };
	size_t len;

	make_seeds();
	if (secs > FUZZ_MAX_SECONDS)
		secs = FUZZ_MAX_SECONDS;
	fuzz_seed = seed;
	signal(SIGALRM, fuzz_hung);
	alarm(secs + 30);
	ksft_print_msg("mutation_fuzz: seed 0x%llx (NVPC_FUZZ_SEED=0x%llx replays it), at most %llu inputs or %llu s\n",
		       (unsigned long long)seed, (unsigned long long)seed,
		       (unsigned long long)iters, (unsigned long long)secs);
	for (iter = from; iter < (only == UINT64_MAX ? iters : only + 1);
	     iter++) {
		if (only == UINT64_MAX && now_s() - t0 > secs)
			break;
		fuzz_iter = iter;
		make_input(seed, iter, b, &len, &ro);
		for (enum mode m = 0; m < M_NR; m++) {
			run_mode(m, &(struct buf){ (char *)b, len }, &ro, &r);
			if (r.status >= 0 && r.status < 5 && m == M_JSON)
				by_status[r.status]++;
			same_as_json(m, &r, &json);
			if (r.bad && failures++ < 5) {
				save_input(seed, iter, b, len, path, sizeof(path));
				TH_LOG("iteration %llu, %s%s%s%s: %s (NVPC_FUZZ_SEED=0x%llx NVPC_FUZZ_ITER=%llu; the input: %s)\n%.2000s",
				       (unsigned long long)iter, mode_name[m],
				       ro.clock_hz ? " with --clock" : "",
				       ro.signals ? " -s " : "",
				       ro.signals ? ro.signals : "", r.bad,
				       (unsigned long long)seed,
				       (unsigned long long)iter, path, r.out);
			}
			if (m == M_JSON)
				json = r;
			else
				result_free(&r);
		}
		result_free(&json);
	}
	ksft_print_msg("mutation_fuzz: %llu inputs x %d outputs in %.1f s; exit 0: %llu, 1: %llu, 2: %llu, 3: %llu, 4: %llu; %llu invalid\n",
		       (unsigned long long)(iter - from), M_NR, now_s() - t0,
		       (unsigned long long)by_status[0],
		       (unsigned long long)by_status[1],
		       (unsigned long long)by_status[2],
		       (unsigned long long)by_status[3],
		       (unsigned long long)by_status[4],
		       (unsigned long long)failures);
	fflush(stdout);	/* the harness's child ends with _exit() */
	EXPECT_EQ(0, failures);
}

TEST_HARNESS_MAIN
