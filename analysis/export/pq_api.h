/* libpq, loaded when a PostgreSQL export first needs it rather than when
 * hwtrace starts: libpq brings about 25 libraries (TLS, Kerberos, LDAP)
 * whose loading and symbol binding every command paid for before. */
#ifndef HWT_PQ_API_H
#define HWT_PQ_API_H

#include <libpq-fe.h>

/* The libpq functions the export calls, by their own names. */
struct pq_api {
	PGconn *(*PQconnectdb)(const char *conninfo);
	ConnStatusType (*PQstatus)(const PGconn *conn);
	char *(*PQerrorMessage)(const PGconn *conn);
	char *(*PQdb)(const PGconn *conn);
	void (*PQfinish)(PGconn *conn);
	PQnoticeProcessor (*PQsetNoticeProcessor)(PGconn *conn,
						  PQnoticeProcessor proc,
						  void *arg);
	PGresult *(*PQexec)(PGconn *conn, const char *query);
	ExecStatusType (*PQresultStatus)(const PGresult *res);
	int (*PQntuples)(const PGresult *res);
	char *(*PQgetvalue)(const PGresult *res, int row, int column);
	void (*PQclear)(PGresult *res);
	int (*PQputCopyData)(PGconn *conn, const char *buffer, int nbytes);
	int (*PQputCopyEnd)(PGconn *conn, const char *errormsg);
	PGresult *(*PQgetResult)(PGconn *conn);
};

/* Points *@out at libpq's functions, loading it on the first call.
 * Errors: HWT_ERR_NOSUP when it cannot be loaded (the message says which
 * package to install). */
int hwt_pq_api(const struct pq_api **out);

#endif
