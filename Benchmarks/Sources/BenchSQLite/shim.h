#include <sqlite3.h>
// malloc_trim, so the memory figures start from a heap that gave freed pages back.
#include <malloc.h>
