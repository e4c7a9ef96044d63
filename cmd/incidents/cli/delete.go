package cli

import (
	"fmt"

	"github.com/spf13/cobra"
)

func init() { register(newDeleteCmd) }

func newDeleteCmd(app *App) *cobra.Command {
	var by, format string
	cmd := &cobra.Command{
		Use:   "delete ID...",
		Short: "Delete stored cases (recorded, with their documents, in the audit table)",
		Long: `delete removes the cases named (ids or aliases, in any case) in one write:
all of them or, on any error, none. Each deletion is recorded in the audit
table ('incidents audit ID -o json') with who (the OS user, or --by), when
and the whole case document, which 'incidents ingest' imports again as it
was. The stored links become stale until the next 'related --recompute',
which leaves the deleted cases out; --pin/--not decisions naming them stay.`,
		Example: `  incidents delete gcp-2022-06-14-651394
  incidents delete IL-0150 --by alice`,
		Args: cobra.MinimumNArgs(1),
	}
	cmd.Flags().StringVar(&by, "by", "", "who makes the change, for the audit table (default: the OS user)")
	validate := outputFlag(cmd, &format, RecordFormats...)
	cmd.ValidArgsFunction = app.completeIDs
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := validate(); err != nil {
			return err
		}
		who, err := editor(app, by)
		if err != nil {
			return err
		}
		s, err := openStore(cmd.Context(), app, false)
		if err != nil {
			return err
		}
		defer s.Close()
		ids, err := s.DeleteCases(cmd.Context(), args, who)
		if err != nil {
			return nothingChanged(err)
		}
		if format == FormatJSON {
			return writeJSON(app.Stdout, map[string][]string{"deleted": ids})
		}
		t := &Table{Header: []string{"DELETED"}}
		if format == FormatCSV {
			t.Header = []string{"deleted"}
		}
		for _, id := range ids {
			t.Rows = append(t.Rows, []string{id})
		}
		if err := t.Write(app.Stdout, format); err != nil {
			return err
		}
		fmt.Fprintf(app.Stderr, "deleted %s; each document is kept in the audit table ('incidents audit ID -o json')\n", plural(len(ids), "case", "cases"))
		return nil
	}
	onStop(cmd, "the cases are as they were (the deletion is written whole or not at all)")
	return cmd
}
