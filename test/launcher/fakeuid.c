/*
 * An intruder's tool for the other-user tests (otheruser.sh), loaded with
 * LD_PRELOAD: the process claims to be another user (FAKE_UID, root by
 * default) to whatever asks its user and group ids through libc, as
 * OpenPMIx's client does when it builds its credential. The kernel is not
 * fooled: the sockets it creates stay its real user's.
 */
#include <stdlib.h>
#include <sys/types.h>
#include <unistd.h>

static unsigned int fake_id(void)
{
    const char *s = getenv("FAKE_UID");
    return s ? (unsigned int)strtoul(s, NULL, 10) : 0;
}

uid_t getuid(void)
{
    return fake_id();
}

uid_t geteuid(void)
{
    return fake_id();
}

gid_t getgid(void)
{
    return fake_id();
}

gid_t getegid(void)
{
    return fake_id();
}
