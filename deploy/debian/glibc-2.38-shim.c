/*
 * The few glibc 2.38 functions that Debian sid's static Swift runtime calls, for a program that
 * must run on Debian 12 bookworm (glibc 2.36). Linked into the release binary by scripts/package.
 *
 * glibc 2.38 headers in C2x mode rename strtol and the scanf family to __isoc23_*, which also
 * accept a "0b" binary prefix; the runtime never parses one, so the C99 functions do the same
 * job. strlcpy and strlcat are the BSD functions, new in glibc 2.38. Hidden, so that nothing
 * outside the program sees them.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SHIM __attribute__((visibility("hidden")))

SHIM long __isoc23_strtol(const char *s, char **end, int base) { return strtol(s, end, base); }
SHIM long long __isoc23_strtoll(const char *s, char **end, int base) { return strtoll(s, end, base); }
SHIM unsigned long __isoc23_strtoul(const char *s, char **end, int base) { return strtoul(s, end, base); }
SHIM unsigned long long __isoc23_strtoull(const char *s, char **end, int base) { return strtoull(s, end, base); }

SHIM int __isoc23_vsscanf(const char *s, const char *format, va_list args) { return vsscanf(s, format, args); }

SHIM int __isoc23_sscanf(const char *s, const char *format, ...) {
    va_list args;
    va_start(args, format);
    int result = vsscanf(s, format, args);
    va_end(args);
    return result;
}

SHIM size_t strlcpy(char *destination, const char *source, size_t size) {
    size_t length = strlen(source);
    if (size > 0) {
        size_t copied = length < size - 1 ? length : size - 1;
        memcpy(destination, source, copied);
        destination[copied] = '\0';
    }
    return length;
}

SHIM size_t strlcat(char *destination, const char *source, size_t size) {
    size_t used = strnlen(destination, size);
    if (used == size) return size + strlen(source);
    return used + strlcpy(destination + used, source, size - used);
}
