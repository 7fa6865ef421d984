#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro around a cast that Swift cannot import; this gives it a name.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }
