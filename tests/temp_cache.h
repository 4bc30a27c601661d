/* temp_cache.h — runs a Check suite with the PTX cache in a temporary folder, so that
 * tests never touch the user's ~/.cache (XDG_CACHE_HOME points there meanwhile; the folder
 * is removed at the end). Shared by the Check programs that compile kernels. */
#ifndef GL_TESTS_TEMP_CACHE_H
#define GL_TESTS_TEMP_CACHE_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

/* The temporary cache folder (set by temp_cache_run_suite before the tests run). */
static char temp_cache_root[512];

/* Runs s (and frees it); EXIT_SUCCESS when every test passed. */
static inline int temp_cache_run_suite(Suite *s)
{
    const char *t = getenv("TMPDIR");
    snprintf(temp_cache_root, sizeof temp_cache_root, "%s/gpulearn-test-cache-XXXXXX",
             t && *t ? t : "/tmp");
    if (!mkdtemp(temp_cache_root)) {
        perror("mkdtemp");
        return EXIT_FAILURE;
    }
    setenv("XDG_CACHE_HOME", temp_cache_root, 1);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", temp_cache_root);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", temp_cache_root);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
