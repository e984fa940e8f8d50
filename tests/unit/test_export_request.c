/* hwt_export_request_format, hwt_export_request_check,
 * hwt_export_columns_parse and
 * hwt_export_format_mangled_names: which formats take which options,
 * each refusal with its message, each rule with a request it lets
 * through. */
#include <string.h>

#include "harness.h"
#include "hwtrace/error.h"
#include "hwtrace/export_request.h"

static void refused(const struct hwt_export_request *rq, const char *msg)
{
	CHECK_INT(hwt_export_request_check(rq), HWT_ERR_INVAL);
	CHECK_STR(hwt_errmsg(), msg);
}

static void accepted(const struct hwt_export_request *rq)
{
	CHECK_INT(hwt_export_request_check(rq), 0);
}

static void formats_and_outputs(void)
{
	refused(&(struct hwt_export_request){.output = "x.db",
					     .ncaptures = 1},
		"--to FORMAT is required (sqlite, pprof, postgresql, autofdo, "
		"bolt or bolt-preagg)");
	/* Each file format writes to -o, or to a partial result. */
	static const enum hwt_export_format files[] = {
		HWT_EXPORT_SQLITE, HWT_EXPORT_PPROF, HWT_EXPORT_AUTOFDO,
		HWT_EXPORT_BOLT, HWT_EXPORT_BOLT_PREAGG,
	};
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		accepted(&(struct hwt_export_request){.has_format = true,
			.format = files[i], .output = "out", .ncaptures = 3});
		accepted(&(struct hwt_export_request){.has_format = true,
			.format = files[i], .partial = true, .ncaptures = 1});
		refused(&(struct hwt_export_request){.has_format = true,
			.format = files[i], .ncaptures = 1},
			"-o OUT is required");
		refused(&(struct hwt_export_request){.has_format = true,
			.format = files[i], .output = "out", .conninfo = "db",
			.ncaptures = 1},
			"--db is for --to postgresql");
	}
}

static void formats_by_name(void)
{
	struct hwt_export_request rq = {.ncaptures = 1};
	CHECK_INT(hwt_export_request_format(&rq, "bolt-preagg"), 0);
	CHECK(rq.has_format);
	CHECK_INT(rq.format, HWT_EXPORT_BOLT_PREAGG);
	CHECK_INT(hwt_export_request_format(&rq, "postgresql"), 0);
	CHECK_INT(rq.format, HWT_EXPORT_POSTGRESQL);
	CHECK_INT(hwt_export_request_format(&rq, "parquet"), HWT_ERR_INVAL);
	CHECK_STR(hwt_errmsg(), "--to parquet: use sqlite, pprof, postgresql, "
		  "autofdo, bolt or bolt-preagg");
	CHECK_INT(rq.format, HWT_EXPORT_POSTGRESQL);
	struct hwt_export_request none = {.ncaptures = 1};
	CHECK_INT(hwt_export_request_format(&none, "SQLite"), HWT_ERR_INVAL);
	CHECK(!none.has_format);
}

static void postgresql_takes_a_connection(void)
{
	const enum hwt_export_format pg = HWT_EXPORT_POSTGRESQL;
	accepted(&(struct hwt_export_request){.has_format = true, .format = pg,
					      .conninfo = "dbname=t",
					      .ncaptures = 1});
	const char *not_o = "--to postgresql takes --db CONNINFO (a libpq "
			    "connection string), not -o";
	refused(&(struct hwt_export_request){.has_format = true, .format = pg,
					     .ncaptures = 1}, not_o);
	refused(&(struct hwt_export_request){.has_format = true, .format = pg,
					     .conninfo = "dbname=t",
					     .output = "x", .ncaptures = 1},
		not_o);
	refused(&(struct hwt_export_request){.has_format = true, .format = pg,
					     .conninfo = "dbname=t",
					     .partial = true, .ncaptures = 2},
		"--partial: only sqlite, autofdo, bolt, bolt-preagg and pprof "
		"have partial results");
	refused(&(struct hwt_export_request){.has_format = true, .format = pg,
					     .conninfo = "dbname=t",
					     .ncaptures = 2},
		"several captures: only sqlite, autofdo, bolt, bolt-preagg and "
		"pprof add up");
}

static void columns_and_symbols(void)
{
	accepted(&(struct hwt_export_request){.has_format = true,
		.format = HWT_EXPORT_SQLITE, .output = "x.db",
		.has_columns = true, .ncaptures = 1});
	refused(&(struct hwt_export_request){.has_format = true,
		.format = HWT_EXPORT_PPROF, .output = "x.pb.gz",
		.has_columns = true, .ncaptures = 1},
		"--columns is for --to sqlite");
	/* sqlite and pprof name what has no symbols by its address. */
	accepted(&(struct hwt_export_request){.has_format = true,
		.format = HWT_EXPORT_PPROF, .output = "x.pb.gz",
		.no_symbols = true, .ncaptures = 1});
	refused(&(struct hwt_export_request){.has_format = true,
		.format = HWT_EXPORT_BOLT_PREAGG, .partial = true,
		.no_symbols = true, .ncaptures = 1},
		"--to autofdo and bolt need the binaries for their addresses: "
		"drop --no-symbols");

	bool all = false;
	CHECK_INT(hwt_export_columns_parse("all", &all), 0);
	CHECK(all);
	CHECK_INT(hwt_export_columns_parse("branches", &all), 0);
	CHECK(!all);
	all = true;
	CHECK_INT(hwt_export_columns_parse("All", &all), HWT_ERR_INVAL);
	CHECK_STR(hwt_errmsg(), "--columns All: use all or branches");
	CHECK(all);

	CHECK(hwt_export_format_mangled_names(HWT_EXPORT_BOLT));
	CHECK(!hwt_export_format_mangled_names(HWT_EXPORT_BOLT_PREAGG));
	CHECK(!hwt_export_format_mangled_names(HWT_EXPORT_AUTOFDO));
	CHECK(!hwt_export_format_mangled_names(HWT_EXPORT_SQLITE));
}

int main(void)
{
	RUN(formats_and_outputs);
	RUN(formats_by_name);
	RUN(postgresql_takes_a_connection);
	RUN(columns_and_symbols);
	return hwt_test_summary();
}
