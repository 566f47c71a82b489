// SPDX-License-Identifier: GPL-2.0
/*
 * Quoting a capture's strings for each output (nvpc_escape.h).
 */
#include <stdbool.h>
#include <string.h>

#include "nvpc_escape.h"

unsigned int nvpc_utf8_seq(const unsigned char *s)
{
	unsigned int len, i;
	unsigned char lo = 0x80, hi = 0xbf;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4;
	else
		return 0;	/* continuation byte, overlong lead, > U+10FFFF */
	/* the second byte's range rules out overlongs and surrogates */
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

static bool is_control(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

const char *nvpc_printable(char *buf, size_t len, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = 0;

	while (*p) {
		unsigned int seq = nvpc_utf8_seq(p);

		if (!seq || is_control(*p)) {
			if (n + 4 >= len)
				break;
			snprintf(buf + n, 5, "\\x%02x", *p);
			n += 4;
			p++;
			continue;
		}
		if (n + seq >= len)
			break;
		memcpy(buf + n, p, seq);
		n += seq;
		p += seq;
	}
	buf[n] = '\0';
	return buf;
}

void nvpc_json_str(FILE *o, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', o);
	while (*p) {
		unsigned int seq = nvpc_utf8_seq(p);

		if (!seq) {
			fputs("\\ufffd", o);
			p++;
		} else if (*p == '"' || *p == '\\') {
			fprintf(o, "\\%c", *p++);
		} else if (is_control(*p)) {
			fprintf(o, "\\u%04x", *p++);
		} else {
			fwrite(p, 1, seq, o);
			p += seq;
		}
	}
	fputc('"', o);
}

/* the longest field or label a capture holds, escaped: 4 bytes per byte */
#define ESCAPED_LEN	1024

void nvpc_csv_field(FILE *o, const char *s)
{
	char buf[ESCAPED_LEN];
	const char *p = nvpc_printable(buf, sizeof(buf), s);

	if (!strpbrk(p, ",\"")) {
		fputs(p, o);
		return;
	}
	fputc('"', o);
	for (; *p; p++) {
		if (*p == '"')
			fputc('"', o);
		fputc(*p, o);
	}
	fputc('"', o);
}

void nvpc_gp_str(FILE *o, const char *s)
{
	char buf[ESCAPED_LEN];
	const char *p = nvpc_printable(buf, sizeof(buf), s);

	fputc('\'', o);
	for (; *p; p++) {
		if (*p == '\'')
			fputs("\\x27", o);
		else
			fputc(*p, o);
	}
	fputc('\'', o);
}
