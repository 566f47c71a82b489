// SPDX-License-Identifier: GPL-2.0
/*
 * A command's -o OUT, written so that no user file is lost and no link
 * or special file is replaced (nvpc_out.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "nvpc_file.h"
#include "nvpc_out.h"
#include "nvpc_util.h"

/* links followed before giving up: the kernel's own limit (MAXSYMLINKS) */
#define OUT_MAX_LINKS	40

/* does the regular file @path start with the capture's magic? */
static bool is_capture(const char *path)
{
	char b[sizeof(NVPC_FILE_MAGIC)];
	bool ret = false;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return false;	/* not ours to read: nor to judge */
	if (read(fd, b, sizeof(b)) == (ssize_t)sizeof(b))
		ret = !memcmp(b, NVPC_FILE_MAGIC, sizeof(b));
	close(fd);
	return ret;
}

/* N of PREFIX N (decimal digits only), else -1 */
static int fd_number(const char *out, const char *prefix)
{
	size_t n = strlen(prefix);
	char *end;
	long v;

	if (strncmp(out, prefix, n) || out[n] < '0' || out[n] > '9')
		return -1;
	errno = 0;
	v = strtol(out + n, &end, 10);
	return *end || errno || v > 0x7fffffff ? -1 : (int)v;
}

int nvpc_out_fd(const char *out)
{
	int fd;

	if (!out || nvpc_is_stdio(out) || !strcmp(out, "/dev/stdout"))
		return STDOUT_FILENO;
	if (!strcmp(out, "/dev/stderr"))
		return STDERR_FILENO;
	fd = fd_number(out, "/dev/fd/");
	return fd >= 0 ? fd : fd_number(out, "/proc/self/fd/");
}

/* what the link @link names, relative to the link's directory */
static char *link_target(const char *link)
{
	const char *slash = strrchr(link, '/');
	size_t len = 256;
	char *buf, *path;
	ssize_t n;

	for (;;) {
		buf = malloc(len);
		if (!buf)
			return NULL;
		n = readlink(link, buf, len);
		if (n < 0 || (size_t)n < len)
			break;
		free(buf);
		len *= 2;
	}
	if (n < 0) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	if (buf[0] == '/' || !slash)
		return buf;
	if (asprintf(&path, "%.*s/%s", (int)(slash - link), link, buf) < 0)
		path = NULL;
	free(buf);
	return path;
}

/* @t is the descriptor @fd, if it is open for writing */
static int target_fd(const char *out, int fd, struct nvpc_out_target *t)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0) {
		nvpc_err("-o %s: descriptor %d is not open", out, fd);
		return -1;
	}
	if ((fl & O_ACCMODE) == O_RDONLY) {
		nvpc_err("-o %s: descriptor %d is not open for writing", out,
			 fd);
		return -1;
	}
	t->kind = NVPC_OUT_FD;
	t->fd = fd;
	return 0;
}

int nvpc_out_target(const char *out, struct nvpc_out_target *t)
{
	int fd = nvpc_out_fd(out), links = 0;
	char *path, *next;

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	if (fd >= 0)
		return target_fd(out ? out : "-", fd, t);
	path = strdup(out);
	if (!path) {
		nvpc_err("-o %s: %s", out, strerror(ENOMEM));
		return -1;
	}
	/* link by link, as sed -i --follow-symlinks does */
	while (!lstat(path, &t->st) && S_ISLNK(t->st.st_mode)) {
		if (++links > OUT_MAX_LINKS) {
			nvpc_err("-o %s: %s", out, strerror(ELOOP));
			goto fail;
		}
		next = link_target(path);
		if (!next) {
			nvpc_err("-o %s: reading the link %s: %s", out, path,
				 strerror(errno));
			goto fail;
		}
		free(path);
		path = next;
		fd = nvpc_out_fd(path);
		if (fd >= 0) {
			free(path);
			return target_fd(out, fd, t);
		}
	}
	t->path = path;
	if (lstat(path, &t->st)) {
		if (links) {
			nvpc_err("-o %s: a symbolic link to %s, which %s: give the file's own name",
				 out, path, errno == ENOENT ? "is not there" :
				 strerror(errno));
			goto fail;
		}
		t->kind = NVPC_OUT_NEW;	/* said when it is created */
	} else if (S_ISREG(t->st.st_mode)) {
		t->kind = NVPC_OUT_REGULAR;
	} else if (!S_ISDIR(t->st.st_mode)) {
		t->kind = NVPC_OUT_SPECIAL;
	} else {
		nvpc_err("-o %s: a directory, not a file", out);
		goto fail;
	}
	return 0;
fail:
	free(path);
	t->path = NULL;
	return -1;
}

void nvpc_out_target_free(struct nvpc_out_target *t)
{
	free(t->path);
	t->path = NULL;
}

