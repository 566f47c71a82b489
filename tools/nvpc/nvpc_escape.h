/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Strings from a capture (chip, bus, PMU, domain, STOP and signal names)
 * are data someone else may have written: every output quotes them for
 * its own syntax (Documentation/nvpc.rst, "Names in the outputs"), and
 * nothing from a capture is ever code for gnuplot or a shell.
 */
#ifndef NVPC_ESCAPE_H
#define NVPC_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

/*
 * The length (1..4) of the well-formed UTF-8 sequence s starts with, 0
 * for a byte that does not start one (a stray continuation byte, an
 * overlong form, a surrogate, above U+10FFFF, cut by the NUL).
 */
unsigned int nvpc_utf8_seq(const unsigned char *s);

/*
 * s for a terminal or a label: control characters (and DEL) and bytes
 * that are not UTF-8 as the text "\xNN", the rest as is. Cut to fit len
 * (never inside an escape or a UTF-8 sequence); returns buf.
 */
const char *nvpc_printable(char *buf, size_t len, const char *s);

/* a JSON string with its quotes; invalid UTF-8 becomes U+FFFD */
void nvpc_json_str(FILE *o, const char *s);

/*
 * an RFC 4180 CSV field: s made printable (above), quoted when it holds
 * a comma or a double quote, a double quote doubled
 */
void nvpc_csv_field(FILE *o, const char *s);

/*
 * a gnuplot single-quoted string (no backslash escapes, no command or
 * macro substitution inside single quotes): s made printable, so no
 * newline ends the command, and a single quote as the text "\x27" too
 * (gnuplot 5.4's scanner misreads a doubled quote next to another)
 */
void nvpc_gp_str(FILE *o, const char *s);

#endif /* NVPC_ESCAPE_H */
