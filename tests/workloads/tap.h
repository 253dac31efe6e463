/* The TAP output of the C unit tests lives in tests/lib/tap.h. */
#include "../lib/tap.h"