/* the input itself, or another capture, are not for @t */
static int target_check(const char *out, const struct nvpc_out_target *t,
			FILE *in)
{
	struct stat si;

	if (t->kind == NVPC_OUT_FD || t->kind == NVPC_OUT_NEW)
		return 0;
	if (in && !fstat(fileno(in), &si) && si.st_dev == t->st.st_dev &&
	    si.st_ino == t->st.st_ino) {
		nvpc_err("-o %s: that is the capture being read; give another name",
			 out);
		return -1;
	}
	if (t->kind == NVPC_OUT_REGULAR && is_capture(t->path)) {
		nvpc_err("-o %s: an nvpc capture is there; give another name, or remove it first",
			 out);
		return -1;
	}
	return 0;
}

/* a file with a random suffix beside @out: its descriptor, or -errno */
static int out_temp(const char *out, char **tmp, int mode)
{
	mode_t mask = umask(0);
	int fd;

	umask(mask);
	if (mode < 0)
		mode = 0666 & ~mask;
	if (asprintf(tmp, "%s.XXXXXX", out) < 0) {
		*tmp = NULL;
		return -ENOMEM;
	}
	fd = mkostemp(*tmp, O_CLOEXEC);
	if (fd < 0 || fchmod(fd, mode)) {
		int ret = -errno;

		if (fd >= 0) {
			close(fd);
			unlink(*tmp);
		}
		free(*tmp);
		*tmp = NULL;
		return ret;
	}
	return fd;
}

/* nvpc_ofile_open(), a regular file's permissions @mode (-1: as it was) */
static int ofile_open(struct nvpc_ofile *o, const char *out, FILE *in,
		      int mode)
{
	struct nvpc_out_target t;
	int fd;

	memset(o, 0, sizeof(*o));
	o->path = out ? out : "-";
	if (nvpc_out_target(out, &t))
		return -1;
	if (target_check(o->path, &t, in))
		goto fail;
	switch (t.kind) {
	case NVPC_OUT_FD:
		/* stdout and stderr as they are, buffers and all */
		if (t.fd == STDOUT_FILENO || t.fd == STDERR_FILENO) {
			o->f = t.fd == STDOUT_FILENO ? stdout : stderr;
			return 0;
		}
		fd = fcntl(t.fd, F_DUPFD_CLOEXEC, 0);
		break;
	case NVPC_OUT_SPECIAL:
		/* /dev/null, a named pipe, a terminal: in place */
		fd = open(t.path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
		break;
	default:
		if (mode < 0 && t.kind == NVPC_OUT_REGULAR)
			mode = t.st.st_mode & 07777;
		fd = out_temp(t.path, &o->tmp, mode);
		if (fd < 0) {
			errno = -fd;
			fd = -1;
		}
		break;
	}
	if (fd < 0) {
		nvpc_err("cannot %s %s: %s", t.kind == NVPC_OUT_NEW ||
			 t.kind == NVPC_OUT_REGULAR ? "create" : "open",
			 o->path, strerror(errno));
		goto fail;
	}
	o->f = fdopen(fd, "w");
	if (!o->f) {
		nvpc_err("cannot create %s: %s", o->path, strerror(errno));
		close(fd);
		if (o->tmp)
			unlink(o->tmp);
		free(o->tmp);
		o->tmp = NULL;
		goto fail;
	}
	o->own = true;
	o->dest = t.path;
	return 0;
fail:
	nvpc_out_target_free(&t);
	return -1;
}

int nvpc_ofile_open(struct nvpc_ofile *o, const char *out, FILE *in)
{
	return ofile_open(o, out, in, -1);
}

int nvpc_ofile_close(struct nvpc_ofile *o, bool ok)
{
	int ret = 0;

	if (!o->f)
		return 0;
	if (!o->own) {
		if (fflush(o->f)) {
			nvpc_err("writing to %s: %s",
				 o->f == stdout ? "stdout" : "stderr",
				 strerror(errno));
			ret = -1;
		}
		o->f = NULL;
		return ret;
	}
	if (ferror(o->f) && ok) {
		nvpc_err("writing %s: %s", o->path, strerror(errno));
		ok = false;
		ret = -1;
	}
	if (fclose(o->f) && ok) {
		nvpc_err("writing %s: %s", o->path, strerror(errno));
		ok = false;
		ret = -1;
	}
	o->f = NULL;
	if (o->tmp) {
		if (ok && rename(o->tmp, o->dest)) {
			nvpc_err("cannot write %s: %s", o->path, strerror(errno));
			ok = false;
			ret = -1;
		}
		if (!ok)
			unlink(o->tmp);
		free(o->tmp);
		o->tmp = NULL;
	}
	free(o->dest);
	o->dest = NULL;
	return ret;
}

int nvpc_out_write(const char *out, const void *buf, size_t len, int mode)
{
	struct nvpc_ofile o;
	bool ok;

	if (ofile_open(&o, out, NULL, mode))
		return -1;
	ok = fwrite(buf, 1, len, o.f) == len && !fflush(o.f);
	if (!ok)
		nvpc_err("writing %s: %s", out, strerror(errno));
	return nvpc_ofile_close(&o, ok) || !ok ? -1 : 0;
}
