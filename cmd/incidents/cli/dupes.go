package cli

import (
	"fmt"
	"strconv"

	"github.com/spf13/cobra"

	"incidents/data/ingest"
	"incidents/data/store"
)

func init() { register(newDupesCmd) }

func newDupesCmd(app *App) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "dupes",
		Short: "List stored cases that likely report one incident twice",
		Long: `dupes lists pairs of stored cases that likely report the same incident,
with the evidence: the same source URL (dates that do not contradict each
other), or the same organisation on the same day with texts that share at
least half of the shorter one's distinctive words. Each line names the later
case and the earlier one it repeats.

ingest merges such duplicates into the case they repeat unless
--keep-separate; what dupes lists are the cases stored before that, kept
separate on purpose, or written by hand as separate cases (two case JSON
files are never merged). Statistics and the report count a case once it
names the case it repeats: ingest --keep-separate sets that (duplicate_of),
and 'incidents edit ID duplicate_of=OTHER' sets it for a pair listed here.`,
		Example: `  incidents dupes
  incidents dupes -o json`,
		Args: cobra.NoArgs,
	}
	validate := outputFlag(cmd, &format, FormatTable, FormatJSON, FormatCSV)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := validate(); err != nil {
			return err
		}
		s, err := openStore(cmd.Context(), app, true)
		if err != nil {
			return err
		}
		defer s.Close()
		cases, err := s.List(cmd.Context(), store.Filter{})
		if err != nil {
			return err
		}
		dups := ingest.FindDuplicates(cases)
		if format == FormatJSON {
			if dups == nil {
				dups = []ingest.Duplicate{}
			}
			return writeJSON(app.Stdout, dups)
		}
		t := &Table{Header: []string{"ID", "DUPLICATE OF", "TEXT OVERLAP", "EVIDENCE"}}
		if format == FormatCSV {
			t.Header = []string{"id", "duplicate_of", "text_overlap", "evidence"}
		}
		for _, d := range dups {
			score := ""
			if d.Score > 0 {
				score = strconv.FormatFloat(d.Score, 'f', 2, 64)
			}
			ev := d.Evidence
			if d.Possible {
				ev = "possibly: " + ev
			}
			t.Rows = append(t.Rows, []string{d.ID, d.Of, score, ev})
		}
		if err := t.Write(app.Stdout, format); err != nil {
			return err
		}
		fmt.Fprintf(app.Stderr, "%s among %d cases\n", plural(len(dups), "likely duplicate", "likely duplicates"), len(cases))
		return nil
	}
	return cmd
}
