package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"incidents/cmd/incidents/internal/engine"
	"incidents/cmd/incidents/internal/mcptools"
)

func init() { register(newMCPCmd) }

func newMCPCmd(app *App) *cobra.Command {
	var quiet bool
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve the MCP tools over stdio",
		Long: `mcp runs a Model Context Protocol server on stdin and stdout (newline-
delimited JSON-RPC) for clients that start it as a subprocess. Its tools:
search_incidents, get_incident, list_incidents, similar_incidents,
get_topic, vocab, stats and query_sql (read-only), each answering a JSON
object that validates against the tool's declared output schema. It exits
when stdin ends, after answering every request it has read.

Like serve, it answers from an in-memory snapshot of the database (with a
copy of the public views for statistics and SQL), holds the file open only
while loading, and reloads when the file changes; each query_sql statement
runs in a process of its own. Diagnostics go to stderr.`,
		Example: `  incidents --db incidents.duckdb mcp
  # client configuration: {"command": "incidents", "args": ["--db", "/path/incidents.duckdb", "mcp"]}`,
		Args: cobra.NoArgs,
	}
	cmd.Flags().BoolVar(&quiet, "quiet", false, "do not log reloads to stderr")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		ctx := cmd.Context()
		if ctx == nil {
			ctx = context.Background()
		}
		logf := func(format string, a ...any) {
			if !quiet {
				fmt.Fprintf(app.Stderr, "mcp: "+format+"\n", a...)
			}
		}
		e, err := openEngine(ctx, app, engine.DefaultPollInterval, logf)
		if err != nil {
			return err
		}
		defer e.Close()
		go e.Watch(ctx)
		err = mcptools.NewServer(e, serverVersion).Run(ctx, mcptools.StdioTransport(app.Stdin, app.Stdout))
		if err != nil && ctx.Err() != nil {
			// SIGINT or SIGTERM is how a client stops the server, as for serve.
			fmt.Fprintln(app.Stderr, "mcp: stopped")
			return nil
		}
		return err
	}
	return cmd
}
