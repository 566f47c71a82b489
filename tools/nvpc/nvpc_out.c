// SPDX-License-Identifier: GPL-2.0
/*
 * A command's -o OUT, written so that no user file is lost (nvpc_out.h).
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

int nvpc_out_check(const char *out, FILE *in)
{
	struct stat so, si;

	if (!out || nvpc_is_stdio(out) || stat(out, &so))
		return 0;	/* stdout, or a new file */
	if (S_ISDIR(so.st_mode)) {
		nvpc_err("-o %s: a directory, not a file", out);
		return -1;
	}
	if (in && !fstat(fileno(in), &si) && si.st_dev == so.st_dev &&
	    si.st_ino == so.st_ino) {
		nvpc_err("-o %s: that is the capture being read; give another name",
			 out);
		return -1;
	}
	if (S_ISREG(so.st_mode) && is_capture(out)) {
		nvpc_err("-o %s: an nvpc capture is there; give another name, or remove it first",
			 out);
		return -1;
	}
	return 0;
}

int nvpc_out_temp(const char *out, char **tmp, int like)
{
	mode_t mask = umask(0), mode = 0666 & ~mask;
	struct stat sb;
	int fd;

	umask(mask);
	if (like >= 0 && !fstat(like, &sb))
		mode = sb.st_mode & 07777;
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

int nvpc_ofile_open(struct nvpc_ofile *o, const char *out, FILE *in)
{
	struct stat sb;
	int fd, old;

	memset(o, 0, sizeof(*o));
	o->path = out ? out : "-";
	if (nvpc_out_check(out, in))
		return -1;
	if (nvpc_is_stdio(o->path)) {
		o->f = stdout;
		return 0;
	}
	if (!stat(out, &sb) && !S_ISREG(sb.st_mode)) {
		/* /dev/null, a named pipe, a terminal: in place */
		o->f = fopen(out, "we");
		if (!o->f) {
			nvpc_err("cannot open %s: %s", out, strerror(errno));
			return -1;
		}
		return 0;
	}
	old = open(out, O_RDONLY | O_CLOEXEC);
	fd = nvpc_out_temp(out, &o->tmp, old);
	if (old >= 0)
		close(old);
	if (fd < 0) {
		nvpc_err("cannot create %s: %s", out, strerror(-fd));
		return -1;
	}
	o->f = fdopen(fd, "w");
	if (!o->f) {
		nvpc_err("cannot create %s: %s", out, strerror(errno));
		close(fd);
		unlink(o->tmp);
		free(o->tmp);
		o->tmp = NULL;
		return -1;
	}
	return 0;
}

int nvpc_ofile_close(struct nvpc_ofile *o, bool ok)
{
	int ret = 0;

	if (!o->f)
		return 0;
	if (o->f == stdout) {
		if (fflush(stdout)) {
			nvpc_err("writing to stdout: %s", strerror(errno));
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
		if (ok && rename(o->tmp, o->path)) {
			nvpc_err("cannot write %s: %s", o->path, strerror(errno));
			ok = false;
			ret = -1;
		}
		if (!ok)
			unlink(o->tmp);
		free(o->tmp);
		o->tmp = NULL;
	}
	return ret;
}
