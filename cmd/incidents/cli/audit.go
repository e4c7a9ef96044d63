package cli

import (
	"errors"
	"os/user"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"incidents/data/incident"
	"incidents/data/store"
)

func init() { register(newAuditCmd) }

func newAuditCmd(app *App) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "audit [ID...]",
		Short: "List the edits made by hand (edit, tag --remove, delete)",
		Long: `audit lists the audit table, oldest first: one row per field changed by
'incidents edit', per tag removed by 'incidents tag --remove' and per case
deleted by 'incidents delete', with who made the change, when, the verb,
the case, the field and its old and new value as JSON. With ids (or
aliases of stored cases), only those cases' rows; a deleted case is named
by its id. -o json prints every value in full (a deletion's old value is
the whole case document, which 'incidents ingest' reads again). The public
view audit holds the same rows for SQL.`,
		Example: `  incidents audit
  incidents audit IL-0395
  incidents audit IL-0395 -o json`,
	}
	validate := outputFlag(cmd, &format, RecordFormats...)
	cmd.ValidArgsFunction = app.completeIDs
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := validate(); err != nil {
			return err
		}
		s, err := openStore(cmd.Context(), app, true)
		if err != nil {
			return err
		}
		defer s.Close()
		ids := make([]string, 0, len(args))
		for _, a := range args {
			id, err := s.ResolveID(cmd.Context(), a)
			if errors.Is(err, incident.ErrNotFound) {
				id = a // deleted cases resolve no more
			} else if err != nil {
				return err
			}
			ids = append(ids, id)
		}
		rows, err := s.Audit(cmd.Context(), ids...)
		if err != nil {
			return err
		}
		return writeAudit(app, rows, format)
	}
	return cmd
}

func writeAudit(app *App, rows []store.AuditEntry, format string) error {
	if format == FormatJSON {
		return writeJSON(app.Stdout, rows)
	}
	t := &Table{Header: []string{"SEQ", "AT", "WHO", "VERB", "ID", "FIELD", "OLD", "NEW"}}
	if format == FormatCSV {
		t.Header = []string{"seq", "at", "who", "verb", "id", "field", "old", "new"}
	}
	for _, r := range rows {
		t.Rows = append(t.Rows, []string{strconv.Itoa(r.Seq), r.At.Format(time.RFC3339), r.Who, r.Verb, r.ID, r.Field, string(r.Old), string(r.New)})
	}
	return t.Write(app.Stdout, format)
}

// maxEditorLen bounds --by: a name or an address, not a document.
const maxEditorLen = 200

// editor is who the audit table records for a change: --by, else the OS
// user, else $USER, else "unknown". A --by that is not one line of
// printable text of at most maxEditorLen characters is refused: the audit
// table is read in a terminal and in tables, where a control character or a
// page of text would garble every row after it.
func editor(app *App, by string) (string, error) {
	if by = strings.TrimSpace(by); by != "" {
		if !utf8.ValidString(by) || strings.ContainsFunc(by, unicode.IsControl) || utf8.RuneCountInString(by) > maxEditorLen {
			return "", usagef("--by %q is not a name: give who makes the change on one line, at most %d characters (--by 'Ana Ruiz')",
				clip(by, 40), maxEditorLen)
		}
		return by, nil
	}
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username, nil
	}
	if u := app.Getenv("USER"); u != "" {
		return u, nil
	}
	return "unknown", nil
}
