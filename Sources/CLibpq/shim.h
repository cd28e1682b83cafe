#include <libpq-fe.h>
#include <postgres_ext.h>

/// PG_DIAG_* are character-literal macros, which Swift imports poorly.
static inline int clibpq_diag_sqlstate(void) { return PG_DIAG_SQLSTATE; }
static inline int clibpq_diag_message_primary(void) { return PG_DIAG_MESSAGE_PRIMARY; }

static void clibpq_ignore_notice(void *arg, const char *message) { (void)arg; (void)message; }

/// Notices ("relation already exists, skipping"…) would go to stderr: drop them.
static inline void clibpq_silence_notices(PGconn *conn) {
    PQsetNoticeProcessor(conn, clibpq_ignore_notice, (void *)0);
}
