/* password_list.h: the common passwords tools/gen-passwords.sh generates from python3-zxcvbn. */
#ifndef CONSENT_PASSWORD_LIST_H
#define CONSENT_PASSWORD_LIST_H

#include <stddef.h>

/* zxcvbn's list of the passwords most seen in leaks, its entries of 12 to
 * 128 code points only, lower case, unique, sorted in strcmp() order. */
extern const char *const password_common[];
extern const size_t password_common_len;

#endif
