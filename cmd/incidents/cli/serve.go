package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/spf13/cobra"

	"incidents/cmd/incidents/internal/engine"
	"incidents/cmd/incidents/internal/mcptools"
	"incidents/cmd/incidents/internal/web"
)

func init() { register(newServeCmd) }

// serverVersion is reported to MCP clients.
const serverVersion = "1"

func newServeCmd(app *App) *cobra.Command {
	var (
		addr       string
		poll       time.Duration
		noMCP      bool
		allowHosts []string
	)
	cmd := &cobra.Command{
		Use:   "serve [--addr 127.0.0.1:8080]",
		Short: "Serve the library as web pages, a JSON API and MCP over HTTP",
		Long: `serve answers from one in-memory snapshot of the database: the search page
with facet filters, case pages with their related cases both ways, the
vocabulary, the quarterly report, a read-only SQL page, the JSON API under
/api/ (cases, cases/{id}, cases/{id}/similar, search, vocab, stats, sql) and
the MCP tools at /mcp (streamable HTTP).

It listens on the loopback interface unless --addr says otherwise, and
answers only requests whose Host names the address it listens on (on
loopback also localhost), or a name given with --allow-host; requests that
change state or run SQL must come from its own pages (browsers say where a
request comes from), so another web site can neither read the pages through
DNS rebinding nor post to them.

The database file is opened read-only only while a snapshot is loaded: the
snapshot keeps a copy of the public views, which statistics, the report and
SQL answer from, so 'incidents ingest' and 'incidents related --recompute'
work while serve runs; a writer that finds serve loading waits for it. serve
checks the file every --poll interval and swaps in a complete new snapshot
when it changed; a page is always answered from one snapshot, never a mix of
two. Each SQL statement runs in a process of its own, at most 2 at once
(more get 429 Too Many Requests with Retry-After), killed at its time limit.`,
		Example: `  incidents serve
  incidents serve --addr 127.0.0.1:9000 --poll 5s
  incidents serve --addr 0.0.0.0:8080 --allow-host incidents.example.internal
  curl -s 'http://127.0.0.1:8080/api/search?q=expired+certificate'`,
		Args: cobra.NoArgs,
	}
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:8080", "listen address (host:port; port 0 picks a free one)")
	cmd.Flags().DurationVar(&poll, "poll", engine.DefaultPollInterval, "how often to check the database file for changes (0: never)")
	cmd.Flags().BoolVar(&noMCP, "no-mcp", false, "do not serve the MCP tools at /mcp")
	cmd.Flags().StringArrayVar(&allowHosts, "allow-host", nil, "also answer requests for this host name or host:port, e.g. behind a proxy (repeatable)")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		ctx := cmd.Context()
		if ctx == nil {
			ctx = context.Background()
		}
		if poll == 0 {
			poll = -1
		}
		logf := func(format string, a ...any) { fmt.Fprintf(app.Stderr, "serve: "+format+"\n", a...) }
		e, err := openEngine(ctx, app, poll, logf)
		if err != nil {
			return err
		}
		defer e.Close()
		go e.Watch(ctx)
		opt := web.Options{Engine: e, Logf: logf, AllowHosts: allowHosts}
		if !noMCP {
			opt.MCP = mcptools.HTTPHandler(mcptools.NewServer(e, serverVersion))
		}
		h, err := web.New(opt)
		if err != nil {
			return err
		}
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			return usagef("cannot listen on --addr %s: %v", addr, err)
		}
		if !web.IsLoopback(ln.Addr().String()) {
			fmt.Fprintf(app.Stderr, "serve: warning: %s accepts connections from other machines; the pages have no authentication\n", ln.Addr())
		}
		srv := web.NewHTTPServer(addr, h)
		snap := e.Snapshot()
		mcpNote := " (MCP at /mcp)"
		if noMCP {
			mcpNote = ""
		}
		fmt.Fprintf(app.Stderr, "serving %d cases from %s on http://%s/%s; Ctrl-C stops\n", len(snap.Cases), app.DBPath, ln.Addr(), mcpNote)
		done := make(chan error, 1)
		go func() { done <- srv.Serve(ln) }()
		select {
		case err := <-done:
			if errors.Is(err, http.ErrServerClosed) {
				return nil
			}
			return err
		case <-ctx.Done():
		}
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.Shutdown(sctx); err != nil {
			return fmt.Errorf("stopping the server: %w", err)
		}
		fmt.Fprintln(app.Stderr, "serve: stopped")
		return nil
	}
	return cmd
}

// openEngine loads the engine over --db, marking a busy file as a database
// refusal (exit code 4).
func openEngine(ctx context.Context, app *App, poll time.Duration, logf func(string, ...any)) (*engine.Engine, error) {
	worker, err := sqlWorker()
	if err != nil {
		return nil, fmt.Errorf("finding this program for the SQL workers: %w", err)
	}
	e, err := engine.Open(ctx, engine.Options{Path: app.DBPath, PollInterval: poll, Logf: logf, SQLWorker: worker})
	if err != nil {
		if errors.Is(err, engine.ErrBusy) {
			return nil, dbError{err}
		}
		return nil, err
	}
	return e, nil
}
