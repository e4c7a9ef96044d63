// Command incidents is the incident similarity and analytics engine: it
// ingests postmortems, recomputes related-case links, computes TTD/TTR
// statistics, writes quarterly reports and runs ad hoc SQL.
//
// Usage: incidents [--db PATH] COMMAND [flags]; see 'incidents help' and the
// README. The subcommands live in package cli, one file each.
package main
