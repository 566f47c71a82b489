/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A command's output file (-o OUT) that never costs the user a file:
 *
 * - OUT may not be the capture being read (the same file, by device and
 *   inode, whatever the name) nor any other nvpc capture: both are
 *   refused before anything is written (record keeps an existing capture
 *   as OUT.old instead, as perf keeps perf.data.old);
 * - a regular file (new or old) is written as a temporary file beside
 *   it, renamed over OUT only when the command succeeded: a failing
 *   command leaves OUT as it was, never truncated or half written;
 * - "-" (or no -o) is stdout; an existing OUT that is not a regular file
 *   (/dev/null, a named pipe, a terminal) is written in place.
 */
#ifndef NVPC_OUT_H
#define NVPC_OUT_H

#include <stdbool.h>
#include <stdio.h>

struct nvpc_ofile {
	FILE *f;		/* where the command writes */
	const char *path;	/* OUT as given ("-" for stdout) */
	char *tmp;		/* the temporary file renamed to OUT, or NULL */
};

/*
 * nvpc_out_check() - may the command write @out, reading @in?
 * @out: the -o argument; NULL or "-" is stdout (always allowed)
 * @in: the capture being read (its FILE), or NULL
 *
 * Return: 0, or -1 with a message (the input itself, a capture, a
 * directory).
 */
int nvpc_out_check(const char *out, FILE *in);

/*
 * nvpc_out_temp() - create a file with a random suffix beside @out
 * @out: the final name
 * @tmp: set to the temporary file's name (malloc()ed), NULL on failure
 * @like: an existing file whose permissions it takes, or -1 for
 *        0666 less the umask
 *
 * Return: the open descriptor (O_CLOEXEC), or -errno.
 */
int nvpc_out_temp(const char *out, char **tmp, int like);

/*
 * nvpc_ofile_open() - nvpc_out_check(), then open where the command writes
 * @o: filled in
 * @out: the -o argument (NULL: stdout)
 * @in: the capture being read, or NULL
 *
 * Return: 0, or -1 with a message.
 */
int nvpc_ofile_open(struct nvpc_ofile *o, const char *out, FILE *in);

/*
 * nvpc_ofile_close() - end the output: keep it when @ok, else discard it
 * @o: opened by nvpc_ofile_open()
 * @ok: the command succeeded
 *
 * With @ok the temporary file is flushed, closed and renamed to OUT;
 * without, it is removed and OUT stays as it was.
 *
 * Return: 0, or -1 with a message (a write or the rename failed: OUT is
 * then as it was).
 */
int nvpc_ofile_close(struct nvpc_ofile *o, bool ok);

#endif
