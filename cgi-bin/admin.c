/* admin.c: the dashboard's JSON API under /admin/api/ (ADMIN.md 1-6; docs/admin-api.md). */
#include "admin/api.h"
#include "endpoint/serve.h"

/* CGI or FastCGI like the endpoints, in the same sandbox (serve.c): the
 * dashboard, too, never runs a program or opens a network socket. */
int
main(void)
{
	return serve_requests("admin", api_request, NULL);
}
