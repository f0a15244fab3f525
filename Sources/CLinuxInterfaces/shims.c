#define _GNU_SOURCE /* pipe2 */
#include "CLinuxInterfaces.h"

#include <fcntl.h>
#include <unistd.h>

int CLinuxInterfaces_pipe2(int fds[2], int flags) { return pipe2(fds, flags); }
