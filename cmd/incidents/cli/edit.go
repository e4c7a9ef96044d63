package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"incidents/data/incident"
	"incidents/data/store"
)

func init() { register(newEditCmd) }

// maxPatchBytes bounds the JSON merge patch edit --json reads.
const maxPatchBytes = 8 << 20

func newEditCmd(app *App) *cobra.Command {
	var (
		jsonFile, by, format string
	)
	cmd := &cobra.Command{
		Use:   "edit ID field=value...",
		Short: "Change fields of a stored case by hand (recorded in the audit table)",
		Long: `edit changes fields of one stored case, named by its id or an alias in any
case, and records each change in the audit table ('incidents audit'): who
(the OS user, or --by), when, the field, its old and new value.

field=value sets one field; an empty value (field=) clears it. Times are
RFC 3339 with a zone (detected=2023-07-20T12:30:00Z); ttd and ttr take a
duration (42m, 1h30m); aliases, categories and keywords take "a, b";
remediation, action_items and lessons take one item or a JSON array;
sources and references take JSON. --json FILE (or - for stdin) applies a
JSON merge patch (RFC 7386) of the case fields instead: {"severity":
"SEV-1", "region": null}.

Every value is checked as an import checks it: an unknown field, a time
that does not parse or a detection before the start is refused with the
field and what to write, and nothing is changed (exit 3). A derived time to
detect or resolve follows edited times. The fields edited here win over
later imports of the case: 'incidents ingest' keeps them and says so
(--replace takes the file's). The stored links become stale until the next
'related --recompute'.`,
		Example: `  incidents edit IL-0395 severity=SEV-1 region=us-east-1
  incidents edit IL-0395 detected=2017-02-28T17:40:00Z ttr=4h
  incidents edit IL-0395 region=
  incidents show IL-0395 -o json | jq '{severity}' | incidents edit IL-0395 --json -`,
		Args: cobra.MinimumNArgs(1),
	}
	cmd.Flags().StringVar(&jsonFile, "json", "", "apply a JSON merge patch of the case fields from FILE (- for stdin)")
	cmd.Flags().StringVar(&by, "by", "", "who makes the change, for the audit table (default: the OS user)")
	validate := outputFlag(cmd, &format, RecordFormats...)
	cmd.ValidArgsFunction = func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) == 0 {
			return app.completeIDs(cmd, args, toComplete)
		}
		var out []cobra.Completion
		for _, f := range incident.EditableFields() {
			if strings.HasPrefix(f, toComplete) {
				out = append(out, f+"=")
			}
		}
		return out, cobra.ShellCompDirectiveNoSpace | cobra.ShellCompDirectiveNoFileComp
	}
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := validate(); err != nil {
			return err
		}
		patch, err := editPatch(app, jsonFile, args[1:])
		if err != nil {
			return nothingChanged(err)
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
		res, err := s.EditCase(cmd.Context(), args[0], patch, who)
		if err != nil {
			return nothingChanged(err)
		}
		return writeEdit(app, res, format)
	}
	onStop(cmd, "the case is as it was (the change is written whole or not at all)")
	return cmd
}

// editPatch is the merge patch of edit's arguments or of its --json file.
func editPatch(app *App, jsonFile string, args []string) (map[string]json.RawMessage, error) {
	switch {
	case jsonFile != "" && len(args) > 0:
		return nil, usagef("give field=value arguments or --json FILE, not both")
	case jsonFile == "" && len(args) == 0:
		return nil, usagef("edit needs field=value arguments or --json FILE, e.g. 'incidents edit IL-0395 severity=SEV-1'")
	case jsonFile == "":
		return incident.ParseAssignments(args)
	}
	var r io.Reader = app.Stdin
	name := "stdin"
	if jsonFile != "-" {
		f, err := os.Open(jsonFile)
		if err != nil {
			return nil, &incident.Error{Kind: incident.ErrNotFound, File: jsonFile, Msg: "cannot read the patch file", Hint: "check the path", Err: err}
		}
		defer f.Close()
		r, name = f, jsonFile
	}
	b, err := io.ReadAll(io.LimitReader(r, maxPatchBytes+1))
	if err != nil {
		return nil, &incident.Error{Kind: incident.ErrSyntax, File: name, Msg: "cannot read the patch", Err: err}
	}
	if len(b) > maxPatchBytes {
		return nil, &incident.Error{Kind: incident.ErrTooLarge, File: name, Msg: fmt.Sprintf("the patch is over %d MiB", maxPatchBytes>>20), Hint: "a patch holds only the fields to change"}
	}
	var patch map[string]json.RawMessage
	if err := json.Unmarshal(b, &patch); err != nil || patch == nil {
		line := 0
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line = 1 + bytes.Count(b[:min(int(se.Offset), len(b))], []byte("\n"))
		}
		return nil, (&incident.Error{Kind: incident.ErrSyntax, Msg: "the patch is not a JSON object of case fields",
			Hint: `write e.g. {"severity": "SEV-1", "region": null} (null clears a field)`}).At(name, line)
	}
	if len(patch) == 0 {
		return nil, (&incident.Error{Kind: incident.ErrEmpty, Msg: "the patch changes no field", Hint: `write e.g. {"severity": "SEV-1"}`}).At(name, 0)
	}
	return patch, nil
}

// nothingChanged adds to a refusal of an edit by hand that the database
// is as it was: every such write is whole or nothing.
func nothingChanged(err error) error {
	var ie *incident.Error
	if errors.As(err, &ie) {
		c := *ie
		c.Hint = strings.TrimPrefix(c.Hint+"; nothing was changed", "; ")
		return &c
	}
	return err
}

func writeEdit(app *App, res *store.EditResult, format string) error {
	if res.Changes == nil {
		res.Changes = []incident.Change{}
	}
	if format == FormatJSON {
		return writeJSON(app.Stdout, res)
	}
	if len(res.Changes) == 0 {
		fmt.Fprintf(app.Stderr, "%s: nothing changed (the fields already hold these values)\n", res.ID)
	}
	t := changeTable(format)
	for _, c := range res.Changes {
		t.Rows = append(t.Rows, []string{res.ID, c.Field, string(c.Old), string(c.New)})
	}
	return t.Write(app.Stdout, format)
}

func changeTable(format string) *Table {
	if format == FormatCSV {
		return &Table{Header: []string{"id", "field", "old", "new"}}
	}
	return &Table{Header: []string{"ID", "FIELD", "OLD", "NEW"}}
}
