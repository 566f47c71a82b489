/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a command's -o OUT (and export's --textfile file) is written:
 * the one set of rules for every file nvpc writes under a name the user
 * gave (Documentation/nvpc.rst "Output files"), so that no user file
 * is lost and no link or special file is replaced:
 *
 * - "-" (or no -o) is stdout; /dev/stdout, /dev/stderr, /dev/fd/N and
 *   /proc/self/fd/N name a descriptor nvpc already has: it is written
 *   as it is, never opened again (nor renamed over);
 * - a symbolic link is followed, link by link, to what it names: the
 *   link stays and its target is written by these same rules (a link
 *   to /dev/stdout is stdout); a link to nothing is refused;
 * - a regular file (new or old) is written as a temporary file beside
 *   it (OUT.XXXXXX, beside the link's target for a link), renamed over
 *   it only when the command succeeded: a failing command leaves OUT as
 *   it was, never truncated or half written; an old file's permissions
 *   carry over;
 * - anything else that exists (/dev/null, a named pipe, a terminal) is
 *   written in place; a directory is refused;
 * - OUT may not be the capture being read (the same file, by device and
 *   inode, whatever the name) nor any other nvpc capture: both are
 *   refused before anything is written (record keeps an existing
 *   capture as OUT.old instead, as perf keeps perf.data.old).
 */
#ifndef NVPC_OUT_H
#define NVPC_OUT_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/stat.h>

/* what an OUT name leads to (nvpc_out_target()) */
enum nvpc_out_kind {
	NVPC_OUT_FD,		/* a descriptor: "-", /dev/stdout, /dev/fd/N */
	NVPC_OUT_NEW,		/* no file there yet */
	NVPC_OUT_REGULAR,	/* a regular file, replaced by a rename */
	NVPC_OUT_SPECIAL,	/* a named pipe, a device: written in place */
};

/**
 * struct nvpc_out_target - an OUT name, its links followed
 * @kind: what is there
 * @fd: %NVPC_OUT_FD: the descriptor
 * @path: else the file's name, every link followed (malloc()ed)
 * @st: %NVPC_OUT_REGULAR and %NVPC_OUT_SPECIAL: its lstat()
 */
struct nvpc_out_target {
	enum nvpc_out_kind kind;
	int fd;
	char *path;
	struct stat st;
};

/* a command's output, opened by nvpc_ofile_open() */
struct nvpc_ofile {
	FILE *f;		/* where the command writes */
	const char *path;	/* OUT as given ("-" for stdout) */
	char *dest;		/* the file renamed over, links followed */
	char *tmp;		/* the temporary file renamed to dest, or NULL */
	bool own;		/* f is nvpc_ofile_open()'s to close */
};

/*
 * nvpc_out_fd() - the descriptor @out names, if it names one
 * @out: the -o argument; NULL is stdout
 *
 * Return: 1 for NULL, "-" and /dev/stdout, 2 for /dev/stderr, N for
 * /dev/fd/N and /proc/self/fd/N, else -1. Whether N is open is
 * nvpc_out_target()'s check.
 */
int nvpc_out_fd(const char *out);

/*
 * nvpc_out_target() - where writing @out lands, by the rules above
 * @out: the -o argument (NULL: stdout)
 * @t: filled in; nvpc_out_target_free() it
 *
 * Return: 0, or -1 with a message naming @out (a directory, a link to
 * nothing, a descriptor that is not open for writing).
 */
int nvpc_out_target(const char *out, struct nvpc_out_target *t);

/* nvpc_out_target_free() - free what nvpc_out_target() allocated */
void nvpc_out_target_free(struct nvpc_out_target *t);

/*
 * nvpc_ofile_open() - open where the command writes, by the rules above
 * @o: filled in
 * @out: the -o argument (NULL: stdout)
 * @in: the capture being read, or NULL
 *
 * Return: 0, or -1 with a message (nvpc_out_target()'s, the input
 * itself, another capture, a file that cannot be created).
 */
int nvpc_ofile_open(struct nvpc_ofile *o, const char *out, FILE *in);

/*
 * nvpc_ofile_close() - end the output: keep it when @ok, else discard it
 * @o: opened by nvpc_ofile_open()
 * @ok: the command succeeded
 *
 * With @ok the temporary file is flushed, closed and renamed to OUT
 * (its link's target for a link); without, it is removed and OUT stays
 * as it was.
 *
 * Return: 0, or -1 with a message (a write or the rename failed: OUT is
 * then as it was).
 */
int nvpc_ofile_close(struct nvpc_ofile *o, bool ok);

/*
 * nvpc_out_write() - @len bytes of @buf as the whole of @out
 * @out: the file (export's --textfile DIR/nvpcounter.prom)
 * @buf: its contents
 * @len: their length
 * @mode: the permissions of a regular file written, whatever the umask
 *
 * nvpc_ofile_open() and nvpc_ofile_close() for one buffer.
 *
 * Return: 0, or -1 with a message.
 */
int nvpc_out_write(const char *out, const void *buf, size_t len, int mode);

#endif
