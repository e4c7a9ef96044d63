package cli

import (
	"context"
	"os"
	"os/exec"
	"strings"

	"github.com/spf13/cobra"

	"incidents/data/console"
)

func init() { register(newSQLWorkerCmd) }

// sqlWorkerCmd is the hidden subcommand serve and mcp start for each ad
// hoc SQL statement (console.RunWorker).
const sqlWorkerCmd = "sql-worker"

func newSQLWorkerCmd(app *App) *cobra.Command {
	return &cobra.Command{
		Use:    sqlWorkerCmd,
		Short:  "Run one SQL statement for serve or mcp (internal)",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return console.RunWorker(cmd.Context(), app.Stdin, app.Stdout)
		},
	}
}

// sqlWorker returns how serve and mcp start an SQL worker: this binary,
// with the environment minus what would make the worker write files (a CPU
// profile).
func sqlWorker() (func(ctx context.Context) *exec.Cmd, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "INCIDENTS_CPUPROFILE=") {
			env = append(env, kv)
		}
	}
	return func(ctx context.Context) *exec.Cmd {
		cmd := exec.CommandContext(ctx, exe, sqlWorkerCmd)
		cmd.Env = env
		return cmd
	}, nil
}
