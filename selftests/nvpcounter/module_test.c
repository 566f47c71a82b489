// SPDX-License-Identifier: GPL-2.0
/*
 * Module load/unload and the sanity of what the modules expose: /sys/module
 * entries, parameters, and the debugfs directories.
 */
#include <dirent.h>

#include "kselftest_harness.h"
#include "nvpc_ksft.h"

FIXTURE(modules) {
	int unused;
};

FIXTURE_SETUP(modules)
{
	nvpc_mod_unload_all();
	ASSERT_FALSE(nvpc_mod_loaded("nvpcounter_sim"));
	ASSERT_FALSE(nvpc_mod_loaded("nvpcounter"));
}

FIXTURE_TEARDOWN(modules)
{
	nvpc_mod_unload_all();
}

TEST_F(modules, load_unload_core)
{
	ASSERT_EQ(0, nvpc_mod_load("nvpcounter", NULL));
	EXPECT_TRUE(nvpc_mod_loaded("nvpcounter"));
	EXPECT_TRUE(nvpc_is_dir("/sys/kernel/debug/nvpcounter"));
	ASSERT_EQ(0, nvpc_mod_unload("nvpcounter"));
	EXPECT_FALSE(nvpc_mod_loaded("nvpcounter"));
	EXPECT_FALSE(nvpc_is_dir("/sys/kernel/debug/nvpcounter"));
}

TEST_F(modules, load_unload_sim)
{
	ASSERT_EQ(0, nvpc_mod_load("nvpcounter", NULL));
	ASSERT_EQ(0, nvpc_mod_load("nvpcounter_sim", NULL));
	EXPECT_TRUE(nvpc_mod_loaded("nvpcounter_sim"));
	EXPECT_TRUE(nvpc_is_dir("/sys/kernel/debug/nvpcounter_sim"));
	ASSERT_EQ(0, nvpc_mod_unload("nvpcounter_sim"));
	EXPECT_FALSE(nvpc_is_dir("/sys/kernel/debug/nvpcounter_sim"));
	ASSERT_EQ(0, nvpc_mod_unload("nvpcounter"));
}

TEST_F(modules, double_load_is_eexist)
{
	ASSERT_EQ(0, nvpc_mod_load("nvpcounter", NULL));
	EXPECT_EQ(-EEXIST, nvpc_mod_load("nvpcounter", NULL));
	EXPECT_EQ(0, nvpc_mod_unload("nvpcounter"));
}

TEST_F(modules, unload_absent_is_enoent)
{
	EXPECT_EQ(-ENOENT, nvpc_mod_unload("nvpcounter"));
}

TEST_F(modules, load_unload_cycles)
{
	int i;

	for (i = 0; i < 20; i++) {
		ASSERT_EQ(0, nvpc_mod_load("nvpcounter", NULL));
		ASSERT_EQ(0, nvpc_mod_load("nvpcounter_sim", NULL));
		ASSERT_EQ(0, nvpc_mod_unload("nvpcounter_sim"));
		ASSERT_EQ(0, nvpc_mod_unload("nvpcounter"));
	}
}

/* Every parameter a module has is readable and none is world-writable. */
static void check_params(struct __test_metadata *_metadata, const char *mod)
{
	char dir[256], path[512], buf[4096];
	struct dirent *de;
	struct stat st;
	DIR *d;

	snprintf(dir, sizeof(dir), "/sys/module/%s/parameters", mod);
	d = opendir(dir);
	if (!d) {
		/* a module without parameters has no such directory */
		ASSERT_EQ(ENOENT, errno);
		return;
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		ASSERT_EQ(0, stat(path, &st));
		EXPECT_EQ(0U, st.st_mode & 0002) TH_LOG("%s", path);
		if (st.st_mode & 0400)
			EXPECT_LE(0, nvpc_read_file(path, buf, sizeof(buf)))
				TH_LOG("%s", path);
	}
	closedir(d);
}

TEST_F(modules, parameters_sane)
{
	ASSERT_EQ(0, nvpc_mod_load("nvpcounter", NULL));
	ASSERT_EQ(0, nvpc_mod_load("nvpcounter_sim", NULL));
	check_params(_metadata, "nvpcounter");
	check_params(_metadata, "nvpcounter_sim");
}

/* debugfs entries are not accessible to unprivileged users. */
TEST_F(modules, debugfs_not_world_writable)
{
	static const char * const dirs[] = {
		"/sys/kernel/debug/nvpcounter",
		"/sys/kernel/debug/nvpcounter_sim",
	};
	struct stat st;
	unsigned int i;

	ASSERT_EQ(0, nvpc_mod_load("nvpcounter", NULL));
	ASSERT_EQ(0, nvpc_mod_load("nvpcounter_sim", NULL));
	for (i = 0; i < ARRAY_SIZE(dirs); i++) {
		ASSERT_EQ(0, stat(dirs[i], &st)) TH_LOG("%s", dirs[i]);
		EXPECT_TRUE(S_ISDIR(st.st_mode));
		EXPECT_EQ(0U, st.st_mode & 0002);
	}
}

TEST_HARNESS_MAIN
