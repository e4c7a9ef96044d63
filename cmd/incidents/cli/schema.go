package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"incidents/data/store"
)

func init() { register(newSchemaCmd) }

func newSchemaCmd(app *App) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "schema",
		Short: "Describe the public SQL views and their columns",
		Long: `schema documents the stable views the database offers for ad hoc SQL:
every column with its type and meaning (-o csv: one row per column of every
view). It needs no database. The views: ` + strings.Join(store.ViewNames(false), ", ") + `.`,
		Example: `  incidents schema
  incidents schema -o markdown > SCHEMA.md
  incidents schema -o json | jq '.[].name'
  incidents schema -o csv > columns.csv`,
		Args: cobra.NoArgs,
	}
	validate := outputFlag(cmd, &format, RecordFormats...)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := validate(); err != nil {
			return err
		}
		return writeSchema(app, format)
	}
	return cmd
}

func writeSchema(app *App, format string) error {
	views := store.Views()
	switch format {
	case FormatJSON:
		return writeJSON(app.Stdout, views)
	case FormatCSV:
		t := &Table{Header: []string{"view", "column", "type", "description"}}
		for _, v := range views {
			for _, c := range v.Columns {
				t.Rows = append(t.Rows, []string{v.Name, c.Name, c.Type, c.Description})
			}
		}
		return t.Write(app.Stdout, FormatCSV)
	case FormatMarkdown:
		for i, v := range views {
			if i > 0 {
				fmt.Fprintln(app.Stdout)
			}
			fmt.Fprintf(app.Stdout, "### `%s`\n\n%s\n\n", v.Name, v.Description)
			t := &Table{Header: []string{"Column", "Type", "Description"}}
			for _, c := range v.Columns {
				t.Rows = append(t.Rows, []string{"`" + c.Name + "`", c.Type, c.Description})
			}
			if err := t.Write(app.Stdout, FormatMarkdown); err != nil {
				return err
			}
		}
		return nil
	default:
		for i, v := range views {
			if i > 0 {
				fmt.Fprintln(app.Stdout)
			}
			fmt.Fprintf(app.Stdout, "%s: %s\n", strings.ToUpper(v.Name), v.Description)
			t := &Table{Header: []string{"  COLUMN", "TYPE", "DESCRIPTION"}}
			for _, c := range v.Columns {
				t.Rows = append(t.Rows, []string{"  " + c.Name, c.Type, c.Description})
			}
			if err := t.Write(app.Stdout, FormatTable); err != nil {
				return err
			}
		}
		return nil
	}
}
